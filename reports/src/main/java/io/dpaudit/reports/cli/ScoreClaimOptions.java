package io.dpaudit.reports.cli;

import io.dpaudit.core.Checks;
import io.dpaudit.core.InvalidInputException;
import io.dpaudit.core.audit.Claim;
import io.dpaudit.runner.scenario.ScenarioReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Option;

/** The options of {@code dp-audit scores} that say what to bound and judge: δs, εs and claims. */
final class ScoreClaimOptions {
    @Option(names = "--deltas", paramLabel = "D", split = ",", description = "deltas for epsilon lower bounds "
            + "(1e-5; 0 for pure DP)")
    List<String> deltas;
    @Option(names = "--epsilons", paramLabel = "E", split = ",", description = "epsilons for delta lower bounds "
            + "(0,0.5,1,2)")
    List<String> epsilons;
    @Option(names = "--claim", paramLabel = "EPS,DELTA", description = "a claim to judge (repeatable)")
    List<String> claims;

    /** The δs of the ε lower bounds, validated. */
    List<Double> deltas() {
        return numbers("--deltas", deltas, List.of(1e-5), true);
    }

    /** The εs of the δ lower bounds, validated. */
    List<Double> epsilons() {
        return numbers("--epsilons", epsilons, List.of(0.0, 0.5, 1.0, 2.0), false);
    }

    /** The claims, validated, each labelled {@code (eps, delta)}. */
    List<Claim> claims() {
        List<Claim> out = new ArrayList<>();
        if (claims == null) {
            return out;
        }
        if (claims.size() > ScenarioReader.MAX_LIST) {
            throw new InvalidInputException("--claim", claims.size() + " claims", "at most " + ScenarioReader.MAX_LIST);
        }
        for (String c : claims) {
            String[] parts = c.split(",", -1);
            if (parts.length != 2) {
                throw new InvalidInputException("--claim", c, "must be EPS,DELTA");
            }
            double e = Checks.nonNegative("--claim epsilon", OptionValues.number("--claim", parts[0].strip()));
            double d = Checks.deltaOrZero("--claim delta", OptionValues.number("--claim", parts[1].strip()));
            out.add(new Claim(String.format(Locale.ROOT, "(%s, %s)", Checks.format(e), Checks.format(d)), e, d,
                    "stated"));
        }
        return out;
    }

    private static List<Double> numbers(String option, List<String> given, List<Double> defaults, boolean deltasList) {
        if (given == null) {
            return defaults;
        }
        if (given.size() > ScenarioReader.MAX_LIST) {
            throw new InvalidInputException(option, given.size() + " values", "at most " + ScenarioReader.MAX_LIST);
        }
        List<Double> out = new ArrayList<>();
        for (String g : given) {
            double v = OptionValues.number(option, g.strip());
            out.add(deltasList ? Checks.deltaOrZero(option, v) : Checks.nonNegative(option, v));
        }
        return out;
    }
}
