package io.dpaudit.mechanisms.view;

/**
 * A DP-SGD sampler seen through its last iterate: a linear model whose canary adds one unit along its direction in
 * every step whose batch draws it, so that the sum of the T E noisy releases, projected on the canary, is
 * {@code K + N(0, s^2)} — K the number of such steps — against {@code K' + N(0, s^2)} without the canary (K' = 0,
 * except for the shuffle's lower-bound pair, whose other records shift both worlds). One dimension suffices: the other
 * records' contributions are known, and the noise orthogonal to the canary is independent of the world.
 *
 * @param withCanary K's law in the world with the canary
 * @param withoutCanary K' in the world without it
 * @param noise s, the standard deviation of the summed noise in units of one step's contribution:
 *     {@code sigma sqrt(T E)} over the clipping norm
 * @param scale one step's contribution in the transcript's units (the clipping norm; 1 for unit contributions): the
 *     faithful view divides the summed per-round statistics by it
 */
public record LastIteratePair(CountLaw withCanary, int withoutCanary, double noise, double scale) {
    public LastIteratePair {
        if (withCanary.min() < withoutCanary) {
            throw new IllegalArgumentException("the canary's count must be at least the other world's");
        }
    }

    /** One line: the pair. */
    public String describe() {
        return "K + N(0, s^2) with K ~ " + withCanary + " against " + withoutCanary + " + N(0, s^2), s = "
                + String.format(java.util.Locale.ROOT, "%.6g", noise);
    }
}
