package io.dpaudit.mechanisms.batching;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpaudit.core.InvalidInputException;
import io.dpaudit.core.bounds.PrivacyBound;
import io.dpaudit.core.engine.TrialSampler;
import io.dpaudit.core.engine.World;
import io.dpaudit.core.law.StatisticLaw;
import io.dpaudit.core.model.AuditableMechanism;
import io.dpaudit.core.model.MechanismSimulator;
import io.dpaudit.core.model.Parameters;
import io.dpaudit.core.rng.RandomStreams;
import io.dpaudit.mechanisms.MechanismCatalog;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.commons.math3.stat.inference.KolmogorovSmirnovTest;
import org.apache.commons.rng.UniformRandomProvider;
import org.junit.jupiter.api.Test;

/**
 * The batch samplers: the accountings reproduce the figures of Chua et al. (formula sheet §14); the likelihood ratio's
 * fast paths equal the densities' difference and the elementary-symmetric recursion equals the sum over subsets; each
 * faithful simulator agrees with its reduced one in distribution (two-sample Kolmogorov–Smirnov on the per-epoch
 * likelihood ratio, 20,000 draws per world, failing at p &lt; 1e-4, fixed seeds), and a planted batching bug — records
 * dropped into uniform steps independently (balls-and-bins) where the code claims a shuffle — is caught at
 * p &lt; 1e-6.
 */
class BatchSamplersTest {
    private static final int DRAWS = 20_000;

    private static AuditableMechanism mechanism(String type, Object... kv) {
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("type", type);
        for (int i = 0; i < kv.length; i += 2) {
            v.put((String) kv[i], kv[i + 1]);
        }
        return MechanismCatalog.parse(new Parameters("mechanism.", v));
    }

    private static double epsilon(AuditableMechanism m, String bound, double delta) {
        for (PrivacyBound b : m.bounds()) {
            if (b.name().equals(bound)) {
                return b.epsilon(delta);
            }
        }
        throw new AssertionError("no bound " + bound);
    }

    /**
     * With one step the max test is the Neyman–Pearson test of N(2, s^2) against N(1, s^2), so the lower bound is the
     * Gaussian profile of mu = 1/s; with more steps it stays at or below the deterministic (Gaussian) upper bound. Down
     * to s = 0.005, where Q(E_C) is far below double precision's smallest number: rounded to 0 it made the bound
     * infinite at s = 0.01 and 0.02 (ε(1e-6) = inf against the deterministic 5474 and 1487). Up to s = 1e12, where
     * P(E_C) and Q(E_C) nearly cancel: their rounding put δ(0) 4e-4 (relative) above the Gaussian's at T = 1. The same
     * for two other datasets (others 0.5 and 1, where the minimum's tests carry the bound; at T = 1 the pair is the
     * Gaussian's, shifted) at three noise levels.
     */
    @Test
    void theShuffleLowerBoundStaysBelowTheDeterministicUpperBoundAtTinyNoise() {
        for (double sigma : new double[] {0.005, 0.01, 0.02, 0.03, 0.1, 1, 1e3, 1e6, 1e12}) {
            PrivacyBound deterministic = io.dpaudit.core.bounds.GaussianBound.of(sigma, 1, 1);
            double upper = deterministic.epsilon(1e-6);
            // Chua et al.'s dataset everywhere; two others (the minimum's tests) at the extremes and in between
            double[] datasets = sigma == 0.005 || sigma == 1 || sigma == 1e12 ? new double[] {-1, 0.5, 1}
                    : new double[] {-1};
            for (int steps : new int[] {1, 2, 1000}) {
                for (double others : datasets) {
                    // Built directly: the mechanism's bounds would also compose the Poisson PLD, seconds each here.
                    PrivacyBound bound = new ShuffleMaxTestBound(new BatchingParameters(
                            BatchingParameters.Sampler.SHUFFLED, steps, 1, sigma, 1, false, others));
                    String at = "sigma " + sigma + ", T " + steps + ", others " + others;
                    double lower = bound.epsilon(1e-6);
                    assertTrue(Double.isFinite(lower) && lower <= upper + 1e-9 * upper,
                            at + ": " + lower + " > " + upper);
                    // On the scale of the claimed ε, and where that is 0 (huge noise), on the scale of mu = 1/sigma.
                    double scale = upper > 0 ? upper : 1 / sigma;
                    for (double f : new double[] {0, 0.1, 0.5, 0.9, 1.0, 1.1}) {
                        double eps = f * scale;
                        double exact = io.dpaudit.core.bounds.GaussianBound.exactDelta(eps, 1 / sigma);
                        double d = bound.delta(eps);
                        assertTrue(d <= exact * (1 + 1e-9) + 1e-300, at + ", eps " + eps + ": " + d + " > " + exact);
                        if (steps == 1) {
                            // Equal up to the rounding allowance (1e-13 of the two terms, each at most 1).
                            assertEquals(exact, d, 1e-6 * exact + 2e-13, at + ", eps " + eps);
                        }
                    }
                    if (steps == 1) {
                        assertEquals(upper, lower, 1e-6 * upper, at);
                    }
                }
            }
        }
    }

