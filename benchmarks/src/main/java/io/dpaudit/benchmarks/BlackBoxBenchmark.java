package io.dpaudit.benchmarks;

import io.dpaudit.attacks.learned.LearnedDistinguisher;
import io.dpaudit.core.blackbox.BlackBoxMechanism;
import io.dpaudit.core.blackbox.BlackBoxSampler;
import io.dpaudit.core.blackbox.StatisticScorer;
import io.dpaudit.core.engine.CoupledCounts;
import io.dpaudit.core.engine.CoupledShards;
import io.dpaudit.core.engine.IndependentShards;
import io.dpaudit.core.engine.HistogramBinning;
import io.dpaudit.core.engine.ShardedPhase;
import io.dpaudit.core.engine.ProgressListener;
import io.dpaudit.core.engine.ScoreCounts;
import io.dpaudit.core.engine.Scorer;
import io.dpaudit.core.rng.RandomStreams;
import java.util.concurrent.TimeUnit;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
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
 * The black-box path: a user's Gaussian mechanism ({@code x + N(0, 1)}, written as a user would, allocating its
 * output and its sampler on every call) run by the engine on {@code threads} threads and scored by a threshold on the
 * output ({@code statistic}) or by the learned distinguisher's fitted model ({@code learned}); and the cost of fitting
 * the learned distinguisher on 10^6 outputs per world ({@link Fit#fitOnAMillion}). Throughput is in trials per second
 * (one trial = one output in each world). {@link #coupledEngine} runs the same trials coupled ({@link CoupledShards} through {@link ShardedPhase}:
 * both worlds on common random numbers, the recorded draws of D replayed to D', four histograms).
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xmx2g"})
@State(Scope.Benchmark)
public class BlackBoxBenchmark {
    /** Trials per invocation of the engine benchmark. */
    static final int TRIALS = 1 << 22;

    static final BlackBoxMechanism<Double> GAUSSIAN = (sum, rng) ->
            new double[] {sum + ZigguratSampler.NormalizedGaussian.of(rng).sample()};

    @Param({"1", "2"})
    public int threads;

    @Param({"statistic", "learned"})
    public String attack;

    private BlackBoxSampler<Double> sampler;
    private Scorer scorer;
    private HistogramBinning binning;
    private ShardedPhase engine;
    private long seed;

    /** Builds the state the measured method needs (not measured). */
    @Setup(Level.Trial)
    public void setUp() {
        sampler = new BlackBoxSampler<>(GAUSSIAN, 1.0, 0.0, 1, "Gaussian black box");
        scorer = attack.equals("statistic") ? StatisticScorer.firstCoordinate(1)
                : new LearnedDistinguisher().train(sampler, 100_000, RandomStreams.training(1), ProgressListener.NONE);
        binning = new HistogramBinning(-8, 9, 8192);
        engine = new ShardedPhase(threads, ShardedPhase.DEFAULT_SHARD_TRIALS, ProgressListener.NONE);
    }

    /** Independent trials of both worlds through the local engine, per trial. */
    @Benchmark
    @OperationsPerInvocation(TRIALS)
    public ScoreCounts engine() {
        return engine.run("bench", new IndependentShards(sampler, scorer, binning), TRIALS, new RandomStreams(seed++));
    }

    /** Coupled trials (common random numbers) through the local engine, per trial. */
    @Benchmark
    @OperationsPerInvocation(TRIALS)
    public CoupledCounts coupledEngine() {
        return engine.run("bench", new CoupledShards(sampler, scorer, binning), TRIALS, new RandomStreams(seed++));
    }

    /** Fitting the learned distinguisher on 10^6 outputs per world (drawing them included), one thread. */
    @State(Scope.Benchmark)
    public static class Fit {
        private final BlackBoxSampler<Double> sampler = new BlackBoxSampler<>(GAUSSIAN, 1.0, 0.0, 1, "Gaussian");
        private long seed;

        /** Training the learned distinguisher on a million outputs per world, one shot. */
        @Benchmark
        @BenchmarkMode(Mode.SingleShotTime)
        @OutputTimeUnit(TimeUnit.SECONDS)
        @Warmup(iterations = 1)
        @Measurement(iterations = 5)
        public Scorer fitOnAMillion() {
            return new LearnedDistinguisher().train(sampler, 1_000_000, RandomStreams.training(seed++),
                    ProgressListener.NONE);
        }
    }
}
