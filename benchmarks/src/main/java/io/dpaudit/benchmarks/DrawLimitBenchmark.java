package io.dpaudit.benchmarks;

import io.dpaudit.core.rng.RandomStreams;
import java.util.concurrent.TimeUnit;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The draw limit: the bare random draws of one trial (one uniform, two commons-rng ziggurat normals from
 * xoshiro256++) written to a buffer, nothing else. No audit of this mechanism can run faster per core. Each JMH
 * thread has its own generator ({@code Scope.Thread}); run with {@code -t 1} and {@code -t 2} to see how the
 * machine's cores scale.
 *
 * <p>{@link #bareDraws} runs in a default JVM and is bimodal from fork to fork (about 80 or about 140 M/s on the
 * 2-core build machine): C2 inlines the ziggurat's {@code sample()} into this loop only if {@code sample()} has not
 * already been compiled on its own into more than {@code -XX:InlineSmallCode} bytes ("already compiled into a big
 * method" in {@code -XX:+PrintInlining}), which happens when its rare edge path was compiled into it first, a race
 * of the JIT's timing. {@link #bareDrawsStableInlining} raises that limit so that every fork inlines it: the limit
 * proper, the fast mode.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 2, jvmArgsAppend = {"-Xmx1g"})
@State(Scope.Thread)
public class DrawLimitBenchmark {
    static final int TRIALS = 1 << 16;

    private UniformRandomProvider rng;
    private ZigguratSampler.NormalizedGaussian gauss;
    private final double[] buffer = new double[TRIALS];

    /** Builds the state the measured method needs (not measured). */
    @Setup
    public void setUp() {
        rng = new RandomStreams(System.identityHashCode(this)).next();
        gauss = ZigguratSampler.NormalizedGaussian.of(rng);
    }

    /** One trial's draws: a uniform and two normals (default JIT settings: bimodal across forks). */
    @Benchmark
    @OperationsPerInvocation(TRIALS)
    public double[] bareDraws() {
        return draw();
    }

    /** The same draws in JVMs whose JIT always inlines the ziggurat's {@code sample()} into the loop. */
    @Benchmark
    @OperationsPerInvocation(TRIALS)
    @Fork(value = 2, jvmArgsAppend = {"-Xmx1g", "-XX:InlineSmallCode=6000"})
    public double[] bareDrawsStableInlining() {
        return draw();
    }

    private double[] draw() {
        for (int i = 0; i < TRIALS; i++) {
            buffer[i] = rng.nextDouble() + gauss.sample() + gauss.sample();
        }
        return buffer;
    }
}
