package io.dpaudit.core.engine;

/**
 * Trials of each world drawn apart ({@link TrialKind#INDEPENDENT}): in a shard, batches of
 * {@link ShardedPhase#batchTrials} outputs, a batch drawn in {@code D}, scored and counted, then a batch in
 * {@code D'}. The batch size depends only on the output length. Per trial the loop calls no interface method (calls
 * are per batch), allocates nothing and boxes nothing.
 */
public final class IndependentShards implements ShardCounter<ShardCounts, ScoreCounts> {
    private final TrialSamplerFactory sampler;
    private final Scorer scorer;
    private final HistogramBinning binning;

    /**
     * @param sampler the mechanism
     * @param scorer the attack (its output length must be the mechanism's)
     * @param binning histogram layout
     */
    public IndependentShards(TrialSamplerFactory sampler, Scorer scorer, HistogramBinning binning) {
        if (scorer.outputLength() != sampler.outputLength()) {
            throw new IllegalArgumentException("attack expects outputs of length " + scorer.outputLength()
                    + " but the mechanism produces " + sampler.outputLength());
        }
        this.sampler = sampler;
        this.scorer = scorer;
        this.binning = binning;
    }

    @Override
    public TrialKind<ScoreCounts> kind() {
        return TrialKind.INDEPENDENT;
    }

    @Override
    public HistogramBinning binning() {
        return binning;
    }

    @Override
    public Scorer scorer() {
        return scorer;
    }

    @Override
    public ScoreCounts newTotal() {
        return new ScoreCounts(binning);
    }

    @Override
    public ShardCounts newShard() {
        return new ShardCounts(binning);
    }

    @Override
    public void clear(ShardCounts shard) {
        shard.reset();
    }

    @Override
    public void merge(ScoreCounts total, ShardCounts shard, int n) {
        total.add(shard, n);
    }

    @Override
    public Worker<ShardCounts> newWorker() {
        int length = sampler.outputLength();
        int batch = ShardedPhase.batchTrials(length);
        double[] outputs = new double[batch * length];
        double[] scores = new double[batch];
        return (rng, n, into) -> count(sampler.create(rng), scorer, n, outputs, scores, into);
    }

    /**
     * The shard loop: {@code n} trials per world in batches of {@code scores.length}, each batch drawn in {@code D},
     * scored and counted, then in {@code D'}. No allocation, no boxing, one interface call per batch.
     */
    static void count(TrialSampler sampler, Scorer scorer, int n, double[] outputs, double[] scores,
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
}
