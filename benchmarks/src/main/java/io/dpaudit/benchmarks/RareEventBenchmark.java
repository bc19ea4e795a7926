package io.dpaudit.benchmarks;

import io.dpaudit.core.engine.ProgressListener;
import io.dpaudit.core.estimate.profile.PrivacyLossEstimate;
import io.dpaudit.core.estimate.profile.TiltedProfileEstimator;
import io.dpaudit.core.law.GaussianMixture;
import io.dpaudit.core.rng.RandomStreams;
import io.dpaudit.runner.ScenarioAudit;
import io.dpaudit.runner.scenario.ScenarioReader;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The privacy curve of the Poisson-subsampled Gaussian (q = 0.01, σ = 1) at δ = 1e-6, 1e-8, 1e-10 and 1e-12 in one
 * estimate, two threads, seconds per estimate, plain against importance sampling side by side:
 * <ul>
 *   <li>{@code importance}: {@link TiltedProfileEstimator} with the run's default budget (3·10^7 / T samples per target
 *       and direction within [2·10^4, 3·10^6]);</li>
 *   <li>{@code plain}: the plain estimate exactly as {@code dp-audit run} computes it ({@code "estimate": {"method":
 *       "plain"}}: the exact log-likelihood ratio's histograms, empirical-Bernstein intervals) from about as many
 *       trials per world as the importance estimate draws per direction in all (pilots included); the scenario's preparation
 *       (bounds, pilot of the histogram range) is outside the timed part.</li>
 * </ul>
 * At tear-down it prints each δ's ε interval, relative width and samples, the numbers of the table in
 * docs/rare-events.md.
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

    @Param({"importance", "plain"})
    public String method;

    private long seed = 1;
    private PrivacyLossEstimate last;
    private ScenarioAudit.Prepared prepared;

    /** Samples per target and direction of the importance estimate (the run's default). */
    long importanceSamples() {
        return Math.max(20_000, Math.min(3_000_000, (long) (3e7 / rounds)));
    }

    /**
     * Trials per world of the plain estimate: about what the importance estimate draws per direction in all (four
     * targets and their pilots: measured 1.32–1.35 times 10^{7, 6, 5} at T = 1, 100, 1000, i.e. 4.4–4.5 times the
     * per-target budget).
     */
    long plainTrials() {
        return (long) (4.5 * importanceSamples());
    }

    /** The plain arm's scenario, prepared (bounds, histogram pilot) before the timed call. */
    @Setup(Level.Invocation)
    public void prepare() {
        if (method.equals("plain")) {
            String json = String.format(Locale.ROOT, "{\"name\": \"plain\", \"mechanism\": {\"type\": "
                    + "\"poisson-subsampled-gaussian\", \"q\": 0.01, \"sigma\": 1, \"clip\": 1, \"rounds\": %d}, "
                    + "\"attack\": \"likelihood-ratio\", \"trials\": %d, \"seed\": %d, \"deltas\": [1e-6, 1e-8, "
                    + "1e-10, 1e-12], \"epsilons\": [], \"estimate\": {\"method\": \"plain\"}}", rounds,
                    plainTrials(), seed++);
            prepared = ScenarioAudit.prepare(ScenarioReader.parse(json, "plain"), plainTrials(), seed, 2);
        }
    }

    /** One estimate at all four δ. */
    @Benchmark
    public PrivacyLossEstimate estimate() {
        if (method.equals("plain")) {
            last = ScenarioAudit.audit(prepared, ProgressListener.NONE).estimate();
            return last;
        }
        double q = 0.01;
        GaussianMixture with = new GaussianMixture(new double[] {1 - q, q}, new double[][] {{0}, {1}}, 1);
        last = TiltedProfileEstimator.estimate(with, GaussianMixture.single(0, 1), rounds, List.of(), DELTAS,
                importanceSamples(), 0.95, new RandomStreams(seed++), 2).estimate();
        return last;
    }

    /** Releases the state (not measured). */
    @TearDown
    public void report() {
        for (double d : DELTAS) {
            PrivacyLossEstimate.EpsilonInterval e = last.epsilonAt(d);
            System.out.printf("%n%s, T = %d, delta = %g: epsilon in [%.5f, %.5f], relative width %.4f, %d samples per "
                    + "direction%n", method, rounds, d, e.lower(), e.upper(), (e.upper() - e.lower()) / e.lower(),
                    last.trials());
        }
    }
}
