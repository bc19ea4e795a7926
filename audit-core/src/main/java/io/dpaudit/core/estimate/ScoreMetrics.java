package io.dpaudit.core.estimate;

import io.dpaudit.core.engine.HistogramBinning;
import io.dpaudit.core.engine.ScoreCounts;
import io.dpaudit.core.engine.World;
import java.util.ArrayList;
import java.util.List;

/**
 * The membership-inference view of a score audit, with confidence: the area under the ROC curve and the true-positive
 * rate at fixed false-positive rates (a score at or above the threshold says "with the canary").
 *
 * <p><b>AUROC.</b> {@code A = P(S > S') + P(S = S')/2} for independent scores S (with the canary) and S' (without), a
 * two-sample U-statistic with kernel in [0, 1]. From histogram counts it is bracketed: pairs in one interior bin may be
 * ordered either way, so {@code [A_lo, A_hi]} counts them 0 or 1 (an exact binning, where a slot is one value, counts
 * them 1/2 and the bracket closes). The interval widens the bracket by Hoeffding's bound for two-sample U-statistics
 * (Hoeffding 1963, Section 5b): {@code P(U - A >= t) <= exp(-2 min(m, n) t^2)}, each side at level {@code (1 - c)/2};
 * no assumption on the scores' laws.
 *
 * <p><b>TPR at FPR.</b> For each target false-positive rate f, the threshold is chosen on the <i>choice</i> counts
 * (a part of the scores not used below): the lowest histogram edge whose empirical FPR there is at most f. On the
 * independent <i>evaluation</i> counts the achieved FPR and the TPR at that threshold are then binomial proportions
 * with Clopper–Pearson intervals, all {@code 2 x targets} intervals two-sided at level
 * {@code (1 - c)/(4 targets)} (Bonferroni), so every interval of this view holds together with probability c (the
 * AUROC's separately with c).
 */
public final class ScoreMetrics {
    /** The false-positive rates reported by default. */
    public static final double[] DEFAULT_FPRS = {1e-4, 1e-3, 1e-2, 1e-1};

    private ScoreMetrics() {
    }

    /**
     * @param estimate the AUROC bracket's midpoint
     * @param lower lower confidence bound
     * @param upper upper confidence bound
     * @param bracketLow the counts' AUROC with every pair in a common bin counted as misordered
     * @param bracketHigh the same, counted as ordered
     * @param method how the interval was obtained
     */
    public record Auroc(double estimate, double lower, double upper, double bracketLow, double bracketHigh,
            String method) {
    }

    /**
     * @param targetFpr the false-positive rate asked for
     * @param threshold the chosen threshold (a score at or above it says "with the canary"); +inf when no edge of the
     *        choice counts meets the target
     * @param fpr achieved false-positive rate on the evaluation scores
     * @param fprLower its lower confidence bound
     * @param fprUpper its upper confidence bound
     * @param tpr true-positive rate on the evaluation scores
     * @param tprLower its lower confidence bound
     * @param tprUpper its upper confidence bound
     */
    public record TprAtFpr(double targetFpr, double threshold, double fpr, double fprLower, double fprUpper,
            double tpr, double tprLower, double tprUpper) {
    }

    /**
     * The whole view.
     *
     * @param auroc the area under the ROC curve
     * @param tprAtFpr one entry per target false-positive rate
     * @param confidence the confidence of each of the two parts
     */
    public record Result(Auroc auroc, List<TprAtFpr> tprAtFpr, double confidence) {
        public Result {
            tprAtFpr = List.copyOf(tprAtFpr);
        }
    }

    /**
     * Computes the view.
     *
     * @param choice counts that choose the thresholds (not the evaluation counts)
     * @param evaluation independent counts that certify them, on the same binning
     * @param confidence c in (0, 1)
     * @param fprs target false-positive rates in (0, 1)
     */
    public static Result of(ScoreCounts choice, ScoreCounts evaluation, double confidence, double[] fprs) {
        return of(choice, evaluation, confidence, fprs, null);
    }

