package io.dpaudit.attacks;

import io.dpaudit.core.Checks;
import io.dpaudit.core.engine.Scorer;
import io.dpaudit.core.engine.TrialSampler;
import io.dpaudit.core.engine.World;
import io.dpaudit.core.law.BinomialTable;
import io.dpaudit.core.law.GaussianMixture;
import io.dpaudit.core.model.LinearStatistic;
import io.dpaudit.core.model.MechanismSimulator;
import io.dpaudit.core.model.OutputModel;
import java.util.Locale;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;

/**
 * The projection attack's score sampled as what it is, a sum over rounds with a closed-form law: O(1) per trial
 * instead of O(T).
 *
 * <p>The score is {@code S = sum_t <o_t, u>}. When the canary direction {@code u} lies in the span of a linear
 * statistic's orthonormal rows ({@code u = sum_i c_i b_i}), {@code <o_t, u> = sum_i c_i s_{t,i}}; if the statistic's law
 * is a Gaussian mixture {@code sum_j w_j N(m_j, s^2 I)} (rounds independent and alike, as the output model states),
 * each round's term is the one-dimensional mixture {@code sum_j w_j N(<c, m_j>, s^2 |c|^2)}. Where its means take at
 * most two values {@code a < b} (probability {@code r} of {@code b}) in each world — the Poisson-subsampled Gaussian,
 * the orthogonal and zero configurations of random participation: the canary's contribution is there or not — the
 * sum over {@code T} rounds is exactly
 * <pre>
 *   S = T a + (b - a) K + s |c| sqrt(T) Z,   K ~ Binomial(T, r),  Z ~ N(0, 1),
 * </pre>
 * drawn with one exact binomial table ({@link BinomialTable}, inversion) and one ziggurat normal. Mechanisms whose
 * per-round term has three or more atoms (the aligned configuration, where the other records' count moves the same
 * coordinate), flagged statistics, non-Gaussian laws and faithful simulators keep the O(T) per-round path.
 */
final class ProjectionSum {
    private ProjectionSum() {
    }

    /**
     * The direct sampler of the summed projection for {@code simulator}, with its scorer (the sum is the score), or
     * null when the law does not reduce as described.
     */
    static AttackCatalog.Attack tryOf(MechanismSimulator simulator) {
        OutputModel model = simulator.outputModel();
        if (model == null || model.canaryDirection() == null) {
            return null;
        }
        LinearStatistic statistic = model.linearStatistic();
        if (statistic == null || statistic.flagIndex() >= 0
                || !(model.withCanary() instanceof GaussianMixture with)
                || !(model.withoutCanary() instanceof GaussianMixture without) || with.sd() != without.sd()) {
            return null;
        }
        double[] u = model.canaryDirection();
        int k = statistic.dimension();
        double[] c = new double[k];
        double[] residual = u.clone();
        double norm2 = 0;
        for (int i = 0; i < k; i++) {
            double[] row = statistic.basisRow(i);
            for (int j = 0; j < u.length; j++) {
                c[i] += u[j] * row[j];
            }
            for (int j = 0; j < u.length; j++) {
                residual[j] -= c[i] * row[j];
            }
            norm2 += c[i] * c[i];
        }
        for (double x : residual) {
            if (Math.abs(x) > 1e-12) {
                return null; // the projection sees more of the output than the statistic
            }
        }
        Atoms a = Atoms.of(with, c);
        Atoms b = Atoms.of(without, c);
        if (a == null || b == null) {
            return null;
        }
        int rounds = model.rounds();
        double sd = with.sd() * Math.sqrt(norm2) * Math.sqrt(rounds);
        Summed summed = new Summed(rounds, a, b, sd, simulator.description());
        return new AttackCatalog.Attack(new SumScorer(rounds), null, summed);
    }

    /** A per-round projected mean law with at most two values: {@code lo}, and {@code hi} with probability {@code r}. */
    private record Atoms(double lo, double hi, double r) {
        static Atoms of(GaussianMixture m, double[] c) {
            double first = Double.NaN;
            double second = Double.NaN;
            double pSecond = 0;
            for (int j = 0; j < m.components(); j++) {
                double mean = 0;
                for (int i = 0; i < c.length; i++) {
                    mean += c[i] * m.mean(j, i);
                }
                if (Double.isNaN(first) || mean == first) {
                    first = mean;
                } else if (Double.isNaN(second) || mean == second) {
                    second = mean;
                    pSecond += m.weight(j);
                } else {
                    return null;
                }
            }
            if (Double.isNaN(second)) {
                return new Atoms(first, first, 0.0);
            }
            pSecond = Math.min(1.0, pSecond);
            return first < second ? new Atoms(first, second, pSecond) : new Atoms(second, first, 1 - pSecond);
        }
    }

    /** Samples {@code S} directly; one double per trial. */
    private static final class Summed implements MechanismSimulator {
        private final int rounds;
        private final Atoms with;
        private final Atoms without;
        private final double sd;
        private final BinomialTable withCount;
        private final BinomialTable withoutCount;
        private final String description;

        Summed(int rounds, Atoms with, Atoms without, double sd, String reduced) {
            this.rounds = rounds;
            this.with = with;
            this.without = without;
            this.sd = sd;
            this.withCount = new BinomialTable(rounds, with.r());
            this.withoutCount = new BinomialTable(rounds, without.r());
            this.description = String.format(Locale.ROOT, "projection summed over %d round(s), drawn from its exact "
                    + "law T a + (b - a) Binomial(T, r) + N(0, %s^2) (with the canary: a=%s, b=%s, r=%s; without: "
                    + "a=%s, b=%s, r=%s) instead of round by round; from %s", rounds, Checks.format(sd),
                    Checks.format(with.lo()), Checks.format(with.hi()), Checks.format(with.r()),
                    Checks.format(without.lo()), Checks.format(without.hi()), Checks.format(without.r()), reduced);
        }

        @Override
        public OutputModel outputModel() {
            return null; // the sum's law is stated above; no attack but the projection reads these outputs
        }

        @Override
        public int outputLength() {
            return 1;
        }

        @Override
        public String description() {
            return description;
        }

        @Override
        public TrialSampler create(UniformRandomProvider rng) {
            ZigguratSampler.NormalizedGaussian gauss = ZigguratSampler.NormalizedGaussian.of(rng);
            return (world, out, trials) -> {
                boolean w = world == World.WITH_CANARY;
                Atoms atoms = w ? with : without;
                BinomialTable count = w ? withCount : withoutCount;
                double base = rounds * atoms.lo();
                double step = atoms.hi() - atoms.lo();
                for (int i = 0; i < trials; i++) {
                    int k = count.sample(rng);
                    out[i] = base + step * k + sd * gauss.sample();
                }
            };
        }
    }

    /** The score is the sampled sum itself. */
    private record SumScorer(int rounds) implements Scorer {
        @Override
        public int outputLength() {
            return 1;
        }

        @Override
        public double[] score(double[] outputs, int trials, double[] scratch) {
            return outputs;
        }

        @Override
        public String description() {
            return ProjectionAttack.NAME + ": sum over " + rounds + " round(s) of the output's projection on the "
                    + "canary direction (sampled directly from its exact law, O(1) per trial)";
        }
    }
}
