package io.dpaudit.attacks.learned;

/**
 * A fitted distinguisher: the log-odds that an output came from {@code D} rather than {@code D'} (equal priors). Higher
 * means "more like D". Implementations are immutable, thread-safe and allocate nothing in {@link #score}.
 */
interface ScoreModel {
    /** The log-odds of the output at {@code outputs[offset, offset + length)}; finite or +-inf, never NaN. */
    double score(double[] outputs, int offset);

    /** What the model is, one line (kind, size, features). */
    String description();
}
