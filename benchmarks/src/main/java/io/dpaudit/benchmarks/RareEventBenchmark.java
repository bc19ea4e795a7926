package io.dpaudit.benchmarks;

import io.dpaudit.core.estimate.PrivacyLossEstimate;
import io.dpaudit.core.estimate.TiltedProfileEstimator;
import io.dpaudit.core.law.GaussianMixture;
import io.dpaudit.core.rng.RandomStreams;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The importance-sampled privacy curve ({@link TiltedProfileEstimator}) of the Poisson-subsampled Gaussian (q = 0.01,
 * σ = 1) at δ = 1e-6, 1e-8, 1e-10 and 1e-12 in one estimate, with the run's default budget (3·10^7 / T samples per
 * target and direction within [2·10^4, 3·10^6]) on two threads: seconds per estimate. At tear-down it prints each
 * δ's ε interval and relative width, the numbers of the table in docs/rare-events.md. Plain Monte Carlo needs about
 * 100/δ trials per world to see anything at δ (10^8 to 10^14 here), so it has no column of its own.
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 1)
@Measurement(iterations = 3)
@Fork(value = 1, jvmArgsAppend = {"-Xmx2g"})
@State(Scope.Benchmark)
public class RareEventBenchmark {
    static final List<Double> DELTAS = List.of(1e-6, 1e-8, 1e-10, 1e-12);

    @Param({"1", "100", "1000"})
    public int rounds;

    private long seed = 1;
    private PrivacyLossEstimate last;

    /** One estimate at all four δ. */
    @Benchmark
    public PrivacyLossEstimate importance() {
        double q = 0.01;
        GaussianMixture with = new GaussianMixture(new double[] {1 - q, q}, new double[][] {{0}, {1}}, 1);
        long samples = Math.max(20_000, Math.min(3_000_000, (long) (3e7 / rounds)));
        last = TiltedProfileEstimator.estimate(with, GaussianMixture.single(0, 1), rounds, List.of(), DELTAS,
                samples, 0.95, new RandomStreams(seed++), 2).estimate();
        return last;
    }

    @TearDown
    public void report() {
        for (double d : DELTAS) {
            PrivacyLossEstimate.EpsilonInterval e = last.epsilonAt(d);
            System.out.printf("%nT = %d, delta = %g: epsilon in [%.5f, %.5f], relative width %.4f, %d samples per "
                    + "direction%n", rounds, d, e.lower(), e.upper(), (e.upper() - e.lower()) / e.lower(),
                    last.trials());
        }
    }
}
