package io.dpaudit.mechanisms.participation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpaudit.core.engine.TrialSampler;
import io.dpaudit.core.engine.World;
import io.dpaudit.core.model.MechanismSimulator;
import io.dpaudit.core.model.LinearStatistic;
import io.dpaudit.core.model.OutputModel;
import io.dpaudit.core.model.Parameters;
import io.dpaudit.core.rng.RandomStreams;
import io.dpaudit.mechanisms.common.BernoulliProcess;
import io.dpaudit.core.law.BinomialTable;
import java.util.Locale;
import java.util.Map;
import org.apache.commons.math3.stat.inference.KolmogorovSmirnovTest;
import org.junit.jupiter.api.Test;

/**
 * Faithful (explicit clients, records, clipping, every sampling decision of Algorithm 1) against reduced (exact
 * sufficient statistic) for every adversary configuration and variant: the likelihood-ratio scores — what the
 * adversary uses — must have the same law. Two-sample Kolmogorov–Smirnov tests at level 0.001 on 20,000 trials per
 * world from a fixed seed (false-failure rate per comparison at most 0.1% for a random seed); the same test must reject
 * a reduced simulator with a misreported participation probability.
 */
class ParticipationSimulatorTest {
    private static final int N = 20_000;

    /** Log-likelihood ratios of N outputs, computed here from the model's mixtures (independently of the attacks). */
    private static double[] scores(MechanismSimulator sim, World w, long seed) {
        TrialSampler s = sim.create(new RandomStreams(seed).next());
        OutputModel m = sim.outputModel();
        double[] out = new double[N * sim.outputLength()];
        s.sample(w, out, N);
        int k = m.statisticDimension();
        double[] stat = new double[k];
        double[] llr = new double[N];
        for (int i = 0; i < N; i++) {
            for (int t = 0; t < m.rounds(); t++) {
                int base = (i * m.rounds() + t) * m.roundDimension();
                LinearStatistic lin = m.linearStatistic();
                if (lin.flagIndex() >= 0 && out[base + lin.flagIndex()] == 0) {
                    continue;
                }
                for (int a = 0; a < k; a++) {
                    double[] row = lin.basisRow(a);
                    double y = 0;
                    for (int j = 0; j < row.length; j++) {
                        y += row[j] * out[base + j];
                    }
                    stat[a] = y;
                }
                llr[i] += m.withCanary().logDensity(stat, 0) - m.withoutCanary().logDensity(stat, 0);
            }
        }
        return llr;
    }

    private static double pValue(RandomParticipation faithfulMech, RandomParticipation reducedMech, World w) {
        MechanismSimulator f = faithfulMech.faithful(new Parameters("simulator.", Map.of("kind", "faithful",
                "clients", 5.0, "dimension", 4.0)), RandomStreams.auxiliary(9));
        MechanismSimulator r = reducedMech.reduced();
        return new KolmogorovSmirnovTest().kolmogorovSmirnovTest(scores(f, w, 1), scores(r, w, 2));
    }

    @Test
    void faithfulAndReducedAgreeForEveryConfigurationAndVariant() {
        for (String variant : new String[] {"random-participation", "reveal-participation", "central-shuffling"}) {
            for (String adversary : new String[] {"aligned", "orthogonal", "zero"}) {
                RandomParticipation m = RandomParticipationBoundsTest.mechanism("p", 0.3, "q", 0.4, "d", 3,
                        "sigma", 0.8, "adversary", adversary, "variant", variant);
                for (World w : World.values()) {
                    double pv = pValue(m, m, w);
                    assertTrue(pv > 0.001, String.format(Locale.ROOT, "%s/%s %s: KS p = %.2e", variant, adversary,
                            w.symbol(), pv));
                }
            }
        }
    }

    @Test
    void theComparisonDetectsAMisreportedParticipationProbability() {
        RandomParticipation truth = RandomParticipationBoundsTest.mechanism("p", 0.3, "q", 0.4, "d", 3, "sigma", 0.8,
                "adversary", "aligned");
        RandomParticipation wrong = RandomParticipationBoundsTest.mechanism("p", 0.2, "q", 0.4, "d", 3, "sigma", 0.8,
                "adversary", "aligned");
        double pv = pValue(truth, wrong, World.WITHOUT_CANARY);
        assertTrue(pv < 0.001, "p = 0.3 vs 0.2 not detected: " + pv);
    }

    @Test
    void binomialTableIsNormalisedAndSampledInProportion() {
        BinomialTable t = new BinomialTable(40, 0.15);
        double total = 0;
        for (int i = 0; i < t.size(); i++) {
            total += t.probability(i);
        }
        assertEquals(1.0, total, 1e-14);
        int[] counts = new int[41];
        var rng = new RandomStreams(3).next();
        int draws = 1_000_000;
        for (int i = 0; i < draws; i++) {
            counts[t.sample(rng)]++;
        }
        for (int i = 0; i < t.size(); i++) {
            double e = draws * t.probability(i);
            assertEquals(e, counts[t.first() + i], 5 * Math.sqrt(e) + 1e-9, "k = " + (t.first() + i));
        }
    }

    @Test
    void bernoulliProcessHasTheRightRateAndNoMemory() {
        for (double p : new double[] {0.02, 0.3}) {
            BernoulliProcess b = new BernoulliProcess(new RandomStreams(4).next(), p);
            int n = 1_000_000;
            long ones = 0;
            long pairs = 0;
            boolean prev = false;
            for (int i = 0; i < n; i++) {
                boolean x = b.next();
                ones += x ? 1 : 0;
                pairs += x && prev ? 1 : 0;
                prev = x;
            }
            assertEquals(n * p, ones, 5 * Math.sqrt(n * p * (1 - p)), "rate " + p);
            double pm = (n - 1) * p * p;
            assertEquals(pm, pairs, 5 * Math.sqrt(n * (p * p * (1 - p * p) + 2 * p * p * p * (1 - p))), "pairs " + p);
        }
    }
}
