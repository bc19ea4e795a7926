package io.dpaudit.mechanisms.batching;

import io.dpaudit.core.numerics.Normal;

/**
 * Chernoff bounds on the upper tail of {@code S_b = sum_t min(w_t, b)}, {@code T} independent lognormal terms
 * ({@code log w ~ N(0, tau^2)}) clamped at {@code b}, for {@link AllocationDeepTail}: the part of the sum in which
 * no single term exceeds {@code b}. With {@code lambda = theta / b},
 * <pre>
 *   E(S_b - c)_+    &lt;= e^{-lambda c - 1} (E e^{lambda min(w, b)})^T / lambda       (x_+ &lt;= e^{lambda x - 1}/lambda)
 *   E[S_b; S_b &gt; c] &lt;= (c + 1/(e lambda)) e^{-lambda c} (E e^{lambda min(w, b)})^T,
 * </pre>
 * minimized over {@code theta} in {@code [}{@value #THETA_MIN}{@code , }{@value #THETA_MAX}{@code ]}, the transform
 * bounded from above ({@link #log}). Every rounding goes up.
 */
final class ClampedSumChernoff {
    /** The cells of {@code log w} reach down to this many standard deviations; the mass below is counted there. */
    static final double REACH = 12;
    /** Where the geometric cells of {@code y = w / b} start. */
    static final double SMALL_Y = 1e-3;
    /** The geometric cells' largest ratio ... */
    static final double CELL_RATIO = 0.01;
    /** ... and their largest width in {@code y} (near {@code y = 1}, where {@code e^{theta y}} grows fastest). */
    static final double TOP_CELL = 1e-3;
    /** The logarithmic cells' width in {@code log w}. */
    static final double LOG_CELL = 0.1;
    /** The Chernoff parameter {@code theta = lambda b} is searched on {@code [THETA_MIN, THETA_MAX]}. */
    static final double THETA_MIN = 1e-2;
    static final double THETA_MAX = 1e4;

    private final int steps;
    private final double tau;
    private final double termMean;

    /** For {@code steps} terms of log-scale {@code tau}. */
    ClampedSumChernoff(int steps, double tau) {
        this.steps = steps;
        this.tau = tau;
        this.termMean = Math.exp(tau * tau / 2);
    }

    /**
     * The log of Chernoff's bound on {@code E(S_b - c)_+} ({@code weighted}: on
     * {@code E[S_b; S_b > c] <= (c + 1/(e lambda)) e^{-lambda c} (E e^{lambda min(w, b)})^T}): {@code min_theta [-theta c/b - 1 - log theta + log b +
     * T log E e^{theta y}]}, {@code y = min(w, b)/b}, {@code theta = lambda b}; the objective is convex in
     * {@code theta}, searched on a log grid and then by golden section. The transform is
     * {@code 1 + theta E y + E g(theta y)}, {@code g(x) = e^x - 1 - x}: the first moment in closed form (a rounded
     * first moment would cost {@code T theta} times its error, the bulk's whole deviation), the remainder bounded on
     * cells of {@code y}, each at its top: geometric cells (ratio {@code 1 + min(}{@value #CELL_RATIO}{@code ,
     * }{@value #TOP_CELL}{@code / y)}) from {@value #SMALL_Y} up, and below it through {@code g(x) <= x^2 g(x*)/x*^2}
     * for {@code x <= x*} ({@code g(x)/x^2} increases) on cells of {@value #LOG_CELL} in {@code log w}.
     */
    double log(double c, double b, boolean weighted) {
        double logB = Math.log(b);
        double uLow = -REACH * tau;
        double uSmall = logB + Math.log(SMALL_Y);
        if (!(uLow < uSmall)) {
            return Double.POSITIVE_INFINITY; // b too small to be worth it: no bound (the others remain)
        }
        // E y, rounded up: (E[w; w <= b] + b P(w > b)) / b
        double above = Normal.sf(logB / tau);
        double firstMoment = (termMean * Normal.cdf((logB - tau * tau) / tau) / b + above) * (1 + 1e-13);
        // cells below SMALL_Y: sum_i P(cell_i) y_top(i)^2 (the mass below uLow counted at uLow)
        double squares = Normal.cdf(uLow / tau) * Math.exp(2 * (uLow - logB));
        double u = uLow;
        while (u < uSmall) {
            double next = Math.min(uSmall, u + LOG_CELL);
            squares += cellMass(u / tau, next / tau) * Math.exp(2 * (next - logB));
            u = next;
        }
        double[] mass = new double[4096];
        double[] top = new double[4096];
        int cells = 0;
        double y = SMALL_Y;
        double zPrev = uSmall / tau;
        while (y < 1) {
            double next = Math.min(1, y * (1 + Math.min(CELL_RATIO, TOP_CELL / y)));
            double z = (logB + Math.log(next)) / tau;
            if (cells == mass.length) {
                mass = java.util.Arrays.copyOf(mass, 2 * cells);
                top = java.util.Arrays.copyOf(top, 2 * cells);
            }
            mass[cells] = cellMass(zPrev, z);
            top[cells++] = next;
            zPrev = z;
            y = next;
        }
        Cells cellLaw = new Cells(firstMoment, squares, java.util.Arrays.copyOf(mass, cells),
                java.util.Arrays.copyOf(top, cells), above);
        double ratio = c / b;
        int grid = 48;
        double logLo = Math.log(THETA_MIN);
        double stepGrid = (Math.log(THETA_MAX) - logLo) / (grid - 1);
        double bestValue = Double.POSITIVE_INFINITY;
        int bestIndex = 0;
        for (int i = 0; i < grid; i++) {
            double v = objective(Math.exp(logLo + i * stepGrid), ratio, logB, cellLaw, weighted);
            if (v < bestValue) {
                bestValue = v;
                bestIndex = i;
            }
        }
        double a = logLo + Math.max(0, bestIndex - 1) * stepGrid;
        double z = logLo + Math.min(grid - 1, bestIndex + 1) * stepGrid;
        double golden = (Math.sqrt(5) - 1) / 2;
        for (int it = 0; it < 40; it++) {
            double x1 = z - golden * (z - a);
            double x2 = a + golden * (z - a);
            double f1 = objective(Math.exp(x1), ratio, logB, cellLaw, weighted);
            double f2 = objective(Math.exp(x2), ratio, logB, cellLaw, weighted);
            bestValue = Math.min(bestValue, Math.min(f1, f2));
            if (f1 < f2) {
                z = x2;
            } else {
                a = x1;
            }
        }
        return bestValue;
    }

