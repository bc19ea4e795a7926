package io.dpaudit.reports.cli;

import io.dpaudit.attacks.AttackCatalog;
import io.dpaudit.core.model.MechanismType;
import io.dpaudit.mechanisms.MechanismCatalog;
import java.io.PrintStream;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code dp-audit list}. */
@Command(name = "list", synopsisHeading = "usage: ", customSynopsis = "dp-audit list",
        descriptionHeading = "%n", description = {"Mechanism types with their parameters, the attacks and the threshold-selection methods."})
final class ListCommand implements Callable<Integer> {
    private final Main.Streams io;
    @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help")
    boolean help;

    ListCommand(Main.Streams io) {
        this.io = io;
    }

    @Override
    public Integer call() {
        PrintStream out = io.out();
        out.println("Mechanism types (scenario \"mechanism\": {\"type\": ..., parameters}):");
        for (MechanismType e : MechanismCatalog.types()) {
            out.println(String.format(Locale.ROOT, "  %-30s %s%n  %-30s parameters: %s", e.type(), e.summary(), "",
                    e.parameters()));
        }
        out.println("Simulators (scenario \"simulator\"): reduced (default; exact sufficient statistic), "
                + "faithful (explicit records; options records, dimension)");
        out.println("Attacks (scenario \"attack\"):");
        for (AttackCatalog.Entry e : AttackCatalog.entries()) {
            out.println(String.format(Locale.ROOT, "  %-30s %s", e.name(), e.summary()));
        }
        out.println("Threshold selection (scenario \"thresholdSelection\"):");
        out.println("  held-out (default)             {\"method\": \"held-out\", \"holdoutFraction\": 0.1}");
        out.println("  bonferroni                     {\"method\": \"bonferroni\", \"grid\": 64}");
        out.println("Analytic bounds: run `dp-audit bound TYPE key=value... --delta D` to see those that apply.");
        return Main.OK;
    }
}
