package io.dpaudit.spark;

import io.dpaudit.core.blackbox.TrainableScorer;
import io.dpaudit.core.engine.HistogramBinning;
import io.dpaudit.core.engine.PhaseCounts;
import io.dpaudit.core.engine.RankedScorer;
import io.dpaudit.core.engine.Scorer;
import io.dpaudit.core.engine.ShardedPhase;
import io.dpaudit.core.engine.TrialKind;
import io.dpaudit.core.rng.RandomStreams;
import io.dpaudit.runner.ScenarioTrials;
import io.dpaudit.runner.scenario.Scenario;
import io.dpaudit.runner.scenario.ScenarioOverrides;
import io.dpaudit.runner.scenario.ScenarioReader;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.spark.api.java.function.Function;

/**
 * The executor side: counts the shards of one {@link ShardRange} exactly as the local engine would — through the
 * counter of the phase's kind of trial ({@link ShardedPhase#countShards}), shard {@code j} from stream
 * {@code firstStream + j} of the root seed — and returns the kind's histograms. The audit is prepared once per
 * executor JVM from the scenario text (and, for a learned distinguisher, trained once from its seeded stream, as on
 * the driver), then reused by every task of every phase of that audit.
 */
final class RangeCounter implements Function<ShardRange, long[][]> {
    private static final long serialVersionUID = 1L;

    private final TaskSpec spec;

    RangeCounter(TaskSpec spec) {
        this.spec = spec;
    }

    /** What an executor keeps of a prepared audit: the simulator and both scorers (the attack trained). */
    record Prepared(ScenarioTrials.Prepared trials, Scorer attack) {
    }

    @Override
    public long[][] call(ShardRange range) {
        Prepared p = PreparedAudits.EXECUTOR.get(key(spec), () -> prepare(spec));
        Scorer scorer = spec.lossScorer() ? p.trials().lossScorer() : p.attack();
        if (spec.rankValues() != null && scorer.rankValues() == null) {
            scorer = new RankedScorer(scorer, spec.rankValues()); // the pilot ranked a score of few values
        }
        HistogramBinning binning = spec.exactValues() != null ? HistogramBinning.ranks(spec.exactValues())
                : new HistogramBinning(spec.lo(), spec.hi(), spec.bins());
        TrialKind<?> kind = TrialKind.byId(spec.trialKind());
        if (kind == null) {
            throw new IllegalArgumentException("unknown kind of trial " + spec.trialKind());
        }
        RandomStreams streams = new RandomStreams(spec.seed());
        streams.skip(spec.firstStream() + range.from());
        PhaseCounts<?> counts = ShardedPhase.countShards(kind.counter(p.trials().simulator(), scorer, binning),
                streams, range.from(), range.to(), spec.shardTrials(), spec.phaseTrials());
        return counts.histograms();
    }

    /**
     * What identifies an executor's prepared audit: the SHA-256 of the scenario text (not its hash code: two texts
     * whose hash codes and lengths collide must not share a preparation), the trials, the seed, the estimate flag and
     * the stopping rule.
     */
    static String key(TaskSpec s) {
        try {
            byte[] digest = java.security.MessageDigest.getInstance("SHA-256").digest(
                    s.scenarioText().getBytes(StandardCharsets.UTF_8));
            return java.util.HexFormat.of().formatHex(digest) + ":" + s.trials() + ":" + s.seed() + ":" + s.estimate()
                    + ":" + s.sequential();
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 unavailable", e);
        }
    }

    private static Prepared prepare(TaskSpec s) {
        // The driver's overrides (--trials, --seed, --estimate, --until-resolved), applied as the driver applied them.
        ScenarioOverrides overrides = new ScenarioOverrides(s.trials(), s.seed(), s.estimate(), s.sequential(), null);
        Scenario scenario = overrides.apply(ScenarioReader.parse(s.scenarioText(), "spark"));
        ScenarioTrials.Prepared t = ScenarioTrials.prepare(scenario, scenario.trials(), overrides.seed(scenario));
        Scorer attack = t.scorer();
        TrainableScorer trainable = t.trainable();
        if (trainable != null) {
            attack = trainable.train(t.simulator(), t.trainingTrials(), RandomStreams.training(s.seed()),
                    io.dpaudit.core.engine.ProgressListener.NONE);
        }
        return new Prepared(t, attack);
    }

    /**
     * The audits prepared on one executor JVM, the most recently used first, at most {@link #CAPACITY}: an executor
     * serving one audit after another keeps the last few, not every one it ever prepared.
     */
    static final class PreparedAudits {
        /** Audits kept per executor. */
        static final int CAPACITY = 4;
        /** The executor's cache (a static is the one thing an executor JVM keeps between tasks). */
        static final PreparedAudits EXECUTOR = new PreparedAudits(CAPACITY);

        private final int capacity;
        private final Map<String, Prepared> audits;

        PreparedAudits(int capacity) {
            this.capacity = capacity;
            this.audits = new LinkedHashMap<>(16, 0.75f, true);
        }

        /** The audit of {@code key}, prepared by {@code prepare} unless kept; the least recently used one goes. */
        synchronized Prepared get(String key, java.util.function.Supplier<Prepared> prepare) {
            Prepared p = audits.get(key);
            if (p == null) {
                p = prepare.get();
                audits.put(key, p);
                while (audits.size() > capacity) {
                    audits.remove(audits.keySet().iterator().next());
                }
            }
            return p;
        }

        /** Audits kept. */
        synchronized int size() {
            return audits.size();
        }
    }
}
