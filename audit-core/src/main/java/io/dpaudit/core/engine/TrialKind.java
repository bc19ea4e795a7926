package io.dpaudit.core.engine;

import java.util.List;
import java.util.function.BiFunction;

/**
 * A kind of counted trial: what one trial draws and which histograms its phase fills. Each kind is a constant with
 * the counts it produces; a new kind of trial is a new constant and a {@link ShardCounter} of it, not a new scheduler.
 * Checkpoints and remote engines name a phase's kind by {@link #id()} and rebuild its counts by
 * {@link #fromHistograms}.
 *
 * @param <C> the phase's counts
 */
public final class TrialKind<C extends PhaseCounts<C>> {
    /** Trials of each world drawn apart: two histograms, one per world. */
    public static final TrialKind<ScoreCounts> INDEPENDENT = new TrialKind<>("independent", ScoreCounts.class,
            "trials per world", "trials of each world apart", List.of("withCanary", "withoutCanary"), (b, h) -> ScoreCounts.of(b, h[0], h[1]),
            IndependentShards::new);
    /**
     * Coupled trials: both worlds of a trial on common random numbers ({@link CoupledSamplerFactory}); four
     * histograms ({@link CoupledCounts.Histogram}).
     */
    public static final TrialKind<CoupledCounts> COUPLED = new TrialKind<>("coupled", CoupledCounts.class,
            "coupled trials", "coupled trials", List.of(CoupledCounts.Histogram.WITH_CANARY.key(),
                    CoupledCounts.Histogram.WITHOUT_CANARY.key(), CoupledCounts.Histogram.SMALLER.key(),
                    CoupledCounts.Histogram.LARGER.key()), CoupledCounts::of,
            (sampler, scorer, binning) -> new CoupledShards(sampler.coupling(), scorer, binning));

    private final String id;
    private final Class<C> type;
    private final String unit;
    private final String description;
    private final List<String> histogramNames;
    private final BiFunction<HistogramBinning, long[][], C> rebuild;
    private final Counters<C> counters;

    /** How a kind's counter is made from the mechanism's sampler, the attack and the binning. */
    @FunctionalInterface
    private interface Counters<C extends PhaseCounts<C>> {
        ShardCounter<?, C> counter(TrialSamplerFactory sampler, Scorer scorer, HistogramBinning binning);
    }

    private TrialKind(String id, Class<C> type, String unit, String description, List<String> histogramNames,
            BiFunction<HistogramBinning, long[][], C> rebuild, Counters<C> counters) {
        this.id = id;
        this.type = type;
        this.unit = unit;
        this.description = description;
        this.histogramNames = histogramNames;
        this.rebuild = rebuild;
        this.counters = counters;
    }

    /**
     * The counter of this kind's trials of {@code sampler} scored by {@code scorer} into {@code binning} (coupled
     * trials need the sampler's {@link TrialSamplerFactory#coupling()}).
     */
    public ShardCounter<?, C> counter(TrialSamplerFactory sampler, Scorer scorer, HistogramBinning binning) {
        return counters.counter(sampler, scorer, binning);
    }

    /** Every kind, for lookups by id. */
    public static List<TrialKind<?>> all() {
        return List.of(INDEPENDENT, COUPLED);
    }

    /** The kind named {@code id}, or null. */
    public static TrialKind<?> byId(String id) {
        for (TrialKind<?> k : all()) {
            if (k.id.equals(id)) {
                return k;
            }
        }
        return null;
    }

    /** The kind's name in checkpoints and task specifications. */
    public String id() {
        return id;
    }

    /** What one counted trial is, for progress lines ("trials per world", "coupled trials"). */
    public String unit() {
        return unit;
    }

    /** What the trials are, for messages ("trials of each world apart", "coupled trials"). */
    public String description() {
        return description;
    }

    /** The names of the kind's histograms, in the order of {@link PhaseCounts#histograms()}. */
    public List<String> histogramNames() {
        return histogramNames;
    }

    /** {@code counts} as this kind's counts. */
    public C cast(PhaseCounts<?> counts) {
        return type.cast(counts);
    }

    /**
     * Counts rebuilt from their histograms (a checkpoint read back, a remote task's result), refused unless they could
     * have come from trials of this kind.
     *
     * @throws IllegalArgumentException naming what is impossible
     */
    public C fromHistograms(HistogramBinning binning, long[][] histograms) {
        if (histograms.length != histogramNames.size()) {
            throw new IllegalArgumentException(id + " counts have " + histogramNames.size() + " histograms, not "
                    + histograms.length);
        }
        return rebuild.apply(binning, histograms);
    }

    @Override
    public String toString() {
        return id;
    }
}
