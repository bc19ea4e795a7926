package io.dpaudit.examples;

import io.dpaudit.core.audit.AuditResult;
import io.dpaudit.core.engine.ProgressListener;
import io.dpaudit.core.estimate.onerun.GuessSides;
import io.dpaudit.mechanisms.onerun.OneRunDpSgd;
import io.dpaudit.runner.ScenarioAudit;
import io.dpaudit.runner.scenario.ScenarioReader;
import io.dpaudit.runner.scores.OneRunAudit;
import java.util.List;
import java.util.Locale;

/**
 * One training run against many, at the same number of training runs. The setting is DP-SGD with Poisson subsampling
 * ({@link OneRunDpSgd}); each canary's true ε at δ comes from the PLD accountant. A <i>one-run</i> audit (Steinke,
 * Nasr &amp; Jagielski 2023) trains once with m canaries, each in by its own fair coin, and bounds ε from how well
 * the canaries' scores guess the coins ({@link OneRunAudit}) — by Steinke et al.'s binomial bound, and by the f-DP
 * route of Mahloujifar, Melis &amp; Chaudhuri (2024) through the (ε, δ) trade-off function, which charges δ inside each
 * test rather than as {@code 2 m delta}; a <i>many-run</i> audit trains R times with the canary
 * and R times without (2R runs) and certifies ε from the likelihood-ratio test's error rates ({@code dp-audit run}).
 * The comparison is in training runs, the cost that dominates: one run buys the one-run bound, and the table shows
 * how many runs the many-run audit needs to reach it and how far each gets towards the true ε.
 */
public final class Example06_OneRunVersusManyRuns {
    private Example06_OneRunVersusManyRuns() {
    }

    /** The δ of every bound here. */
    public static final double DELTA = 1e-5;

    /** The true ε of one canary of {@code s} at {@link #DELTA} (PLD accountant, add/remove, rounded up). */
    public static double trueEpsilon(OneRunDpSgd s) {
        return s.trueEpsilon(DELTA);
    }

    /** The one-run ε lower bound at {@link #DELTA}, 95% confidence, from one simulated run (reduced simulator). */
    public static double oneRun(OneRunDpSgd s, long seed) {
        return OneRunAudit.ofSimulatedRun(s, seed, 0.95, List.of(DELTA)).bounds().get(0).epsilon();
    }

    /** The same run's ε lower bound by the f-DP route ({@link OneRunAudit.FdpBounds#epsilon}). */
    public static double oneRunFdp(OneRunDpSgd s, long seed) {
        return OneRunAudit.ofSimulatedRun(s, seed, 0.95, List.of(DELTA)).fdp().epsilon().get(0).epsilon();
    }

    /** The same run guessed two-sided ({@link GuessSides#TWO_SIDED}): Steinke et al.'s bound and the f-DP route's. */
    public static double[] oneRunTwoSided(OneRunDpSgd s, long seed) {
        OneRunAudit.Guesses g = OneRunAudit.ofSimulatedRun(s, seed, 0.95, List.of(DELTA), GuessSides.TWO_SIDED);
        return new double[] {g.bounds().get(0).epsilon(), g.fdp().epsilon().get(0).epsilon()};
    }

    /**
     * The many-run ε lower bound at {@link #DELTA}, 95% confidence, from {@code runs} training runs ({@code runs / 2}
     * per world; the likelihood-ratio attack on the same mechanism type, reduced simulator).
     */
    public static double manyRuns(OneRunDpSgd s, long runs, long seed) {
        String json = String.format(Locale.ROOT, "{\"mechanism\": {\"type\": \"poisson-subsampled-gaussian\", \"q\": %s, "
                + "\"sigma\": %s, \"clip\": %s, \"rounds\": %d}, \"attack\": \"likelihood-ratio\", \"deltas\": [%s], "
                + "\"epsilons\": [1]}", s.q(), s.sigma(), s.clip(), s.steps(), DELTA);
        ScenarioAudit.Prepared p = ScenarioAudit.prepare(ScenarioReader.parse(json, "example-06"), runs / 2, seed, 1);
        AuditResult r = ScenarioAudit.audit(p, ProgressListener.NONE);
        return r.epsilonLowerBounds().get(0).epsilon();
    }

    /** Runs the example and prints what it found. */
    public static void main(String[] args) {
        List<OneRunDpSgd> settings = List.of(new OneRunDpSgd(1000, 1, 1.0, 0.5, 1.0),
                new OneRunDpSgd(10_000, 1, 1.0, 0.5, 1.0), new OneRunDpSgd(1000, 100, 0.1, 1.0, 1.0),
                new OneRunDpSgd(10_000, 100, 0.1, 1.0, 1.0));
        long[] budgets = {20, 200, 2000, 20_000, 200_000};
        System.out.printf(Locale.ROOT, "%-40s %8s %8s %8s %8s %8s", "setting", "true eps", "one run", "(f-DP)",
                "2-sided", "(f-DP)");
        for (long b : budgets) {
            System.out.printf(Locale.ROOT, " %9s", b + " runs");
        }
        System.out.println();
        for (OneRunDpSgd s : settings) {
            double[] twoSided = oneRunTwoSided(s, 6);
            System.out.printf(Locale.ROOT, "%-40s %8.3f %8.3f %8.3f %8.3f %8.3f",
                    String.format(Locale.ROOT, "m=%d T=%d q=%s sigma=%s", s.canaries(), s.steps(), s.q(), s.sigma()),
                    trueEpsilon(s), oneRun(s, 6), oneRunFdp(s, 6), twoSided[0], twoSided[1]);
            for (long b : budgets) {
                System.out.printf(Locale.ROOT, " %9.3f", manyRuns(s, b, 6));
            }
            System.out.println();
        }
    }
}
