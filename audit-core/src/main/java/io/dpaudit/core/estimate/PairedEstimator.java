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
 * <p><b>Selection.</b> Each of the {@code 4 (bins + 1)} threshold tests ({@link TestDirection}) is scored on the
 * selection trials by the paired bound it is predicted to give, under two objectives, each with half the error level
 * when they choose different tests (a union bound; the whole level when they agree):
 * <ul>
 *   <li><b>plug-in</b>: the selection counts scaled to the evaluation trials, with normal approximations of the
 *       three Clopper–Pearson limits at those counts — it finds genuinely better rare tests;</li>
 *   <li><b>pessimistic</b>: the same limits computed at the selection counts themselves, so that a test whose few
 *       selection counts only looked good is charged for their uncertainty — it cannot fall on a lucky flat tail.</li>
 * </ul>
 * The choice reads no evaluation count, so the certified bound keeps its confidence; the approximations affect power
 * only. The largest certified bound is reported.
 */
public final class PairedEstimator {
    private static final double PLUG_IN_SHARE = 0.5;

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
    public EpsilonLowerBound epsilonLowerBound(double delta) {
        Checks.deltaOrZero("delta", delta);
        double level = 1 - confidence;
        int[] plugIn = select(delta, level * PLUG_IN_SHARE, (double) evaluation.trials / selection.trials);
        int[] pessimistic = select(delta, level * (1 - PLUG_IN_SHARE), 1.0);
        boolean same = plugIn[0] == pessimistic[0] && plugIn[1] == pessimistic[1];
        EpsilonLowerBound best = certify(plugIn, delta, same ? level : level * PLUG_IN_SHARE);
        if (!same) {
            EpsilonLowerBound other = certify(pessimistic, delta, level * (1 - PLUG_IN_SHARE));
            if (other.epsilon() > best.epsilon()) {
                best = other;
            }
        }
        return best;
    }

    private EpsilonLowerBound certify(int[] choice, double delta, double level) {
        TestDirection d = TestDirection.values()[choice[0]];
        int edge = choice[1];
        long both = evaluation.both(d, edge);
        long flagged = evaluation.marginal(d.flagged(), d.upperTail(), edge);
        long other = evaluation.marginal(d.other(), d.upperTail(), edge);
        long n = evaluation.trials;
        double eps = PairedEpsilonBound.epsilon(both, flagged - both, other - both, n, delta, level);
        SelectedTest test = new SelectedTest(d, edge, binning.edge(edge), flagged, other, n, n,
                ClopperPearson.lower(flagged, n, level / 2), ClopperPearson.upper(other, n, level / 2), level / 2);
        return new EpsilonLowerBound(delta, SafeRounding.down(Math.max(0.0, eps)), test,
                EpsilonLowerBound.Certification.PAIRED,
                new EpsilonLowerBound.PairedCounts(both, flagged - both, other - both, level));
    }

    /**
     * The test, {@code {direction ordinal, edge}}, whose predicted paired bound at error level {@code level} is largest
     * when the selection counts are multiplied by {@code scale}; ties go to the first in (direction, edge) order.
     */
    private int[] select(double delta, double level, double scale) {
        double g = PairedEpsilonBound.NUISANCE_SHARE * level;
        double zPi = Normal.inverseSurvival(delta > 0 ? level - 2 * g : level - g);
        double zNuisance = Normal.inverseSurvival(g);
        double trials = selection.trials * scale;
        int[] best = {0, 0};
        double bestValue = Double.NEGATIVE_INFINITY;
        for (TestDirection d : TestDirection.values()) {
            for (int edge = 0; edge <= binning.bins(); edge++) {
                long both = selection.both(d, edge);
                long flagged = selection.marginal(d.flagged(), d.upperTail(), edge) - both;
                long other = selection.marginal(d.other(), d.upperTail(), edge) - both;
                double v = predicted(both * scale, flagged * scale, other * scale, trials, delta, zPi, zNuisance);
                if (v > bestValue) {
                    bestValue = v;
                    best = new int[] {d.ordinal(), edge};
                }
            }
        }
        return best;
    }

    /** {@link PairedEpsilonBound}'s formula with normal approximations of its three limits (selection only). */
    static double predicted(double both, double flaggedOnly, double otherOnly, double trials, double delta,
            double zPi, double zNuisance) {
        double discordant = flaggedOnly + otherOnly;
        if (!(flaggedOnly > 0) || !(discordant > 0)) {
            return Double.NEGATIVE_INFINITY;
        }
        double pi = flaggedOnly / discordant;
        double piL = pi - zPi * Math.sqrt(pi * (1 - pi) / discordant) - 0.5 / discordant;
        double m = both + discordant;
        double t = both / m;
        double tU = Math.min(1.0, t + zNuisance * Math.sqrt(t * (1 - t) / m) + 0.5 / m);
        if (!(tU < 1)) {
            return Double.NEGATIVE_INFINITY;
        }
        double kappaU = tU / (1 - tU);
        double numerator = piL + kappaU;
        if (delta > 0) {
            double dL = (discordant - zNuisance * Math.sqrt(discordant)) / trials;
            if (!(dL > 0)) {
                return Double.NEGATIVE_INFINITY;
            }
            numerator -= delta / dL;
        }
        double denominator = 1 + kappaU - piL;
        return numerator > 0 ? Math.log(numerator / denominator) : Double.NEGATIVE_INFINITY;
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
