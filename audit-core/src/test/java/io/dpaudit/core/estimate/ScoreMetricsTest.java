package io.dpaudit.core.estimate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpaudit.core.engine.HistogramBinning;
import io.dpaudit.core.engine.ScoreCounts;
import io.dpaudit.core.rng.RandomStreams;
import org.apache.commons.math3.distribution.NormalDistribution;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import org.junit.jupiter.api.Test;

/** AUROC and TPR at fixed FPR from score counts: a worked example by hand, and Gaussian scores against their truth. */
class ScoreMetricsTest {
    /**
     * Scores {1, 2, 3} with the canary and {0, 1, 2} without, counted exactly: of the 9 pairs, (1,0), (2,0), (2,1),
     * (3,0), (3,1), (3,2) are ordered and (1,1), (2,2) tied, so AUROC = (6 + 2/2)/9 = 7/9; the Hoeffding radius at 95%
     * with min(m, n) = 3 is sqrt(ln(40)/6) = 0.78, so the interval is [0, 1].
     */
    @Test
    void workedExampleByHand() {
        HistogramBinning b = HistogramBinning.ranks(new double[] {0, 1, 2, 3});
        ScoreCounts counts = ScoreCounts.of(b, new long[] {0, 0, 1, 1, 1}, new long[] {0, 1, 1, 1, 0});
        ScoreMetrics.Auroc a = ScoreMetrics.auroc(counts, 3, 3, true, 0.05);
        assertEquals(7.0 / 9, a.estimate(), 1e-15);
        assertEquals(7.0 / 9, a.bracketLow(), 1e-15);
        assertEquals(0, a.lower(), 1e-15);
        assertEquals(1, a.upper(), 1e-15);
        // The same scores a hundred times each: the radius is sqrt(ln(40)/600) = 0.0784 and no longer clipped.
        ScoreCounts many = ScoreCounts.of(b, new long[] {0, 0, 100, 100, 100}, new long[] {0, 100, 100, 100, 0});
        ScoreMetrics.Auroc m = ScoreMetrics.auroc(many, 300, 300, true, 0.05);
        assertEquals(7.0 / 9, m.estimate(), 1e-15);
        assertEquals(7.0 / 9 - Math.sqrt(Math.log(40) / 600), m.lower(), 1e-12);
        assertEquals(7.0 / 9 + Math.sqrt(Math.log(40) / 600), m.upper(), 1e-12);
    }

    /**
     * The same counts in slots that may hold several values (a rank binning fixed from part of the scores, which other
     * scores fell between): the pairs within a slot that held other values, (1,1) and (2,2), are counted 0 or 1, so
     * the bracket is [6/9, 8/9], not the tie count 7/9; with only the slot of 2 mixed, [6.5/9, 7.5/9].
     */
    @Test
    void slotsHoldingSeveralValuesAreBracketedNotTied() {
        HistogramBinning b = HistogramBinning.ranks(new double[] {0, 1, 2, 3});
        ScoreCounts counts = ScoreCounts.of(b, new long[] {0, 0, 1, 1, 1}, new long[] {0, 1, 1, 1, 0});
        boolean[] all = {true, true, true, true, true};
        ScoreMetrics.Auroc a = ScoreMetrics.of(counts, counts, 0.95, ScoreMetrics.DEFAULT_FPRS, all).auroc();
        assertEquals(6.0 / 9, a.bracketLow(), 1e-15);
        assertEquals(8.0 / 9, a.bracketHigh(), 1e-15);
        // Only the slot of value 2 (slot 3) held other values: (1,1) is a tie, (2,2) either way.
        boolean[] one = {false, false, false, true, false};
        ScoreMetrics.Auroc c = ScoreMetrics.of(counts, counts, 0.95, ScoreMetrics.DEFAULT_FPRS, one).auroc();
        assertEquals(6.5 / 9, c.bracketLow(), 1e-15);
        assertEquals(7.5 / 9, c.bracketHigh(), 1e-15);
        assertTrue(c.method().contains("pairs bracketed within the 1 slot that also held other values"), c.method());
        assertEquals(7.0 / 9, ScoreMetrics.of(counts, counts, 0.95, ScoreMetrics.DEFAULT_FPRS).auroc().bracketHigh(),
                1e-15, "a rank binning whose values are exact still counts ties 1/2");
    }

    /**
     * Scores N(1, 1) with the canary and N(0, 1) without, 2·10^5 each (seed 20261126): the intervals contain the true
     * AUROC Φ(1/√2) = 0.7602 and the true TPR at each achieved FPR, Φ̄(Φ̄^{-1}(FPR) − 1).
     */
    @Test
    void gaussianScoresAgainstTheirTruth() {
        int n = 200_000;
        HistogramBinning b = new HistogramBinning(-6, 7, 8192);
        UniformRandomProvider rng = new RandomStreams(20261126L).next();
        ZigguratSampler.NormalizedGaussian g = ZigguratSampler.NormalizedGaussian.of(rng);
        long[][] with = new long[2][b.slots()];
        long[][] without = new long[2][b.slots()];
        for (int i = 0; i < n; i++) {
            int part = i % 10 == 0 ? 0 : 1;
            with[part][b.index(1 + g.sample())]++;
            without[part][b.index(g.sample())]++;
        }
        ScoreMetrics.Result r = ScoreMetrics.of(ScoreCounts.of(b, with[0], without[0]),
                ScoreCounts.of(b, with[1], without[1]), 0.95, ScoreMetrics.DEFAULT_FPRS);
        NormalDistribution z = new NormalDistribution(null, 0, 1);
        double auc = z.cumulativeProbability(1 / Math.sqrt(2));
        assertTrue(r.auroc().lower() <= auc && auc <= r.auroc().upper(), r.auroc().toString());
        assertTrue(r.auroc().upper() - r.auroc().lower() < 0.02, r.auroc().toString());
        for (ScoreMetrics.TprAtFpr t : r.tprAtFpr()) {
            double fpr = 1 - z.cumulativeProbability(t.threshold());
            double tpr = 1 - z.cumulativeProbability(t.threshold() - 1);
            assertTrue(t.fprLower() <= fpr && fpr <= t.fprUpper(), t.toString());
            assertTrue(t.tprLower() <= tpr && tpr <= t.tprUpper(), t.toString());
        }
        assertEquals(4, r.tprAtFpr().size());
    }
}
