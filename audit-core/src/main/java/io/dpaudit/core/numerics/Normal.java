package io.dpaudit.core.numerics;

import org.apache.commons.numbers.gamma.Erfc;

/**
 * The standard normal distribution, evaluated so that tails keep their relative accuracy.
 *
 * <ul>
 *   <li>{@link #cdf}/{@link #sf} use {@code erfc} on the side where the result is small, never {@code 1 - x} of a
 *       small quantity, so {@code sf(30)} is about {@code 4.9e-198}, not 0.</li>
 *   <li>{@link #logCdf} is accurate for every finite argument: below {@code -20} it uses the asymptotic series
 *       {@code log Phi(x) = -x^2/2 - log(-x) - log(2 pi)/2 + log(sum_n (-1)^n (2n-1)!! x^-2n)} with nine terms,
 *       whose truncation error at {@code x = -20} is below {@code 4e-15} relative; elsewhere
 *       {@code log(erfc(-x/sqrt 2)/2)}.</li>
 *   <li>{@link #quantile} and {@link #inverseSurvival} solve {@code log Phi(x) = log p} by Newton's method started
 *       from Abramowitz &amp; Stegun 26.2.23, so probabilities down to {@code Double.MIN_NORMAL} invert to full
 *       precision. {@code inverseSurvival(a)} is {@code -quantile(a)}: it never forms {@code 1 - a}.</li>
 * </ul>
 *
 * <p>{@code erfc} is commons-numbers' ({@code Erfc}, after Boost): against 25-digit references on
 * {@code x in [0.001, 26.5]} its largest relative error is 3.0e-16, commons-math3's 2.9e-14
 * ({@code SpecialFunctionAccuracyTest}).
 *
 * <p>NaN arguments give NaN. Costs are a few hundred nanoseconds: these functions are for analytic bounds and
 * set-up, not for per-trial hot loops.
 */
public final class Normal {
    /** {@code log(sqrt(2 pi))}. */
    public static final double LOG_SQRT_2PI = 0.9189385332046727417803297;
    private static final double SQRT2 = 1.4142135623730950488;
    private static final double ASYMPTOTIC_SWITCH = -20.0;

    private Normal() {
    }

    /** Density {@code phi(x)}. */
    public static double pdf(double x) {
        return Math.exp(logPdf(x));
    }

    /** Log density {@code -x^2/2 - log sqrt(2 pi)}. */
    public static double logPdf(double x) {
        return -0.5 * x * x - LOG_SQRT_2PI;
    }

    /** {@code Phi(x) = P(Z <= x)}; relative accuracy kept for {@code x << 0}. */
    public static double cdf(double x) {
        if (x < 0) {
            return 0.5 * Erfc.value(-x / SQRT2);
        }
        return 1.0 - 0.5 * Erfc.value(x / SQRT2);
    }

    /** Survival function {@code 1 - Phi(x) = Phi(-x)}, computed as {@code Phi(-x)}. */
    public static double sf(double x) {
        return cdf(-x);
    }

    /** {@code log Phi(x)}, finite for every finite {@code x}. */
    public static double logCdf(double x) {
        if (Double.isNaN(x)) {
            return Double.NaN;
        }
        if (x == Double.NEGATIVE_INFINITY) {
            return Double.NEGATIVE_INFINITY;
        }
        if (x < ASYMPTOTIC_SWITCH) {
            return asymptoticLogCdf(x);
        }
        if (x < 5) {
            return Math.log(cdf(x));
        }
        // Phi(x) = 1 - Phi(-x) with Phi(-x) < 3e-7: log1p keeps it exact.
        return Math.log1p(-cdf(-x));
    }

    /** {@code log(1 - Phi(x)) = log Phi(-x)}. */
    public static double logSf(double x) {
        return logCdf(-x);
    }

    /**
     * {@code log(Phi(x) / phi(x))}, finite for every finite {@code x}. Below {@code -20} it is the asymptotic series
     * of {@link #logCdf} without its {@code -x^2/2}, so the difference of two huge, nearly equal numbers is never
     * formed (at {@code x = -8e12} each is about {@code -3.2e25}, whose rounding alone is about 4e9).
     */
    public static double logCdfOverPdf(double x) {
        if (Double.isNaN(x)) {
            return Double.NaN;
        }
        if (x < ASYMPTOTIC_SWITCH) {
            return -Math.log(-x) + Math.log(asymptoticSeries(x));
        }
        return logCdf(x) - logPdf(x);
    }

    private static double asymptoticLogCdf(double x) {
        return -0.5 * x * x - Math.log(-x) - LOG_SQRT_2PI + Math.log(asymptoticSeries(x));
    }

    /** {@code sum_{n=0}^{8} (-1)^n (2n-1)!! x^{-2n}}, by Horner's rule from the innermost term. */
    private static double asymptoticSeries(double x) {
        double inv2 = 1.0 / (x * x);
        double sum = 1.0;
        for (int n = 8; n >= 1; n--) {
            sum = 1.0 - (2 * n - 1) * inv2 * sum;
        }
        return sum;
    }

    /**
     * The quantile {@code Phi^{-1}(p)} for {@code p in [0, 1]}; {@code -inf} at 0 and {@code +inf} at 1.
     */
    public static double quantile(double p) {
        if (Double.isNaN(p) || p < 0 || p > 1) {
            return Double.NaN;
        }
        if (p <= 0.5) {
            return lowerQuantile(p);
        }
        // 1 - p is exact for p in [0.5, 1] (Sterbenz), so no precision is lost here.
        return -lowerQuantile(1.0 - p);
    }

    /** {@code Phi^{-1}(1 - a)}, computed as {@code -Phi^{-1}(a)}: accurate for tiny {@code a}. */
    public static double inverseSurvival(double a) {
        return -quantile(a);
    }

    private static double lowerQuantile(double p) {
        if (p == 0) {
            return Double.NEGATIVE_INFINITY;
        }
        if (p == 0.5) {
            return 0.0;
        }
        double logP = Math.log(p);
        // Abramowitz & Stegun 26.2.23 (absolute error < 4.5e-4) as the starting point.
        double t = Math.sqrt(-2.0 * logP);
        double x = -(t - (2.515517 + t * (0.802853 + t * 0.010328))
                / (1.0 + t * (1.432788 + t * (0.189269 + t * 0.001308))));
        for (int i = 0; i < 60; i++) {
            double logPhi = logCdf(x);
            // f(x) = log Phi(x) - log p, f'(x) = phi(x) / Phi(x).
            double step = (logPhi - logP) / Math.exp(logPdf(x) - logPhi);
            x -= step;
            if (Math.abs(step) <= 1e-15 * Math.max(1.0, Math.abs(x))) {
                break;
            }
        }
        return x;
    }
}
