package io.dpaudit.core.estimate.profile;

import io.dpaudit.core.law.DiscreteLaw;
import io.dpaudit.core.law.GaussianMixture;
import org.apache.commons.rng.UniformRandomProvider;

/**
 * One direction's per-round law, as the tilted importance sampler needs it: p's components (one or two), the verified
 * log moment {@code log M_c(θ) = log E_{p_c}[e^{θ ℓ}]} of each, and exact draws of the loss ℓ under each component
 * tilted by {@code e^{θ ℓ}}.
 */
interface TiltedFamily {
    /** Components of p (1 or 2). */
    int components();

    /** Weight of component c in p. */
    double weight(int c);

    /** {@code log M_c(θ)}, to the relative accuracy {@link #momentAllowance()}. */
    double logMoment(int c, double theta);

    /** A sampler of ℓ under component c tilted by θ, on {@code rng} (one per shard). */
    RoundSampler sampler(int c, double theta, UniformRandomProvider rng);

    /** Relative accuracy of {@link #logMoment}'s {@code M} (applied outward per round). */
    double momentAllowance();

    /** Whether component c can be tilted by θ exactly (its sampler can be built); {@code logMoment} its log moment. */
    boolean tabulable(int c, double theta, double logMoment);

    /** A key that identifies the pair of laws exactly (equal keys, equal log moments). */
    String key();

    /**
     * An upper bound on the tilted law's relative mass that the sampler never draws (outside its table), per round:
     * the estimate widens its interval by it (the dropped mass contributes at most R each).
     */
    double truncatedMass();

    /** Draws of one round's loss. */
    interface RoundSampler {
        double nextLoss();
    }

    /** One-dimensional Gaussian mixtures with one σ: {@link TiltedRound} per (component, θ), built once and shared. */
    final class Gaussian implements TiltedFamily {
        private final GaussianMixture p;
        private final GaussianMixture q;
        private final java.util.Map<Long, TiltedRound> rounds = new java.util.HashMap<>();

        Gaussian(GaussianMixture p, GaussianMixture q) {
            this.p = p;
            this.q = q;
        }

        @Override
        public int components() {
            return p.components();
        }

        @Override
        public double weight(int c) {
            return p.weight(c);
        }

        @Override
        public double logMoment(int c, double theta) {
            return TiltedRound.logMoment(p, q, p.mean(c, 0), theta);
        }

        @Override
        public RoundSampler sampler(int c, double theta, UniformRandomProvider rng) {
            TiltedRound.Sampler s = round(c, theta).sampler(rng);
            return s::nextLoss;
        }

        private synchronized TiltedRound round(int c, double theta) {
            long key = Double.doubleToLongBits(theta) * 31 + c;
            return rounds.computeIfAbsent(key, k -> new TiltedRound(p, q, p.mean(c, 0), theta));
        }

        @Override
        public double momentAllowance() {
            return TiltedRound.MOMENT_ALLOWANCE;
        }

        @Override
        public boolean tabulable(int c, double theta, double logMoment) {
            return TiltedRound.tabulable(p, q, p.mean(c, 0), theta, logMoment);
        }

        @Override
        public double truncatedMass() {
            return Math.exp(TiltedRound.MAX_LOG_TRUNCATED_MASS);
        }

        @Override
        public String key() {
            StringBuilder b = new StringBuilder("gaussian sd ").append(Double.doubleToLongBits(p.sd()));
            for (GaussianMixture m : new GaussianMixture[] {p, q}) {
                b.append(" |");
                for (int c = 0; c < m.components(); c++) {
                    b.append(' ').append(Double.doubleToLongBits(m.weight(c))).append('@')
                            .append(Double.doubleToLongBits(m.mean(c, 0)));
                }
            }
            return b.toString();
        }
    }

    /**
     * Discrete laws over the same atoms, p's support inside q's: ℓ is a table over the atoms, {@code M(θ)} an exact
     * finite sum (log-sum-exp; relative error below 1e-13 for up to 10^6 atoms), and the tilted law a finite table
     * drawn by inversion.
     */
    final class Discrete implements TiltedFamily {
        private final double[] logP;
        private final double[] loss;

        Discrete(DiscreteLaw p, DiscreteLaw q) {
            double[] ratio = p.logRatio(q);
            int n = 0;
            for (int i = 0; i < ratio.length; i++) {
                n += p.logProbability(i) > Double.NEGATIVE_INFINITY ? 1 : 0;
            }
            logP = new double[n];
            loss = new double[n];
            int j = 0;
            for (int i = 0; i < ratio.length; i++) {
                if (p.logProbability(i) > Double.NEGATIVE_INFINITY) {
                    logP[j] = p.logProbability(i);
                    loss[j] = ratio[i];
                    j++;
                }
            }
        }

