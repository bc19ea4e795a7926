package io.dpaudit.attacks;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpaudit.core.bounds.BoundKind;
import io.dpaudit.core.bounds.DiscretePairProfile;
import io.dpaudit.core.engine.HistogramBinning;
import io.dpaudit.core.engine.ScoreCounts;
import io.dpaudit.core.engine.Scorer;
import io.dpaudit.core.law.DiscreteLaw;
import io.dpaudit.core.model.OutputModel;
import org.junit.jupiter.api.Test;

class DiscreteLogRatioScorerTest {
    private static DiscreteLaw law(double... p) {
        return DiscreteLaw.ofProbabilities(p, i -> "atom " + i);
    }

    /** Atoms 1 and 2 have the same ratio (0.3/0.2 = 0.15/0.1): one value, one rank; the ranks follow the ratio. */
    @Test
    void oneRoundScoresAreRanksOfTheDistinctRatios() {
        DiscreteLaw p = law(0.1, 0.3, 0.15, 0.45);
        DiscreteLaw q = law(0.4, 0.2, 0.1, 0.3);
        Scorer s = LikelihoodRatioAttack.of(OutputModel.ofAtoms(1, p, q));
        assertInstanceOf(DiscreteLogRatioScorer.class, s);
        double[] values = s.rankValues();
        assertEquals(2, values.length, "log(1.5) is shared by atoms 1, 2 and 3; atom 0 has log(1/4)");
        assertEquals(Math.log(0.25), values[0], 1e-9);
        assertEquals(Math.log(1.5), values[1], 1e-9);
        double[] scores = s.score(new double[] {0, 1, 2, 3}, 4, new double[4]);
        assertArrayEquals(new double[] {0, 1, 1, 1}, scores);
    }

    /** Over rounds, a trial's score depends on the multiset of its atoms only, and every sum is a rank. */
    @Test
    void roundsSumExactlyAndTheSumsetIsEnumerated() {
        DiscreteLaw p = law(0.2, 0.3, 0.5);
        DiscreteLaw q = law(0.5, 0.3, 0.2);
        Scorer s = LikelihoodRatioAttack.of(OutputModel.ofAtoms(3, p, q));
        double[] values = s.rankValues();
        // Per-round ratios -a, 0, +a; three rounds: -3a .. 3a, seven values.
        assertEquals(7, values.length);
        double a = Math.log(2.5);
        assertEquals(3 * a, values[6], 1e-9);
        double[] scores = s.score(new double[] {0, 2, 1, 2, 1, 0, 1, 0, 2}, 3, new double[3]);
        assertEquals(scores[0], scores[1]);
        assertEquals(scores[0], scores[2]);
        assertEquals(3.0, scores[0], "0 + a - a sits in the middle rank");
    }

    /** Beyond 2^20 distinct sums the score is the rounded ratio itself, histogrammed like a continuous score. */
    @Test
    void tooManySumsFallBackToValues() {
        double[] w = new double[64];
        double[] v = new double[64];
        for (int i = 0; i < 64; i++) {
            w[i] = 1.0 + Math.sqrt(i);
            v[i] = 1.0 + Math.sqrt(63 - i) + 0.01 * i * i;
        }
        Scorer s = LikelihoodRatioAttack.of(OutputModel.ofAtoms(8, law(normalise(w)), law(normalise(v))));
        assertNull(s.rankValues());
        double[] out = new double[8];
        double score = s.score(out, 1, new double[1])[0];
        assertEquals(8 * Math.log(normalise(w)[0] / normalise(v)[0]), score, 1e-8);
    }

    private static double[] normalise(double[] x) {
        double s = 0;
        for (double y : x) {
            s += y;
        }
        double[] r = new double[x.length];
        for (int i = 0; i < x.length; i++) {
            r[i] = x[i] / s;
        }
        return r;
    }

    /**
     * Deterministic thresholds at the exact ranks reach the exact profile: with counts equal to their expectations, the
     * best test "ratio at least v" gives {@code max_v [P(L >= v) - e^eps Q(L >= v)] = H_{e^eps}(P || Q)} (and the reverse
     * order likewise), which is why the estimator needs no randomised tests for (epsilon, delta).
     */
    @Test
    void thresholdsAtTheValuesReachTheExactProfile() {
        DiscreteLaw p = law(0.05, 0.15, 0.3, 0.5);
        DiscreteLaw q = law(0.4, 0.3, 0.2, 0.1);
        Scorer s = LikelihoodRatioAttack.of(OutputModel.ofAtoms(1, p, q));
        HistogramBinning binning = HistogramBinning.ranks(s.rankValues());
        long n = 1_000_000_000L;
        long[] withCanary = new long[binning.slots()];
        long[] withoutCanary = new long[binning.slots()];
        for (int atom = 0; atom < 4; atom++) {
            int rank = (int) s.score(new double[] {atom}, 1, new double[1])[0];
            withCanary[binning.index(rank)] += Math.round(n * p.probability(atom));
            withoutCanary[binning.index(rank)] += Math.round(n * q.probability(atom));
        }
        ScoreCounts counts = ScoreCounts.of(binning, withCanary, withoutCanary);
        long[] upD = counts.upperTail(io.dpaudit.core.engine.World.WITH_CANARY);
        long[] upQ = counts.upperTail(io.dpaudit.core.engine.World.WITHOUT_CANARY);
        DiscretePairProfile exact = new DiscretePairProfile("x", "x", BoundKind.PAIR_PROFILE, p, q, 0);
        for (double eps : new double[] {0, 0.5, 1, 1.5}) {
            double best = 0;
            double bestAdd = 0;
            for (int k = 0; k <= binning.bins(); k++) {
                best = Math.max(best, (upD[k] - Math.exp(eps) * upQ[k]) / (double) n);
                bestAdd = Math.max(bestAdd, ((n - upQ[k]) - Math.exp(eps) * (n - upD[k])) / (double) n);
            }
            assertEquals(exact.remove(eps), best, 1e-12, "remove at " + eps);
            assertEquals(exact.add(eps), bestAdd, 1e-12, "add at " + eps);
            assertTrue(best > 0 || eps > 1.6);
        }
    }
}
