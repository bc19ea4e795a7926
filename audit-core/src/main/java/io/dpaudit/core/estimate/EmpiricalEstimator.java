package io.dpaudit.core.estimate;

import io.dpaudit.core.Checks;
import io.dpaudit.core.engine.HistogramBinning;
import io.dpaudit.core.engine.ScoreCounts;
import io.dpaudit.core.engine.World;
import io.dpaudit.core.numerics.SafeRounding;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Empirical lower bounds on ε (at given δ) and on δ (at given ε) from histogrammed attack scores.
 *
 * <p>For a test with true-positive rate {@code TPR} and false-positive rate {@code FPR} (see
 * {@link TestDirection}), {@code (epsilon, delta)}-DP implies {@code TPR <= e^epsilon FPR + delta}. With one-sided
 * Clopper–Pearson bounds {@code TPR_lower} and {@code FPR_upper}, each at error level {@code a/2} where
 * {@code a = 1 - confidence}, with probability at least {@code 1 - a} both hold, and then
 * <ul>
 *   <li>{@code epsilon >= log((TPR_lower - delta) / FPR_upper)} (when {@code TPR_lower > delta}), and</li>
 *   <li>{@code delta >= TPR_lower - e^epsilon FPR_upper}.</li>
 * </ul>
 * The test is chosen by the {@link ThresholdSelection}: on held-out trials (the bound then concerns one test
 * evaluated once) or as the maximum over a fixed grid with a union bound. Each reported bound holds with the stated
 * confidence on its own; bounds reported together are not simultaneous.
 *
 * <p><b>ε at δ on held-out trials</b> is certified, test by test, by whichever of two valid bounds the selection
 * trials predict larger: the ratio of the two Clopper–Pearson limits above, or the conditional odds-ratio test of
 * {@link ConditionalEpsilonBound} at the test's whole error level, which spends it on the ratio rather than on each
 * rate (at 95%, about {@code 2.33 sqrt(1/x + 1/y)} lost to sampling where the two limits lose
 * {@code 3.92 / sqrt(x)} for similar counts). {@link EpsilonLowerBound#certification} says which. It therefore uses
 * its level in full: for a mechanism exactly at its ε (the Laplace mechanism's tails), the bound exceeds that ε with
 * probability up to the stated {@code 1 - confidence}. δ at ε — which decides the verdicts — keeps the two
 * Clopper–Pearson limits, each at half the level: a refutation that a claim exactly met by the mechanism receives far
 * less often than the level allows (about 0.3% at 95% for similar counts), so correct mechanisms are not flagged at
 * the rate of the level. A claim can thus read "consistent" beside an ε bound slightly above its ε; both statements
 * hold at the stated confidence.
 *
 * <p><b>Discrete scores and ties.</b> A discrete score (the likelihood ratio of a count, say) is binned exactly: every
 * atom has a slot of its own ({@link HistogramBinning#ranks}), so every deterministic threshold between atoms is a
 * candidate test and no tie straddles a threshold. No randomised test is needed to reach the Neyman–Pearson optimum
 * of what is bounded here: {@code delta(eps) = sup_S P(S) - e^eps Q(S)} is attained by the deterministic set
 * {@code {L > eps}}, and a test that randomises on the boundary atom with probability {@code g} has
 * {@code TPR - e^eps FPR} linear and {@code (TPR - delta)/FPR} monotone in {@code g}, so one end is as good
 * ({@code DeterministicThresholdsTest} checks both on random discrete pairs). Randomised tests matter for whole
 * trade-off curves, not for these two quantities.
 *
 * <p>Results are rounded down by {@link SafeRounding#down}.
 */
public final class EmpiricalEstimator implements ThresholdEstimator {
    private final ThresholdSelection selection;
    private final double confidence;
    private final HistogramBinning binning;
    private final Tails selectionTails;   // null for Bonferroni
    private final Tails evaluationTails;
    private final int[] grid;             // null for held-out
    private final double errorLevelPerRate;
    private final Map<Long, Double> lowerCache = new HashMap<>();
    private final Map<Long, Double> upperCache = new HashMap<>();
    private SelectionObjective positives;
    private SelectionObjective negatives;
    private SelectionObjective simultaneousPositives;
    private SelectionObjective simultaneousNegatives;
    /** Predicted rates of every test per {@link Objective} (ordinal), computed once per estimator. */
    private final double[][][][] predictedRates = new double[Objective.values().length][][][];
    /** Each {@link Objective}'s candidate for ε at δ = 0 (ordinal), chosen once per estimator when first needed. */
    private final Candidate[] candidatesAtZero = new Candidate[Objective.values().length];

    private EmpiricalEstimator(ThresholdSelection selection, double confidence, ScoreCounts selectionCounts,
            ScoreCounts evaluationCounts) {
        this.selection = selection;
        this.confidence = Checks.confidence("confidence", confidence);
        this.binning = evaluationCounts.binning();
        this.selectionTails = selectionCounts == null ? null : new Tails(selectionCounts);
        this.evaluationTails = new Tails(evaluationCounts);
        double alpha = 1.0 - confidence;
        if (selection instanceof ThresholdSelection.Bonferroni b) {
            this.grid = gridEdges(binning.bins(), b.gridSize());
            int tests = grid.length * TestDirection.values().length;
            this.errorLevelPerRate = alpha / (2.0 * tests);
        } else {
            this.grid = null;
            this.errorLevelPerRate = alpha / 2.0;
        }
    }

    /**
     * Held-out selection: the test is chosen on {@code selection}, certified on {@code evaluation}.
     */
    public static EmpiricalEstimator heldOut(ScoreCounts selection, ScoreCounts evaluation, double confidence,
            ThresholdSelection.HeldOut method) {
        if (selection.binning() != evaluation.binning()) {
            throw new IllegalArgumentException("selection and evaluation counts must share one binning");
        }
        return new EmpiricalEstimator(method, confidence, selection, evaluation);
    }

    /** Bonferroni over a fixed grid of the binning's edges, on all trials. */
    public static EmpiricalEstimator bonferroni(ScoreCounts all, double confidence,
            ThresholdSelection.Bonferroni method) {
        return new EmpiricalEstimator(method, confidence, null, all);
    }

    /** The threshold-selection method. */
    public ThresholdSelection selection() {
        return selection;
    }

    /** The confidence of each bound. */
    public double confidence() {
        return confidence;
    }

    /** Error level of each Clopper–Pearson bound entering a test. */
    public double errorLevelPerRate() {
        return errorLevelPerRate;
    }

    /** The lower bound on ε at {@code delta} (in [0, 1); at 0 it bounds the ε of pure DP). */
    @Override
    public EpsilonLowerBound epsilonLowerBound(double delta) {
        Checks.deltaOrZero("delta", delta);
        SelectedTest best = null;
        double bestValue = Double.NEGATIVE_INFINITY;
        EpsilonLowerBound.Certification bestCertification = EpsilonLowerBound.Certification.CLOPPER_PEARSON;
        if (grid == null) {
            // Three candidates chosen on the selection trials (see Objective), certified on the evaluation trials with
            // the error level shared among the distinct ones (a union bound); the largest bound is kept.
            Candidate[] candidates = new Candidate[Objective.values().length];
            for (Objective o : Objective.values()) {
                candidates[o.ordinal()] = candidateForEpsilon(delta, o);
            }
            for (int i = 0; i < candidates.length; i++) {
                double share = 0;
                boolean first = true;
                for (int j = 0; j < candidates.length; j++) {
                    if (candidates[j].equals(candidates[i])) {
                        share += Objective.values()[j].share;
                        first &= j >= i;
                    }
                }
                if (!first) {
                    continue; // certified once, with the shares of every objective that chose it
                }
                SelectedTest t = share >= 1.0 ? certify(candidates[i].direction, candidates[i].edge)
                        : certify(candidates[i].direction, candidates[i].edge, errorLevelPerRate * share);
                double testLevel = 2 * errorLevelPerRate * Math.min(1.0, share);
                boolean conditional = conditionalPredictedBetter(candidates[i], delta, testLevel);
                double v = conditional ? ConditionalEpsilonBound.epsilon(t.truePositives(), t.trials(),
                        t.falsePositives(), t.otherTrials(), delta, testLevel) : epsilonOf(t, delta);
                if (best == null || v > bestValue) {
                    best = t;
                    bestValue = v;
                    bestCertification = conditional ? EpsilonLowerBound.Certification.CONDITIONAL
                            : EpsilonLowerBound.Certification.CLOPPER_PEARSON;
                }
            }
        } else {
            for (TestDirection d : TestDirection.values()) {
                for (int edge : grid) {
                    SelectedTest t = certify(d, edge);
                    double v = epsilonOf(t, delta);
                    if (v > bestValue || best == null) {
                        best = t;
                        bestValue = v;
                    }
                }
            }
        }
        return new EpsilonLowerBound(delta, SafeRounding.down(Math.max(0.0, bestValue)), best, bestCertification);
    }

    /**
     * Whether the candidate is certified by {@link ConditionalEpsilonBound} rather than by its two Clopper–Pearson
     * limits: decided on the selection trials alone, by computing both bounds at the evaluation counts the selection
     * rates predict ({@code k n_evaluation / n_selection}, rounded) and taking the conditional one when it is
     * strictly larger. The conditional test is the stronger one except where the true-positive rate is near 1 with few
     * false positives (its cap) or δ is not small against the false-positive rate; the choice reads no evaluation
     * count, so the certified bound keeps its confidence.
     */
    private boolean conditionalPredictedBetter(Candidate c, double delta, double testLevel) {
        Tails s = selectionTails;
        Tails e = evaluationTails;
        TestDirection d = c.direction;
        long n = e.trials(d.flagged());
        long m = e.trials(d.other());
        long x = scaled(s.truePositives(d, c.edge), s.trials(d.flagged()), n);
        long y = scaled(s.falsePositives(d, c.edge), s.trials(d.other()), m);
        if (x == 0) {
            return false;
        }
        double cpLower = ClopperPearson.lower(x, n, testLevel / 2);
        double clopperPearson = cpLower > delta ? Math.log((cpLower - delta) / ClopperPearson.upper(y, m, testLevel / 2))
                : 0.0;
        return ConditionalEpsilonBound.epsilon(x, n, y, m, delta, testLevel) > Math.max(0.0, clopperPearson);
    }

    private static long scaled(long count, long from, long to) {
        return Math.min(to, Math.round((double) count * to / from));
    }

    /** The lower bound on δ at {@code epsilon}. */
    @Override
    public DeltaLowerBound deltaLowerBound(double epsilon) {
        Checks.nonNegative("epsilon", epsilon);
        SelectedTest best = null;
        double bestValue = Double.NEGATIVE_INFINITY;
        if (grid == null) {
            Candidate c = selectOnHeldOut(Double.NaN, epsilon, Objective.MEDIAN_UNBIASED);
            best = certify(c.direction, c.edge);
            bestValue = deltaOf(best, epsilon);
        } else {
            for (TestDirection d : TestDirection.values()) {
                for (int edge : grid) {
                    SelectedTest t = certify(d, edge);
                    double v = deltaOf(t, epsilon);
                    if (v > bestValue || best == null) {
                        best = t;
                        bestValue = v;
                    }
                }
            }
        }
        return new DeltaLowerBound(epsilon, SafeRounding.down(Math.max(0.0, bestValue)), best);
    }

    private static double epsilonOf(SelectedTest t, double delta) {
        double tpr = t.truePositiveRateLower();
        if (!(tpr > delta)) {
            return 0.0;
        }
        return Math.log((tpr - delta) / t.falsePositiveRateUpper());
    }

    private static double deltaOf(SelectedTest t, double epsilon) {
        return t.truePositiveRateLower() - Math.exp(epsilon) * t.falsePositiveRateUpper();
    }

    /**
     * How small δ must be against a δ = 0 candidate's predicted true-positive rate for that candidate to be kept at δ:
     * {@code δ <= rate / 1000} moves its predicted ε by at most {@code -log(1 - 0.001) ≈ 0.001}.
     */
    static final double NEGLIGIBLE_DELTA_SHARE = 1e-3;

    /**
     * The candidate of {@code objective} for ε at {@code delta}. At {@code delta > 0} it is the objective's δ = 0
     * candidate when δ is negligible for it ({@code δ <= NEGLIGIBLE_DELTA_SHARE ·} its predicted true-positive rate):
     * no test's objective at δ exceeds its objective at 0, which the candidate maximises, and the candidate loses at
     * most about 0.001 to δ, so a different choice could gain at most that much of predicted ε — a near tie the
     * selection trials cannot resolve, which made ε(δ) fall below what the δ = 0 test certifies at that δ (sparse
     * vector Algorithm 3 in the zoo: 0.1761 against 0.2049 at δ = 1e-6). When every candidate is kept, the same tests
     * are certified at the same shares, so ε(δ) is at least the δ = 0 test's value at δ on the same data. Otherwise
     * (δ comparable to the rate, as for the far tails of a Gaussian pair, or for a far tail the median-unbiased
     * objective chose) that objective's candidate is chosen afresh for δ. The rule reads the selection trials only, so
     * the bound keeps its confidence.
     */
    private Candidate candidateForEpsilon(double delta, Objective objective) {
        if (delta > 0) {
            Candidate atZero = candidatesAtZero[objective.ordinal()];
            if (atZero == null) {
                atZero = selectOnHeldOut(0.0, Double.NaN, objective);
                candidatesAtZero[objective.ordinal()] = atZero;
            }
            double rate = predictedRates(objective)[atZero.direction.ordinal()][0][atZero.edge];
            if (delta <= NEGLIGIBLE_DELTA_SHARE * rate) {
                return atZero;
            }
        }
        return selectOnHeldOut(delta, Double.NaN, objective);
    }

    /** A test chosen on the selection trials. */
    record Candidate(TestDirection direction, int edge) {
    }

    /**
     * The objectives that choose the held-out candidates of ε at δ, and each one's share of the error level when the
     * candidates differ (the shares sum to 1: a union bound over the certified tests).
     */
    enum Objective {
        /** Median-unbiased selection rates: finds genuinely better far tails, can chase lucky flat ones. */
        MEDIAN_UNBIASED(0.475),
        /** The selection counts' own limits at the certification's level (a pointwise charge). */
        PESSIMISTIC(0.475),
        /**
         * The selection counts' own limits at a level simultaneous over all {@code 4 (bins + 1)} tests: a test that
         * only luck made look good cannot win, so this candidate is the broad test the data plainly support. It guards
         * against both pointwise objectives falling on the same lucky flat tail (DP-Sniper's correct noisy histogram:
         * ε ≥ 0 where the data support 0.097). Its share, fixed before measuring, is small because such a test has
         * large counts, whose bound hardly depends on the level: at 95% its rates get z = 3.02, against the 2.24 each
         * candidate of an even two-way split gets, which moves ε by about 0.0005 at 7·10^6 counts; the other two
         * candidates, often rare events whose bounds do depend on the level, get z = 2.26 instead of 2.24.
         */
        SIMULTANEOUS(0.05);

        final double share;

        Objective(double share) {
            this.share = share;
        }
    }

    /**
     * Chooses the test on the selection data. Exactly one of {@code delta} (objective: ε at δ) and {@code epsilon}
     * (objective: δ at ε) is a number. The objective is the bound the test is predicted to give on the evaluation
     * trials: median-unbiased rates from the selection trials (or, for the pessimistic objectives, the selection
     * counts' own Clopper–Pearson limits, {@link SelectionObjective#pessimisticLower}, at the certification's level or
     * at one simultaneous over all tests) are scaled to expected evaluation counts, whose confidence limits are
     * approximated by Garwood's Poisson limits with the Wilson–Hilferty chi-square approximation
     * ({@link SelectionObjective}). Ties go to the first test in (direction, edge) order, so the choice is
     * deterministic. Only the power of the audit depends on this choice, never its validity.
     *
     * <p>For ε at δ no objective wins everywhere (measured on score files at 10^5 and 10^6 per world, δ = 1e-5:
     * Laplace, whose flat tails make the median-unbiased choice chase lucky far-tail tests, 0.70-0.97 against
     * 0.97-0.99 pessimistic; Gaussian with mu = 1 and 3, whose far tails are genuinely better, 2.81-8.78
     * median-unbiased against 2.62-8.26), so the candidates of all three {@link Objective}s are certified
     * ({@link #epsilonLowerBound}); δ at ε has a floor ({@code TPR - e^eps FPR}) and uses the median-unbiased rates.
     */
    Candidate selectOnHeldOut(double delta, double epsilon, Objective objective) {
        Tails s = selectionTails;
        if (positives == null) { // once per estimator: their caches of Clopper-Pearson limits serve every call
            positives = new SelectionObjective(s.trials(World.WITH_CANARY), evaluationTails.trials(World.WITH_CANARY),
                    errorLevelPerRate);
            negatives = new SelectionObjective(s.trials(World.WITHOUT_CANARY),
                    evaluationTails.trials(World.WITHOUT_CANARY), errorLevelPerRate);
            double simultaneous = errorLevelPerRate / (TestDirection.values().length * (binning.bins() + 1.0));
            double level = errorLevelPerRate * Objective.SIMULTANEOUS.share;
            simultaneousPositives = new SelectionObjective(s.trials(World.WITH_CANARY),
                    evaluationTails.trials(World.WITH_CANARY), level, simultaneous);
            simultaneousNegatives = new SelectionObjective(s.trials(World.WITHOUT_CANARY),
                    evaluationTails.trials(World.WITHOUT_CANARY), level, simultaneous);
        }
        double expEps = Double.isNaN(epsilon) ? Double.NaN : Math.exp(epsilon);
        double[][][] rates = predictedRates(objective);
        TestDirection bestDirection = TestDirection.UPPER_TAIL_FLAGS_D;
        int bestEdge = 0;
        double best = Double.NEGATIVE_INFINITY;
        for (TestDirection d : TestDirection.values()) {
            double[] tprs = rates[d.ordinal()][0];
            double[] fprs = rates[d.ordinal()][1];
            for (int edge = 0; edge <= binning.bins(); edge++) {
                double tpr = tprs[edge];
                double fpr = fprs[edge];
                double v;
                if (Double.isNaN(delta)) {
                    v = tpr - expEps * fpr;
                } else {
                    v = tpr > delta ? Math.log((tpr - delta) / fpr) : Double.NEGATIVE_INFINITY;
                }
                if (v > best) {
                    best = v;
                    bestDirection = d;
                    bestEdge = edge;
                }
            }
        }
        return new Candidate(bestDirection, bestEdge);
    }

    /**
     * The selection objective's predicted rates of every test, {@code [direction][0: TPR lower, 1: FPR upper][edge]}:
     * computed once per estimator and objective (every δ and ε of an audit selects among the same tests; a trade-off
     * certification asks for hundreds of ε).
     */
    private double[][][] predictedRates(Objective objective) {
        double[][][] cached = predictedRates[objective.ordinal()];
        if (cached != null) {
            return cached;
        }
        boolean simultaneous = objective == Objective.SIMULTANEOUS;
        boolean pessimistic = objective != Objective.MEDIAN_UNBIASED;
        SelectionObjective positive = simultaneous ? simultaneousPositives : positives;
        SelectionObjective negative = simultaneous ? simultaneousNegatives : negatives;
        Tails s = selectionTails;
        TestDirection[] directions = TestDirection.values();
        double[][][] rates = new double[directions.length][2][binning.bins() + 1];
        for (TestDirection d : directions) {
            SelectionObjective tp = d.flagged() == World.WITH_CANARY ? positive : negative;
            SelectionObjective fp = d.other() == World.WITH_CANARY ? positive : negative;
            // Tail counts repeat across the edges of empty bins: a rate is computed again only when its count changes.
            long lastTp = -1;
            long lastFp = -1;
            double tpr = Double.NaN;
            double fpr = Double.NaN;
            for (int edge = 0; edge <= binning.bins(); edge++) {
                long tpCount = s.truePositives(d, edge);
                long fpCount = s.falsePositives(d, edge);
                if (tpCount != lastTp) {
                    tpr = pessimistic ? tp.pessimisticLower(tpCount) : tp.predictedLower(tpCount);
                    lastTp = tpCount;
                }
                if (fpCount != lastFp) {
                    fpr = pessimistic ? fp.pessimisticUpper(fpCount) : fp.predictedUpper(fpCount);
                    lastFp = fpCount;
                }
                rates[d.ordinal()][0][edge] = tpr;
                rates[d.ordinal()][1][edge] = fpr;
            }
        }
        predictedRates[objective.ordinal()] = rates;
        return rates;
    }

    /** {@code d} at {@code edge} on the evaluation trials, each rate bounded at error level {@code level}. */
    private SelectedTest certify(TestDirection d, int edge, double level) {
        Tails e = evaluationTails;
        long tp = e.truePositives(d, edge);
        long fp = e.falsePositives(d, edge);
        long nPositive = e.trials(d.flagged());
        long nNegative = e.trials(d.other());
        return new SelectedTest(d, edge, binning.edge(edge), tp, fp, nPositive, nNegative,
                ClopperPearson.lower(tp, nPositive, level), ClopperPearson.upper(fp, nNegative, level), level);
    }

    private SelectedTest certify(TestDirection d, int edge) {
        Tails e = evaluationTails;
        long tp = e.truePositives(d, edge);
        long fp = e.falsePositives(d, edge);
        long nPositive = e.trials(d.flagged());
        long nNegative = e.trials(d.other());
        double tprLower = e.balanced()
                ? lowerCache.computeIfAbsent(tp, k -> ClopperPearson.lower(k, nPositive, errorLevelPerRate))
                : ClopperPearson.lower(tp, nPositive, errorLevelPerRate);
        double fprUpper = e.balanced()
                ? upperCache.computeIfAbsent(fp, k -> ClopperPearson.upper(k, nNegative, errorLevelPerRate))
                : ClopperPearson.upper(fp, nNegative, errorLevelPerRate);
        return new SelectedTest(d, edge, binning.edge(edge), tp, fp, nPositive, nNegative, tprLower, fprUpper,
                errorLevelPerRate);
    }

    /** {@code G} edges {@code round(j bins / (G + 1))}, {@code j = 1..G}, without duplicates (fewer when bins < G). */
    public static int[] gridEdges(int bins, int gridSize) {
        int[] edges = new int[gridSize];
        for (int j = 1; j <= gridSize; j++) {
            edges[j - 1] = (int) Math.round((double) j * bins / (gridSize + 1.0));
        }
        return Arrays.stream(edges).distinct().toArray();
    }

    /** Upper-tail counts of both worlds. */
    private static final class Tails {
        final long trialsD;
        final long trialsDPrime;
        final long[] upD;
        final long[] upDPrime;

        Tails(ScoreCounts counts) {
            this.trialsD = counts.trials(World.WITH_CANARY);
            this.trialsDPrime = counts.trials(World.WITHOUT_CANARY);
            this.upD = counts.upperTail(World.WITH_CANARY);
            this.upDPrime = counts.upperTail(World.WITHOUT_CANARY);
        }

        long trials(World w) {
            return w == World.WITH_CANARY ? trialsD : trialsDPrime;
        }

        boolean balanced() {
            return trialsD == trialsDPrime;
        }

        long upper(World w, int edge) {
            return w == World.WITH_CANARY ? upD[edge] : upDPrime[edge];
        }

        long count(World w, boolean upperTail, int edge) {
            long up = upper(w, edge);
            return upperTail ? up : trials(w) - up;
        }

        long truePositives(TestDirection d, int edge) {
            return count(d.flagged(), d.upperTail(), edge);
        }

        long falsePositives(TestDirection d, int edge) {
            return count(d.other(), d.upperTail(), edge);
        }
    }
}
