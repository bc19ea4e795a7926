package io.dpaudit.benchmarks;

import io.dpaudit.attacks.LikelihoodRatioAttack;
import io.dpaudit.core.engine.HistogramBinning;
import io.dpaudit.core.engine.ShardedPhase;
import io.dpaudit.core.engine.ProgressListener;
import io.dpaudit.core.engine.ScoreCounts;
import io.dpaudit.core.engine.Scorer;
import io.dpaudit.core.model.MechanismSimulator;
import io.dpaudit.core.model.Parameters;
import io.dpaudit.core.rng.RandomStreams;
import io.dpaudit.mechanisms.MechanismCatalog;
import io.dpaudit.mechanisms.gaussian.PoissonSubsampledGaussian;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
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
 * Throughput of the reduced trial loop: a trial is one output in each world, scored and counted. Scores are
 * reported as trials per second ({@code ops/s} where one op is one trial).
 *
 * <p>{@code engine}: the full engine on {@code threads} threads (1 and 2) with the likelihood-ratio attack on a
 * reduced simulator: sampling, scoring, histogramming and ordered merging of 2^24 trials per world per invocation.
 * Mechanisms: {@code subsampled-gaussian} (q = 0.01, sigma = 1; compare with {@link DrawLimitBenchmark}) and
 * {@code dss-sgd} (seed 001: m = 2000 clients, q = 0.05, binary randomized response with eps0 = 4, one round; the
 * statistic has about 10^4 atoms, scored by a table of exact ranks) and {@code random-checkin} (seed 004: n = 1000
 * clients, m = 10 slots, p0 = 0.1, randomized response with eps0 = 1; the 11 values of K).
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 2, jvmArgsAppend = {"-Xmx2g"})
@State(Scope.Benchmark)
public class TrialLoopBenchmark {
    /** Trials per benchmark invocation. */
    static final int TRIALS = 1 << 24;

    @Param({"1", "2"})
    public int threads;

    @Param({"subsampled-gaussian", "dss-sgd", "random-checkin"})
    public String mechanism;

    private MechanismSimulator simulator;
    private Scorer scorer;
    private HistogramBinning binning;
    private ShardedPhase engine;
    private long seed;

    /** Builds the state the measured method needs (not measured). */
    @Setup(Level.Trial)
    public void setUp() {
        if (!mechanism.equals("subsampled-gaussian")) {
            Map<String, Object> p = new LinkedHashMap<>();
            if (mechanism.equals("dss-sgd")) {
                p.put("type", "dss-sgd");
                p.put("clients", 2000.0);
                p.put("q", 0.05);
                p.put("eps0", 4.0);
            } else { // the seed-004 m-n mixup scenario: n = 1000, m = 10, p0 = 0.1, eps0 = 1
                p.put("type", "random-checkin");
                p.put("clients", 1000.0);
                p.put("slots", 10.0);
                p.put("p0", 0.1);
                p.put("eps0", 1.0);
                p.put("dataset", "canonical");
            }
            simulator = MechanismCatalog.parse(new Parameters("mechanism.", p)).reduced();
            scorer = LikelihoodRatioAttack.of(simulator.outputModel());
            binning = HistogramBinning.ranks(scorer.rankValues());
        } else {
            simulator = PoissonSubsampledGaussian.of(0.01, 1.0, 1.0, 1).reduced();
            scorer = LikelihoodRatioAttack.of(simulator.outputModel());
            binning = new HistogramBinning(-9.0, 10.0, 8192);
        }
        engine = new ShardedPhase(threads, ShardedPhase.DEFAULT_SHARD_TRIALS, ProgressListener.NONE);
    }

    /** The full engine: sample, score, histogram, merge. */
    @Benchmark
    @OperationsPerInvocation(TRIALS)
    public ScoreCounts engine() {
        return engine.run("bench", new io.dpaudit.core.engine.IndependentShards(simulator, scorer, binning), TRIALS,
                new RandomStreams(seed++));
    }
}
