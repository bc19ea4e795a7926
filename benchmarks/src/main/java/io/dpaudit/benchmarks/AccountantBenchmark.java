package io.dpaudit.benchmarks;

import io.dpaudit.core.accounting.Adjacency;
import io.dpaudit.core.accounting.DpEvent;
import io.dpaudit.core.accounting.PldAccountant;
import io.dpaudit.core.accounting.RdpAccountant;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Time of one accounting on one core: ε at δ = 1e-5 of {@code rounds} rounds (1000, or 10^6 where one loss distribution
 * of about 10^4 points is composed on an FFT of 2^22) of the Poisson-subsampled Gaussian with q = 0.01, sigma = 1
 * (discretisation, FFT composition of both directions, read-out); and of a three-atom discrete pair.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 2, jvmArgsAppend = {"-Xmx2g", "-XX:ActiveProcessorCount=1"})
@State(Scope.Benchmark)
public class AccountantBenchmark {
    /** Rounds composed. */
    @Param({"1000", "1000000"})
    public int rounds;

    private DpEvent event;
    private DpEvent discrete;

    /** Builds the state the measured method needs (not measured). */
    @Setup
    public void setUp() {
        event = new DpEvent.SelfComposed(new DpEvent.PoissonSampled(0.01, new DpEvent.Gaussian(1.0, 1.0)), rounds);
        // Randomized response (eps0 = 1) on one record of 10, used by a client taking part with probability 0.1: the
        // ldp-baseline pair of a shuffled protocol, three atoms whose spectrum does not decay.
        double truth = 1.0 / (1.0 + Math.exp(-1.0));
        double one = 0.1 * truth + 0.9 * (1 - truth);
        discrete = new DpEvent.SelfComposed(DpEvent.DiscreteLoss.ofPair("bench", new double[] {0.9, 0.1 * one,
            0.1 * (1 - one)}, new double[] {0.9, 0.1 * (1 - truth), 0.1 * truth}), rounds);
    }

    /** PLD accountant, including the accounting itself (nothing is cached between invocations). */
    @Benchmark
    public double pld() {
        return new PldAccountant().account("bench", event, Adjacency.ADD_REMOVE).epsilon(1e-5);
    }

    /** PLD accountant on a three-atom discrete pair (the ldp-baseline of a shuffled protocol). */
    @Benchmark
    public double pldDiscrete() {
        return new PldAccountant().account("bench", discrete, Adjacency.REPLACE_ONE).epsilon(1e-5);
    }

    /** RDP accountant, for comparison. */
    @Benchmark
    public double rdp() {
        return new RdpAccountant().account("bench", event, Adjacency.ADD_REMOVE).epsilon(1e-5);
    }
}
