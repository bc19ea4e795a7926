package io.dpaudit.mechanisms.common;

import org.apache.commons.rng.UniformRandomProvider;

/**
 * A sequence of independent Bernoulli(p) outcomes. For {@code p <= 1/8} it draws the gaps between successes, which
 * are Geometric(p), by inversion ({@code floor(log(U)/log(1-p))}: one {@code nextDouble()} and one {@code log} per
 * success, so about {@code p} draws per outcome); above it one {@code nextDouble() < p} per outcome; none for
 * {@code p = 1}. Either way the outcomes are exactly i.i.d. Bernoulli(p) (up to double rounding).
 */
public final class BernoulliProcess {
    private static final double GAP_MAX_P = 0.125;

    private final UniformRandomProvider rng;
    private final double p;
    private final boolean gaps;
    private final double inverseLogComplement;
    private long untilSuccess;

    /** A process of independent trials of success probability {@code p}, drawing from {@code rng}. */
    public BernoulliProcess(UniformRandomProvider rng, double p) {
        this.rng = rng;
        this.p = p;
        this.gaps = p > 0 && p <= GAP_MAX_P;
        this.inverseLogComplement = 1.0 / Math.log1p(-p);
        if (gaps) {
            untilSuccess = nextGap();
        }
    }

    private long nextGap() {
        double g = Math.floor(Math.log(1.0 - rng.nextDouble()) * inverseLogComplement);
        return g >= Long.MAX_VALUE ? Long.MAX_VALUE : (long) g;
    }

    /** The next outcome. */
    public boolean next() {
        if (p >= 1.0) {
            return true;
        }
        if (!gaps) {
            return rng.nextDouble() < p;
        }
        if (untilSuccess == 0) {
            untilSuccess = nextGap();
            return true;
        }
        untilSuccess--;
        return false;
    }
}
