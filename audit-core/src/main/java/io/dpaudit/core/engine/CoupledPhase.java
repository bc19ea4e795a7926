package io.dpaudit.core.engine;

import io.dpaudit.core.Checks;
import io.dpaudit.core.rng.RandomStreams;
import java.util.ArrayList;
import java.util.List;
import org.apache.commons.rng.UniformRandomProvider;

/**
 * Runs one counted phase of coupled trials ({@link CoupledSamplerFactory}) on local threads. The plan is the
 * {@link MonteCarloEngine}'s: shards of a fixed number of trials, shard {@code j} taking the {@code j}-th stream the
 * phase asks {@link RandomStreams} for (claimed in order under a lock), so the counts depend on the seed and the shard
 * size only, never on the number of threads. Shards are merged in their order (a finished shard waits for those before
 * it), so that after every merge the total is the counts of a prefix of the shards: what a checkpoint keeps, and what
 * a resumed run goes on from ({@link Resume}), skipping those shards' streams. Memory is one {@link CoupledCounts}
 * per shard that is counted or waiting to be merged (at most {@code threads + 1}: a worker waits rather than run
 * further ahead of the slowest shard) and the merged one.
 */
public final class CoupledPhase implements CoupledPhaseEngine {
    private final int threads;
    private final int shardTrials;
    private final ProgressListener progress;

    /**
     * @param threads worker threads, at least 1
     * @param shardTrials coupled trials per shard, at least 1
     * @param progress told of merged trials; its {@code check} can stop the phase between shards
     */
    public CoupledPhase(int threads, int shardTrials, ProgressListener progress) {
        this.threads = Checks.atLeast("threads", threads, 1);
        this.shardTrials = Checks.atLeast("shardTrials", shardTrials, 1);
        this.progress = progress;
    }

    /**
     * Where an interrupted coupled phase stopped: its first {@code shardsDone} shards, merged.
     *
     * @param shardsDone shards counted, a prefix of the phase's shards
     * @param counts their merged counts
     */
    public record Resume(long shardsDone, CoupledCounts counts) {
    }

    /** Sees a phase's merged counts after every shard (called under the phase's lock: copy, do not keep). */
    @FunctionalInterface
    public interface Listener {
        /** A listener that ignores merges. */
        Listener NONE = (phase, shardsDone, shardCount, counts) -> { };

        /**
         * @param phase the phase
         * @param shardsDone shards merged so far (a prefix)
         * @param shardCount shards of the phase
         * @param counts the merged counts so far (live: copy it to keep it)
         */
        void merged(String phase, long shardsDone, long shardCount, CoupledCounts counts);
    }

    @Override
    public int shardTrials() {
        return shardTrials;
    }

    @Override
    public CoupledCounts runCoupled(String phase, CoupledSamplerFactory sampler, Scorer scorer,
            HistogramBinning binning, long trials, RandomStreams streams) {
        return run(phase, sampler, scorer, binning, trials, streams);
    }

    /**
     * Counts one shard of {@code n} coupled trials into {@code into}: batches of
     * {@link MonteCarloEngine#batchTrials} coupled outputs, each world's scored and histogrammed, the two slots of
     * each trial counted together. The one shard loop of every engine (this one's workers and a Spark executor), so
     * that their counts agree bit for bit by construction.
     */
    public static void countShard(CoupledSamplerFactory.Draws draws, Scorer scorer, HistogramBinning binning, int n,
            CoupledCounts into) {
        int length = scorer.outputLength();
        int batch = MonteCarloEngine.batchTrials(length);
        countShard(draws, scorer, binning, n, new double[batch * length], new double[batch * length],
                new double[batch], new int[batch], into);
    }

    private static void countShard(CoupledSamplerFactory.Draws draws, Scorer scorer, HistogramBinning binning, int n,
            double[] outD, double[] outDPrime, double[] scores, int[] slots, CoupledCounts into) {
        int batch = scores.length;
        for (int done = 0; done < n; ) {
            int b = Math.min(batch, n - done);
            draws.sample(outD, outDPrime, b);
            double[] s = scorer.score(outD, b, scores);
            for (int i = 0; i < b; i++) {
                slots[i] = binning.index(s[i]);
            }
            s = scorer.score(outDPrime, b, scores);
            for (int i = 0; i < b; i++) {
                into.add(slots[i], binning.index(s[i]));
            }
            done += b;
        }
    }

    /** Number of shards of a phase of {@code trials} coupled trials. */
    public long shardCount(long trials) {
        return (trials + shardTrials - 1) / shardTrials;
    }

    /**
     * Counts {@code trials} coupled trials.
     *
     * @param phase name for progress reports
     * @param sampler the mechanism's coupled trials
     * @param scorer the attack, applied to each world's output
     * @param binning histogram layout
     * @param trials coupled trials, at least 1
     * @param streams the phase takes one stream per shard, in order
     */
    public CoupledCounts run(String phase, CoupledSamplerFactory sampler, Scorer scorer, HistogramBinning binning,
            long trials, RandomStreams streams) {
        return run(phase, sampler, scorer, binning, trials, streams, null, Listener.NONE);
    }

