package io.dpaudit.core.engine;

import io.dpaudit.core.Checks;
import io.dpaudit.core.rng.RandomStreams;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.commons.rng.UniformRandomProvider;

/**
 * Runs Monte Carlo trials of a mechanism in both worlds and histograms the attack's scores.
 *
 * <p><b>Plan.</b> A phase of {@code N} trials per world is cut into shards of {@link #shardTrials()} trials (the
 * last one shorter). Shard {@code j} draws only from the {@code j}-th stream the phase takes from
 * {@link RandomStreams}; streams are taken while claiming a shard, under one lock, so the shard-to-stream map is
 * fixed by the shard index alone. Within a shard, outputs are produced in batches: a batch of {@code b} trials in
 * {@code D}, scored and counted, then a batch of {@code b} trials in {@code D'}. The batch size depends only on the
 * output length. Hence the counts of a phase are a function of (seed, stream offset, N, shard size, mechanism,
 * attack, binning) and not of the thread count or of scheduling.
 *
 * <p><b>Merge.</b> Shard counts are merged into the phase total strictly in shard order through a reorder buffer
 * that holds at most {@code threads + 2} shard histograms; a worker that would exceed it waits (the worker holding
 * the lowest unmerged shard always has its buffer, so this cannot deadlock). Memory is therefore
 * {@code O(threads x bins)}, independent of {@code N}.
 *
 * <p><b>Failures.</b> An exception in any worker stops the claiming of new shards; after all workers have stopped,
 * the first failure (in worker order) is rethrown with the others attached as suppressed exceptions.
 *
 * <p>Per trial the loop calls no interface method (calls are per batch), allocates nothing and boxes nothing.
 */
public final class MonteCarloEngine implements PhaseEngine {
    /** Default shard size: 2^20 trials per world. */
    public static final int DEFAULT_SHARD_TRIALS = 1 << 20;
    /** Outputs up to this length keep {@link #DEFAULT_SHARD_TRIALS}. */
    private static final int SHORT_OUTPUT = 256;
    /** Output values per world in a shard of longer outputs: 2^26. */
    private static final long LONG_SHARD_OUTPUT_VALUES = 1L << 26;
    /** Smallest shard {@link #shardTrialsFor} cuts. */
    private static final int MIN_SHARD_TRIALS = 1 << 10;

    /**
     * The shard size for outputs of {@code outputLength} values: {@link #DEFAULT_SHARD_TRIALS} up to 256 values
     * (every single-round and most multi-round audits), beyond it the largest power of two with at most 2^26 output
     * values per world, and at least 2^10 trials (2^16 trials of a faithful 256-dimensional vector over 4 rounds).
     * A shard is one thread's work and one checkpoint step, so long outputs (the faithful simulators' vectors,
     * hundreds of rounds), whose trials cost microseconds each, still spread evenly over every thread at 10^5-10^6
     * trials and checkpoint often. A function of the output length alone, so the shard-to-stream map stays fixed by
     * the scenario.
     */
    public static int shardTrialsFor(int outputLength) {
        if (outputLength <= SHORT_OUTPUT) {
            return DEFAULT_SHARD_TRIALS;
        }
        return (int) Math.max(MIN_SHARD_TRIALS, Long.highestOneBit(LONG_SHARD_OUTPUT_VALUES / outputLength));
    }
    /** Scratch budget per worker, in doubles, for one batch of outputs. */
    private static final int BATCH_DOUBLES = 1 << 14;
    private static final int MAX_BATCH_TRIALS = 512;

    private final int threads;
    private final int shardTrials;
    private final ProgressListener progress;

    /**
     * @param threads worker threads, at least 1
     * @param shardTrials trials per world in one shard, at least 1
     * @param progress receives progress after each merged shard
     */
    public MonteCarloEngine(int threads, int shardTrials, ProgressListener progress) {
        this.threads = Checks.atLeast("threads", threads, 1);
        this.shardTrials = Checks.atLeast("shardTrials", shardTrials, 1);
        this.progress = progress;
    }

    /** Worker threads. */
    public int threads() {
        return threads;
    }

    /** Trials per world in a full shard. */
    @Override
    public int shardTrials() {
        return shardTrials;
    }

    /** Trials per batch for a given output length (a function of the output length only). */
    public static int batchTrials(int outputLength) {
        return Math.max(1, Math.min(MAX_BATCH_TRIALS, BATCH_DOUBLES / Math.max(1, outputLength)));
    }

    /**
     * Runs one phase.
     *
     * @param phase name for progress reports
     * @param sampler the mechanism
     * @param scorer the attack
     * @param binning histogram layout
     * @param trials trials per world, at least 1
     * @param streams where the shards' streams come from (the phase takes one stream per shard, in order)
     * @return the merged counts
     */
    @Override
    public ScoreCounts run(String phase, TrialSamplerFactory sampler, Scorer scorer, HistogramBinning binning,
            long trials, RandomStreams streams) {
        return run(phase, sampler, scorer, binning, trials, streams, null, PhaseListener.NONE);
    }

