package io.dpaudit.reports.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.IVersionProvider;
import picocli.CommandLine.Option;

/** {@code dp-audit version}. */
@Command(name = "version", synopsisHeading = "usage: ", customSynopsis = "dp-audit version",
        descriptionHeading = "%n", description = {"Print the dp-audit version."})
final class VersionCommand implements Callable<Integer> {
    private final Main.Streams io;
    @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help")
    boolean help;

    VersionCommand(Main.Streams io) {
        this.io = io;
    }

    @Override
    public Integer call() {
        io.out().println(Main.versionLine());
        return Main.OK;
    }

    /** {@code dp-audit --version}. */
    static final class Provider implements IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {Main.versionLine()};
        }
    }
}
