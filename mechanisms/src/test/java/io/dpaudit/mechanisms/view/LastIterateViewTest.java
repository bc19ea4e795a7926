package io.dpaudit.mechanisms.view;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpaudit.core.InvalidInputException;
import io.dpaudit.core.bounds.BoundKind;
import io.dpaudit.core.bounds.GaussianBound;
import io.dpaudit.core.bounds.PoissonSubsampledGaussianBound;
import io.dpaudit.core.bounds.PrivacyBound;
import io.dpaudit.core.engine.TrialSampler;
import io.dpaudit.core.engine.World;
import io.dpaudit.core.model.AuditableMechanism;
import io.dpaudit.core.model.MechanismSimulator;
import io.dpaudit.core.model.Parameters;
import io.dpaudit.core.numerics.Normal;
import io.dpaudit.core.rng.RandomStreams;
import io.dpaudit.mechanisms.MechanismCatalog;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.commons.math3.distribution.NormalDistribution;
import org.apache.commons.math3.stat.inference.KolmogorovSmirnovTest;
import org.junit.jupiter.api.Test;

/**
 * The last-iterate view (formula sheet §16.1): its exact profile against independent computations (the one-round
 * closed form at T = 1, the Gaussian mechanism for fixed participation, quadrature of {@code (p - e^eps q)_+} for a
 * Binomial count), and its simulators against each other and the law.
 *
 * <p>The simulator comparisons are two-sample (or one-sample) Kolmogorov–Smirnov tests at level 0.001 on 20,000 values
 * per world from fixed seeds: 18 comparisons, so a random seed would fail one with probability at most 1.8% if the
 * simulators agree; with the fixed seeds the outcome is deterministic. A planted count (K one too many) must be
 * rejected, which shows the comparison has power.
 */
class LastIterateViewTest {
    private static final int N = 20_000;
    private static final double LEVEL = 0.001;

