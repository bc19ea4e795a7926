package io.dpaudit.core.estimate;

import io.dpaudit.core.Checks;
import io.dpaudit.core.engine.CoupledCounts;
import io.dpaudit.core.engine.HistogramBinning;
import io.dpaudit.core.engine.World;
import io.dpaudit.core.numerics.Normal;
import io.dpaudit.core.numerics.SafeRounding;

/**
 * Lower bounds on ε at δ from coupled trials (common random numbers), with the test chosen on held-out coupled trials
 * and certified by {@link PairedEpsilonBound} on the others.
 *
 * <p><b>Selection.</b> Each of the {@code 4 (bins + 1)} threshold tests ({@link TestDirection}), with each form of the
 * bound and share of its level ({@link #FORMS}: the paired form with each share its nuisance limit {@code kappa_U}
 * may take, the marginal form with each share of its other world's limit), is scored on the selection trials by the
 * bound it is predicted to give, with Wilson score limits in place of the Clopper–Pearson ones, under three
 * objectives — the same three as {@link EmpiricalEstimator}'s, for the same reasons:
 * <ul>
 *   <li><b>plug-in</b> (share 0.475): the selection counts scaled to the evaluation trials, limits at those counts and
 *       the certification's level — it finds genuinely better rare tests;</li>
 *   <li><b>pessimistic</b> (share 0.475): the limits at the selection counts themselves — a test is charged for the
 *       selection's own uncertainty;</li>
 *   <li><b>simultaneous</b> (share 0.05): the same at a level divided by the number of tests and shares, so that no
 *       test wins by luck: the broad test the data plainly support. Measured: on a Laplace mechanism (10^6 selection
 *       trials) both pointwise objectives chose far tails whose few counts looked lucky (406 trials with both worlds
 *       and 69 with only one, a plug-in ratio of e^0.157 for a true e^0.1).</li>
 * </ul>
 * Distinct candidates are certified at their objectives' shares of the error level (a union bound; a candidate chosen
 * by several gets their sum) and the largest bound is reported.
 * The choice reads no evaluation count, so the certified bound keeps its confidence; the approximations affect power
 * only. The largest certified bound is reported.
 */
public final class PairedEstimator implements ThresholdEstimator {
    /** Shares of the error level of the three objectives' candidates when they differ (they sum to 1). */
    private static final double PLUG_IN_SHARE = 0.475;
    private static final double PESSIMISTIC_SHARE = 0.475;
    private static final double SIMULTANEOUS_SHARE = 0.05;
    /**
     * The forms a test may be certified by, as shares of its level: the first {@code KAPPA_SHARES.length} are the
     * paired form's shares of {@code kappa_U}, the rest the marginal form's shares of the other world's limit.
     */
    private static final double[] FORMS = java.util.stream.DoubleStream.concat(
            java.util.Arrays.stream(PairedEpsilonBound.KAPPA_SHARES),
            java.util.Arrays.stream(PairedEpsilonBound.OTHER_SHARES)).toArray();

    private static boolean marginal(int form) {
        return form >= PairedEpsilonBound.KAPPA_SHARES.length;
    }

    private final double confidence;
    private final HistogramBinning binning;
    private final Joint selection;
    private final Joint evaluation;

    private PairedEstimator(CoupledCounts selection, CoupledCounts evaluation, double confidence) {
        if (selection.binning() != evaluation.binning()) {
            throw new IllegalArgumentException("selection and evaluation counts must share one binning");
        }
        this.confidence = Checks.confidence("confidence", confidence);
        this.binning = evaluation.binning();
        this.selection = new Joint(selection);
        this.evaluation = new Joint(evaluation);
    }

    /** The test is chosen on {@code selection}, certified on {@code evaluation}. */
    public static PairedEstimator heldOut(CoupledCounts selection, CoupledCounts evaluation, double confidence) {
        return new PairedEstimator(selection, evaluation, confidence);
    }

