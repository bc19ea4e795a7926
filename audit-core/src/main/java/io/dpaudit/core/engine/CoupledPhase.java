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
 * size only, never on the number of threads; shard counts are sums of integers, merged exactly. Memory is one
 * {@link CoupledCounts} per worker and the merged one.
 */
public final class CoupledPhase {
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
        Checks.atLeast("trials", trials, 1);
        if (scorer.outputLength() != sampler.outputLength()) {
            throw new IllegalArgumentException("attack expects outputs of length " + scorer.outputLength()
                    + " but the mechanism produces " + sampler.outputLength());
        }
        long shards = (trials + shardTrials - 1) / shardTrials;
        CoupledCounts total = new CoupledCounts(binning);
        long[] next = {0};
        long[] merged = {0};
        long start = System.nanoTime();
        int workers = (int) Math.min(threads, shards);
        List<Thread> list = new ArrayList<>(workers);
        Throwable[] failures = new Throwable[workers];
        Object lock = new Object();
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
                        synchronized (lock) {
                            if (next[0] >= shards) {
                                return;
                            }
                            shard = next[0]++;
                            rng = streams.next();
                        }
                        progress.check(phase + ", shard " + (shard + 1) + " of " + shards);
                        int n = (int) Math.min(shardTrials, trials - shard * shardTrials);
                        CoupledCounts shardCounts = new CoupledCounts(binning);
                        CoupledSamplerFactory.Draws draws = sampler.coupled(rng);
                        for (int done = 0; done < n; ) {
                            int b = Math.min(batch, n - done);
                            draws.sample(outD, outDPrime, b);
                            double[] s = scorer.score(outD, b, scores);
                            for (int i = 0; i < b; i++) {
                                slots[i] = binning.index(s[i]);
                            }
                            s = scorer.score(outDPrime, b, scores);
                            for (int i = 0; i < b; i++) {
                                shardCounts.add(slots[i], binning.index(s[i]));
                            }
                            done += b;
                        }
                        long done;
                        synchronized (lock) {
                            total.add(shardCounts);
                            merged[0] += n;
                            done = merged[0];
                        }
                        progress.onProgress(phase, done, trials, System.nanoTime() - start);
                    }
                } catch (Throwable e) {
                    synchronized (lock) {
                        failures[id] = e;
                        next[0] = Long.MAX_VALUE; // no further shard is claimed
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
                    synchronized (lock) {
                        next[0] = Long.MAX_VALUE;
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
}
