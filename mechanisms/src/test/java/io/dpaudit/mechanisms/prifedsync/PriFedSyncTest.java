package io.dpaudit.mechanisms.prifedsync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpaudit.core.bounds.BoundFamily;
import io.dpaudit.core.bounds.BoundKind;
import io.dpaudit.core.bounds.PrivacyBound;
import io.dpaudit.core.engine.TrialSampler;
import io.dpaudit.core.engine.World;
import io.dpaudit.core.fdp.BoundTradeOff;
import io.dpaudit.core.fdp.GaussianTradeOff;
import io.dpaudit.core.fdp.SubsampledTradeOff;
import io.dpaudit.core.fdp.TradeOffFunction;
import io.dpaudit.core.law.StatisticLaw;
import io.dpaudit.core.model.MechanismSimulator;
import io.dpaudit.core.model.OutputModel;
import io.dpaudit.core.model.Parameters;
import io.dpaudit.core.rng.RandomStreams;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.apache.commons.math3.stat.inference.KolmogorovSmirnovTest;
import org.junit.jupiter.api.Test;

/**
 * PriFedSync: the faithful and reduced simulators agree (two-sample Kolmogorov–Smirnov test on the exact log-likelihood
 * ratio of each trial, level 1e-3 per comparison on fixed seeds: a correct simulator fails one with probability 1e-3,
 * the eight comparisons here with probability below 1%), and the seed's statements against the exact curve.
 */
class PriFedSyncTest {
    static PriFedSync mechanism(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("type", "prifedsync");
        for (int i = 0; i < kv.length; i += 2) {
            Object v = kv[i + 1];
            m.put((String) kv[i], v instanceof Number n ? (Object) n.doubleValue() : v);
        }
        Parameters p = new Parameters("mechanism.", m);
        return new PriFedSync(p, PriFedSyncParameters.parse(p));
    }

    private static PrivacyBound bound(PriFedSync m, String name) {
        return m.boundFamilies().stream().filter(f -> f.name().equals(name)).findFirst()
                .map(BoundFamily::atCurrent).orElseThrow();
    }

    /** The exact log-likelihood ratio of each trial, sorted; unseen rounds contribute 0. */
    private static double[] scores(MechanismSimulator sim, World w, long seed, int n) {
        TrialSampler s = sim.create(new RandomStreams(seed).next());
        OutputModel m = sim.outputModel();
        double[] out = new double[n * m.outputLength()];
        s.sample(w, out, n);
        StatisticLaw a = m.withCanary();
        StatisticLaw b = m.withoutCanary();
        double[] stat = new double[m.statisticDimension()];
        double[] scores = new double[n];
        for (int i = 0; i < n; i++) {
            double total = 0;
            for (int r = 0; r < m.rounds(); r++) {
                if (m.statistic().extract(out, (i * m.rounds() + r) * m.roundDimension(), stat)) {
                    total += a.logDensity(stat, 0) - b.logDensity(stat, 0);
                }
            }
            scores[i] = total;
        }
        Arrays.sort(scores);
        return scores;
    }

    @Test
    void faithfulAndReducedAgree() {
        PriFedSync[] cases = {
            mechanism("clients", 5, "records", 20, "batch", 4, "localSteps", 3, "sigma", 0.8, "p", 0.6, "rounds", 2),
            mechanism("clients", 5, "records", 20, "batch", 4, "localSteps", 3, "sigma", 0.8, "p", 0.6, "rounds", 2,
                    "notion", "strong", "pair", "one-sided"),
            mechanism("clients", 4, "records", 10, "batch", 10, "localSteps", 1, "sigma", 1.0, "p", 0.3, "rounds", 3,
                    "view", "broadcast"),
            mechanism("clients", 3, "records", 50, "batch", 7, "localSteps", 5, "sigma", 0.6, "p", 1, "rounds", 1),
        };
        long seed = 200;
        for (PriFedSync m : cases) {
            MechanismSimulator f = m.faithful(new Parameters("simulator.", Map.of("kind", "faithful")), null);
            MechanismSimulator r = m.reduced();
            for (World w : World.values()) {
                double pv = new KolmogorovSmirnovTest().kolmogorovSmirnovTest(scores(f, w, seed++, 20_000),
                        scores(r, w, seed++, 20_000));
                assertTrue(pv > 1e-3, String.format(Locale.ROOT, "%s, %s: KS p = %.2e", m.parameters().values(),
                        w.symbol(), pv));
            }
        }
    }