    /** The lower bound on ε at {@code delta} (in [0, 1)). */
    @Override
    public EpsilonLowerBound epsilonLowerBound(double delta) {
        Checks.deltaOrZero("delta", delta);
        double level = 1 - confidence;
        double tests = TestDirection.values().length * (binning.bins() + 1.0) * FORMS.length;
        int[][] candidates = {
            select(delta, level * PLUG_IN_SHARE, (double) evaluation.trials / selection.trials),
            select(delta, level * PESSIMISTIC_SHARE, 1.0),
            select(delta, level * SIMULTANEOUS_SHARE / tests, 1.0),
        };
        double[] shares = {PLUG_IN_SHARE, PESSIMISTIC_SHARE, SIMULTANEOUS_SHARE};
        EpsilonLowerBound best = null;
        for (int c = 0; c < candidates.length; c++) {
            double share = 0;
            boolean first = true;
            for (int o = 0; o < candidates.length; o++) {
                if (java.util.Arrays.equals(candidates[o], candidates[c])) {
                    share += shares[o];
                    first &= o >= c;
                }
            }
            if (!first) {
                continue; // certified once, with the shares of every objective that chose it
            }
            EpsilonLowerBound b = certify(candidates[c], delta, level * Math.min(1.0, share));
            if (best == null || b.epsilon() > best.epsilon()) {
                best = b;
            }
        }
        return best;
    }

    /**
     * The lower bound on δ at {@code epsilon} (at least 0): the test and form whose bound is largest when the selection
     * counts are scaled to the evaluation trials (the plug-in objective, as {@link EmpiricalEstimator#deltaLowerBound}
     * uses), certified at the whole level by {@link PairedDeltaBound}.
     */
    @Override
    public DeltaLowerBound deltaLowerBound(double epsilon) {
        Checks.nonNegative("epsilon", epsilon);
        double level = 1 - confidence;
        Chosen c = chosen(selectForDelta(epsilon, level, (double) evaluation.trials / selection.trials));
        double delta = c.marginal()
                ? PairedDeltaBound.marginalDelta(c.both(), c.flaggedOnly(), c.otherOnly(), c.trials(), epsilon, level,
                        c.share())
                : PairedDeltaBound.delta(c.both(), c.flaggedOnly(), c.otherOnly(), c.trials(), epsilon, level,
                        c.share());
        return new DeltaLowerBound(epsilon, SafeRounding.down(Math.max(0.0, delta)), referenceTest(c, level),
                c.certification(), c.counts(level));
    }

    /**
     * A chosen test and form with the test's joint counts on the evaluation trials.
     *
     * @param share the form's share of the level for its second limit ({@link #FORMS})
     * @param marginal whether the form is the marginal one
     */
    private record Chosen(TestDirection direction, int edge, double share, boolean marginal, long both,
            long flaggedOnly, long otherOnly, long trials) {
        EpsilonLowerBound.Certification certification() {
            return marginal ? EpsilonLowerBound.Certification.MARGINAL : EpsilonLowerBound.Certification.PAIRED;
        }

        EpsilonLowerBound.PairedCounts counts(double level) {
            return new EpsilonLowerBound.PairedCounts(both, flaggedOnly, otherOnly, level, share);
        }
    }

    /** {@code {direction ordinal, edge, form index}} with its evaluation counts. */
    private Chosen chosen(int[] choice) {
        TestDirection d = TestDirection.values()[choice[0]];
        int edge = choice[1];
        long both = evaluation.both(d, edge);
        long flagged = evaluation.marginal(d.flagged(), d.upperTail(), edge);
        long other = evaluation.marginal(d.other(), d.upperTail(), edge);
        return new Chosen(d, edge, FORMS[choice[2]], marginal(choice[2]), both, flagged - both, other - both,
                evaluation.trials);
    }

    /** The chosen test on the evaluation trials with each world's own limits at half the level (for reference). */
    private SelectedTest referenceTest(Chosen c, double level) {
        long flagged = c.both() + c.flaggedOnly();
        long other = c.both() + c.otherOnly();
        long n = c.trials();
        return new SelectedTest(c.direction(), c.edge(), binning.edge(c.edge()), flagged, other, n, n,
                ClopperPearson.lower(flagged, n, level / 2), ClopperPearson.upper(other, n, level / 2), level / 2);
    }

    private EpsilonLowerBound certify(int[] choice, double delta, double level) {
        Chosen c = chosen(choice);
        double eps = c.marginal()
                ? PairedEpsilonBound.marginalEpsilon(c.both(), c.flaggedOnly(), c.otherOnly(), c.trials(), delta,
                        level, c.share())
                : PairedEpsilonBound.epsilon(c.both(), c.flaggedOnly(), c.otherOnly(), c.trials(), delta, level,
                        c.share());
        return new EpsilonLowerBound(delta, SafeRounding.down(Math.max(0.0, eps)), referenceTest(c, level),
                c.certification(), c.counts(level));
    }

