package io.dpaudit.core.estimate;

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
            double logM = logMoment(0, theta);
            double[] cumulative = new double[logP.length];
            double acc = 0;
            for (int i = 0; i < logP.length; i++) {
                acc += Math.exp(logP[i] + theta * loss[i] - logM);
                cumulative[i] = acc;
            }
            for (int i = 0; i < cumulative.length; i++) {
                cumulative[i] /= acc;
            }
            cumulative[cumulative.length - 1] = 1.0;
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
        public String key() {
            StringBuilder b = new StringBuilder("discrete");
            for (int i = 0; i < logP.length; i++) {
                b.append(' ').append(Double.doubleToLongBits(logP[i])).append(':')
                        .append(Double.doubleToLongBits(loss[i]));
            }
            return b.toString();
        }
    }
}
