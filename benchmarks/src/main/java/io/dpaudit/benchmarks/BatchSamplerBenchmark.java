package io.dpaudit.benchmarks;

import io.dpaudit.attacks.LikelihoodRatioAttack;
import io.dpaudit.core.engine.Scorer;
import io.dpaudit.core.engine.TrialSampler;
import io.dpaudit.core.engine.World;
import io.dpaudit.core.model.MechanismSimulator;
import io.dpaudit.core.model.Parameters;
import io.dpaudit.mechanisms.MechanismCatalog;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import org.apache.commons.rng.simple.RandomSource;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Cost of one reduced batch-sampler trial at T = 1000 steps (sigma = 1, one epoch), one thread, in ns per trial:
 * {@code normals} draws the T standard normals alone (the floor any exact sampler pays); {@code sample} runs the
 * reduced simulator's sampler (the normals, scaled, plus the canary's placement, with-canary world);
 * {@code sampleAndScore} adds the exact likelihood ratio (one pass of log-sum-exp for balls-and-bins, the mixture of
 * shifts for the shuffle, the elementary-symmetric recursion for random allocation with k = 4). The target:
 * balls-and-bins' {@code sampleAndScore} within 3x of {@code normals}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 2, jvmArgsAppend = {"-Xmx2g", "-XX:ActiveProcessorCount=1"})
@State(Scope.Thread)
public class BatchSamplerBenchmark {
    /** Trials per invocation. */
    static final int BATCH = 64;
    static final int STEPS = 1000;

    @Param({"balls-and-bins", "shuffled-batches", "random-allocation"})
    public String sampler;

    private TrialSampler trials;
    private Scorer scorer;
    private ZigguratSampler.NormalizedGaussian gauss;
    private double[] out;
    private double[] scores;

    /** Builds the state the measured method needs (not measured). */
    @Setup
    public void setUp() {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("type", sampler);
        p.put("steps", (double) STEPS);
        p.put("sigma", 1.0);
        if (sampler.equals("random-allocation")) {
            p.put("k", 4.0);
        }
        MechanismSimulator simulator = MechanismCatalog.parse(new Parameters("mechanism.", p)).reduced();
        UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(20261125L);
        trials = simulator.create(rng);
        scorer = LikelihoodRatioAttack.of(simulator.outputModel());
        gauss = ZigguratSampler.NormalizedGaussian.of(RandomSource.XO_RO_SHI_RO_128_PP.create(7L));
        out = new double[BATCH * STEPS];
        scores = new double[BATCH];
    }

    /** T standard normals per trial, nothing else. */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public double[] normals() {
        for (int i = 0; i < out.length; i++) {
            out[i] = gauss.sample();
        }
        return out;
    }

    /** The reduced sampler alone. */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public double[] sample() {
        trials.sample(World.WITH_CANARY, out, BATCH);
        return out;
    }

    /** The reduced sampler and the exact likelihood ratio. */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public double[] sampleAndScore() {
        trials.sample(World.WITH_CANARY, out, BATCH);
        return scorer.score(out, BATCH, scores);
    }
}