        /** Whether every atom p gives mass to has mass under q (a finite loss everywhere p lives). */
        static boolean applies(DiscreteLaw p, DiscreteLaw q) {
            if (p.atoms() != q.atoms()) {
                return false;
            }
            for (int i = 0; i < p.atoms(); i++) {
                if (p.logProbability(i) > Double.NEGATIVE_INFINITY && !(q.logProbability(i) > Double.NEGATIVE_INFINITY)) {
                    return false;
                }
            }
            return true;
        }

        @Override
        public int components() {
            return 1;
        }

        @Override
        public double weight(int c) {
            return 1;
        }

        @Override
        public double logMoment(int c, double theta) {
            double max = Double.NEGATIVE_INFINITY;
            for (int i = 0; i < logP.length; i++) {
                max = Math.max(max, logP[i] + theta * loss[i]);
            }
            double sum = 0;
            for (int i = 0; i < logP.length; i++) {
                sum += Math.exp(logP[i] + theta * loss[i] - max);
            }
            return max + Math.log(sum);
        }

        @Override
        public RoundSampler sampler(int c, double theta, UniformRandomProvider rng) {
            double[] logWeights = new double[logP.length];
            for (int i = 0; i < logP.length; i++) {
                logWeights[i] = logP[i] + theta * loss[i];
            }
            double[] cumulative = io.dpaudit.core.numerics.Inversion.cumulativeOfLogs(logWeights);
            return () -> {
                double u = rng.nextDouble();
                int a = io.dpaudit.core.numerics.Inversion.index(cumulative, u);
                return loss[a];
            };
        }

        @Override
        public double momentAllowance() {
            return 1e-12;
        }

        @Override
        public boolean tabulable(int c, double theta, double logMoment) {
            return true;
        }

        @Override
        public double truncatedMass() {
            return 0;
        }

        @Override
        public String key() {
            StringBuilder b = new StringBuilder("discrete");
            for (int i = 0; i < logP.length; i++) {
                b.append(' ').append(Double.doubleToLongBits(logP[i])).append(':')
                        .append(Double.doubleToLongBits(loss[i]));
            }
            return b.toString();
        }
    }

    /**
     * Two-dimensional Gaussian mixtures with one σ (seed 000's orthogonal configuration; {@link TiltedPlane}). When
     * p's means take exactly two first coordinates (the canary's record sampled or not) those two groups are the
     * components the estimator stratifies by; otherwise p is tilted whole. Layouts (normaliser, rectangle) and tables
     * are built once per component and θ.
     */
    final class Plane implements TiltedFamily {
        private final TiltedPlane.Mixture p;
        private final TiltedPlane.Mixture q;
        private final TiltedPlane.Mixture[] parts;
        private final double[] weights;
        private final java.util.Map<String, java.util.Optional<TiltedPlane.Layout>> layouts = new java.util.HashMap<>();
        private final java.util.Map<String, TiltedPlane> planes = new java.util.HashMap<>();

        Plane(GaussianMixture p, GaussianMixture q) {
            this.p = new TiltedPlane.Mixture(p);
            this.q = new TiltedPlane.Mixture(q);
            if (this.p.groups() == 2) {
                parts = new TiltedPlane.Mixture[] {this.p.group(0), this.p.group(1)};
                weights = new double[] {this.p.groupWeight(0), this.p.groupWeight(1)};
            } else {
                parts = new TiltedPlane.Mixture[] {this.p};
                weights = new double[] {1.0};
            }
        }

        @Override
        public int components() {
            return parts.length;
        }

        @Override
        public double weight(int c) {
            return weights[c];
        }

        private synchronized java.util.Optional<TiltedPlane.Layout> layout(int c, double theta) {
            return layouts.computeIfAbsent(c + "@" + theta,
                    k -> java.util.Optional.ofNullable(TiltedPlane.layout(parts[c], p, q, theta)));
        }

        @Override
        public double logMoment(int c, double theta) {
            return layout(c, theta).map(TiltedPlane.Layout::logMoment).orElse(Double.NaN);
        }

        @Override
        public RoundSampler sampler(int c, double theta, UniformRandomProvider rng) {
            TiltedPlane plane;
            synchronized (this) {
                plane = planes.computeIfAbsent(c + "@" + theta,
                        k -> new TiltedPlane(parts[c], p, q, theta, layout(c, theta).orElse(null)));
            }
            return plane.sampler(rng);
        }

        @Override
        public double momentAllowance() {
            return TiltedRound.MOMENT_ALLOWANCE;
        }

        @Override
        public boolean tabulable(int c, double theta, double logMoment) {
            return layout(c, theta).isPresent();
        }

        @Override
        public double truncatedMass() {
            return Math.exp(TiltedPlane.MAX_LOG_TRUNCATED_MASS);
        }

        @Override
        public String key() {
            return "plane " + p.key() + " | " + q.key();
        }
    }
}
