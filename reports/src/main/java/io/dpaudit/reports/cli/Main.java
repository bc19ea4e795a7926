package io.dpaudit.reports.cli;

import io.dpaudit.core.InvalidInputException;
import io.dpaudit.core.ToolInfo;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.util.Locale;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * The {@code dp-audit} command line, parsed by picocli: one class per subcommand, each with its own
 * {@code --help}.
 *
 * <p>Exit codes: 0 no claim violated; 3 at least one claim violated; 2 bad input or usage (a one-line message on
 * standard error, no stack trace, no report written); 1 internal error (with a stack trace), or a heap too small for
 * the computation (one line saying so and how to give more).
 */
public final class Main {
    /** No claim violated. */
    public static final int OK = 0;
    /** Internal error. */
    public static final int INTERNAL_ERROR = 1;
    /** Bad input or usage. */
    public static final int BAD_INPUT = 2;
    /** At least one claim violated. */
    public static final int VIOLATED = 3;

    private Main() {
    }

    /** Entry point. */
    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /** Runs a command; returns the exit code. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        try {
            return commandLine(out, err, java.util.List.of(args)).execute(args);
        } catch (OutOfMemoryError t) {
            // Not a bug of the input nor of the tool: the heap is too small for the computation asked (a PLD over
            // 10^6 rounds needs 2-3 GB). One line saying how to give more; nothing was written.
            err.println(outOfMemory(Runtime.getRuntime().maxMemory()));
            return INTERNAL_ERROR;
        } catch (Throwable t) {
            // Errors (stack overflow, ...) are not handed to picocli's exception handlers.
            err.println("dp-audit: internal error: " + t);
            t.printStackTrace(err);
            return INTERNAL_ERROR;
        }
    }

    /** The one-line message for a computation that ran out of a heap of {@code maxHeapBytes}. */
    static String outOfMemory(long maxHeapBytes) {
        return "dp-audit: out of memory: this computation needs more than the Java heap's "
                + (maxHeapBytes >> 20) + " MB; give the JVM more, e.g. DP_AUDIT_JAVA_OPTS=-Xmx8g (no report written)";
    }

    /** The command tree, writing to {@code out} and {@code err}. */
    static CommandLine commandLine(PrintStream out, PrintStream err, java.util.List<String> arguments) {
        Streams io = new Streams(out, err, arguments);
        CommandLine cl = new CommandLine(new TopLevel(io));
        cl.addSubcommand("run", new RunCommand(io));
        cl.addSubcommand("scores", new ScoresCommand(io));
        cl.addSubcommand("compare", new CompareCommand(io));
        cl.addSubcommand("bound", new BoundCommand.Bound(io));
        cl.addSubcommand("calibrate", new BoundCommand.Calibrate(io));
        cl.addSubcommand("list", new ListCommand(io));
        cl.addSubcommand("demo", new DemoCommand(io));
        cl.addSubcommand("version", new VersionCommand(io));
        cl.addSubcommand("help", new CommandLine.HelpCommand());
        cl.setOut(new PrintWriter(new java.io.OutputStreamWriter(out, java.nio.charset.StandardCharsets.UTF_8), true));
        cl.setErr(new PrintWriter(new java.io.OutputStreamWriter(err, java.nio.charset.StandardCharsets.UTF_8), true));
        cl.setColorScheme(CommandLine.Help.defaultColorScheme(CommandLine.Help.Ansi.OFF));
        cl.setExpandAtFiles(false); // "@file" is a file name, not an argument file
        cl.setUsageHelpWidth(100);
        cl.setParameterExceptionHandler(Main::badUsage);
        cl.setExecutionExceptionHandler((e, line, parsed) -> failure(e, err));
        return cl;
    }

    /** A command-line error found while parsing: one line, exit 2. */
    private static int badUsage(CommandLine.ParameterException e, String[] args) {
        CommandLine where = e.getCommandLine();
        String command = where.getCommandSpec().qualifiedName();
        String message = firstLine(e.getMessage());
        if (e instanceof CommandLine.UnmatchedArgumentException u && !u.getUnmatched().isEmpty()) {
            String word = u.getUnmatched().get(0);
            if (word.startsWith("-")) {
                message = "unknown option " + word;
            } else if (where.getParent() == null) {
                message = "unknown command " + word;
            } else {
                message = "unexpected argument " + word;
            }
        }
        where.getErr().println(command + ": " + lowerFirst(message) + " (see " + command + " --help)");
        return BAD_INPUT;
    }

    /** An error raised while a command ran: bad input is one line (exit 2), anything else a bug (exit 1). */
    private static int failure(Exception e, PrintStream err) {
        if (e instanceof InvalidInputException) {
            err.println("dp-audit: error: " + e.getMessage());
            return BAD_INPUT;
        }
        if (e instanceof UsageException) {
            err.println("dp-audit: " + e.getMessage() + " (see dp-audit --help)");
            return BAD_INPUT;
        }
        err.println("dp-audit: internal error: " + e);
        e.printStackTrace(err);
        return INTERNAL_ERROR;
    }

    private static String firstLine(String s) {
        return s == null ? "" : s.lines().findFirst().orElse("");
    }

    private static String lowerFirst(String s) {
        return s.isEmpty() ? s : s.substring(0, 1).toLowerCase(Locale.ROOT) + s.substring(1);
    }

    /**
     * Where a command writes (standard output for results, standard error for progress and errors) and the whole
     * command line it was started with (for a report's provenance).
     */
    record Streams(PrintStream out, PrintStream err, java.util.List<String> arguments) {
    }

    /** {@code dp-audit} itself: usage on no arguments (exit 2), {@code --help}, {@code --version}. */
    @Command(name = "dp-audit", synopsisHeading = "usage: ", customSynopsis = "dp-audit <command> [arguments]",
            mixinStandardHelpOptions = true, versionProvider = VersionCommand.Provider.class,
            descriptionHeading = "%n", description = {"Audits differential-privacy claims by Monte Carlo simulation."},
            commandListHeading = "%ncommands:%n",
            footer = {"", "dp-audit <command> --help describes one command.",
                "exit codes: 0 no claim violated, 3 a claim violated, 2 bad input or usage, 1 internal error"})
    static final class TopLevel implements java.util.concurrent.Callable<Integer> {
        private final Streams io;
        @Spec
        CommandSpec spec;

        TopLevel(Streams io) {
            this.io = io;
        }

        @Override
        public Integer call() {
            io.err().print(spec.commandLine().getUsageMessage());
            return BAD_INPUT;
        }
    }

    /** The version line {@code dp-audit X.Y.Z}. */
    static String versionLine() {
        return ToolInfo.NAME + " " + ToolInfo.version();
    }
}
