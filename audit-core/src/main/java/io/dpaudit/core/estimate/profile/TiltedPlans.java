package io.dpaudit.core.estimate.profile;

import io.dpaudit.core.estimate.EmpiricalBernstein;
import org.apache.commons.rng.UniformRandomProvider;

/**
 * The importance sampler's proposals and their running sums ({@link TiltedProfileEstimator}): a {@link Plan} per band
 * and direction, the {@link BandSums} of its draws, and the {@link Interval} they certify at each band point.
 */
final class TiltedPlans {
    private TiltedPlans() {
    }

    /**
     * A proposal for one band and direction: strata of fixed composition (k rounds from component 1, T - k from
     * component 0), each tilted at its θ, drawn with probabilities π. A draw of stratum m with loss L contributes
     * {@code y_j = c[m][j] e^{-θ_m (L - ε_j)} (1 - e^{ε_j - L})_+ = Y_j / R_j ∈ [0, 1]} at band point j.
     */
    static final class Plan {
        final TiltedProfileEstimator.Band band;
        final int rounds;
        final TiltedFamily family;
        final int[] ks;
        final double[] theta;
        final double[] cumulative;
        final double[][] c;
        final double[] logRange;
        final double[] dropped;

        Plan(TiltedProfileEstimator.Band band, int rounds, TiltedFamily family, int[] ks, double[] theta, double[] cumulative,
                double[][] c, double[] logRange, double[] dropped) {
            this.band = band;
            this.rounds = rounds;
            this.family = family;
            this.ks = ks;
            this.theta = theta;
            this.cumulative = cumulative;
            this.c = c;
            this.logRange = logRange;
            this.dropped = dropped;
        }

        /** One shard: {@code n} draws, their losses, and the band's sums. */
        BandSums run(UniformRandomProvider rng, int n) {
            int s = ks.length;
            TiltedFamily.RoundSampler[][] samplers = new TiltedFamily.RoundSampler[s][family.components()];
            for (int m = 0; m < s; m++) {
                // Only the components the stratum draws from (the others' tilt may not be tabulable).
                if (ks[m] < rounds) {
                    samplers[m][0] = family.sampler(0, theta[m], rng);
                }
                if (ks[m] > 0) {
                    samplers[m][family.components() - 1] = family.sampler(family.components() - 1, theta[m], rng);
                }
            }
            double[] stepTheta = new double[s];
            for (int m = 0; m < s; m++) {
                stepTheta[m] = Math.exp(-theta[m] * band.step());
            }
            double stepLoss = Math.exp(-band.step());
            BandSums sums = new BandSums(this);
            for (int i = 0; i < n; i++) {
                int m = 0;
                if (s > 1) {
                    double u = rng.nextDouble();
                    m = io.dpaudit.core.numerics.Inversion.index(cumulative, u);
                }
                int k = ks[m];
                double loss = 0;
                TiltedFamily.RoundSampler[] sm = samplers[m];
                for (int r = 0; r < k; r++) {
                    loss += sm[1].nextLoss();
                }
                for (int r = k; r < rounds; r++) {
                    loss += sm[0].nextLoss();
                }
                sums.addLoss(m, loss, stepTheta[m], stepLoss);
            }
            return sums;
        }
    }

    /** Sums of {@code y_j} and {@code y_j^2} over draws, per band point. */
    static final class BandSums {
        final Plan plan;
        final double[] sum;
        final double[] sumOfSquares;
        long n;

        BandSums(Plan plan) {
            this.plan = plan;
            sum = new double[plan.band.points()];
            sumOfSquares = new double[plan.band.points()];
        }

        /**
         * {@code y_j} for every {@code ε_j < L}: the point just below L exactly, the smaller ones by multiplying by
         * {@code e^{-θ Δ}} and {@code e^{-Δ}} (relative error below 1e-13 over a band, far inside the bounds' outward
         * rounding); {@code y_j <= 1} by construction of R (clamped against round-off).
         */
        void addLoss(int m, double loss, double stepTheta, double stepLoss) {
            n++;
            TiltedProfileEstimator.Band band = plan.band;
            int top;
            if (band.step() == 0) {
                top = loss > band.lo() ? 0 : -1;
            } else {
                top = (int) Math.min(band.points() - 1, Math.ceil((loss - band.lo()) / band.step()) - 1);
                while (top >= 0 && band.epsilon(top) >= loss) {
                    top--;
                }
                while (top + 1 < band.points() && band.epsilon(top + 1) < loss) {
                    top++;
                }
            }
            if (top < 0) {
                return;
            }
            double eTop = band.epsilon(top);
            double a = Math.exp(-plan.theta[m] * (loss - eTop));
            double b = Math.exp(eTop - loss);
            double[] cm = plan.c[m];
            for (int j = top; j >= 0 && a > 0; j--) {
                double y = Math.min(1.0, cm[j] * a * (1 - b));
                sum[j] += y;
                sumOfSquares[j] += y * y;
                a *= stepTheta;
                b *= stepLoss;
            }
        }

        void add(BandSums o) {
            n += o.n;
            for (int j = 0; j < sum.length; j++) {
                sum[j] += o.sum[j];
                sumOfSquares[j] += o.sumOfSquares[j];
            }
        }

        /**
         * The interval at band point j: {@code R_j} times the empirical-Bernstein bounds of the mean of y, the
         * moments' allowance {@code (1 ± a)^T} outward, and the dropped strata's Chernoff bounds added to the upper
         * end.
         */
        Interval interval(int j, double alpha) {
            double logR = plan.logRange[j];
            double allowance = plan.rounds * Math.log1p(plan.family.momentAllowance());
            double up = EmpiricalBernstein.upper(n, sum[j], sumOfSquares[j], alpha);
            double lo = EmpiricalBernstein.lower(n, sum[j], sumOfSquares[j], alpha);
            // Mass the tables leave out (at most τ per round, relative): δ = (1 - τ_T) E_table[Y] + E[Y; left out]
            // with τ_T <= T τ and every left-out term at most R.
            double leftOut = Math.min(1.0, plan.rounds * plan.family.truncatedMass());
            double upper = Math.min(1.0, up * Math.exp(logR + allowance) + leftOut * Math.exp(logR)
                    + plan.dropped[j] * (1 + 1e-12));
            double lower = Math.min(1.0, lo * Math.exp(logR - allowance) * (1 - leftOut));
            double mean = sum[j] / n;
            double point = Math.min(1.0, mean * Math.exp(logR));
            double ess = sumOfSquares[j] > 0 ? sum[j] * sum[j] / sumOfSquares[j] : 0;
            double variance = Math.max(0, (sumOfSquares[j] / n - mean * mean)) * Math.exp(2 * logR) / n;
            double plain = variance > 0 ? point * (1 - point) / variance : Double.POSITIVE_INFINITY;
            return new Interval(lower, upper, point, ess, plain);
        }
    }

    record Interval(double lower, double upper, double point, double ess, double plainEquivalent) {
    }
}