    /** The law of {@code y = min(w, b)/b} as the Chernoff bound uses it (see {@link #logChernoff}). */
    private record Cells(double firstMoment, double squares, double[] mass, double[] top, double above) {
    }

    private double objective(double theta, double ratio, double logB, Cells law, boolean weighted) {
        double xStar = theta * SMALL_Y;
        double excess = theta * law.firstMoment() + law.squares() * remainder(xStar) / (SMALL_Y * SMALL_Y);
        double[] mass = law.mass();
        double[] top = law.top();
        for (int i = 0; i < mass.length; i++) {
            excess += mass[i] * remainder(theta * top[i]);
        }
        excess += law.above() * remainder(theta);
        double logTransform = Math.log1p(excess * (1 + 1e-12));
        // E(S_b - c)_+ <= e^{lambda (S_b - c) - 1} / lambda; E[S_b; S_b > c] <= (c + 1/(e lambda)) e^{lambda (S_b - c)}
        double lead = weighted ? Math.log(ratio + Math.exp(-1) / theta) + logB : -1 - Math.log(theta) + logB;
        double value = -theta * ratio + lead + steps * logTransform;
        return Double.isNaN(value) ? Double.POSITIVE_INFINITY : value; // an overflowed transform bounds nothing
    }

    /**
     * An upper bound on {@code g(x) = e^x - 1 - x}, {@code x >= 0}: below 0.01 {@code x^2 e^x / 2} (each term
     * {@code x^k/k! <= (x^2/2) x^{k-2}/(k-2)!}; 0.34% above g there), else {@code expm1(x) - x} with a relative
     * allowance for its rounding.
     */
    static double remainder(double x) {
        if (x < 0.01) {
            return 0.5 * x * x * Math.exp(x);
        }
        return (Math.expm1(x) - x) * (1 + 1e-13);
    }

    /**
     * An upper bound on {@code P(z0 < Z <= z1)}: the difference of the two tails on the side where they are small (no
     * cancellation against 1), plus an allowance for their own relative error (about 3e-16 each).
     */
    private static double cellMass(double z0, double z1) {
        double lo = z0 >= 0 ? Normal.sf(z1) : Normal.cdf(z0);
        double hi = z0 >= 0 ? Normal.sf(z0) : Normal.cdf(z1);
        return Math.max(0, hi - lo) + 1e-15 * hi;
    }
}
