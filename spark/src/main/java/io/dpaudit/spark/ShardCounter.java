package io.dpaudit.spark;

import io.dpaudit.core.blackbox.TrainableScorer;
import io.dpaudit.core.blackbox.BlackBoxSimulator;
import io.dpaudit.core.engine.CoupledCounts;
import io.dpaudit.core.engine.CoupledPhase;
import io.dpaudit.core.engine.CoupledSamplerFactory;
import io.dpaudit.core.engine.HistogramBinning;
import io.dpaudit.core.engine.MonteCarloEngine;
import io.dpaudit.core.engine.RankedScorer;
import io.dpaudit.core.engine.Scorer;
import io.dpaudit.core.rng.RandomStreams;
import io.dpaudit.runner.ScenarioAudit;
import io.dpaudit.runner.scenario.Scenario;
import io.dpaudit.runner.scenario.ScenarioReader;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.spark.api.java.function.Function;

/**
 * The executor side: counts the shards of one {@link ShardRange} exactly as the local engine would
 * ({@link MonteCarloEngine#countShard}), shard {@code j} from stream {@code firstStream + j} of the root seed. The audit
 * is prepared once per executor JVM from the scenario text (and, for a learned distinguisher, trained once from its
 * seeded stream, as on the driver), then reused by every task of every phase.
 */
final class ShardCounter implements Function<ShardRange, long[][]> {
    private static final long serialVersionUID = 1L;

    /** Audits prepared on this executor, by scenario text, trials, seed and estimate flag. */
    private static final Map<String, Prepared> PREPARED = new ConcurrentHashMap<>();

    private final TaskSpec spec;

    ShardCounter(TaskSpec spec) {
        this.spec = spec;
    }

    /** What an executor keeps of a prepared audit: the simulator and both scorers (the attack trained). */
    private record Prepared(ScenarioAudit.Trials trials, Scorer attack) {
    }

    private static Prepared prepare(TaskSpec s) {
        String key = s.scenarioText().hashCode() + ":" + s.scenarioText().length() + ":" + s.trials() + ":" + s.seed()
                + ":" + s.estimate();
        return PREPARED.computeIfAbsent(key, k -> {
            Scenario scenario = ScenarioReader.parse(s.scenarioText(), "spark");
            if (s.estimate()) {
                scenario = scenario.withEstimate();
            }
            ScenarioAudit.Trials t = ScenarioAudit.prepareTrials(scenario, s.trials(), s.seed());
            Scorer attack = t.scorer();
            TrainableScorer trainable = t.trainable();
            if (trainable != null) {
                attack = trainable.train(t.simulator(), t.trainingTrials(), RandomStreams.training(s.seed()),
                        io.dpaudit.core.engine.ProgressListener.NONE);
            }
            return new Prepared(t, attack);
        });
    }

    @Override
    public long[][] call(ShardRange range) {
        Prepared p = prepare(spec);
        Scorer scorer = spec.lossScorer() ? p.trials().lossScorer() : p.attack();
        if (spec.rankValues() != null) {
            scorer = new RankedScorer(scorer, spec.rankValues());
        }
        HistogramBinning binning = spec.exactValues() != null ? HistogramBinning.ranks(spec.exactValues())
                : new HistogramBinning(spec.lo(), spec.hi(), spec.bins());
        RandomStreams streams = new RandomStreams(spec.seed());
        streams.skip(spec.firstStream() + range.from());
        if (spec.coupled()) {
            return coupled(p, scorer, binning, range, streams);
        }
        long[] with = new long[binning.slots()];
        long[] without = new long[binning.slots()];
        for (long j = range.from(); j < range.to(); j++) {
            int n = (int) Math.min(spec.shardTrials(), spec.phaseTrials() - j * spec.shardTrials());
            MonteCarloEngine.countShard(p.trials().simulator().create(streams.next()), scorer, binning, n, with,
                    without);
        }
        return new long[][] {with, without};
    }

    /**
     * The shards of a coupled phase, counted as the local engine counts them ({@link CoupledPhase#countShard}): the
     * four histograms of {@link CoupledCounts}, in the order of {@link CoupledCounts.Histogram}.
     */
    private long[][] coupled(Prepared p, Scorer scorer, HistogramBinning binning, ShardRange range,
            RandomStreams streams) {
        CoupledSamplerFactory sampler = ((BlackBoxSimulator) p.trials().simulator()).coupled();
        CoupledCounts counts = new CoupledCounts(binning);
        for (long j = range.from(); j < range.to(); j++) {
            int n = (int) Math.min(spec.shardTrials(), spec.phaseTrials() - j * spec.shardTrials());
            CoupledPhase.countShard(sampler.coupled(streams.next()), scorer, binning, n, counts);
        }
        CoupledCounts.Histogram[] kinds = CoupledCounts.Histogram.values();
        long[][] out = new long[kinds.length][binning.slots()];
        for (int h = 0; h < kinds.length; h++) {
            for (int i = 0; i < out[h].length; i++) {
                out[h][i] = counts.count(kinds[h], i);
            }
        }
        return out;
    }
}