    /**
     * The test and the form, {@code {direction ordinal, edge, form index}} ({@link #FORMS}), whose predicted ε bound at
     * {@code delta} and error level {@code level} is largest when the selection counts are multiplied by
     * {@code scale}; ties go to the first in (direction, edge, form) order.
     */
    int[] select(double delta, double level, double scale) {
        Quantiles z = new Quantiles(level, delta > 0);
        double trials = selection.trials * scale;
        // a test the flagged world never enters alone gives no evidence on ε
        return select(scale, (k, both, flaggedOnly, otherOnly) -> !(flaggedOnly > 0) ? Double.NEGATIVE_INFINITY
                : marginal(k)
                ? predictedMarginal(both + flaggedOnly, both + otherOnly, trials, delta, z.first[k], z.second[k])
                : predicted(both, flaggedOnly, otherOnly, trials, delta, z.first[k], z.second[k], z.nuisance));
    }

    /**
     * As {@link #select(double, double, double)}, for the δ bound at {@code epsilon}. Tests with no trial of the
     * flagged world alone compete too: none can certify a positive δ, but where no test is predicted to, the one chosen
     * is the one the verdict's power is stated for ({@link io.dpaudit.core.estimate.power.DetectionPower}), and a far tail with few counts of either
     * world is predicted (and is) the most sensitive, as {@link EmpiricalEstimator#deltaLowerBound} finds it.
     */
    int[] selectForDelta(double epsilon, double level, double scale) {
        Quantiles z = new Quantiles(level, true);
        double trials = selection.trials * scale;
        return select(scale, (k, both, flaggedOnly, otherOnly) -> marginal(k)
                ? predictedMarginalDelta(both + flaggedOnly, both + otherOnly, trials, epsilon, z.first[k],
                        z.second[k])
                : predictedDelta(both, flaggedOnly, otherOnly, trials, epsilon, z.first[k], z.second[k],
                        z.nuisance));
    }

    /** A form's predicted bound from (scaled) selection counts of one test. */
    @FunctionalInterface
    private interface Prediction {
        double value(int form, double both, double flaggedOnly, double otherOnly);
    }

    /**
     * Per form, the normal quantiles of its limits' error levels: {@code first} for {@code pi_L} (paired) or
     * {@code P_L} (marginal), {@code second} for {@code kappa_U} or {@code Q_U}, and {@code nuisance} for {@code d_L}
     * (whose share the paired form's first limit gives up when {@code withD}).
     */
    private static final class Quantiles {
        final double[] first = new double[FORMS.length];
        final double[] second = new double[FORMS.length];
        final double nuisance;

        Quantiles(double level, boolean withD) {
            double gd = PairedEpsilonBound.NUISANCE_SHARE * level;
            for (int k = 0; k < FORMS.length; k++) {
                double g = FORMS[k] * level;
                first[k] = Normal.inverseSurvival(withD && !marginal(k) ? level - g - gd : level - g);
                second[k] = Normal.inverseSurvival(g);
            }
            nuisance = Normal.inverseSurvival(gd);
        }
    }

    private int[] select(double scale, Prediction prediction) {
        int[] best = {0, 0, 0};
        double bestValue = Double.NEGATIVE_INFINITY;
        for (TestDirection d : TestDirection.values()) {
            for (int edge = 0; edge <= binning.bins(); edge++) {
                long both = selection.both(d, edge);
                long flagged = selection.marginal(d.flagged(), d.upperTail(), edge) - both;
                long other = selection.marginal(d.other(), d.upperTail(), edge) - both;
                for (int k = 0; k < FORMS.length; k++) {
                    double v = prediction.value(k, both * scale, flagged * scale, other * scale);
                    if (v > bestValue) {
                        bestValue = v;
                        best = new int[] {d.ordinal(), edge, k};
                    }
                }
            }
        }
        return best;
    }