    /** The proven bound lies on or above the exact curve everywhere checked. */
    @Test
    void theProvenBoundIsAboveTheExactCurve() {
        for (PriFedSync m : new PriFedSync[] {
            mechanism("clients", 10, "records", 100, "batch", 35, "localSteps", 1, "sigma", 0.5556, "p", 1),
            mechanism("clients", 10, "records", 600, "batch", 64, "localSteps", 5, "sigma", 0.75, "p", 0.5,
                    "rounds", 4),
            mechanism("clients", 10, "records", 600, "batch", 64, "localSteps", 5, "sigma", 0.75, "p", 0.5,
                    "rounds", 4, "pair", "one-sided", "view", "broadcast")}) {
            PrivacyBound exact = bound(m, "prifedsync-exact");
            PrivacyBound proven = bound(m, "swr-replace-one-pld");
            assertEquals(BoundKind.PAIR_PROFILE, exact.kind());
            for (double eps : new double[] {0, 0.5, 1, 2, 4}) {
                assertTrue(proven.delta(eps) >= exact.delta(eps) * (1 - 1e-9), m.parameters().values() + " at " + eps
                        + ": " + proven.delta(eps) + " < " + exact.delta(eps));
            }
        }
    }

    /**
     * One step, all clients sampled (the seed's Figure E.1 setting, C_p(G_1.8) with p = 0.35): for the one-sided
     * pair the exact curve lies above C_{0.35}(G_1.8), as the seed's Lemma D.1 says; for the symmetric pair (replace
     * one record whose clipped gradient flips sign) it falls below it — the printed per-step G_{1/sigma} assumes
     * sensitivity C — and stays above C_{0.35}(G_3.6).
     */
    @Test
    void figureE1TheOneSidedPairHoldsTheSymmetricOneDoesNot() {
        TradeOffFunction printed = new SubsampledTradeOff(new GaussianTradeOff(1.8), 0.35);
        TradeOffFunction doubled = new SubsampledTradeOff(new GaussianTradeOff(3.6), 0.35);
        TradeOffFunction oneSided = BoundTradeOff.of(bound(mechanism("clients", 2, "records", 100, "batch", 35,
                "sigma", 1 / 1.8, "p", 1, "pair", "one-sided"), "prifedsync-exact"));
        TradeOffFunction symmetric = BoundTradeOff.of(bound(mechanism("clients", 2, "records", 100, "batch", 35,
                "sigma", 1 / 1.8, "p", 1), "prifedsync-exact"));
        double worst = 0;
        for (double a = 0.0; a <= 1.0; a += 0.01) {
            // BoundTradeOff is at most the exact curve (grid), so its being above proves the true one is.
            assertTrue(oneSided.beta(a) >= printed.beta(a) - 1e-3, "one-sided at " + a);
            assertTrue(symmetric.beta(a) >= doubled.beta(a) - 1e-3, "symmetric vs doubled at " + a);
            worst = Math.max(worst, printed.beta(a) - symmetric.beta(a));
        }
        assertTrue(worst > 0.05, "the symmetric pair falls below the printed C_p(G_1.8) by " + worst);
    }

    /**
     * Lemma 3.8 in the broadcast view: a round of client j reaches the adversary with probability p, not p^2, and
     * the round's curve falls below 1 - alpha - p^2 near alpha = 0 (here by about p - p^2).
     */
    @Test
    void lemma38FailsInTheBroadcastView() {
        PriFedSync m = mechanism("clients", 10, "records", 10, "batch", 10, "sigma", 0.5, "p", 0.1,
                "view", "broadcast");
        TradeOffFunction exact = BoundTradeOff.of(bound(m, "prifedsync-exact"));
        assertTrue(exact.beta(1e-4) < 1 - 1e-4 - 0.01 - 0.05, "beta at alpha = 1e-4: " + exact.beta(1e-4));
        PriFedSync perRound = mechanism("clients", 10, "records", 10, "batch", 10, "sigma", 0.5, "p", 0.1);
        TradeOffFunction seed = BoundTradeOff.of(bound(perRound, "prifedsync-exact"));
        assertTrue(seed.beta(1e-4) >= 1 - 1e-4 - 0.01 - 1e-3, "per-round view: " + seed.beta(1e-4));
    }
}
