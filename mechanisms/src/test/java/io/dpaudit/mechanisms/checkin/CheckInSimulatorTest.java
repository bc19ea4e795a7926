package io.dpaudit.mechanisms.checkin;

import static io.dpaudit.mechanisms.checkin.CheckInExactTest.parameters;
import static io.dpaudit.mechanisms.testing.DiscreteLawTests.atomCounts;
import static io.dpaudit.mechanisms.testing.DiscreteLawTests.goodnessOfFit;
import static io.dpaudit.mechanisms.testing.DiscreteLawTests.homogeneity;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpaudit.core.engine.TrialSampler;
import io.dpaudit.core.engine.World;
import io.dpaudit.core.law.DiscreteLaw;
import io.dpaudit.core.law.StatisticLaw;
import io.dpaudit.core.model.MechanismSimulator;
import io.dpaudit.core.model.OutputModel;
import io.dpaudit.core.model.Parameters;
import io.dpaudit.core.rng.RandomStreams;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import org.apache.commons.math3.stat.inference.KolmogorovSmirnovTest;
import org.junit.jupiter.api.Test;

/**
 * The faithful check-in simulators (explicit clients, coins, slots, reservoir selection, dummies, randomizer) against
 * the exact law of the statistic and against the reduced samplers. For randomized response by chi-square tests (the
 * statistic is discrete; atoms with expected counts below 5 pooled), for the Gaussian randomizer by a two-sample
 * Kolmogorov–Smirnov test on the exact log-likelihood ratio (a continuous statistic). Each comparison is one test at
 * level 1e-3 on a fixed seed: a correct simulator fails one with probability 1e-3, so this suite of about twenty with
 * probability about 2%, reproducibly (the seeds are fixed). The same tests reject faithful simulators with planted bugs.
 */
class CheckInSimulatorTest {
    private static final double LEVEL = 1e-3;
    private static final int N = 40_000;

    private static RandomCheckIn mechanism(CheckInParameters p) {
        return new RandomCheckIn(new Parameters("mechanism.", Map.of()), p);
    }

    private static MechanismSimulator faithful(RandomCheckIn m, FaithfulCheckInSimulator.PlantedBug bug) {
        return m.faithful(bug);
    }

    @Test
    void faithfulSimulatorsFollowTheExactLaw() {
        CheckInParameters[] cases = {
            parameters("type", "random-checkin", "clients", 30, "slots", 12, "p0", 0.6, "eps0", 1.5, "dataset",
                    "canonical"),
            parameters("type", "random-checkin", "clients", 8, "slots", 10, "p0", 0.9, "eps0", 2.0, "dataset",
                    "helper"),
            parameters("type", "random-checkin", "clients", 6, "slots", 9, "p0", 0.5, "eps0", 2.0, "dataset",
                    "opposite"),
            parameters("type", "random-checkin", "clients", 20, "slots", 7, "p0", 1, "eps0", 1.0, "dataset",
                    "exhaustive", "rounds", 2),
            parameters("type", "random-checkin-sliding", "clients", 30, "slots", 8, "p0", 0.8, "eps0", 2.0),
            parameters("type", "random-checkin-sliding", "clients", 30, "slots", 8, "p0", 0.8, "eps0", 2.0, "target",
                    "edge"),
            parameters("type", "random-checkin-averaged", "clients", 25, "slots", 6, "p0", 0.5, "eps0", 1.0),
        };
        long seed = 60;
        for (CheckInParameters p : cases) {
            RandomCheckIn m = mechanism(p);
            CheckInModel.Round r = m.model().round(m.model().simulated());
            MechanismSimulator f = faithful(m, FaithfulCheckInSimulator.PlantedBug.NONE);
            for (World w : World.values()) {
                DiscreteLaw target = w == World.WITH_CANARY ? r.withCanary() : r.withoutCanary();
                double pv = goodnessOfFit(atomCounts(f, w, seed++, target.atoms(), N), target);
                assertTrue(pv > LEVEL, String.format(Locale.ROOT, "%s on %s, %s: chi-square p = %.2e",
                        p.describe(), m.model().simulated().name(), w.symbol(), pv));
            }
        }
    }

    @Test
    void reducedAndFaithfulAgree() {
        CheckInParameters p = parameters("type", "random-checkin", "clients", 12, "slots", 10, "p0", 0.8, "eps0",
                2.0);
        RandomCheckIn m = mechanism(p);
        CheckInModel.Round r = m.model().round(m.model().simulated());
        MechanismSimulator f = faithful(m, FaithfulCheckInSimulator.PlantedBug.NONE);
        MechanismSimulator reduced = m.reduced();
        for (World w : World.values()) {
            long[] a = atomCounts(f, w, 80, r.withCanary().atoms(), N);
            long[] b = atomCounts(reduced, w, 81, r.withCanary().atoms(), N);
            assertTrue(homogeneity(a, b) > LEVEL, w.symbol());
            DiscreteLaw target = w == World.WITH_CANARY ? r.withCanary() : r.withoutCanary();
            assertTrue(goodnessOfFit(b, target) > LEVEL, "reduced vs law, " + w.symbol());
        }
    }