    /**
     * {@link PairedEpsilonBound}'s formula with Wilson score limits in place of its three Clopper–Pearson limits
     * (selection only; unlike a plain normal approximation they stay inside (0, 1) and are not degenerate at zero or
     * full counts, so a test with a handful of counts is not predicted to be certain).
     */
    static double predicted(double both, double flaggedOnly, double otherOnly, double trials, double delta,
            double zPi, double zKappa, double zD) {
        double discordant = flaggedOnly + otherOnly;
        if (!(flaggedOnly > 0) || !(discordant > 0)) {
            return Double.NEGATIVE_INFINITY;
        }
        double kappaU = kappaUpper(both, discordant, zKappa);
        if (kappaU == Double.POSITIVE_INFINITY) {
            return Double.NEGATIVE_INFINITY;
        }
        double piL = wilson(flaggedOnly, discordant, -zPi);
        double numerator = piL + kappaU;
        if (delta > 0) {
            double dL = wilson(discordant, trials, -zD);
            if (!(dL > 0)) {
                return Double.NEGATIVE_INFINITY;
            }
            numerator -= delta / dL;
        }
        double denominator = 1 + kappaU - piL;
        return numerator > 0 ? Math.log(numerator / denominator) : Double.NEGATIVE_INFINITY;
    }

    /**
     * {@link PairedEpsilonBound#marginalEpsilon}'s formula with Wilson score limits: {@code log((P_L - delta) / Q_U)}
     * from the flagged world's count {@code inS} and the other's {@code otherInS} (selection only).
     */
    static double predictedMarginal(double inS, double otherInS, double trials, double delta, double zP, double zQ) {
        double pL = wilson(inS, trials, -zP);
        double qU = wilson(otherInS, trials, zQ);
        return pL > delta && qU > 0 ? Math.log((pL - delta) / qU) : Double.NEGATIVE_INFINITY;
    }

    /** {@link PairedDeltaBound#delta}'s formula with Wilson score limits (selection only). */
    static double predictedDelta(double both, double flaggedOnly, double otherOnly, double trials, double epsilon,
            double zPi, double zKappa, double zD) {
        double discordant = flaggedOnly + otherOnly;
        if (!(flaggedOnly > 0)) {
            return Double.NEGATIVE_INFINITY;
        }
        double kappaU = kappaUpper(both, discordant, zKappa);
        if (kappaU == Double.POSITIVE_INFINITY) {
            return Double.NEGATIVE_INFINITY;
        }
        double piL = wilson(flaggedOnly, discordant, -zPi);
        double c = piL + kappaU - Math.exp(epsilon + Math.log(1 - piL + kappaU));
        double dL = wilson(discordant, trials, -zD);
        // a negative c is scaled by the upper end of d in truth; the ranking only needs the sign and order
        return c > 0 ? dL * c : c;
    }

    /** {@link PairedDeltaBound#marginalDelta}'s formula with Wilson score limits (selection only). */
    static double predictedMarginalDelta(double inS, double otherInS, double trials, double epsilon, double zP,
            double zQ) {
        return wilson(inS, trials, -zP) - Math.exp(epsilon + Math.log(wilson(otherInS, trials, zQ)));
    }

    /** {@code kappa_U = t_U / (1 - t_U)} with {@code t_U} Wilson's upper limit of {@code both / (both + discordant)}. */
    private static double kappaUpper(double both, double discordant, double z) {
        double tU = wilson(both, both + discordant, z);
        return tU < 1 ? tU / (1 - tU) : Double.POSITIVE_INFINITY;
    }

    /** Wilson's score limit of a proportion {@code k / n}: the upper one for {@code z > 0}, the lower for {@code z < 0}. */
    static double wilson(double k, double n, double z) {
        double p = k / n;
        double z2n = z * z / n;
        double centre = p + z2n / 2;
        double half = z * Math.sqrt(p * (1 - p) / n + z2n / (4 * n));
        return (centre + half) / (1 + z2n);
    }

    /** The tails of coupled counts: each world's and both worlds' together. */
    private static final class Joint {
        final long trials;
        final long[] upD;
        final long[] upDPrime;
        final long[] bothUp;
        final long[] bothDown;

        Joint(CoupledCounts counts) {
            this.trials = counts.trials();
            var marginals = counts.marginals();
            this.upD = marginals.upperTail(World.WITH_CANARY);
            this.upDPrime = marginals.upperTail(World.WITHOUT_CANARY);
            this.bothUp = counts.bothUpperTail();
            this.bothDown = counts.bothLowerTail();
        }

        long marginal(World w, boolean upperTail, int edge) {
            long up = w == World.WITH_CANARY ? upD[edge] : upDPrime[edge];
            return upperTail ? up : trials - up;
        }

        long both(TestDirection d, int edge) {
            return d.upperTail() ? bothUp[edge] : bothDown[edge];
        }
    }
}
