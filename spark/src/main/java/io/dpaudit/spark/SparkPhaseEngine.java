package io.dpaudit.spark;

import io.dpaudit.core.engine.HistogramBinning;
import io.dpaudit.core.engine.PhaseCounts;
import io.dpaudit.core.engine.PhaseEngine;
import io.dpaudit.core.engine.ProgressListener;
import io.dpaudit.core.engine.Scorer;
import io.dpaudit.core.engine.ShardCounter;
import io.dpaudit.core.engine.ShardedPhase;
import io.dpaudit.core.engine.TrialKind;
import io.dpaudit.core.rng.RandomStreams;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.spark.SparkJobInfo;
import org.apache.spark.SparkStageInfo;
import org.apache.spark.api.java.JavaSparkContext;

/**
 * A {@link PhaseEngine} on Spark: a phase's shards are cut into contiguous ranges, one Spark task per range; each task
 * counts its shards on an executor ({@link RangeCounter}) and returns one histogram per world; the driver sums them in
 * range order and skips the phase's streams. Shard {@code j} draws from stream {@code first + j} of the root seed, as on
 * the local engine, and counts are exact integers, so the result equals the local engine's for any partition count.
 * The driver keeps O(shards) state at most (the ranges) and ships no dp-audit object: executors prepare the audit from
 * the scenario text. Every kind of trial ({@link TrialKind}) is counted the same way, its histograms per task.
 */
final class SparkPhaseEngine implements PhaseEngine {
    private static final long POLL_MILLIS = 10_000;

    private final JavaSparkContext sc;
    private final String scenarioText;
    private final long trials;
    private final long seed;
    private final boolean estimate;
    private final boolean sequential;
    private final Scorer lossScorer;
    private final int shardTrials;
    private final int partitions;
    private final ProgressListener progress;

    SparkPhaseEngine(JavaSparkContext sc, String scenarioText, long trials, long seed, boolean estimate,
            boolean sequential, Scorer lossScorer, int shardTrials, int partitions, ProgressListener progress) {
        this.sc = sc;
        this.scenarioText = scenarioText;
        this.trials = trials;
        this.seed = seed;
        this.estimate = estimate;
        this.sequential = sequential;
        this.lossScorer = lossScorer;
        this.shardTrials = shardTrials;
        this.partitions = partitions;
        this.progress = progress;
    }

    @Override
    public int shardTrials() {
        return shardTrials;
    }

    /**
     * Counts a phase's shards in Spark tasks (one per contiguous range): each executor counts its range with the
     * counter of the phase's kind of trial ({@link ShardedPhase#countShards}) and returns the kind's histograms, summed
     * here in range order; the phase's streams are then skipped.
     */
    @Override
    public <S, C extends PhaseCounts<C>> C run(String phase, ShardCounter<S, C> counter, long phaseTrials,
            RandomStreams streams) {
        long start = System.nanoTime();
        HistogramBinning binning = counter.binning();
        TrialKind<C> kind = counter.kind();
        long shards = (phaseTrials + shardTrials - 1) / shardTrials;
        int tasks = (int) Math.min(shards, partitions > 0 ? partitions : Math.max(1, 4L * sc.defaultParallelism()));
        List<ShardRange> ranges = new ArrayList<>(tasks);
        for (int t = 0; t < tasks; t++) {
            ranges.add(new ShardRange(shards * t / tasks, shards * (t + 1) / tasks));
        }
        double[] exact = null;
        if (binning.exact()) {
            exact = new double[binning.bins() + 1];
            for (int k = 0; k <= binning.bins(); k++) {
                exact[k] = binning.edge(k);
            }
        }
        TaskSpec spec = new TaskSpec(scenarioText, trials, seed, estimate, counter.scorer() == lossScorer,
                binning.lo(), binning.hi(), binning.bins(), exact, counter.scorer().rankValues(), streams.issued(),
                shardTrials, phaseTrials, kind.id(), sequential);
        progress.onPhase(phase, String.format(Locale.ROOT, "%d %s: %d shards in %d Spark tasks on %s",
                phaseTrials, kind.unit(), shards, tasks, sc.master()));
        String group = "dp-audit-" + phase + "-" + System.nanoTime();
        sc.setJobGroup(group, "dp-audit " + phase, false);
        Thread poller = poll(phase, group, phaseTrials, start);
        List<long[][]> parts;
        try {
            parts = sc.parallelize(ranges, tasks).map(new RangeCounter(spec)).collect();
        } finally {
            poller.interrupt();
            sc.clearJobGroup();
        }
        int histograms = kind.histogramNames().size();
        long[][] sums = new long[histograms][binning.slots()];
        for (long[][] part : parts) { // range order: collect() keeps the partitions' order
            for (int h = 0; h < histograms; h++) {
                for (int i = 0; i < sums[h].length; i++) {
                    sums[h][i] += part[h][i];
                }
            }
        }
        streams.skip(shards);
        progress.onProgress(phase, phaseTrials, phaseTrials, System.nanoTime() - start);
        return kind.fromHistograms(binning, sums);
    }

    /** Reports the fraction of the phase's tasks done every {@value #POLL_MILLIS} ms, from Spark's status tracker. */
    private Thread poll(String phase, String group, long phaseTrials, long start) {
        Thread t = new Thread(() -> {
            while (true) {
                try {
                    Thread.sleep(POLL_MILLIS);
                } catch (InterruptedException e) {
                    return;
                }
                long done = 0;
                long total = 0;
                for (int job : sc.statusTracker().getJobIdsForGroup(group)) {
                    SparkJobInfo info = sc.statusTracker().getJobInfo(job);
                    if (info == null) {
                        continue;
                    }
                    for (int stage : info.stageIds()) {
                        SparkStageInfo s = sc.statusTracker().getStageInfo(stage);
                        if (s != null) {
                            done += s.numCompletedTasks();
                            total += s.numTasks();
                        }
                    }
                }
                if (total > 0 && done < total) {
                    progress.onProgress(phase, phaseTrials * done / total, phaseTrials, System.nanoTime() - start);
                }
            }
        }, "dp-audit-spark-progress");
        t.setDaemon(true);
        t.start();
        return t;
    }
}