    private static AuditableMechanism parse(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], kv[i + 1] instanceof Integer n ? (double) n : kv[i + 1]);
        }
        return MechanismCatalog.parse(new Parameters("mechanism.", m));
    }

    private static PrivacyBound bound(AuditableMechanism m, String name) {
        return m.bounds().stream().filter(b -> b.name().equals(name)).findFirst().orElseThrow(() ->
                new AssertionError(name + " not among " + m.bounds().stream().map(PrivacyBound::name).toList()));
    }

    @Test
    void atOneRoundTheViewIsTheSubsampledGaussiansClosedForm() {
        AuditableMechanism m = parse("type", "poisson-subsampled-gaussian", "q", 0.2, "sigma", 0.8, "clip", 2.0,
                "rounds", 1, "view", "last-iterate");
        PrivacyBound exact = bound(m, LastIterateView.EXACT);
        PoissonSubsampledGaussianBound independent = new PoissonSubsampledGaussianBound(0.2, 2.0 / 0.8);
        for (double eps : new double[] {0, 0.1, 0.5, 1, 2, 4, 8}) {
            double a = exact.delta(eps);
            double b = independent.delta(eps);
            assertEquals(b, a, 1e-9 * b + 1e-300, "eps " + eps);
        }
    }

    @Test
    void fixedParticipationIsTheGaussianMechanismOfKOverS() {
        // balls-and-bins, T = 100, E = 4: K = 4, s = 0.5 sqrt(400) = 10, mu = 0.4; random allocation k = 3: K = 12
        for (Object[] c : new Object[][] {{"balls-and-bins", 1, 0.4}, {"random-allocation", 3, 1.2},
            {"shuffled-batches", 1, 0.4}}) {
            AuditableMechanism m = c[0].equals("random-allocation")
                    ? parse("type", c[0], "steps", 100, "epochs", 4, "sigma", 0.5, "k", c[1], "view", "last-iterate")
                    : parse("type", c[0], "steps", 100, "epochs", 4, "sigma", 0.5, "view", "last-iterate");
            double mu = (double) c[2];
            for (String name : List.of(LastIterateView.EXACT, LastIterateView.HEURISTIC)) {
                PrivacyBound b = bound(m, name);
                for (double eps : new double[] {0, 0.05, 0.3, 1, 3}) {
                    double want = GaussianBound.exactDelta(eps, mu);
                    assertEquals(want, b.delta(eps), 1e-8 * want + 1e-300, c[0] + " " + name + " eps " + eps);
                }
            }
        }
    }

    /**
     * {@code max(int (p - e^eps q)_+, int (q - e^eps p)_+)} at each eps by the trapezoid rule on 2 * 10^6 intervals
     * (absolute error about 1e-9 at the kinks).
     */
    private static double[] quadrature(CountLaw law, double s, double[] eps) {
        double lo = law.min() - 40 * s;
        double hi = law.max() + 40 * s;
        int n = 2_000_000;
        double h = (hi - lo) / n;
        double[] remove = new double[eps.length];
        double[] add = new double[eps.length];
        for (int i = 0; i <= n; i++) {
            double x = lo + i * h;
            double p = 0;
            for (int k = 0; k < law.pmf().length; k++) {
                p += law.pmf()[k] * Normal.pdf((x - law.min() - k) / s) / s;
            }
            double q = Normal.pdf(x / s) / s;
            double w = i == 0 || i == n ? 0.5 : 1.0;
            for (int j = 0; j < eps.length; j++) {
                remove[j] += w * Math.max(0, p - Math.exp(eps[j]) * q);
                add[j] += w * Math.max(0, q - Math.exp(eps[j]) * p);
            }
        }
        double[] out = new double[eps.length];
        for (int j = 0; j < eps.length; j++) {
            out[j] = Math.max(remove[j], add[j]) * h;
        }
        return out;
    }

    @Test
    void aBinomialCountsProfileMatchesQuadrature() {
        // poisson-batches T = 20, E = 1: K ~ Binomial(20, 0.05), s = 0.3 sqrt(20)
        AuditableMechanism m = parse("type", "poisson-batches", "steps", 20, "sigma", 0.3, "view", "last-iterate");
        CountMixtureProfile exact = (CountMixtureProfile) bound(m, LastIterateView.EXACT);
        double[] eps = {0, 0.2, 0.6, 1.5};
        double[] want = quadrature(exact.law(), 0.3 * Math.sqrt(20), eps);
        for (int j = 0; j < eps.length; j++) {
            assertEquals(want[j], exact.delta(eps[j]), 1e-6 * want[j] + 1e-8, "eps " + eps[j]);
        }
    }

    @Test
    void theHeuristicIsFarBelowTheTranscriptsAccountingAndBothAreShown() {
        AuditableMechanism m = parse("type", "poisson-batches", "steps", 1000, "sigma", 1.0, "view", "last-iterate");
        List<String> names = m.bounds().stream().map(PrivacyBound::name).toList();
        assertTrue(names.containsAll(List.of("poisson-pld", "deterministic", LastIterateView.EXACT,
                LastIterateView.HEURISTIC)), names.toString());
        double transcript = PrivacyBound.epsilonAt(bound(m, "poisson-pld"), 1e-5);
        double lastIterate = PrivacyBound.epsilonAt(bound(m, LastIterateView.HEURISTIC), 1e-5);
        assertTrue(lastIterate < transcript, lastIterate + " vs " + transcript);
        assertEquals(BoundKind.APPROXIMATION, bound(m, LastIterateView.HEURISTIC).kind());
        assertEquals(BoundKind.PAIR_PROFILE, bound(m, LastIterateView.EXACT).kind());
        assertEquals(LastIterateView.EXACT, m.referenceBound());
    }

    @Test
    void onlyTheTranscriptsCertifiedUpperBoundsCarryOver() {
        AuditableMechanism m = parse("type", "shuffled-batches", "steps", 100, "sigma", 1.0, "view", "last-iterate");
        List<String> names = m.bounds().stream().map(PrivacyBound::name).toList();
        assertTrue(names.contains("deterministic"), names.toString());
        assertFalse(names.contains("chua24-shuffle-lower"), "a transcript lower bound is no last-iterate lower bound");
        assertFalse(names.contains("poisson-pld"), "known-wrong for the transcript, unproven here");
        for (PrivacyBound b : m.bounds()) {
            assertTrue(b.kind() == BoundKind.UPPER_BOUND || b.name().startsWith("last-iterate"), b.name());
        }
        assertEquals(100, m.roundsPerTrial());
        assertEquals(1, m.reduced().outputLength());
    }

    @Test
    void anUnknownViewIsRefusedNamingTheField() {
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> parse("type", "balls-and-bins",
                "steps", 10, "sigma", 1.0, "view", "final-model"));
        assertTrue(e.getMessage().contains("mechanism.view") && e.getMessage().contains("final-model"),
                e.getMessage());
        assertEquals("balls-and-bins", parse("type", "balls-and-bins", "steps", 10, "sigma", 1.0, "view",
                "transcript").type());
    }

    private static double[] draw(MechanismSimulator sim, World w, long seed) {
        TrialSampler s = sim.create(new RandomStreams(seed).next());
        double[] out = new double[N];
        s.sample(w, out, N);
        return out;
    }

    @Test
    void theFaithfulSumOfReleasesIsTheReducedPairInBothWorlds() {
        List<Object[]> cases = List.of(
                new Object[] {"poisson-batches", parse("type", "poisson-batches", "steps", 10, "epochs", 2, "sigma",
                        0.3, "view", "last-iterate")},
                new Object[] {"balls-and-bins", parse("type", "balls-and-bins", "steps", 10, "epochs", 2, "sigma",
                        0.3, "view", "last-iterate")},
                new Object[] {"shuffled-batches", parse("type", "shuffled-batches", "steps", 10, "epochs", 2, "sigma",
                        0.3, "shuffle", "persistent", "view", "last-iterate")},
                new Object[] {"random-allocation", parse("type", "random-allocation", "steps", 10, "k", 3, "sigma",
                        0.3, "view", "last-iterate")},
                new Object[] {"poisson-subsampled-gaussian", parse("type", "poisson-subsampled-gaussian", "q", 0.1,
                        "sigma", 0.5, "clip", 1.0, "rounds", 12, "view", "last-iterate")});
        long seed = 1;
        for (Object[] c : cases) {
            AuditableMechanism m = (AuditableMechanism) c[1];
            MechanismSimulator faithful = m.faithful(new Parameters("simulator.", Map.of("kind", "faithful")),
                    RandomStreams.auxiliary(7));
            MechanismSimulator reduced = m.reduced();
            for (World w : World.values()) {
                double p = new KolmogorovSmirnovTest().kolmogorovSmirnovTest(draw(faithful, w, seed++),
                        draw(reduced, w, seed++));
                assertTrue(p > LEVEL, String.format(Locale.ROOT, "%s %s: KS p = %.2e", c[0], w.symbol(), p));
            }
        }
    }

    @Test
    void theReducedSamplerFollowsTheLaw() {
        AuditableMechanism m = parse("type", "poisson-subsampled-gaussian", "q", 0.05, "sigma", 0.4, "rounds", 40,
                "view", "last-iterate");
        LastIteratePair pair = ((LastIterateView) m).pair();
        CountLaw law = pair.withCanary();
        double s = pair.noise();
        double[] x = draw(m.reduced(), World.WITH_CANARY, 99);
        double p = new KolmogorovSmirnovTest().kolmogorovSmirnovTest(new CountMixtureDistribution(law, s), x);
        assertTrue(p > LEVEL, "KS p = " + p);
        double[] y = draw(m.reduced(), World.WITHOUT_CANARY, 98);
        assertTrue(new KolmogorovSmirnovTest().kolmogorovSmirnovTest(new NormalDistribution(null, 0, s), y) > LEVEL);
    }

    @Test
    void aPlantedCountIsRejected() {
        AuditableMechanism m = parse("type", "balls-and-bins", "steps", 10, "epochs", 2, "sigma", 0.3, "view",
                "last-iterate");
        LastIteratePair right = ((LastIterateView) m).pair();
        LastIteratePair planted = new LastIteratePair(CountLaw.point(3), 0, right.noise(), 1.0); // 3 where E = 2
        double p = new KolmogorovSmirnovTest().kolmogorovSmirnovTest(draw(m.faithful(new Parameters("simulator.",
                Map.of("kind", "faithful")), RandomStreams.auxiliary(7)), World.WITH_CANARY, 5),
                draw(LastIterateSimulators.reduced(planted), World.WITH_CANARY, 6));
        assertTrue(p < 1e-6, "KS p = " + p);
    }

    @Test
    void aCraftedCanaryKeepsTheTranscriptAndAddsTheHeuristicToRefute() {
        AuditableMechanism transcript = parse("type", "poisson-batches", "steps", 100, "sigma", 0.8);
        AuditableMechanism crafted = parse("type", "poisson-batches", "steps", 100, "sigma", 0.8, "view",
                "last-iterate", "canary", "crafted");
        assertEquals(transcript.reduced().outputLength(), crafted.reduced().outputLength());
        assertEquals(transcript.referenceBound(), crafted.referenceBound());
        double heuristic = PrivacyBound.epsilonAt(bound(crafted, LastIterateView.HEURISTIC), 1e-5);
        double exact = PrivacyBound.epsilonAt(bound(crafted, "poisson-pld"), 1e-5);
        assertTrue(heuristic < exact / 2, heuristic + " vs " + exact);
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> parse("type", "poisson-batches",
                "steps", 100, "sigma", 0.8, "canary", "crafted"));
        assertTrue(e.getMessage().contains("mechanism.canary"), e.getMessage());
    }
}