    /**
     * Counts {@code trials} coupled trials, possibly resuming: with {@code resume} the first
     * {@code resume.shardsDone()} shards are taken as counted ({@code resume.counts()}), their streams skipped, and
     * counting goes on from the next shard; a resume that holds every shard only skips their streams.
     *
     * @param resume where an earlier, interrupted run of this phase stopped, or null
     * @param listener told of the merged counts after each shard (and once for a completed resume)
     * @throws io.dpaudit.core.InvalidInputException (naming {@code --resume}) when the resumed counts could not have
     *     come from this phase's shards
     */
    public CoupledCounts run(String phase, CoupledSamplerFactory sampler, Scorer scorer, HistogramBinning binning,
            long trials, RandomStreams streams, Resume resume, Listener listener) {
        Checks.atLeast("trials", trials, 1);
        if (scorer.outputLength() != sampler.outputLength()) {
            throw new IllegalArgumentException("attack expects outputs of length " + scorer.outputLength()
                    + " but the mechanism produces " + sampler.outputLength());
        }
        long shards = shardCount(trials);
        CoupledCounts total = new CoupledCounts(binning);
        long first = 0;
        if (resume != null) {
            first = resume.shardsDone();
            long expected = Math.min(trials, first * shardTrials);
            if (first < 0 || first > shards || resume.counts().trials() != expected
                    || resume.counts().binning().slots() != binning.slots()) {
                throw new io.dpaudit.core.InvalidInputException("--resume", "(phase " + phase + ", " + first
                        + " shards done, " + resume.counts().trials() + " coupled trials)", "this phase has " + shards
                        + " shards of " + shardTrials + " trials: the checkpoint's counts could not have come from "
                        + "them; refused");
            }
            total.add(resume.counts().on(binning));
            streams.skip(first);
            if (first == shards) {
                listener.merged(phase, shards, shards, total);
                return total;
            }
        }
        Merge merge = new Merge(phase, total, first, shards, trials, listener);
        int workers = (int) Math.min(threads, shards - first);
        List<Thread> list = new ArrayList<>(workers);
        Throwable[] failures = new Throwable[workers];
        for (int w = 0; w < workers; w++) {
            final int id = w;
            Thread t = new Thread(() -> {
                try {
                    int length = sampler.outputLength();
                    int batch = MonteCarloEngine.batchTrials(length);
                    double[] outD = new double[batch * length];
                    double[] outDPrime = new double[batch * length];
                    double[] scores = new double[batch];
                    int[] slots = new int[batch];
                    while (true) {
                        long shard;
                        UniformRandomProvider rng;
                        synchronized (merge) {
                            // at most threads + 1 shards counted but not merged: memory does not grow with the trials
                            while (merge.nextShard < shards && merge.nextShard - merge.nextToMerge > threads) {
                                merge.wait();
                            }
                            if (merge.nextShard >= shards) {
                                return;
                            }
                            shard = merge.nextShard++;
                            rng = streams.next();
                        }
                        progress.check(phase + ", shard " + (shard + 1) + " of " + shards);
                        int n = (int) Math.min(shardTrials, trials - shard * shardTrials);
                        CoupledCounts shardCounts = new CoupledCounts(binning);
                        countShard(sampler.coupled(rng), scorer, binning, n, outD, outDPrime, scores, slots,
                                shardCounts);
                        merge.complete(shard, shardCounts);
                    }
                } catch (Throwable e) {
                    synchronized (merge) {
                        failures[id] = e;
                        merge.stop();
                    }
                }
            }, "dp-audit-" + phase + "-" + w);
            t.setDaemon(true);
            list.add(t);
        }
        list.forEach(Thread::start);
        boolean interrupted = false;
        for (Thread t : list) {
            while (true) {
                try {
                    t.join();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                    synchronized (merge) {
                        merge.stop();
                    }
                }
            }
        }
        for (Throwable f : failures) {
            if (f instanceof RuntimeException re) {
                throw re;
            }
            if (f instanceof Error err) {
                throw err;
            }
            if (f != null) {
                throw new IllegalStateException("worker failed in phase " + phase + ": " + f, f);
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
            throw new io.dpaudit.core.numerics.Interruption.Interrupted("phase " + phase);
        }
        if (total.trials() != trials) {
            throw new IllegalStateException("phase " + phase + " merged " + total.trials() + " of " + trials);
        }
        return total;
    }

    /** The merge of one running phase: shards in order, the listener told after each (guarded by this object). */
    private final class Merge {
        private final String phase;
        private final CoupledCounts total;
        private final long shards;
        private final long trials;
        private final Listener listener;
        private final java.util.Map<Long, CoupledCounts> pending = new java.util.HashMap<>();
        private final long start = System.nanoTime();
        private long nextShard;
        private long nextToMerge;

        Merge(String phase, CoupledCounts total, long first, long shards, long trials, Listener listener) {
            this.phase = phase;
            this.total = total;
            this.nextShard = first;
            this.nextToMerge = first;
            this.shards = shards;
            this.trials = trials;
            this.listener = listener;
        }

        /** No further shard is claimed; workers waiting to claim one return (call with the lock held). */
        void stop() {
            nextShard = Long.MAX_VALUE;
            notifyAll();
        }

        void complete(long shard, CoupledCounts counts) {
            long done;
            synchronized (this) {
                pending.put(shard, counts);
                CoupledCounts next;
                while ((next = pending.remove(nextToMerge)) != null) {
                    total.add(next);
                    nextToMerge++;
                }
                done = total.trials();
                listener.merged(phase, nextToMerge, shards, total);
                notifyAll();
            }
            progress.onProgress(phase, done, trials, System.nanoTime() - start);
        }
    }
}
