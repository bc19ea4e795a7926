package io.dpaudit.mechanisms.batching;

import io.dpaudit.core.engine.TrialSampler;
import io.dpaudit.core.engine.World;
import io.dpaudit.core.law.GaussianMixture;
import io.dpaudit.core.model.MechanismSimulator;
import io.dpaudit.core.model.OutputModel;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;

/**
 * Exact samplers of the pairs that decide a batch sampler's privacy, on the canary's coordinate of every step (the
 * other records' contributions are fixed, so only the canary's steps and the noise vary). An output is E epochs of T
 * step sums; per epoch, with {@code Z ~ N(0, sigma^2 I_T)}:
 * <ul>
 *   <li>{@code shuffled-batches}: {@code 2 e_t + Z} in D and {@code e_t + Z} in D', t uniform (Chua et al. 2024: the
 *       other records contribute -1, shifted away; a lower-bound pair, not a dominating one); persistent: the same t
 *       every epoch; with the other records' gradient {@code v} ({@code others}), {@code (1 - v) e_t + Z} against
 *       {@code -v e_t + Z};</li>
 *   <li>{@code balls-and-bins}: {@code e_t + Z} against {@code Z}, t uniform (Chua et al. 2025: the dominating pair);</li>
 *   <li>{@code random-allocation}: {@code 1_S + Z} against {@code Z}, S a uniform k-subset (Feldman &amp; Shenfeld);</li>
 *   <li>{@code deterministic-batches}: {@code e_1 + Z} against {@code Z} (the canary's known step);</li>
 *   <li>{@code poisson-batches}: {@code B + Z} against {@code Z}, B with independent Bernoulli(1/T) coordinates.</li>
 * </ul>
 * Random draws per epoch and world: T ziggurat normals; then one {@code nextInt(T)} (shuffled, balls-and-bins), k
 * draws of Floyd's subset algorithm (random allocation), or T uniforms (Poisson, D only); a persistent shuffle draws
 * its step once per trial.
 */
final class ReducedBatchingSimulator {
    private ReducedBatchingSimulator() {
    }

    static MechanismSimulator of(BatchingParameters b) {
        int t = b.steps();
        int e = b.epochs();
        double s = b.sigma();
        OutputModel model = switch (b.sampler()) {
            case SHUFFLED -> b.persistent()
                    ? new OutputModel(1, Blocks.epochSums(t, e, 0), shuffleLaw(t, b.canaryShift() * e, s * Math.sqrt(e)),
                            shuffleLaw(t, b.absentShift() * e, s * Math.sqrt(e)), null)
                    : new OutputModel(e, Blocks.identity(t, 0), shuffleLaw(t, b.canaryShift(), s),
                            shuffleLaw(t, b.absentShift(), s), null);
            case BALLS_AND_BINS -> new OutputModel(e, Blocks.identity(t, 0), new SubsetShiftLaw(t, 1, 1, s),
                    new SubsetShiftLaw(t, 0, 0, s), null);
            case RANDOM_ALLOCATION -> new OutputModel(e, Blocks.identity(t, 0), new SubsetShiftLaw(t, b.k(), 1, s),
                    new SubsetShiftLaw(t, 0, 0, s), null);
            case DETERMINISTIC -> {
                double[] first = new double[t];
                first[0] = 1;
                yield OutputModel.linear(e, t, new double[][] {first}, GaussianMixture.single(1, s),
                        GaussianMixture.single(0, s), -1, first);
            }
            case POISSON -> {
                double q = 1.0 / t;
                GaussianMixture with = t == 1 ? GaussianMixture.single(1, s)
                        : new GaussianMixture(new double[] {1 - q, q}, new double[][] {{0.0}, {1.0}}, s);
                yield OutputModel.ofStatistic(t * e, with, GaussianMixture.single(0, s));
            }
        };
        return MechanismSimulator.of(model, "reduced: " + b.describe() + "; the canary's coordinate of each step's sum",
                rng -> new Sampler(rng, b));
    }

    /** One step (of T) shifted by {@code shift}; a shift of 0 is no shift at all (the Gaussian alone). */
    private static SubsetShiftLaw shuffleLaw(int t, double shift, double s) {
        return new SubsetShiftLaw(t, shift == 0 ? 0 : 1, shift, s);
    }

        /** The samplers, one class with the sampler chosen once per call (a branch per batch, not per value). */
    private static final class Sampler implements TrialSampler {
        private final UniformRandomProvider rng;
        private final ZigguratSampler.NormalizedGaussian gauss;
        private final BatchingParameters.Sampler kind;
        private final int steps;
        private final int epochs;
        private final double sigma;
        private final boolean persistent;
        private final int[] chosen;
        private final double withShift;
        private final double withoutShift;

        Sampler(UniformRandomProvider rng, BatchingParameters b) {
            this.rng = rng;
            this.gauss = ZigguratSampler.NormalizedGaussian.of(rng);
            this.kind = b.sampler();
            this.steps = b.steps();
            this.epochs = b.epochs();
            this.sigma = b.sigma();
            this.persistent = b.persistent();
            this.chosen = new int[b.k()];
            this.withShift = b.canaryShift();
            this.withoutShift = b.absentShift();
        }

        @Override
        public void sample(World world, double[] out, int trials) {
            boolean d = world == World.WITH_CANARY;
            int length = steps * epochs;
            for (int i = 0; i < trials; i++) {
                int base = i * length;
                for (int j = 0; j < length; j++) {
                    out[base + j] = sigma * gauss.sample();
                }
                switch (kind) {
                    case SHUFFLED -> shuffled(out, base, d ? withShift : withoutShift);
                    case BALLS_AND_BINS -> {
                        if (d) {
                            for (int e = 0; e < epochs; e++) {
                                out[base + e * steps + rng.nextInt(steps)] += 1;
                            }
                        }
                    }
                    case RANDOM_ALLOCATION -> {
                        if (d) {
                            for (int e = 0; e < epochs; e++) {
                                UniformSubset.draw(rng, steps, chosen);
                                for (int c : chosen) {
                                    out[base + e * steps + c] += 1;
                                }
                            }
                        }
                    }
                    case DETERMINISTIC -> {
                        if (d) {
                            for (int e = 0; e < epochs; e++) {
                                out[base + e * steps] += 1;
                            }
                        }
                    }
                    case POISSON -> {
                        if (d) {
                            double q = 1.0 / steps;
                            for (int j = 0; j < length; j++) {
                                if (rng.nextDouble() < q) {
                                    out[base + j] += 1;
                                }
                            }
                        }
                    }
                    default -> throw new IllegalStateException();
                }
            }
        }

        private void shuffled(double[] out, int base, double shift) {
            int step = persistent ? rng.nextInt(steps) : 0;
            for (int e = 0; e < epochs; e++) {
                out[base + e * steps + (persistent ? step : rng.nextInt(steps))] += shift;
            }
        }
    }
}
