package io.dpaudit.core.estimate;

import io.dpaudit.core.numerics.PoissonLimits;
import io.dpaudit.core.numerics.Normal;

/**
 * Predicts, from counts on the selection trials, the confidence limits a test will get on the evaluation trials.
 *
 * <p>A count {@code k} of {@code n_s} selection trials gives the median-unbiased rate (Clopper–Pearson at level 1/2,
 * {@link ClopperPearson#medianLower}/{@link ClopperPearson#medianUpper}); scaled to the {@code n_e} evaluation
 * trials it is an expected count {@code K}. Its one-sided limits at error level {@code a} are predicted by Garwood's
 * Poisson limits {@code chi2_{2K}(a)/2} and {@code chi2_{2(K+1)}(1-a)/2}, with the Wilson–Hilferty approximation
 * {@code chi2_nu(p) ~ nu (1 - 2/(9 nu) + z_p sqrt(2/(9 nu)))^3}.
 *
 * <p>Predicting the evaluation bound, rather than maximising the plug-in ratio, keeps the selection from chasing
 * far-tail thresholds whose few selection counts look lucky: with four directions to choose from, the plug-in choice
 * lost a tenth of the attainable ε at 10^7 trials in a simulation study (see README, "Estimator").
 * This is used for selection only; certification always uses exact Clopper–Pearson bounds.
 *
 * <p>Nothing is cached here: {@link EmpiricalEstimator} asks for each test's rates once per objective, and a tail count
 * is monotone in the edge, so a count recurs only at consecutive edges, which it skips (memoising in maps cost more in
 * boxing than it saved: 27-40 ms against 9-13 ms per estimator at 8192 bins and 10^6 selection trials).
 */
final class SelectionObjective {
    private final double selectionTrials;
    private final double evaluationTrials;
    private final double z;
    private final double zSelection;
    private final double errorLevel;

    SelectionObjective(long selectionTrials, long evaluationTrials, double errorLevel) {
        this(selectionTrials, evaluationTrials, errorLevel, errorLevel);
    }

    /**
     * @param errorLevel error level of each rate's limit on the evaluation trials (the certification's)
     * @param selectionErrorLevel error level of the selection counts' own limits in the pessimistic objective: the
     *     certification's for a pointwise charge, smaller for a charge simultaneous over many tests
     */
    SelectionObjective(long selectionTrials, long evaluationTrials, double errorLevel, double selectionErrorLevel) {
        this.selectionTrials = selectionTrials;
        this.evaluationTrials = evaluationTrials;
        this.z = Normal.inverseSurvival(errorLevel);
        this.zSelection = Normal.inverseSurvival(selectionErrorLevel);
        this.errorLevel = errorLevel;
    }

    /**
     * Predicted lower limit on the evaluation trials from a pessimistic selection rate: the selection count's own
     * Clopper–Pearson lower bound at the evaluation's error level instead of the median-unbiased rate. For objectives
     * with no floor under the rate — pure DP, δ = 0, where ε is {@code log(TPR / FPR)} — median-unbiased rates let the
     * choice among thousands of tests fall on a far tail whose handful of selection counts looked lucky (a Laplace
     * mechanism at 10^7 trials got a test of 57 against 62 evaluation counts, and ε ≥ 0, instead of ε ≥ 0.098);
     * pessimistic rates charge a test for the selection's own uncertainty.
     */
    double pessimisticLower(long selectionCount) {
        double rate = poissonLower(selectionCount);
        double k = rate * evaluationTrials;
        return PoissonLimits.lower(k, z) / evaluationTrials;
    }

    /** Predicted upper limit from the selection count's Clopper–Pearson upper bound (see {@link #pessimisticLower}). */
    double pessimisticUpper(long selectionCount) {
        double rate = poissonUpper(selectionCount);
        double k = Math.min(rate, 1.0) * evaluationTrials;
        return Math.min(1.0, PoissonLimits.upper(k, z) / evaluationTrials);
    }

    /**
     * The selection count's own lower limit at the selection limits' error level, as a rate: Garwood's Poisson limit {@code
     * chi2_{2k}(a)/2} by Wilson–Hilferty, over the selection trials — within a few percent of Clopper–Pearson's for the
     * small rates where it matters, and microseconds instead of an incomplete-beta inversion per distinct count
     * (selection only: the certified bounds are exact Clopper–Pearson).
     */
    private double poissonLower(long k) {
        return Math.min(1.0, PoissonLimits.lower(k, zSelection) / selectionTrials);
    }

    /** The upper counterpart of {@link #poissonLower}: {@code chi2_{2(k+1)}(1 - a)/2} over the selection trials. */
    private double poissonUpper(long k) {
        return Math.min(1.0, PoissonLimits.upper(k, zSelection) / selectionTrials);
    }

    /** Predicted lower confidence limit of the rate, on the evaluation trials. */
    double predictedLower(long selectionCount) {
        double rate = ClopperPearson.medianLower(selectionCount, (long) selectionTrials);
        double k = rate * evaluationTrials;
        return PoissonLimits.lower(k, z) / evaluationTrials;
    }

    /** Predicted upper confidence limit of the rate, on the evaluation trials. */
    double predictedUpper(long selectionCount) {
        double rate = ClopperPearson.medianUpper(selectionCount, (long) selectionTrials);
        double k = Math.min(rate, 1.0) * evaluationTrials;
        return Math.min(1.0, PoissonLimits.upper(k, z) / evaluationTrials);
    }
}
