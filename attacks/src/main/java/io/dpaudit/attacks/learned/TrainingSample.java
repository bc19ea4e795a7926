package io.dpaudit.attacks.learned;

import io.dpaudit.core.engine.ShardedPhase;
import io.dpaudit.core.engine.TrialSampler;
import io.dpaudit.core.engine.TrialSamplerFactory;
import io.dpaudit.core.engine.World;
import org.apache.commons.rng.UniformRandomProvider;

/**
 * Outputs of both worlds to learn from, split into a part the models are fitted on and a part that chooses between
 * them (both disjoint from the audit's trials, which come from other streams).
 *
 * @param length doubles per output
 * @param fitWith fitting outputs of {@code D}, {@code fitCount x length}
 * @param fitWithout fitting outputs of {@code D'}
 * @param fitCount outputs per world in the fitting part
 * @param validWith validation outputs of {@code D}
 * @param validWithout validation outputs of {@code D'}
 * @param validCount outputs per world in the validation part
 */
record TrainingSample(int length, double[] fitWith, double[] fitWithout, int fitCount, double[] validWith,
        double[] validWithout, int validCount) {

    /** Share of the sample used for fitting; the rest validates. */
    static final double FIT_SHARE = 0.8;

    /**
     * Draws {@code trials} outputs per world, all from {@code rng} in a fixed order (batches of D then D'), so the sample
     * depends only on the seed.
     */
    static TrainingSample draw(TrialSamplerFactory factory, int trials, UniformRandomProvider rng) {
        int length = factory.outputLength();
        long doubles = (long) trials * length;
        if (doubles > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("a training sample of " + trials + " outputs of length " + length
                    + " does not fit in an array");
        }
        double[] with = new double[(int) doubles];
        double[] without = new double[(int) doubles];
        TrialSampler sampler = factory.create(rng);
        int batch = ShardedPhase.batchTrials(length);
        double[] buffer = new double[batch * length];
        for (int done = 0; done < trials; ) {
            int b = Math.min(batch, trials - done);
            sampler.sample(World.WITH_CANARY, buffer, b);
            System.arraycopy(buffer, 0, with, done * length, b * length);
            sampler.sample(World.WITHOUT_CANARY, buffer, b);
            System.arraycopy(buffer, 0, without, done * length, b * length);
            done += b;
        }
        int fit = Math.max(1, Math.min(trials - 1, (int) Math.round(trials * FIT_SHARE)));
        int valid = trials - fit;
        return new TrainingSample(length, java.util.Arrays.copyOf(with, fit * length),
                java.util.Arrays.copyOf(without, fit * length), fit,
                java.util.Arrays.copyOfRange(with, fit * length, trials * length),
                java.util.Arrays.copyOfRange(without, fit * length, trials * length), valid);
    }
}
