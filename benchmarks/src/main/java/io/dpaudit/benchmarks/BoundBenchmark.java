package io.dpaudit.benchmarks;

import io.dpaudit.core.bounds.BoundFamily;
import io.dpaudit.core.bounds.PrivacyBound;
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
 * What {@code dp-audit bound random-participation p=0.001 q=0.1 d=30 sigma=1.065 adversary=orthogonal rounds=T
 * --delta 1e-6} computes, on one core: every bound family at its sigma and every adversary's exact profile, each
 * composed over {@code T} rounds by the PLD accountant, read at delta = 1e-6 (seed 000, Section 6 setting 1).
 * Nothing is cached between invocations.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 5)
@Measurement(iterations = 3, time = 10)
@Fork(value = 1, jvmArgsAppend = {"-Xmx4g", "-XX:ActiveProcessorCount=1"})
@State(Scope.Benchmark)
public class BoundBenchmark {
    @Param({"5", "1000"})
    public int rounds;

    /** All of the command's bounds. */
    @Benchmark
    public double randomParticipationBounds() {
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("type", "random-participation");
        v.put("p", 0.001);
        v.put("q", 0.1);
        v.put("d", 30.0);
        v.put("sigma", 1.065);
        v.put("adversary", "orthogonal");
        v.put("rounds", (double) rounds);
        AuditableMechanism m = MechanismCatalog.parse(new Parameters("mechanism.", v));
        double sum = 0;
        for (BoundFamily f : m.boundFamilies()) {
            sum += f.atCurrent().epsilon(1e-6);
        }
        for (PrivacyBound b : m.otherBounds()) {
            sum += b.epsilon(1e-6);
        }
        return sum;
    }
}
