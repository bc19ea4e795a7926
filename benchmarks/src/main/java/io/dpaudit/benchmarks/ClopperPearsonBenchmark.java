package io.dpaudit.benchmarks;

import io.dpaudit.core.estimate.ClopperPearson;
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
import org.openjdk.jmh.annotations.Warmup;

/**
 * Time of one Clopper–Pearson upper bound at 95% on {@code n = 10^6} trials, one core: at {@code k} up to 1000 it
 * solves the binomial tail summed term by term for {@code p} (about fifty evaluations), above it inverts the
 * incomplete beta. Every certified false-positive rate, power statement and trade-off point costs one or more.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {"-XX:ActiveProcessorCount=1"})
@State(Scope.Benchmark)
public class ClopperPearsonBenchmark {
    /** Successes. */
    @Param({"0", "10", "100", "1000", "5000"})
    public long k;

    /** The upper bound for {@code k} successes in 10^6 trials at error level 0.05. */
    @Benchmark
    public double upper() {
        return ClopperPearson.upper(k, 1_000_000L, 0.05);
    }
}