    /**
     * Runs one phase, possibly resuming it: with {@code resume} the first {@code resume.shardsDone()} shards are taken
     * as counted ({@code resume.counts()}), their streams skipped, and counting goes on from the next shard. The
     * listener sees the merged total after every shard (for checkpoints).
     *
     * @param resume where an earlier, interrupted run of this phase stopped, or null
     * @param listener told of the merged counts after each shard, under the engine's lock
     */
    public ScoreCounts run(String phase, TrialSamplerFactory sampler, Scorer scorer, HistogramBinning binning,
            long trials, RandomStreams streams, Resume resume, PhaseListener listener) {
        Checks.atLeast("trials", trials, 1);
        if (scorer.outputLength() != sampler.outputLength()) {
            throw new IllegalArgumentException("attack expects outputs of length " + scorer.outputLength()
                    + " but the mechanism produces " + sampler.outputLength());
        }
        PhaseRun run = new PhaseRun(phase, sampler, scorer, binning, trials, streams, resume, listener);
        return run.execute();
    }

    /** Number of shards of a phase of {@code trials} trials per world. */
    public long shardCount(long trials) {
        return (trials + shardTrials - 1) / shardTrials;
    }

    /**
     * Where an interrupted phase stopped: its first {@code shardsDone} shards, merged.
     *
     * @param shardsDone shards counted, a prefix of the phase's shards
     * @param counts their merged counts
     */
    public record Resume(long shardsDone, ScoreCounts counts) {
    }

    /** Sees a phase's merged counts after every shard (called under the engine's lock: copy, do not keep). */
    @FunctionalInterface
    public interface PhaseListener {
        /** A listener that ignores merges. */
        PhaseListener NONE = (phase, shardsDone, shardCount, counts) -> { };

        /**
         * @param phase the phase
         * @param shardsDone shards merged so far (a prefix)
         * @param shardCount shards of the phase
         * @param counts the merged counts so far (live: copy it to keep it)
         */
        void merged(String phase, long shardsDone, long shardCount, ScoreCounts counts);
    }

    /**
     * Counts one shard — batches of {@link #batchTrials} outputs, {@code D} then {@code D'}, scored and histogrammed —
     * adding into {@code withCanary} and {@code withoutCanary} (slot arrays of {@code binning}). The one shard loop of
     * every engine: this engine's workers and engines that run shards elsewhere (a Spark executor) both count through
     * {@link #countShard(TrialSampler, Scorer, int, double[], double[], ShardCounts)}, so their counts agree bit for
     * bit by construction.
     */
    public static void countShard(TrialSampler sampler, Scorer scorer, HistogramBinning binning, int n,
            long[] withCanary, long[] withoutCanary) {
        int length = scorer.outputLength();
        int batch = batchTrials(length);
        ShardCounts counts = new ShardCounts(binning);
        countShard(sampler, scorer, n, new double[batch * length], new double[batch], counts);
        for (int i = 0; i < withCanary.length; i++) {
            withCanary[i] += counts.withCanary[i];
            withoutCanary[i] += counts.withoutCanary[i];
        }
    }

    /**
     * The shard loop: {@code n} trials per world in batches of {@code scores.length}, each batch drawn in {@code D},
     * scored and counted, then in {@code D'}. No allocation, no boxing, one interface call per batch.
     */
    static void countShard(TrialSampler sampler, Scorer scorer, int n, double[] outputs, double[] scores,
            ShardCounts counts) {
        int batch = scores.length;
        for (int done = 0; done < n; ) {
            int b = Math.min(batch, n - done);
            sampler.sample(World.WITH_CANARY, outputs, b);
            counts.add(World.WITH_CANARY, scorer.score(outputs, b, scores), b);
            sampler.sample(World.WITHOUT_CANARY, outputs, b);
            counts.add(World.WITHOUT_CANARY, scorer.score(outputs, b, scores), b);
            done += b;
        }
    }

    /** State of one running phase, shared by its workers. */
    private final class PhaseRun {
        private final String phase;
        private final TrialSamplerFactory samplerFactory;
        private final Scorer scorer;
        private final HistogramBinning binning;
        private final long trials;
        private final long shardCount;
        private final RandomStreams streams;
        private final ScoreCounts total;
        private final PhaseListener listener;
        private final long startNanos = System.nanoTime();

        // Guarded by "this".
        private long nextShard;
        private long nextToMerge;
        private long mergedTrials;
        private boolean failed;
        private final ArrayDeque<ShardCounts> pool = new ArrayDeque<>();
        private final Map<Long, ShardCounts> pending = new HashMap<>();
        private final Map<Long, Integer> pendingSizes = new HashMap<>();

