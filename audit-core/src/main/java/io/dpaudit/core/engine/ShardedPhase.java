package io.dpaudit.core.engine;

import io.dpaudit.core.Checks;
import io.dpaudit.core.InvalidInputException;
import io.dpaudit.core.numerics.Interruption;
import io.dpaudit.core.rng.RandomStreams;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.commons.rng.UniformRandomProvider;

/**
 * The one scheduler of counted phases: any kind of trial ({@link ShardCounter}) on local threads.
 *
 * <p><b>Plan.</b> A phase of {@code N} trials is cut into shards of {@link #shardTrials()} trials (the last one
 * shorter). Shard {@code j} draws only from the {@code j}-th stream the phase takes from {@link RandomStreams}; streams
 * are taken while claiming a shard, under one lock, so the shard-to-stream map is fixed by the shard index alone. Hence
 * the counts of a phase are a function of (seed, stream offset, N, shard size, the counter) and not of the thread
 * count or of scheduling.
 *
 * <p><b>Merge.</b> Shard counts are merged into the phase's total strictly in shard order through a reorder buffer
 * that holds at most {@code threads + 2} shard buffers; a worker that would exceed it waits (the worker holding the
 * lowest unmerged shard always has its buffer, so this cannot deadlock). Memory is therefore
 * {@code O(threads x bins)}, independent of {@code N}. After every merge the total is the counts of a prefix of the
 * shards: what a checkpoint keeps ({@link Listener}), and what a resumed run goes on from ({@link Resume}), skipping
 * those shards' streams.
 *
 * <p><b>Failures.</b> An exception in any worker stops the claiming of new shards; after all workers have stopped,
 * the first failure (in worker order) is rethrown with the others attached as suppressed exceptions. An interrupt of
 * the calling thread stops the phase and ends it with {@link Interruption.Interrupted}.
 */
public final class ShardedPhase {
    /** Default shard size: 2^20 trials per world. */
    public static final int DEFAULT_SHARD_TRIALS = 1 << 20;
    /** Outputs up to this length keep {@link #DEFAULT_SHARD_TRIALS}. */
    private static final int SHORT_OUTPUT = 256;
    /** Output values per world in a shard of longer outputs: 2^26. */
    private static final long LONG_SHARD_OUTPUT_VALUES = 1L << 26;
    /** Smallest shard {@link #shardTrialsFor} cuts. */
    private static final int MIN_SHARD_TRIALS = 1 << 10;
    /** Scratch budget per worker, in doubles, for one batch of outputs. */
    private static final int BATCH_DOUBLES = 1 << 14;
    private static final int MAX_BATCH_TRIALS = 512;

    private final int threads;
    private final int shardTrials;
    private final ProgressListener progress;

    /**
     * @param threads worker threads, at least 1
     * @param shardTrials trials in one shard, at least 1
     * @param progress told of the merged trials after each shard; its {@code check} can stop the phase between shards
     */
    public ShardedPhase(int threads, int shardTrials, ProgressListener progress) {
        this.threads = Checks.atLeast("threads", threads, 1);
        this.shardTrials = Checks.atLeast("shardTrials", shardTrials, 1);
        this.progress = progress;
    }

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

    /** Trials per batch for a given output length (a function of the output length only). */
    public static int batchTrials(int outputLength) {
        return Math.max(1, Math.min(MAX_BATCH_TRIALS, BATCH_DOUBLES / Math.max(1, outputLength)));
    }

    /** Worker threads. */
    public int threads() {
        return threads;
    }

    /** Trials in a full shard. */
    public int shardTrials() {
        return shardTrials;
    }

    /** Number of shards of a phase of {@code trials} trials. */
    public long shardCount(long trials) {
        return (trials + shardTrials - 1) / shardTrials;
    }

    /**
     * Where an interrupted phase stopped: its first {@code shardsDone} shards, merged.
     *
     * @param shardsDone shards counted, a prefix of the phase's shards
     * @param counts their merged counts
     * @param <C> the phase's counts
     */
    public record Resume<C extends PhaseCounts<C>>(long shardsDone, C counts) {
    }

    /** Sees a phase's merged counts after every shard (called under the phase's lock: copy, do not keep). */
    @FunctionalInterface
    public interface Listener<C> {
        /**
         * @param phase the phase
         * @param shardsDone shards merged so far (a prefix)
         * @param shardCount shards of the phase
         * @param counts the merged counts so far (live: copy it to keep it)
         */
        void merged(String phase, long shardsDone, long shardCount, C counts);
    }

    /** Counts a phase from its start, telling no one of its merges. */
    public <S, C extends PhaseCounts<C>> C run(String phase, ShardCounter<S, C> counter, long trials,
            RandomStreams streams) {
        return run(phase, counter, trials, streams, null, (p, d, n, c) -> { });
    }

