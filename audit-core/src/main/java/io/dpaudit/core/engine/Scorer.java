package io.dpaudit.core.engine;

/**
 * A distinguishing attack: maps one mechanism output to one score, higher meaning "more like {@code D}" by
 * convention (the estimator tests both tails and both orders anyway).
 *
 * <p>Implementations are immutable and thread-safe, allocate nothing when scoring, and return a finite score or
 * {@code +-inf}; NaN is a bug in the attack. Scoring works on batches so that a call through this interface is made
 * once per batch, not once per trial, and the per-trial loop inside an implementation stays monomorphic.
 */
public interface Scorer {
    /** The output length this attack expects, in doubles. */
    int outputLength();

    /**
     * Scores {@code trials} outputs laid out consecutively in {@code outputs}.
     *
     * @param outputs {@code trials x outputLength()} doubles
     * @param trials number of outputs
     * @param scratch an array of at least {@code trials} doubles the scorer may write the scores into
     * @return the array whose first {@code trials} elements are the scores: {@code scratch}, or {@code outputs}
     *     itself when an output is its own score (one double per output), which saves a copy in the hot loop
     */
    double[] score(double[] outputs, int trials, double[] scratch);

    /** One-line description for reports. */
    String description();

    /**
     * The values behind the scores when the score is a rank: if not null, every score this scorer returns is an
     * integer {@code r in [0, K)} standing for the value {@code rankValues()[r]} (for instance a log-likelihood
     * ratio), the array is sorted ascending without duplicates, and the order of ranks is the order of values. The
     * histogram then gives every rank a slot of its own, so discrete scores are counted exactly — no two values share
     * a bin and every threshold lies between two values the score can take. Null (the default) for scores that are
     * histogrammed on a pilot-fitted range.
     */
    default double[] rankValues() {
        return null;
    }

    /**
     * Whether the scores may take only a few distinct values without saying which ({@link #rankValues()} null): a
     * generic statistic of a black-box output (an index, a count) or a learned score of discrete outputs. The pilot then
     * looks at the distinct values it sees; when there are at most {@link Pilot#MAX_DISCOVERED_VALUES}, every value gets
     * a slot of its own ({@link RankedScorer}), so no two values share a bin and every threshold lies between two values.
     * False (the default) for scores known to be continuous or ranked.
     */
    default boolean mayBeDiscrete() {
        return false;
    }

    /**
     * How the scores bracket the exact log-likelihood ratio of the simulated pair, or null (the default) when they
     * are not tied to it. Non-null only for scorers that compute {@code L} itself or a known monotone transform of it;
     * a privacy-loss estimate needs it.
     */
    default LossBracket lossBracket() {
        return null;
    }
}