    /** The target selected whenever it checks in: caught in D, invisible in D' (its value is the others'). */
    @Test
    void theTestRejectsATargetThatIsAlwaysSelected() {
        CheckInParameters p = parameters("type", "random-checkin", "clients", 30, "slots", 12, "p0", 0.6, "eps0", 1.5,
                "dataset", "canonical");
        RandomCheckIn m = mechanism(p);
        CheckInModel.Round r = m.model().round(CheckInDataset.CANONICAL);
        MechanismSimulator buggy = faithful(m, FaithfulCheckInSimulator.PlantedBug.TARGET_ALWAYS_SELECTED);
        double pv = goodnessOfFit(atomCounts(buggy, World.WITH_CANARY, 90, r.withCanary().atoms(), N),
                r.withCanary());
        assertTrue(pv < 1e-12, "planted bug not detected: p = " + pv);
        double clean = goodnessOfFit(atomCounts(buggy, World.WITHOUT_CANARY, 91, r.withCanary().atoms(), N),
                r.withoutCanary());
        assertTrue(clean > LEVEL, "D' unaffected: p = " + clean);
    }

    /** Skipping dummy updates changes the law of the releases (fewer of them when slots are empty). */
    @Test
    void theTestRejectsASimulatorThatSkipsDummies() {
        CheckInParameters p = parameters("type", "random-checkin", "clients", 5, "slots", 20, "p0", 0.5, "eps0", 1.0,
                "dataset", "canonical");
        RandomCheckIn m = mechanism(p);
        CheckInModel.Round r = m.model().round(CheckInDataset.CANONICAL);
        MechanismSimulator buggy = faithful(m, FaithfulCheckInSimulator.PlantedBug.SKIP_DUMMIES);
        for (World w : World.values()) {
            DiscreteLaw target = w == World.WITH_CANARY ? r.withCanary() : r.withoutCanary();
            double pv = goodnessOfFit(atomCounts(buggy, w, 95 + w.ordinal(), target.atoms(), N), target);
            assertTrue(pv < 1e-12, "planted bug not detected in " + w.symbol() + ": p = " + pv);
        }
    }

    /** Propositions 3.4 and 4.4: the simulator's own count of dummy updates against the exact expectation. */
    @Test
    void dummyUpdatesMatchPropositions34And44() {
        CheckInParameters[] cases = {
            parameters("type", "random-checkin", "clients", 200, "slots", 100, "p0", 0.5, "eps0", 1.0, "dataset",
                    "canonical"),
            parameters("type", "random-checkin-sliding", "clients", 300, "slots", 50, "p0", 0.7, "eps0", 1.0),
        };
        int passes = 20_000;
        for (CheckInParameters p : cases) {
            RandomCheckIn m = mechanism(p);
            MechanismSimulator f = faithful(m, FaithfulCheckInSimulator.PlantedBug.NONE);
            FaithfulCheckInSimulator.Sampler s = (FaithfulCheckInSimulator.Sampler) f.create(new RandomStreams(7)
                    .next());
            s.sample(World.WITH_CANARY, new double[passes * f.outputLength()], passes);
            assertEquals(passes, s.passes());
            double mean = (double) s.dummyUpdates() / passes;
            double expected = DummyUpdates.expected(p);
            // The count per pass is a sum of slot indicators with variance at most its mean times 1 + (covariances,
            // negative for occupancy); 6 standard errors of a Poisson-like count: a false failure has probability
            // below 1e-8.
            double se = Math.sqrt(expected / passes);
            assertEquals(expected, mean, 6 * se, p.describe());
            assertTrue(DummyUpdates.bound(p) >= expected, "the printed-style bound is an upper bound");
        }
    }

    /** Gaussian randomizer: the faithful and reduced simulators give the same law of the exact log-likelihood ratio. */
    @Test
    void gaussianFaithfulAndReducedAgree() {
        CheckInParameters[] cases = {
            parameters("type", "random-checkin", "clients", 15, "slots", 6, "p0", 0.7, "randomizer", "gaussian",
                    "sigma", 0.8, "clip", 1.0, "pair", "symmetric"),
            parameters("type", "random-checkin-sliding", "clients", 20, "slots", 5, "p0", 0.9, "randomizer",
                    "gaussian", "sigma", 0.5, "pair", "one-sided"),
        };
        long seed = 120;
        for (CheckInParameters p : cases) {
            RandomCheckIn m = mechanism(p);
            MechanismSimulator f = faithful(m, FaithfulCheckInSimulator.PlantedBug.NONE);
            MechanismSimulator r = m.reduced();
            for (World w : World.values()) {
                double[] a = scores(f, w, seed++);
                double[] b = scores(r, w, seed++);
                double pv = new KolmogorovSmirnovTest().kolmogorovSmirnovTest(a, b);
                assertTrue(pv > LEVEL, String.format(Locale.ROOT, "%s, %s: KS p = %.2e", p.describe(), w.symbol(),
                        pv));
            }
        }
    }

    /** The exact log-likelihood ratio of each trial's statistic (one round). */
    private static double[] scores(MechanismSimulator sim, World w, long seed) {
        int n = 10_000;
        TrialSampler s = sim.create(new RandomStreams(seed).next());
        OutputModel m = sim.outputModel();
        double[] out = new double[n * m.outputLength()];
        s.sample(w, out, n);
        StatisticLaw with = m.withCanary();
        StatisticLaw without = m.withoutCanary();
        double[] stat = new double[m.statisticDimension()];
        double[] scores = new double[n];
        for (int i = 0; i < n; i++) {
            m.statistic().extract(out, i * m.roundDimension(), stat);
            scores[i] = with.logDensity(stat, 0) - without.logDensity(stat, 0);
        }
        Arrays.sort(scores);
        return scores;
    }
}