    /**
     * Counts {@code trials} trials, possibly resuming: with {@code resume} the first {@code resume.shardsDone()}
     * shards are taken as counted ({@code resume.counts()}), their streams skipped, and counting goes on from the next
     * shard; a resume that holds every shard only skips their streams (the listener is told once).
     *
     * @param phase name for progress reports
     * @param counter the kind of trial and what it counts
     * @param trials trials, at least 1
     * @param streams the phase takes one stream per shard, in order
     * @param resume where an earlier, interrupted run of this phase stopped, or null
     * @param listener told of the merged counts after each shard, under the phase's lock
     * @throws InvalidInputException (naming {@code --resume}) when the resumed counts could not have come from this
     *     phase's shards
     */
    public <S, C extends PhaseCounts<C>> C run(String phase, ShardCounter<S, C> counter, long trials,
            RandomStreams streams, Resume<C> resume, Listener<? super C> listener) {
        Checks.atLeast("trials", trials, 1);
        Run<S, C> run = new Run<>(phase, counter, trials, streams, listener);
        if (resume != null && run.resume(resume)) {
            return run.total;
        }
        return run.execute();
    }

    /**
     * Counts shards {@code [from, to)} of a phase one after another on the calling thread, shard {@code j} from the
     * stream {@code j} places after {@code streams}' next one (which the caller positions): what a remote executor
     * does with its share of a phase. The result is the sum of those shards' counts, the same as the local
     * scheduler's for them.
     *
     * @param phaseTrials the phase's trials (the last shard may be shorter)
     */
    public static <S, C extends PhaseCounts<C>> C countShards(ShardCounter<S, C> counter, RandomStreams streams,
            long from, long to, int shardTrials, long phaseTrials) {
        C total = counter.newTotal();
        S shard = counter.newShard();
        ShardCounter.Worker<S> worker = counter.newWorker();
        for (long j = from; j < to; j++) {
            int n = (int) Math.min(shardTrials, phaseTrials - j * shardTrials);
            counter.clear(shard);
            worker.count(streams.next(), n, shard);
            counter.merge(total, shard, n);
        }
        return total;
    }

    /** State of one running phase, shared by its workers. */
    private final class Run<S, C extends PhaseCounts<C>> {
        private final String phase;
        private final ShardCounter<S, C> counter;
        private final long trials;
        private final long shardCount;
        private final RandomStreams streams;
        private final C total;
        private final Listener<? super C> listener;
        private final long startNanos = System.nanoTime();

        // Guarded by "this".
        private long nextShard;
        private long nextToMerge;
        private long mergedTrials;
        private boolean failed;
        private final ArrayDeque<S> pool = new ArrayDeque<>();
        private final Map<Long, S> pending = new HashMap<>();
        private final Map<Long, Integer> pendingSizes = new HashMap<>();

        Run(String phase, ShardCounter<S, C> counter, long trials, RandomStreams streams,
                Listener<? super C> listener) {
            this.phase = phase;
            this.counter = counter;
            this.trials = trials;
            this.shardCount = shardCount(trials);
            this.streams = streams;
            this.total = counter.newTotal();
            this.listener = listener;
        }

        /** Takes the resumed prefix; true when it holds the whole phase (nothing is left to count). */
        synchronized boolean resume(Resume<C> resume) {
            long done = resume.shardsDone();
            long expected = Math.min(trials, done * shardTrials);
            if (done < 0 || done > shardCount || resume.counts().trials() != expected
                    || resume.counts().binning().slots() != counter.binning().slots()) {
                throw new InvalidInputException("--resume", "(phase " + phase + ", " + done + " shards done, "
                        + resume.counts().trials() + " " + counter.kind().unit() + ")", "this phase has " + shardCount
                        + " shards of " + shardTrials + " trials: the checkpoint's counts could not have come from "
                        + "them; refused");
            }
            if (done == 0) {
                return false;
            }
            total.add(resume.counts().on(counter.binning()));
            streams.skip(done);
            nextShard = done;
            nextToMerge = done;
            mergedTrials = expected;
            if (done == shardCount) {
                listener.merged(phase, shardCount, shardCount, total);
                return true;
            }
            return false;
        }

        C execute() {
            int workers;
            synchronized (this) {
                int buffers = (int) Math.min(threads + 2L, shardCount - nextShard + 1);
                for (int i = 0; i < buffers; i++) {
                    pool.push(counter.newShard());
                }
                workers = (int) Math.min(threads, shardCount - nextShard);
            }
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
                if (f instanceof Error err && first == null) {
                    throw err;
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
                throw new Interruption.Interrupted("phase " + phase);
            }
            if (total.trials() != trials) {
                throw new IllegalStateException("phase " + phase + " merged " + total.trials() + " of " + trials);
            }
            return total;
        }

        private void work() throws InterruptedException {
            ShardCounter.Worker<S> worker = counter.newWorker();
            while (true) {
                S counts = borrow();
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
                worker.count(rng, n, counts);
                complete(shard, counts, n);
            }
        }

        private synchronized S borrow() throws InterruptedException {
            while (pool.isEmpty() && !failed) {
                wait();
            }
            return failed ? null : pool.pop();
        }

        private void complete(long shard, S counts, int n) {
            long done;
            synchronized (this) {
                pending.put(shard, counts);
                pendingSizes.put(shard, n);
                S next;
                while ((next = pending.remove(nextToMerge)) != null) {
                    int size = pendingSizes.remove(nextToMerge);
                    counter.merge(total, next, size);
                    mergedTrials += size;
                    counter.clear(next);
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