        PhaseRun(String phase, TrialSamplerFactory samplerFactory, Scorer scorer, HistogramBinning binning,
                long trials, RandomStreams streams, Resume resume, PhaseListener listener) {
            this.phase = phase;
            this.samplerFactory = samplerFactory;
            this.scorer = scorer;
            this.binning = binning;
            this.trials = trials;
            this.shardCount = (trials + shardTrials - 1) / shardTrials;
            this.streams = streams;
            this.total = new ScoreCounts(binning);
            this.listener = listener;
            if (resume != null && (resume.shardsDone() < 0 || resume.shardsDone() > shardCount)) {
                throw new io.dpaudit.core.InvalidInputException("--resume", "(phase " + phase + ", "
                        + resume.shardsDone() + " shards done)", "this phase has " + shardCount + " shards: the "
                        + "checkpoint's counts could not have come from them; refused");
            }
            if (resume != null && resume.shardsDone() > 0) {
                long done = resume.shardsDone();
                if (resume.counts().binning().slots() != binning.slots()
                        || resume.counts().trials() != Math.min(trials, done * shardTrials)) {
                    throw new io.dpaudit.core.InvalidInputException("--resume", "(phase " + phase + ", "
                            + resume.counts().trials() + " trials per world)", done + " completed shards of "
                            + shardTrials + " trials give " + Math.min(trials, done * shardTrials) + ": the "
                            + "checkpoint's counts could not have come from them; refused");
                }
                total.add(resume.counts());
                streams.skip(done);
                nextShard = done;
                nextToMerge = done;
                mergedTrials = resume.counts().trials();
            }
            int buffers = (int) Math.min(threads + 2L, shardCount + 1);
            for (int i = 0; i < buffers; i++) {
                pool.push(new ShardCounts(binning));
            }
        }

        ScoreCounts execute() {
            int workers = (int) Math.min(threads, shardCount);
            List<Thread> threadList = new ArrayList<>(workers);
            Throwable[] failures = new Throwable[workers];
            for (int w = 0; w < workers; w++) {
                final int id = w;
                Thread t = new Thread(() -> {
                    try {
                        work();
                    } catch (Throwable e) {
                        failures[id] = e;
                        abort();
                    }
                }, "dp-audit-" + phase + "-" + w);
                t.setDaemon(true);
                threadList.add(t);
            }
            threadList.forEach(Thread::start);
            boolean interrupted = false;
            for (Thread t : threadList) {
                while (true) {
                    try {
                        t.join();
                        break;
                    } catch (InterruptedException e) {
                        interrupted = true;
                        abort();
                    }
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
            RuntimeException first = null;
            for (Throwable f : failures) {
                if (f == null) {
                    continue;
                }
                if (first == null) {
                    first = f instanceof RuntimeException re ? re
                            : new IllegalStateException("worker failed in phase " + phase + ": " + f, f);
                } else if (f != first) {
                    first.addSuppressed(f);
                }
            }
            if (first != null) {
                throw first;
            }
            if (interrupted) {
                throw new io.dpaudit.core.numerics.Interruption.Interrupted("phase " + phase);
            }
            if (total.trials() != trials) {
                throw new IllegalStateException("phase " + phase + " merged " + total.trials() + " of " + trials);
            }
            return total;
        }

        private void work() throws InterruptedException {
            int outputLength = samplerFactory.outputLength();
            int batch = batchTrials(outputLength);
            double[] outputs = new double[batch * outputLength];
            double[] scores = new double[batch];
            while (true) {
                ShardCounts counts = borrow();
                if (counts == null) {
                    return;
                }
                long shard;
                UniformRandomProvider rng;
                synchronized (this) {
                    if (failed || nextShard >= shardCount) {
                        pool.push(counts);
                        notifyAll();
                        return;
                    }
                    shard = nextShard++;
                    rng = streams.next();
                }
                progress.check(phase + ", shard " + (shard + 1) + " of " + shardCount);
                int n = (int) Math.min(shardTrials, trials - shard * shardTrials);
                countShard(samplerFactory.create(rng), scorer, n, outputs, scores, counts);
                complete(shard, counts, n);
            }
        }

        private synchronized ShardCounts borrow() throws InterruptedException {
            while (pool.isEmpty() && !failed) {
                wait();
            }
            return failed ? null : pool.pop();
        }

        private void complete(long shard, ShardCounts counts, int n) {
            long done;
            synchronized (this) {
                pending.put(shard, counts);
                pendingSizes.put(shard, n);
                ShardCounts next;
                while ((next = pending.remove(nextToMerge)) != null) {
                    int size = pendingSizes.remove(nextToMerge);
                    total.add(next, size);
                    mergedTrials += size;
                    next.reset();
                    pool.push(next);
                    nextToMerge++;
                }
                done = mergedTrials;
                listener.merged(phase, nextToMerge, shardCount, total);
                notifyAll();
            }
            progress.onProgress(phase, done, trials, System.nanoTime() - startNanos);
        }

        private synchronized void abort() {
            failed = true;
            notifyAll();
        }
    }
}
