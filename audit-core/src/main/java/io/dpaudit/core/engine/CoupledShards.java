package io.dpaudit.core.engine;

/**
 * Coupled trials ({@link TrialKind#COUPLED}): in a shard, batches of {@link ShardedPhase#batchTrials} coupled outputs
 * drawn on common random numbers, each world's scored and histogrammed, the two slots of each trial counted together.
 */
public final class CoupledShards implements ShardCounter<CoupledCounts, CoupledCounts> {
    private final CoupledSamplerFactory sampler;
    private final Scorer scorer;
    private final HistogramBinning binning;

    /**
     * @param sampler the mechanism's coupled trials
     * @param scorer the attack, applied to each world's output
     * @param binning histogram layout
     */
    public CoupledShards(CoupledSamplerFactory sampler, Scorer scorer, HistogramBinning binning) {
        if (scorer.outputLength() != sampler.outputLength()) {
            throw new IllegalArgumentException("attack expects outputs of length " + scorer.outputLength()
                    + " but the mechanism produces " + sampler.outputLength());
        }
        this.sampler = sampler;
        this.scorer = scorer;
        this.binning = binning;
    }

    @Override
    public TrialKind<CoupledCounts> kind() {
        return TrialKind.COUPLED;
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
    public CoupledCounts newTotal() {
        return new CoupledCounts(binning);
    }

    @Override
    public CoupledCounts newShard() {
        return new CoupledCounts(binning);
    }

    @Override
    public void clear(CoupledCounts shard) {
        shard.clear();
    }

    @Override
    public void merge(CoupledCounts total, CoupledCounts shard, int n) {
        total.add(shard);
    }

    @Override
    public Worker<CoupledCounts> newWorker() {
        int length = sampler.outputLength();
        int batch = ShardedPhase.batchTrials(length);
        double[] outD = new double[batch * length];
        double[] outDPrime = new double[batch * length];
        double[] scores = new double[batch];
        int[] slots = new int[batch];
        return (rng, n, into) -> {
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
                    into.add(slots[i], binning.index(s[i]));
                }
                done += b;
            }
        };
    }
}
