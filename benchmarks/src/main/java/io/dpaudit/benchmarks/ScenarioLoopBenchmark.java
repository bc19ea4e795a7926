package io.dpaudit.benchmarks;

import io.dpaudit.core.engine.HistogramBinning;
import io.dpaudit.core.engine.ShardedPhase;
import io.dpaudit.core.engine.Pilot;
import io.dpaudit.core.engine.ProgressListener;
import io.dpaudit.core.engine.ScoreCounts;
import io.dpaudit.core.rng.RandomStreams;
import io.dpaudit.runner.ScenarioAudit;
import io.dpaudit.runner.scenario.Scenario;
import io.dpaudit.runner.scenario.ScenarioReader;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The counted loop of a scenario (sample, score, histogram, merge) prepared exactly as {@code dp-audit run} prepares
 * it ({@link ScenarioAudit#prepareTrials}: simulator and attack, including any exact shortcut the attack has), on
 * {@code threads} threads. JMH reports two counters as rates: {@code trials} (counted trials per world per second) and
 * {@code rounds} (the rounds those trials simulate, per world per second: trials times the scenario's rounds). Each
 * invocation is cut into at least four shards (and shards no larger than {@code run} cuts them), so that the
 * two-thread figures use both threads; a counted trial is one trial in each world.
 *
 * <ul>
 *   <li>{@code orthogonal-lr}: seed 000 Section 6 setting 1, orthogonal configuration (p = 0.001, q = 0.1, d = 30,
 *       sigma = 1.065), likelihood-ratio attack, one round; reduced simulator.</li>
 *   <li>{@code psg-T100-lr} and {@code psg-T100-projection}: the Poisson-subsampled Gaussian (q = 0.01, sigma = 1)
 *       over 100 rounds with the likelihood-ratio attack (O(T) per trial) and the projection attack (its sum drawn
 *       directly, O(1)).</li>
 *   <li>{@code dp-fed-ls-faithful-D256}: the faithful DP-Fed-LS simulator (100 clients, 10 selected, D = 256,
 *       s = 3, 4 rounds) with the projection attack: explicit vectors, selection, noise, smoothing by FFT.</li>
 * </ul>
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 5)
@Measurement(iterations = 3, time = 10)
@Fork(value = 1, jvmArgsAppend = {"-Xmx4g"})
@State(Scope.Benchmark)
public class ScenarioLoopBenchmark {
    @Param({"1", "2"})
    public int threads;

    @Param({"orthogonal-lr", "psg-T100-lr", "psg-T100-projection", "dp-fed-ls-faithful-D256"})
    public String scenario;

    private io.dpaudit.runner.ScenarioTrials.Prepared trials;
    private HistogramBinning binning;
    private ShardedPhase engine;
    private long seed;
    private int perInvocation;
    private int rounds;

    private static String json(String name) {
        return switch (name) {
            case "orthogonal-lr" -> "{\"name\": \"b\", \"mechanism\": {\"type\": \"random-participation\", \"p\": 0.001,"
                    + " \"q\": 0.1, \"d\": 30, \"sigma\": 1.065, \"adversary\": \"orthogonal\"}, \"deltas\": [1e-6]}";
            case "psg-T100-lr" -> "{\"name\": \"b\", \"mechanism\": {\"type\": \"poisson-subsampled-gaussian\", "
                    + "\"q\": 0.01, \"sigma\": 1, \"rounds\": 100}, \"deltas\": [1e-5]}";
            case "psg-T100-projection" -> "{\"name\": \"b\", \"mechanism\": {\"type\": \"poisson-subsampled-gaussian\","
                    + " \"q\": 0.01, \"sigma\": 1, \"rounds\": 100}, \"attack\": \"projection\", \"deltas\": [1e-5]}";
            case "dp-fed-ls-faithful-D256" -> "{\"name\": \"b\", \"mechanism\": {\"type\": \"dp-fed-ls\", \"clients\": "
                    + "100, \"selected\": 10, \"sampling\": \"uniform\", \"sigma\": 2.0, \"clip\": 1.0, \"rounds\": 4, "
                    + "\"dimension\": 256, \"canary\": \"spike\", \"smoothing\": 3.0}, \"simulator\": {\"kind\": "
                    + "\"faithful\"}, \"attack\": \"projection\", \"deltas\": [1e-3]}";
            default -> throw new IllegalArgumentException(name);
        };
    }

    /** Builds the state the measured method needs (not measured). */
    @Setup(Level.Trial)
    public void setUp() {
        Scenario s = ScenarioReader.parse(json(scenario), scenario);
        trials = io.dpaudit.runner.ScenarioTrials.prepare(s, 1L << 30, 1);
        binning = Pilot.binning(trials.simulator(), trials.scorer(), 1 << 16, 4096, new RandomStreams(99).next());
        rounds = scenario.startsWith("psg-T100") ? 100 : scenario.startsWith("dp-fed-ls") ? 4 : 1;
        perInvocation = scenario.startsWith("dp-fed-ls") ? 1 << 15 : scenario.equals("psg-T100-lr") ? 1 << 18
                : 1 << 22;
        // At least four shards per invocation, so that a second thread has work (a shard is one thread's).
        int shard = ShardedPhase.shardTrialsFor(trials.simulator().outputLength());
        engine = new ShardedPhase(threads, Math.min(shard, perInvocation / 4),
                ProgressListener.NONE);
    }

    /** Counters reported as rates. */
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    @State(Scope.Thread)
    public static class Counters {
        public long trials;
        public long rounds;

        /** Builds the state the measured method needs (not measured). */
        @Setup(Level.Iteration)
        public void reset() {
            trials = 0;
            rounds = 0;
        }
    }

    /** One engine run of the prepared trials. */
    @Benchmark
    public ScoreCounts loop(Counters counters) {
        ScoreCounts c = engine.run("bench", new io.dpaudit.core.engine.IndependentShards(trials.simulator(),
                trials.scorer(), binning), perInvocation, new RandomStreams(seed++));
        counters.trials += perInvocation;
        counters.rounds += (long) perInvocation * rounds;
        return c;
    }
}