    /**
     * E dynamic epochs: the count of epochs whose maximum exceeds C. At least the one-epoch bound (the count is at least
     * as informative as one epoch's event), at most the deterministic bound (the Gaussian mechanism over the E
     * epochs, mu = sqrt(E)/sigma) at every epsilon; at T = 1 two epochs are a Binomial test of the Gaussian pair, which
     * must stay below the composed Gaussian's exact curve. A planted count that ignores the epochs (the one-epoch
     * value) would fail the first check at T = 1000.
     */
    @Test
    void dynamicEpochsComposeTheMaxTestBetweenOneEpochAndNoAmplification() {
        for (int steps : new int[] {1, 1000}) {
            for (int epochs : new int[] {2, 4, 16}) {
                PrivacyBound one = new ShuffleMaxTestBound(new BatchingParameters(BatchingParameters.Sampler.SHUFFLED,
                        steps, 1, 1.0, 1, false));
                PrivacyBound many = new ShuffleMaxTestBound(new BatchingParameters(BatchingParameters.Sampler.SHUFFLED,
                        steps, epochs, 1.0, 1, false));
                double mu = Math.sqrt(epochs);
                String at = "T " + steps + ", E " + epochs;
                for (double eps : new double[] {0, 0.5, 1, 2, 4, 6}) {
                    double d = many.delta(eps);
                    assertTrue(d >= one.delta(eps) * (1 - 1e-9), at + ", eps " + eps + ": " + d + " < " + one.delta(eps));
                    double exact = io.dpaudit.core.bounds.GaussianBound.exactDelta(eps, mu);
                    assertTrue(d <= exact * (1 + 1e-9) + 1e-300, at + ", eps " + eps + ": " + d + " > " + exact);
                }
                if (steps == 1000) {
                    assertTrue(many.epsilon(1e-6) > one.epsilon(1e-6) * 1.05, at + ": " + many.epsilon(1e-6));
                }
            }
        }
    }

    @Test
    void theAccountingsReproduceChuaEtAlsFigures() {
        AuditableMechanism one = mechanism("shuffled-batches", "steps", 1000.0, "sigma", 1.0);
        assertEquals(0.19, epsilon(one, "poisson-pld", 1e-6), 0.01, "Poisson accounting");
        assertEquals(3.7, epsilon(one, ShuffleMaxTestBound.NAME, 1e-6), 0.05, "shuffle lower bound");
        AuditableMechanism half = mechanism("shuffled-batches", "steps", 1000.0, "sigma", 0.5);
        assertEquals(4.2, epsilon(half, "poisson-pld", 1e-6), 0.05);
        assertEquals(11.0, epsilon(half, ShuffleMaxTestBound.NAME, 1e-6), 0.05);
        // The lower bound never exceeds the deterministic upper bound.
        assertTrue(epsilon(half, ShuffleMaxTestBound.NAME, 1e-6) <= epsilon(half, "deterministic", 1e-6) + 1e-9);
    }

