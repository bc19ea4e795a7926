package io.dpaudit.reports.cli;

import io.dpaudit.core.InvalidInputException;
import io.dpaudit.core.ToolInfo;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.List;

/**
 * The {@code dp-audit} command line.
 *
 * <p>Exit codes: 0 no claim violated; 3 at least one claim violated; 2 bad input or usage (a one-line message on
 * standard error, no stack trace, no report written); 1 internal error.
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

    static final String USAGE = String.join("\n",
            "usage: dp-audit <command> [arguments]",
            "",
            "commands:",
            "  run SCENARIO.json... | DIR [--trials N] [--seed S] [--threads K] [--out DIR] [--estimate] [--quiet]",
            "      audit the scenario; writes DIR/report.json, report.md, report.html (DIR defaults to dp-audit-out);",
            "      several scenarios or a directory of them: one report folder each plus DIR/index.html, index.md",
            "  bound TYPE key=value... (--delta D | --epsilon E) [--json]",
            "      evaluate every analytic bound that applies to the mechanism",
            "  calibrate TYPE key=value... --epsilon E --delta D [--json]",
            "      the calibration parameter meeting (E, D) under each applicable bound (smallest sigma, largest eps0)",
            "  compare A/report.json B/report.json",
            "      claim-by-claim changes between two reports (exit 3 if a claim newly violated in B)",
            "  list",
            "      mechanism types, their parameters, attacks and threshold-selection methods",
            "  demo [--out DIR] [--threads K] [--quiet]",
            "      audit a correct claim and a wrong one (reports under DIR, default dp-audit-demo)",
            "  version",
            "      the dp-audit version",
            "",
            "dp-audit <command> --help describes one command.",
            "exit codes: 0 no claim violated, 3 a claim violated, 2 bad input or usage, 1 internal error");

    private Main() {
    }

    /** Entry point. */
    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /** Runs a command; returns the exit code. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        try {
            return dispatch(Arrays.asList(args), out, err);
        } catch (InvalidInputException e) {
            err.println("dp-audit: error: " + e.getMessage());
            return BAD_INPUT;
        } catch (UsageException e) {
            err.println("dp-audit: " + e.getMessage() + " (see dp-audit --help)");
            return BAD_INPUT;
        } catch (Throwable t) {
            err.println("dp-audit: internal error: " + t);
            t.printStackTrace(err);
            return INTERNAL_ERROR;
        }
    }

    /** Per-command help: what {@code dp-audit COMMAND --help} prints. */
    static final java.util.Map<String, String> COMMAND_HELP = java.util.Map.of(
            "run", String.join("\n",
                    "usage: dp-audit run SCENARIO.json... | SCENARIO_DIR [--trials N] [--seed S] [--threads K]",
                    "                   [--out DIR] [--estimate] [--quiet]",
                    "",
                    "Audits the scenario and writes DIR/report.json, report.md and report.html (DIR defaults to",
                    "dp-audit-out); prints a summary. Progress goes to standard error (one line per update when it",
                    "is not a terminal); --quiet turns it off. --trials and --seed override the scenario's.",
                    "--estimate (or \"estimate\": true in the scenario) adds the two-sided privacy-loss estimate:",
                    "N more trials per world of the exact log-likelihood ratio, giving intervals for the simulated",
                    "pair's true delta(eps) and eps(delta), and a verdict per claim: violated, tight or loose.",
                    "Several scenario files, or a directory (its *.json files): every one is validated first, then",
                    "each is audited into DIR/<file name>/, and DIR/index.html and index.md list every claim",
                    "(scenario, verdict, tightness, link); --trials and --seed then apply to all of them.",
                    "Exit: 0 no claim violated, 3 a claim violated, 2 bad input, 1 internal error."),
            "bound", String.join("\n",
                    "usage: dp-audit bound TYPE key=value... (--delta D | --epsilon E) [--json]",
                    "",
                    "Evaluates every analytic bound that applies to mechanism TYPE with these parameters (the",
                    "scenario file's names): epsilon at --delta, or delta at --epsilon. `dp-audit list` shows types."),
            "calibrate", String.join("\n",
                    "usage: dp-audit calibrate TYPE key=value... --epsilon E --delta D [--json]",
                    "",
                    "For each applicable bound, the value of the calibration parameter (smallest sigma, largest",
                    "eps0) at which the bound meets (E, D), rounded to the safe side."),
            "compare", String.join("\n",
                    "usage: dp-audit compare A/report.json B/report.json",
                    "",
                    "Claim-by-claim changes from A to B: verdicts, tightness, the empirical epsilon lower bound, the",
                    "estimate's verdict; f-DP claims separately. Claims are matched by label. Lines start with '='",
                    "(verdict unchanged), '*' (changed), '!' (newly violated), '+' (only in B), '-' (only in A).",
                    "Exit: 3 when a claim is newly violated in B, 0 otherwise, 2 bad input."),
            "list", String.join("\n",
                    "usage: dp-audit list",
                    "",
                    "Mechanism types with their parameters, the attacks and the threshold-selection methods."),
            "demo", String.join("\n",
                    "usage: dp-audit demo [--out DIR] [--threads K] [--quiet]",
                    "",
                    "Audits a correct claim (exit 0 expected) and a wrong one (violated) on the Gaussian and the",
                    "Poisson-subsampled Gaussian; reports under DIR (default dp-audit-demo)."),
            "version", String.join("\n",
                    "usage: dp-audit version",
                    "",
                    "Prints the dp-audit version."));

    private static int dispatch(List<String> args, PrintStream out, PrintStream err) {
        if (args.isEmpty()) {
            err.println(USAGE);
            return BAD_INPUT;
        }
        String command = args.get(0);
        List<String> rest = args.subList(1, args.size());
        if (COMMAND_HELP.containsKey(command) && (rest.contains("--help") || rest.contains("-h"))) {
            out.println(COMMAND_HELP.get(command));
            return OK;
        }
        switch (command) {
            case "run":
                return RunCommand.run(rest, out, err);
            case "bound":
                return BoundCommand.bound(rest, out);
            case "calibrate":
                return BoundCommand.calibrate(rest, out);
            case "list":
                return ListCommand.list(rest, out);
            case "demo":
                return DemoCommand.demo(rest, out, err);
            case "compare":
                return CompareCommand.compare(rest, out);
            case "--help":
            case "-h":
            case "help":
                out.println(USAGE);
                return OK;
            case "--version":
            case "version":
                if (command.equals("version") && !rest.isEmpty()) {
                    throw new UsageException("version takes no arguments");
                }
                out.println(ToolInfo.NAME + " " + ToolInfo.version());
                return OK;
            default:
                throw new UsageException("unknown command " + command);
        }
    }
}