    /**
     * {@link #of(ScoreCounts, ScoreCounts, double, double[])} for counts of a rank binning fixed from part of the
     * scores, which other scores may have fallen between: {@code mixedSlots[s]} says that slot {@code s} also counted
     * scores other than its value. Pairs within such a slot are bracketed as in an ordinary bin; pairs within a slot of
     * one value are ties (counted 1/2).
     *
     * @param mixedSlots per slot, whether it holds other values than its own; null when the binning says (a rank
     *     binning's slots hold one value each, an ordinary bin's several)
     */
    public static Result of(ScoreCounts choice, ScoreCounts evaluation, double confidence, double[] fprs,
            boolean[] mixedSlots) {
        if (!(confidence > 0 && confidence < 1)) {
            throw new IllegalArgumentException("confidence must be in (0, 1): " + confidence);
        }
        HistogramBinning binning = evaluation.binning();
        if (choice.binning().slots() != binning.slots()) {
            throw new IllegalArgumentException("choice and evaluation counts must share a binning");
        }
        long m = evaluation.trials(World.WITH_CANARY);
        long n = evaluation.trials(World.WITHOUT_CANARY);
        if (m < 1 || n < 1) {
            throw new IllegalArgumentException("AUROC needs scores in both worlds");
        }
        boolean[] tied = new boolean[binning.slots()];
        for (int k = 0; k < tied.length; k++) {
            tied[k] = binning.exact() && (mixedSlots == null || !mixedSlots[k]);
        }
        Auroc auroc = auroc(evaluation, m, n, tied, 1 - confidence);
        double a = (1 - confidence) / (4.0 * fprs.length);
        long[] chosenWithout = choice.upperTail(World.WITHOUT_CANARY);
        long chosenN = choice.trials(World.WITHOUT_CANARY);
        long[] evalWith = evaluation.upperTail(World.WITH_CANARY);
        long[] evalWithout = evaluation.upperTail(World.WITHOUT_CANARY);
        List<TprAtFpr> rows = new ArrayList<>();
        for (double f : fprs) {
            if (!(f > 0 && f < 1)) {
                throw new IllegalArgumentException("a target false-positive rate must be in (0, 1): " + f);
            }
            int edge = -1;
            for (int k = 0; k < chosenWithout.length; k++) {
                if (chosenN > 0 && chosenWithout[k] <= f * chosenN) {
                    edge = k;
                    break;
                }
            }
            if (edge < 0) {
                rows.add(new TprAtFpr(f, Double.POSITIVE_INFINITY, 0, 0, ClopperPearson.upper(0, n, 2 * a), 0, 0,
                        ClopperPearson.upper(0, m, 2 * a)));
                continue;
            }
            long fp = evalWithout[edge];
            long tp = evalWith[edge];
            rows.add(new TprAtFpr(f, binning.edge(edge), (double) fp / n, ClopperPearson.lower(fp, n, a),
                    ClopperPearson.upper(fp, n, a), (double) tp / m, ClopperPearson.lower(tp, m, a),
                    ClopperPearson.upper(tp, m, a)));
        }
        return new Result(auroc, rows, confidence);
    }

    /** The bracket {@code [A_lo, A_hi]} from the counts, widened by Hoeffding's U-statistic bound. */
    static Auroc auroc(ScoreCounts counts, long m, long n, boolean exact, double error) {
        boolean[] tied = new boolean[counts.binning().slots()];
        java.util.Arrays.fill(tied, exact);
        return auroc(counts, m, n, tied, error);
    }

    /**
     * The same, with the pairs within slot {@code s} counted as ties (1/2) where {@code tied[s]} (a slot of one value)
     * and bracketed (0 or 1) elsewhere.
     */
    static Auroc auroc(ScoreCounts counts, long m, long n, boolean[] tied, double error) {
        int slots = counts.binning().slots();
        double below = 0; // without-canary scores in lower slots
        double ordered = 0;
        double ties = 0;
        double unknown = 0;
        int tiedSlots = 0;
        for (int s = 0; s < slots; s++) {
            double w = counts.count(World.WITH_CANARY, s);
            double o = counts.count(World.WITHOUT_CANARY, s);
            ordered += w * below;
            if (tied[s]) {
                ties += w * o;
                tiedSlots++;
            } else {
                unknown += w * o;
            }
            below += o;
        }
        double pairs = (double) m * n;
        double lo = (ordered + 0.5 * ties) / pairs;
        double hi = (ordered + 0.5 * ties + unknown) / pairs;
        double t = Math.sqrt(Math.log(2 / error) / (2.0 * Math.min(m, n)));
        String within = tiedSlots == slots ? "; scores counted exactly (ties count 1/2)"
                : tiedSlots == 0 ? "; pairs within a bin bracketed"
                : "; ties count 1/2 in slots of one value, pairs bracketed within the " + (slots - tiedSlots)
                        + (slots - tiedSlots == 1 ? " slot" : " slots") + " that also held other values";
        String method = "two-sample U-statistic, Hoeffding (1963) bound with min(m, n) = " + Math.min(m, n) + within;
        return new Auroc(0.5 * (lo + hi), Math.max(0, lo - t), Math.min(1, hi + t), lo, hi, method);
    }
}
