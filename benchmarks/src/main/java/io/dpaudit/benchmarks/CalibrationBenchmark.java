package io.dpaudit.benchmarks;

import io.dpaudit.core.InvalidInputException;
import io.dpaudit.core.bounds.BoundFamily;
import io.dpaudit.core.model.AuditableMechanism;
import io.dpaudit.core.model.Parameters;
import io.dpaudit.mechanisms.MechanismCatalog;
import java.util.LinkedHashMap;
import java.util.Map;
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
 * What {@code dp-audit calibrate poisson-subsampled-gaussian ... --epsilon 1 --delta 1e-5} computes, every family in
 * turn on one core (the command runs them on up to two threads): {@code q0.01-T1} is {@code q=0.01}, one round;
 * {@code q0.001-clip6-T25} is {@code q=0.001 clip=6 rounds=25}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 5)
@Measurement(iterations = 3, time = 10)
@Fork(value = 1, jvmArgsAppend = {"-Xmx4g", "-XX:ActiveProcessorCount=1"})
@State(Scope.Benchmark)
public class CalibrationBenchmark {
    @Param({"q0.01-T1", "q0.001-clip6-T25"})
    public String config;

    /** Every family's sigma for (1, 1e-5). */
    @Benchmark
    public double calibrateSubsampledGaussian() {
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("type", "poisson-subsampled-gaussian");
        v.put("sigma", 1.0);
        if (config.equals("q0.01-T1")) {
            v.put("q", 0.01);
        } else {
            v.put("q", 0.001);
            v.put("clip", 6.0);
            v.put("rounds", 25.0);
        }
        AuditableMechanism m = MechanismCatalog.parse(new Parameters("mechanism.", v));
        double sum = 0;
        for (BoundFamily f : m.boundFamilies()) {
            try {
                sum += f.calibrate(1.0, 1e-5);
            } catch (InvalidInputException e) {
                sum += 0;
            }
        }
        return sum;
    }
}