    @Test
    void fastLogRatiosEqualTheDensitiesDifference() {
        UniformRandomProvider rng = RandomStreams.auxiliary(1);
        int t = 7;
        double s = 0.8;
        StatisticLaw[][] pairs = {
            {new SubsetShiftLaw(t, 1, 2, s), new SubsetShiftLaw(t, 1, 1, s)},
            {new SubsetShiftLaw(t, 1, 1, s), new SubsetShiftLaw(t, 0, 0, s)},
            {new SubsetShiftLaw(t, 3, 1, s), new SubsetShiftLaw(t, 0, 0, s)},
        };
        double[] x = new double[t];
        for (int r = 0; r < 200; r++) {
            for (int i = 0; i < t; i++) {
                x[i] = 3 * (rng.nextDouble() - 0.3);
            }
            for (StatisticLaw[] p : pairs) {
                double direct = p[0].logDensity(x, 0) - p[1].logDensity(x, 0);
                assertEquals(direct, p[0].logRatio(p[1], x, 0), 1e-10 * Math.max(1, Math.abs(direct)));
            }
            // e_3 against the sum over the 35 subsets of size 3.
            double sum = 0;
            for (int a = 0; a < t; a++) {
                for (int b = a + 1; b < t; b++) {
                    for (int c = b + 1; c < t; c++) {
                        double[] m = new double[t];
                        m[a] = 1;
                        m[b] = 1;
                        m[c] = 1;
                        double sq = 0;
                        for (int i = 0; i < t; i++) {
                            sq += (x[i] - m[i]) * (x[i] - m[i]);
                        }
                        sum += Math.exp(-sq / (2 * s * s));
                    }
                }
            }
            double brute = Math.log(sum / 35) - t * (Math.log(s) + 0.5 * Math.log(2 * Math.PI));
            assertEquals(brute, pairs[2][0].logDensity(x, 0), 1e-9 * Math.abs(brute));
        }
    }

    @Test
    void linearAndLogSpaceElementarySymmetricAgreeAndTheFallbackIsExact() {
        UniformRandomProvider rng = RandomStreams.auxiliary(2);
        for (double sigma : new double[] {1.0, 0.3, 0.01}) {
            SubsetShiftLaw law = new SubsetShiftLaw(50, 4, 1, sigma);
            SubsetShiftLaw none = new SubsetShiftLaw(50, 0, 0, sigma);
            double[] x = new double[50];
            for (int r = 0; r < 100; r++) {
                for (int i = 0; i < x.length; i++) {
                    x[i] = sigma * normal(rng) + (i >= 1 && i <= 4 && r % 2 == 0 ? 1 : 0);
                }
                double a = 1 / (sigma * sigma);
                double logSpace = law.logElementarySymmetricInLogSpace(x, 0, a);
                double viaRatio = law.logRatio(none, x, 0) + SubsetShiftLaw.logBinomial(50, 4) + 4 * a / 2;
                // sigma = 0.01: a = 10^4, the scaled terms underflow and the log-space fallback must take over.
                assertEquals(logSpace, viaRatio, 1e-9 * Math.max(1, Math.abs(logSpace)), "sigma " + sigma);
                // k = 1: the one-pass sum relative to x_0 against a textbook two-pass log-sum-exp (at sigma = 0.01
                // the terms relative to x_0 overflow and the two-pass path must take over).
                double max = Double.NEGATIVE_INFINITY;
                for (double v : x) {
                    max = Math.max(max, a * v);
                }
                double sum = 0;
                for (double v : x) {
                    sum += Math.exp(a * v - max);
                }
                double textbook = max + Math.log(sum) - Math.log(50) - a / 2;
                double one = new SubsetShiftLaw(50, 1, 1, sigma).logRatio(none, x, 0);
                assertEquals(textbook, one, 1e-12 * Math.max(1, Math.abs(textbook)), "k = 1, sigma " + sigma);
            }
        }
    }

    private static double normal(UniformRandomProvider rng) {
        return Math.sqrt(-2 * Math.log(1 - rng.nextDouble())) * Math.cos(2 * Math.PI * rng.nextDouble());
    }

