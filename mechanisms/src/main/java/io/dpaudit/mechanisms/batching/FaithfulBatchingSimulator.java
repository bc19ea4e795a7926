package io.dpaudit.mechanisms.batching;

import io.dpaudit.core.engine.TrialSampler;
import io.dpaudit.core.engine.World;
import io.dpaudit.core.model.MechanismSimulator;
import io.dpaudit.core.model.OutputModel;
import java.util.Locale;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;

/**
 * The batch samplers as DP-SGD code runs them, on an explicit dataset of {@code records} scalar gradients: the canary
 * (record 0, raw gradient 5) and the others (raw gradient -2.5 for the shuffle, whose lower-bound pair sets them to
 * the opposite of the canary, or the shuffle's {@code others} v, clipped to v; 0 for the samplers whose dominating
 * pair has the others contribute nothing). Each
 * gradient is clipped to norm 1 (so +1 and -1). Per epoch the sampler forms its batches — a real permutation cut into
 * T batches of {@code records / T} (shuffle; persistent: one permutation per trial, reused every epoch), a uniform step
 * per record (balls-and-bins), k distinct uniform steps per record (random allocation), record i in step
 * {@code floor(i T / records)} (deterministic), every record in every step with probability 1/T (Poisson) — and step t
 * releases the sum of its batch's clipped gradients plus {@code N(0, sigma^2)}. In D' the canary is ⊥ (zero-out
 * adjacency: it contributes 0). The release of step t is the output's value t of the epoch, exactly the layout of the
 * reduced simulator; the shuffle's statistic removes the other records' known sum {@code (records / T) v} of a step.
 *
 * <p>Random draws per epoch and world: a Fisher–Yates shuffle ({@code records - 1} draws) or one or k draws per record
 * or about two uniforms per record (Poisson: geometric skips between its steps), then T ziggurat normals.
 */
final class FaithfulBatchingSimulator {
    /** Raw (unclipped) gradient of the canary. */
    static final double CANARY_GRADIENT = 5.0;
    /** Raw gradient of every other record in the shuffle's lower-bound dataset. */
    static final double OTHER_GRADIENT = -2.5;

    private FaithfulBatchingSimulator() {
    }

    static MechanismSimulator of(BatchingParameters b, int records) {
        int t = b.steps();
        int e = b.epochs();
        int batch = records / t;
        // the shuffle's statistic removes the other records' known sum from every step: batch * (-v)
        double shift = b.sampler() == BatchingParameters.Sampler.SHUFFLED ? -batch * b.others() : 0;
        OutputModel reduced = ReducedBatchingSimulator.of(b).outputModel();
        OutputModel model = switch (b.sampler()) {
            case SHUFFLED -> new OutputModel(reduced.rounds(), b.persistent() ? Blocks.epochSums(t, e, shift)
                    : Blocks.identity(t, shift), reduced.withCanary(), reduced.withoutCanary(), null);
            default -> reduced;
        };
        String description = String.format(Locale.ROOT, "faithful: %s; %d explicit records (%d per batch), "
                + "gradients clipped to norm 1, the canary %s", b.describe(), records, batch,
                "zeroed out (⊥) in D'");
        return MechanismSimulator.of(model, description, rng -> new Sampler(rng, b, records));
    }

    /**
     * The raw gradient of the shuffle's other records whose clipped value is {@code v}: {@link #OTHER_GRADIENT} for
     * Chua et al.'s {@code v = -1} (clipped), {@code 2.5 v} for {@code v = 1}, v itself inside the ball.
     */
    static double otherGradient(double v) {
        return Math.abs(v) == 1 ? -OTHER_GRADIENT * v : v;
    }

    private static double clip(double g) {
        return Math.max(-1.0, Math.min(1.0, g));
    }

    private static final class Sampler implements TrialSampler {
        private final UniformRandomProvider rng;
        private final ZigguratSampler.NormalizedGaussian gauss;
        private final BatchingParameters p;
        private final int records;
        private final double[] gradient; // clipped, record 0 the canary
        private final int[] permutation;
        private final int[] chosen;

        Sampler(UniformRandomProvider rng, BatchingParameters p, int records) {
            this.rng = rng;
            this.gauss = ZigguratSampler.NormalizedGaussian.of(rng);
            this.p = p;
            this.records = records;
            this.gradient = new double[records];
            double other = p.sampler() == BatchingParameters.Sampler.SHUFFLED ? otherGradient(p.others()) : 0;
            for (int i = 1; i < records; i++) {
                gradient[i] = clip(other);
            }
            this.permutation = new int[records];
            this.chosen = new int[p.k()];
        }

        @Override
        public void sample(World world, double[] out, int trials) {
            gradient[0] = world == World.WITH_CANARY ? clip(CANARY_GRADIENT) : 0.0;
            int t = p.steps();
            int length = t * p.epochs();
            int batch = records / t;
            for (int i = 0; i < trials; i++) {
                int base = i * length;
                java.util.Arrays.fill(out, base, base + length, 0.0);
                if (p.persistent()) {
                    shuffle();
                }
                for (int e = 0; e < p.epochs(); e++) {
                    int epoch = base + e * t;
                    switch (p.sampler()) {
                        case SHUFFLED -> {
                            if (!p.persistent()) {
                                shuffle();
                            }
                            for (int j = 0; j < t * batch; j++) {
                                out[epoch + j / batch] += gradient[permutation[j]];
                            }
                        }
                        case BALLS_AND_BINS -> {
                            for (int r = 0; r < records; r++) {
                                out[epoch + rng.nextInt(t)] += gradient[r];
                            }
                        }
                        case RANDOM_ALLOCATION -> {
                            for (int r = 0; r < records; r++) {
                                UniformSubset.draw(rng, t, chosen);
                                for (int c : chosen) {
                                    out[epoch + c] += gradient[r];
                                }
                            }
                        }
                        case DETERMINISTIC -> {
                            for (int r = 0; r < records; r++) {
                                out[epoch + (int) ((long) r * t / records)] += gradient[r];
                            }
                        }
                        case POISSON -> {
                            // Each record joins each step independently with probability q = 1/T: its steps are
                            // found by geometric skips (the gap to the next inclusion is Geometric(q)), so a record
                            // costs O(1 + Tq) draws, not T.
                            double logMiss = t == 1 ? Double.NEGATIVE_INFINITY : Math.log1p(-1.0 / t);
                            for (int r = 0; r < records; r++) {
                                long s = -1;
                                while (true) {
                                    s += 1 + (t == 1 ? 0 : (long) Math.floor(Math.log(1 - rng.nextDouble()) / logMiss));
                                    if (s >= t) {
                                        break;
                                    }
                                    out[epoch + (int) s] += gradient[r];
                                }
                            }
                        }
                        default -> throw new IllegalStateException();
                    }
                    for (int s = 0; s < t; s++) {
                        out[epoch + s] += p.sigma() * gauss.sample();
                    }
                }
            }
        }

        /** A uniform permutation of the records (Fisher–Yates from the identity). */
        private void shuffle() {
            for (int r = 0; r < records; r++) {
                permutation[r] = r;
            }
            for (int r = records - 1; r > 0; r--) {
                int j = rng.nextInt(r + 1);
                int tmp = permutation[r];
                permutation[r] = permutation[j];
                permutation[j] = tmp;
            }
        }
    }
}
