package io.dpaudit.reports.cli;

import io.dpaudit.attacks.AttackCatalog;
import io.dpaudit.core.model.MechanismType;
import io.dpaudit.mechanisms.MechanismCatalog;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

/** {@code dp-audit list}. */
final class ListCommand {
    private ListCommand() {
    }

    static int list(List<String> args, PrintStream out) {
        if (!args.isEmpty()) {
            throw new UsageException("list takes no arguments");
        }
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