    @Test
    void faithfulAndReducedSimulatorsAgree() {
        Object[][] configurations = {
            {"shuffled-batches", "steps", 8.0, "sigma", 0.7},
            {"shuffled-batches", "steps", 8.0, "sigma", 0.7, "epochs", 3.0, "shuffle", "persistent"},
            {"shuffled-batches", "steps", 8.0, "sigma", 0.7, "epochs", 2.0},
            {"shuffled-batches", "steps", 8.0, "sigma", 0.7, "others", 0.5},
            {"shuffled-batches", "steps", 8.0, "sigma", 0.7, "epochs", 2.0, "others", -0.25},
            {"shuffled-batches", "steps", 8.0, "sigma", 0.7, "epochs", 2.0, "shuffle", "persistent", "others", 1.0},
            {"balls-and-bins", "steps", 8.0, "sigma", 0.7, "epochs", 2.0},
            {"random-allocation", "steps", 8.0, "sigma", 0.7, "k", 3.0},
            {"deterministic-batches", "steps", 8.0, "sigma", 0.7},
            {"poisson-batches", "steps", 8.0, "sigma", 0.7},
        };
        for (Object[] c : configurations) {
            AuditableMechanism m = mechanism((String) c[0], java.util.Arrays.copyOfRange(c, 1, c.length));
            MechanismSimulator reduced = m.reduced();
            MechanismSimulator faithful = m.faithful(new Parameters("simulator.", Map.of("kind", "faithful",
                    "records", 32.0)), RandomStreams.auxiliary(2));
            for (World w : World.values()) {
                double p = ks(losses(reduced, reduced, w, 3), losses(faithful, faithful, w, 4));
                assertTrue(p >= 1e-4, c[0] + " " + java.util.Arrays.toString(c) + ", world " + w.symbol() + ": p = " + p);
            }
        }
    }

    @Test
    void aPlantedBatchingBugIsCaught() {
        // The code claims a shuffle (equal batches) but drops each record into an independent uniform step.
        AuditableMechanism shuffle = mechanism("shuffled-batches", "steps", 8.0, "sigma", 0.7);
        MechanismSimulator reduced = shuffle.reduced();
        MechanismSimulator buggy = FaithfulBatchingSimulator.of(new BatchingParameters(
                BatchingParameters.Sampler.BALLS_AND_BINS, 8, 1, 0.7, 1, false), 32);
        // Score both with the shuffle's own likelihood ratio, on the outputs the buggy code produces (its other
        // records contribute nothing in balls-and-bins mode: shift them as the shuffle's do).
        double p = ks(losses(reduced, reduced, World.WITHOUT_CANARY, 5), losses(buggyShuffle(), reduced,
                World.WITHOUT_CANARY, 6));
        assertTrue(p < 1e-6, "the bug went unnoticed: p = " + p);
        assertTrue(buggy.outputLength() == reduced.outputLength());
    }

    /** A faithful shuffle with the bug: the permutation is replaced by an independent uniform step per record. */
    private static MechanismSimulator buggyShuffle() {
        int t = 8;
        int records = 32;
        MechanismSimulator reduced = mechanism("shuffled-batches", "steps", 8.0, "sigma", 0.7).reduced();
        return MechanismSimulator.of(reduced.outputModel(), "buggy shuffle", rng -> new TrialSampler() {
            private final org.apache.commons.rng.sampling.distribution.ZigguratSampler.NormalizedGaussian g =
                    org.apache.commons.rng.sampling.distribution.ZigguratSampler.NormalizedGaussian.of(rng);

            @Override
            public void sample(World world, double[] out, int trials) {
                for (int i = 0; i < trials; i++) {
                    int base = i * t;
                    java.util.Arrays.fill(out, base, base + t, 0.0);
                    for (int r = 0; r < records; r++) {
                        double grad = r == 0 ? (world == World.WITH_CANARY ? 1 : 0) : -1;
                        out[base + rng.nextInt(t)] += grad;
                    }
                    for (int s = 0; s < t; s++) {
                        out[base + s] += records / t + 0.7 * g.sample(); // shifted as the reduced pair is
                    }
                }
            }
        });
    }

    /** The reduced model's log-likelihood ratio of {@code DRAWS} outputs of {@code sim} (per trial, summed). */
    private static double[] losses(MechanismSimulator sim, MechanismSimulator model, World w, long seed) {
        TrialSampler s = sim.create(RandomStreams.auxiliary(seed));
        var m = model.outputModel();
        int length = sim.outputLength();
        double[] out = new double[length];
        double[] stat = new double[m.statisticDimension()];
        double[] l = new double[DRAWS];
        for (int i = 0; i < DRAWS; i++) {
            s.sample(w, out, 1);
            double sum = 0;
            for (int r = 0; r < m.rounds(); r++) {
                if (m.statistic().extract(out, r * m.roundDimension(), stat)) {
                    sum += m.withCanary().logRatio(m.withoutCanary(), stat, 0);
                }
            }
            l[i] = sum;
        }
        return l;
    }

