package io.dpaudit.mechanisms.batching;

/**
 * How far the total rounding offset {@code R = sum_t u_t} of a lattice whose lognormal terms were rounded down can
 * stray from its mean: each {@code u_t = w_t - h floor(w_t / h)} lies in {@code [0, h)}, the terms are independent,
 * and a deviation {@code x} above (or below) the mean has probability at most {@code nu} on each side for the smaller
 * of two proven {@code x}:
 * <ul>
 *   <li>Hoeffding's inequality (range {@code h}): {@code x = h sqrt(T ln(1/nu) / 2)};</li>
 *   <li>Bernstein's inequality ({@code |u_t - E u_t| <= h}, total variance at most {@code V}):
 *       {@code P(R - E R >= x) <= exp(-x^2 / (2 V + 2 h x / 3))}, solved for {@code x}:
 *       {@code x = h L / 3 + sqrt((h L / 3)^2 + 2 L V)} with {@code L = ln(1/nu)}.</li>
 * </ul>
 * An offset is nearly uniform on {@code [0, h)} when {@code h} is small against the term's spread, with variance
 * {@code h^2/12} against the {@code h^2/4} Hoeffding's range allows, so at many terms Bernstein's band is about
 * {@code sqrt(1/3)} of Hoeffding's (T = 10^4, nu = 1e-17: 269 h against 442 h).
 */
final class OffsetConcentration {
    private OffsetConcentration() {
    }

    /**
     * A bound on the variance of one term's offset {@code u = w - h floor(w / h)} for {@code log w ~ N(shift, tau^2)},
     * in closed form: {@code Var u <= E[(u - h/2)^2]}; on each cell {@code [ih, (i+1)h)} the integral of
     * {@code (w - mid)^2 f(w)} is at most {@code h^3/12} times the cell's largest density, and the sum over the cells of
     * {@code h} times that largest density is at most {@code 1 + h TV(f)} (a Riemann sum of the upper values: the
     * integral plus {@code h} times the total variation). The lognormal density is unimodal, so {@code TV(f) = 2
     * f_max} with {@code f_max = e^{tau^2/2 - shift} / (sqrt(2 pi) tau)} (at the mode {@code e^{shift - tau^2}}). So
     * {@code Var u <= (h^2 / 12)(1 + 2 h f_max)}, and never more than Popoviciu's {@code h^2/4}; relative 1e-9 of
     * slack covers the rounding.
     */
    static double termVariance(double h, double tau, double shift) {
        double fMax = Math.exp(tau * tau / 2 - shift) / (Math.sqrt(2 * Math.PI) * tau);
        double smooth = h * h / 12 * (1 + 2 * h * fMax);
        return Math.min(h * h / 4, smooth) * (1 + 1e-9);
    }

    /**
     * The deviation {@code x} of the offsets' total from its mean, on one side, exceeded with probability at most
     * {@code nu}: the smaller of Hoeffding's and Bernstein's (class comment), rounded up.
     *
     * @param h the lattice spacing (each offset in {@code [0, h)})
     * @param steps the number of terms
     * @param variance a bound on the sum of the terms' offset variances ({@link #termVariance})
     * @param nu the probability allowed on the side
     */
    static double deviation(double h, int steps, double variance, double nu) {
        double log = Math.log(1 / nu);
        double hoeffding = h * Math.sqrt(steps * log / 2);
        double linear = h * log / 3;
        double bernstein = linear + Math.sqrt(linear * linear + 2 * log * variance);
        return Math.min(hoeffding, bernstein) * (1 + 1e-12);
    }
}
