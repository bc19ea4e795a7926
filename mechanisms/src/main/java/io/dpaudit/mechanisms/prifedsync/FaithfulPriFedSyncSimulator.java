package io.dpaudit.mechanisms.prifedsync;

import io.dpaudit.core.InvalidInputException;
import io.dpaudit.core.engine.TrialSampler;
import io.dpaudit.core.engine.World;
import io.dpaudit.core.model.MechanismSimulator;
import io.dpaudit.core.model.OutputModel;
import java.util.Locale;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;

/**
 * Faithful simulator of PriFedSync's synchronisation rounds as seen by the adversary, with explicit clients, records,
 * batches, clipping and noise:
 * <ol>
 *   <li>every client tosses its sampling coin ({@code nextDouble() < p}, clients in index order; client 0 is the
 *       target client j, client 1 the observing client of the weak notion);</li>
 *   <li>if client j takes part, it runs {@code K} local steps: a batch of {@code B} of its {@code n} records drawn
 *       without replacement (partial Fisher–Yates over an index array, {@code B} {@code nextInt}), the per-record
 *       gradients clipped to norm {@code C} and summed, plus {@code N(0, s^2 I_d)} noise ({@code d} normals, {@code s}
 *       the noise standard deviation of the scenario's convention); the step's noisy sum is what it releases (the
 *       local model moves by a known multiple of it), and the adversary, who knows the other records, subtracts their
 *       clipped gradients times {@code B};</li>
 *   <li>the round reaches the adversary when j took part and — per-round view — the observing client (weak) or any
 *       other client (strong) took part too; in the broadcast view whenever j took part.</li>
 * </ol>
 * Records are vectors of dimension {@code d} (simulator option {@code dimension}, default 4): the raw gradients are
 * twice the pair's clipped ones along {@code e_1} (target {@code 2C e_1}; replacement {@code -2C e_1} or 0; other
 * records {@code -2C e_1} for the aligned-others pair, else 0), so clipping is exercised on every record. An output
 * round is the flag and the {@code K} noisy sums ({@code d} values each).
 */
final class FaithfulPriFedSyncSimulator {
    /** Largest number of records simulated explicitly. */
    static final int MAX_RECORDS = 1 << 24;

    private FaithfulPriFedSyncSimulator() {
    }

    static MechanismSimulator of(PriFedSyncParameters p, int dimension) {
        if (p.records() > MAX_RECORDS) {
            throw new InvalidInputException("mechanism.records", p.records(), "exceeds " + MAX_RECORDS
                    + " for the faithful simulator; use the reduced one");
        }
        int k = p.localSteps();
        OutputModel model = new OutputModel(p.rounds(), new VisibleSteps(k, dimension), StepMixtureLaw.withCanary(p),
                StepMixtureLaw.withoutCanary(p), null);
        String d = String.format(Locale.ROOT, "faithful: %s; explicit client coins, batches drawn without "
                + "replacement, clipping of %d-dimensional gradients, Gaussian noise", p.describe(), dimension);
        return MechanismSimulator.of(model, d, rng -> new Sampler(rng, p, dimension));
    }

    /** Bit of {@link #clientCoins}: the target client j takes part. */
    static final int TARGET = 1;
    /** Bit of {@link #clientCoins}: the observer takes part (client 1, weak; any client but j, strong). */
    static final int OBSERVER = 2;

    /**
     * One round's client sampling: every client tosses its coin ({@code nextDouble() < p}, in index order; client 0 is
     * j), and the result is {@link #TARGET} and {@link #OBSERVER} as bits.
     */
    static int clientCoins(UniformRandomProvider rng, PriFedSyncParameters p, boolean weak) {
        int coins = 0;
        for (int client = 0; client < p.clients(); client++) {
            boolean in = p.p() >= 1.0 || rng.nextDouble() < p.p();
            if (in && client == 0) {
                coins |= TARGET;
            } else if (in && (client == 1 || !weak)) {
                coins |= OBSERVER;
            }
        }
        return coins;
    }

    /** A gradient {@code g e_1} clipped to norm {@code c}, along {@code e_1}. */
    static double clipped(double g, double c) {
        double norm = Math.abs(g);
        return norm > c ? g * c / norm : g;
    }

    private static final class Sampler implements TrialSampler {
        private final UniformRandomProvider rng;
        private final ZigguratSampler.NormalizedGaussian normal;
        private final PriFedSyncParameters p;
        private final int dimension;
        private final int[] order;
        private final double[] sum;

        Sampler(UniformRandomProvider rng, PriFedSyncParameters p, int dimension) {
            this.rng = rng;
            this.normal = ZigguratSampler.NormalizedGaussian.of(rng);
            this.p = p;
            this.dimension = dimension;
            this.order = new int[p.records()];
            for (int i = 0; i < order.length; i++) {
                order[i] = i;
            }
            this.sum = new double[dimension];
        }

        @Override
        public void sample(World world, double[] out, int trials) {
            // Raw gradients along e_1 (clipped below): the target's 2C in D, the replacement's in D'; the others'.
            double raw = 2 * p.clip() * (world == World.WITH_CANARY ? 1.0 : p.replacementGradient());
            double otherRaw = 2 * p.clip() * p.othersGradient();
            double known = p.batch() * clipped(otherRaw, p.clip());
            double sd = p.noiseScale() * p.clip();
            int steps = p.localSteps();
            int block = 1 + steps * dimension;
            boolean broadcast = p.view().equals("broadcast");
            boolean weak = p.notion().equals("weak");
            for (int b = 0; b < trials * p.rounds(); b++) {
                int base = b * block;
                int coins = clientCoins(rng, p, weak);
                boolean seen = (coins & TARGET) != 0 && (broadcast || (coins & OBSERVER) != 0);
                if (!seen) {
                    java.util.Arrays.fill(out, base, base + block, 0.0);
                    continue;
                }
                out[base] = 1.0;
                for (int k = 0; k < steps; k++) {
                    java.util.Arrays.fill(sum, 0.0);
                    for (int i = 0; i < p.batch(); i++) { // order[0..B) is a uniform B-subset
                        int j = i + rng.nextInt(p.records() - i);
                        int t = order[i];
                        order[i] = order[j];
                        order[j] = t;
                        // record 0 is the target (or its replacement); each gradient clipped to norm C
                        sum[0] += clipped(order[i] == 0 ? raw : otherRaw, p.clip());
                    }
                    sum[0] -= known; // the adversary removes the other records' known contribution
                    int o = base + 1 + k * dimension;
                    for (int i = 0; i < dimension; i++) {
                        out[o + i] = sum[i] + sd * normal.sample();
                    }
                }
            }
        }
    }
}