    private static double ks(double[] a, double[] b) {
        return new KolmogorovSmirnovTest().kolmogorovSmirnovTest(a, b);
    }

    @Test
    void badParametersAreRefusedInOneLine() {
        assertThrows(InvalidInputException.class, () -> mechanism("shuffled-batches", "steps", 0.0, "sigma", 1.0));
        assertThrows(InvalidInputException.class, () -> mechanism("random-allocation", "steps", 4.0, "sigma", 1.0,
                "k", 5.0));
        assertThrows(InvalidInputException.class, () -> mechanism("shuffled-batches", "steps", 4.0, "sigma", 1.0,
                "shuffle", "sometimes"));
        assertThrows(InvalidInputException.class, () -> mechanism("balls-and-bins", "steps", 100000.0, "sigma", 1.0,
                "epochs", 100.0));
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> mechanism("shuffled-batches",
                "steps", 8.0, "sigma", 1.0).faithful(new Parameters("simulator.", Map.of("kind", "faithful",
                "records", 30.0)), RandomStreams.auxiliary(1)));
        assertTrue(e.getMessage().contains("records = 30: must be a multiple of steps (8)"), e.getMessage());
        e = assertThrows(InvalidInputException.class, () -> mechanism("shuffled-batches", "steps", 8.0, "sigma", 1.0,
                "others", 1.5));
        assertTrue(e.getMessage().contains("others = 1.5: must be in [-1, 1]"), e.getMessage());
        assertThrows(InvalidInputException.class, () -> mechanism("balls-and-bins", "steps", 8.0, "sigma", 1.0,
                "others", 0.0));
        e = assertThrows(InvalidInputException.class, () -> mechanism("shuffled-batches", "steps", 8.0, "sigma", 1.0,
                "others", 0.0, "view", "last-iterate"));
        assertTrue(e.getMessage().contains("others = 0: the last-iterate view"), e.getMessage());
    }

    /**
     * The shuffle's other datasets ({@code others} = v): at v = 0 the canary's step shows 1 against 0, balls-and-bins'
     * dominating pair, so the shuffle's max test must equal {@code bnb-max-test} (another implementation: formula
     * sheet §14.1); at v = 1 it shows 0 against -1, the same pair mirrored with the directions swapped, so the
     * minimum's tests must give the same again. Between, at T = 1000, sigma = 1, delta = 1e-6, the lower bound falls as
     * v rises from Chua et al.'s -1 to 0 (3.724 at v = -1, as their figure).
     */
    @Test
    void otherDatasetsOfTheShuffleMeetBallsAndBinsAtZeroAndItsMirrorAtOne() {
        PrivacyBound bnb = new AllocationMaxTestBound(new BatchingParameters(BatchingParameters.Sampler.BALLS_AND_BINS,
                1000, 1, 1.0, 1, false));
        for (double others : new double[] {0.0, 1.0}) {
            PrivacyBound shuffle = shuffleMaxTest(others);
            for (double eps : new double[] {0.05, 0.1, 0.3}) {
                double expected = bnb.delta(eps);
                assertEquals(expected, shuffle.delta(eps), 1e-9 * expected, "others " + others + ", eps " + eps);
            }
        }
        double previous = Double.POSITIVE_INFINITY;
        for (double others : new double[] {-1.0, -0.75, -0.5, -0.25, 0.0}) {
            double eps = shuffleMaxTest(others).epsilon(1e-6);
            assertTrue(eps < previous, "others " + others + ": " + eps + " after " + previous);
            previous = eps;
        }
        assertEquals(3.724, shuffleMaxTest(-1).epsilon(1e-6), 5e-4);
    }

    private static PrivacyBound shuffleMaxTest(double others) {
        return new ShuffleMaxTestBound(new BatchingParameters(BatchingParameters.Sampler.SHUFFLED, 1000, 1, 1.0, 1,
                false, others));
    }
}
