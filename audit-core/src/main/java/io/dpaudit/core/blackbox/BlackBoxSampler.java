package io.dpaudit.core.blackbox;

import io.dpaudit.core.engine.CoupledSamplerFactory;
import io.dpaudit.core.engine.TrialSampler;
import io.dpaudit.core.engine.TrialSamplerFactory;
import io.dpaudit.core.engine.World;
import io.dpaudit.core.rng.CommonRandomNumbers;
import java.util.Objects;
import org.apache.commons.rng.UniformRandomProvider;

/**
 * Trials of a {@link BlackBoxMechanism} on a neighbouring pair: world {@code D} runs it on {@code withCanary}, world
 * {@code D'} on {@code withoutCanary}. Each trial is one call; its output is copied into the engine's batch. The output
 * length is fixed when the sampler is built ({@link #probing}); a run that returns another length, or null, stops the
 * audit with an {@link IllegalStateException} naming the world and the length.
 *
 * <p>It can also run coupled trials ({@link CoupledSamplerFactory}): the two worlds of a trial on the same random
 * numbers ({@link CommonRandomNumbers}), which a mechanism that draws only from its {@code rng} and keeps no state
 * between runs (the {@link BlackBoxMechanism} contract) turns into two outputs, each with its world's law.
 *
 * @param <I> the input type
 */
public final class BlackBoxSampler<I> implements TrialSamplerFactory, CoupledSamplerFactory {
    private final BlackBoxMechanism<I> mechanism;
    private final I withCanary;
    private final I withoutCanary;
    private final int outputLength;
    private final String description;

    /**
     * @param mechanism the mechanism
     * @param withCanary the input of world {@code D}
     * @param withoutCanary the input of world {@code D'}
     * @param outputLength the length of every output, at least 1
     * @param description one line for reports
     */
    public BlackBoxSampler(BlackBoxMechanism<I> mechanism, I withCanary, I withoutCanary, int outputLength,
            String description) {
        this.mechanism = Objects.requireNonNull(mechanism, "mechanism");
        this.withCanary = withCanary;
        this.withoutCanary = withoutCanary;
        if (outputLength < 1) {
            throw new IllegalArgumentException("output length must be at least 1, got " + outputLength);
        }
        this.outputLength = outputLength;
        this.description = description;
    }

    /** This sampler's own coupled trials: it draws both worlds from one stream when asked. */
    @Override
    public CoupledSamplerFactory coupling() {
        return this;
    }

    /**
     * A sampler whose output length is read off one run in each world, drawn from {@code probeRng} (a stream no trial
     * uses). The two runs must agree.
     */
    public static <I> BlackBoxSampler<I> probing(BlackBoxMechanism<I> mechanism, I withCanary, I withoutCanary,
            String description, UniformRandomProvider probeRng) {
        double[] a = mechanism.run(withCanary, probeRng);
        double[] b = mechanism.run(withoutCanary, probeRng);
        if (a == null || b == null || a.length == 0) {
            throw new IllegalStateException("the mechanism returned " + (a == null || b == null ? "null"
                    : "an empty output") + "; it must return an array of fixed, positive length");
        }
        if (a.length != b.length) {
            throw new IllegalStateException("the mechanism's outputs differ in length between the neighbouring inputs ("
                    + a.length + " with the canary, " + b.length + " without); they must have one fixed length");
        }
        return new BlackBoxSampler<>(mechanism, withCanary, withoutCanary, a.length, description);
    }

    @Override
    public int outputLength() {
        return outputLength;
    }

    @Override
    public String description() {
        return description;
    }

    @Override
    public TrialSampler create(UniformRandomProvider rng) {
        return (world, out, trials) -> {
            I input = world == World.WITH_CANARY ? withCanary : withoutCanary;
            for (int t = 0; t < trials; t++) {
                copy(mechanism.run(input, rng), world, out, t);
            }
        };
    }

    @Override
    public CoupledSamplerFactory.Draws coupled(UniformRandomProvider rng) {
        CommonRandomNumbers common = new CommonRandomNumbers(rng);
        return (outD, outDPrime, trials) -> {
            for (int t = 0; t < trials; t++) {
                common.record();
                copy(mechanism.run(withCanary, common), World.WITH_CANARY, outD, t);
                common.replay();
                copy(mechanism.run(withoutCanary, common), World.WITHOUT_CANARY, outDPrime, t);
            }
        };
    }

    private void copy(double[] o, World world, double[] out, int t) {
        if (o == null || o.length != outputLength) {
            throw new IllegalStateException("the mechanism returned an output of length "
                    + (o == null ? "null" : Integer.toString(o.length)) + " in world " + world.symbol()
                    + "; every output must have length " + outputLength);
        }
        System.arraycopy(o, 0, out, t * outputLength, outputLength);
    }
}
