package io.dpaudit.core.numerics;

import java.util.function.DoubleUnaryOperator;

/**
 * Bracketing root finding for continuous functions on an interval where they change sign.
 *
 * <p>The Illinois variant of regula falsi, with a bisection step whenever an interpolation step fails to halve the
 * bracket, so at most about {@code 2 log2((b - a)/tol)} evaluations are made. The result is the final bracket, not
 * a point: callers round to the side that is safe for their purpose (an analytic ε up, a calibrated σ up), which is
 * why this class does not hide the bracket behind a single number.
 */
public final class RootFinder {
    private RootFinder() {
    }

    /** A bracket {@code [lo, hi]} with the function values at its ends; {@code f} changes sign on it. */
    public record Bracket(double lo, double hi, double fLo, double fHi) {
        /** Width of the bracket. */
        public double width() {
            return hi - lo;
        }
    }

    /**
     * Shrinks {@code [a, b]} around a sign change of {@code f} until its width is at most
     * {@code max(absTol, relTol * max(|lo|, |hi|))}.
     *
     * @throws IllegalArgumentException if {@code f(a)} and {@code f(b)} have the same strict sign or are NaN
     */
    public static Bracket solve(DoubleUnaryOperator f, double a, double b, double relTol, double absTol) {
        double lo = Math.min(a, b);
        double hi = Math.max(a, b);
        double fLo = f.applyAsDouble(lo);
        double fHi = f.applyAsDouble(hi);
        if (Double.isNaN(fLo) || Double.isNaN(fHi)) {
            throw new IllegalArgumentException("function is NaN at a bracket end: f(" + lo + ")=" + fLo
                    + ", f(" + hi + ")=" + fHi);
        }
        if (fLo == 0) {
            return new Bracket(lo, lo, fLo, fLo);
        }
        if (fHi == 0) {
            return new Bracket(hi, hi, fHi, fHi);
        }
        if (Math.signum(fLo) == Math.signum(fHi)) {
            throw new IllegalArgumentException("no sign change on [" + lo + ", " + hi + "]: f=" + fLo + ", " + fHi);
        }
        int side = 0;
        for (int iter = 0; iter < 400; iter++) {
            double width = hi - lo;
            if (width <= Math.max(absTol, relTol * Math.max(Math.abs(lo), Math.abs(hi)))) {
                break;
            }
            double x = (lo * fHi - hi * fLo) / (fHi - fLo);
            boolean interpolationUsable = Double.isFinite(x) && x > lo && x < hi;
            if (!interpolationUsable || iter % 3 == 2) {
                // Every third step bisects, which bounds the count whatever the function's shape.
                x = 0.5 * (lo + hi);
            }
            if (x <= lo || x >= hi) {
                break; // adjacent doubles: the bracket cannot shrink further
            }
            double fx = f.applyAsDouble(x);
            if (Double.isNaN(fx)) {
                throw new IllegalArgumentException("function is NaN at " + x);
            }
            if (fx == 0) {
                return new Bracket(x, x, fx, fx);
            }
            if (Math.signum(fx) == Math.signum(fLo)) {
                lo = x;
                fLo = fx;
                if (side == -1) {
                    fHi *= 0.5; // Illinois: damp the stale end
                }
                side = -1;
            } else {
                hi = x;
                fHi = fx;
                if (side == 1) {
                    fLo *= 0.5;
                }
                side = 1;
            }
        }
        return new Bracket(lo, hi, fLo, fHi);
    }

    /**
     * Shrinks a known bracket (its end values already computed, so neither is evaluated again) around a sign change of
     * a function that is smooth there, to a width of at most {@code max(absTol, relTol * max(|lo|, |hi|))}, by Brent's
     * method (Brent 1973, ch. 4: inverse quadratic or secant interpolation when it makes progress, bisection when it
     * does not, and steps of at least half the tolerance, so that an interpolation that has converged from one side
     * closes the bracket at once). On smooth functions it converges superlinearly (7 evaluations from {@code [2, 8]}
     * to 1e-10 on the log of a normal tail, where {@link #solve} takes 21); the bisections bound the count whatever
     * the function. The result is a bracket of evaluated points with their values.
     */
    public static Bracket solveSmooth(DoubleUnaryOperator f, Bracket start, double relTol, double absTol) {
        double a = start.lo();
        double b = start.hi();
        double fa = start.fLo();
        double fb = start.fHi();
        if (fa == 0 || fb == 0 || a == b) {
            return start;
        }
        if (Double.isNaN(fa) || Double.isNaN(fb) || Math.signum(fa) == Math.signum(fb)) {
            throw new IllegalArgumentException("no sign change on [" + a + ", " + b + "]: f=" + fa + ", " + fb);
        }
        double c = a;
        double fc = fa;
        double d = b - a;
        double e = d;
        for (int iter = 0; iter < 400; iter++) {
            if (Math.signum(fb) == Math.signum(fc)) {
                c = a; // b and c bracket the root
                fc = fa;
                d = b - a;
                e = d;
            }
            if (Math.abs(fc) < Math.abs(fb)) {
                a = b; // b is the best estimate
                b = c;
                c = a;
                fa = fb;
                fb = fc;
                fc = fa;
            }
            double tol = Math.max(absTol, relTol * Math.max(Math.abs(b), Math.abs(c)));
            double tol1 = Math.max(0.5 * tol, 2 * Math.ulp(b));
            double xm = 0.5 * (c - b);
            if (Math.abs(c - b) <= tol || fb == 0) {
                break;
            }
            if (Math.abs(e) >= tol1 && Math.abs(fa) > Math.abs(fb)) {
                double sRatio = fb / fa;
                double p;
                double q;
                if (a == c) {
                    p = 2 * xm * sRatio; // secant
                    q = 1 - sRatio;
                } else {
                    double qq = fa / fc; // inverse quadratic interpolation
                    double r = fb / fc;
                    p = sRatio * (2 * xm * qq * (qq - r) - (b - a) * (r - 1));
                    q = (qq - 1) * (r - 1) * (sRatio - 1);
                }
                if (p > 0) {
                    q = -q;
                }
                p = Math.abs(p);
                if (2 * p < Math.min(3 * xm * q - Math.abs(tol1 * q), Math.abs(e * q))) {
                    e = d;
                    d = p / q;
                } else {
                    d = xm;
                    e = d;
                }
            } else {
                d = xm;
                e = d;
            }
            a = b;
            fa = fb;
            b += Math.abs(d) > tol1 ? d : Math.copySign(tol1, xm);
            fb = f.applyAsDouble(b);
            if (Double.isNaN(fb)) {
                throw new IllegalArgumentException("function is NaN at " + b);
            }
        }
        if (fb == 0) {
            return new Bracket(b, b, fb, fb);
        }
        return b < c ? new Bracket(b, c, fb, fc) : new Bracket(c, b, fc, fb);
    }

    /**
     * Finds {@code b > a > 0} with a sign change of {@code f}, by scaling a positive start point by {@code factor}, up
     * to {@code max} and then down to {@code min}; the last step each way is cut to the end of the range, so a sign
     * change between the last power of {@code factor} and the end is found too.
     *
     * @return the bracket, or {@code null} when no sign change was found within the allowed range
     */
    public static Bracket bracketPositive(DoubleUnaryOperator f, double start, double factor, double min,
            double max) {
        double x = start;
        double fx = requireNumber(f.applyAsDouble(x), x);
        if (fx == 0) {
            return new Bracket(x, x, fx, fx);
        }
        // Try growing first, then shrinking; monotone callers find the change in one direction.
        double prev = x;
        double fPrev = fx;
        while (prev < max) {
            double y = Math.min(max, prev * factor);
            double fy = requireNumber(f.applyAsDouble(y), y);
            if (Math.signum(fy) != Math.signum(fPrev)) {
                return new Bracket(prev, y, fPrev, fy);
            }
            prev = y;
            fPrev = fy;
        }
        prev = x;
        fPrev = fx;
        while (prev > min) {
            double y = Math.max(min, prev / factor);
            double fy = requireNumber(f.applyAsDouble(y), y);
            if (Math.signum(fy) != Math.signum(fPrev)) {
                return new Bracket(y, prev, fy, fPrev);
            }
            prev = y;
            fPrev = fy;
        }
        return null;
    }

    /**
     * Brackets the sign change of a function that <b>decreases</b> in {@code x > 0}: from {@code start}, scales up by
     * {@code factor} while {@code f > 0} and down while {@code f < 0}, staying within {@code [min, max]}; the last
     * step is cut to the end of the range, so a sign change between the last power of {@code factor} and the end is
     * found too.
     *
     * @return the bracket ({@code f(lo) >= 0 >= f(hi)}), or {@code null} when the sign does not change in range
     */
    public static Bracket bracketDecreasing(DoubleUnaryOperator f, double start, double factor, double min,
            double max) {
        double x = start;
        double fx = requireNumber(f.applyAsDouble(x), x);
        if (fx == 0) {
            return new Bracket(x, x, fx, fx);
        }
        if (fx > 0) {
            while (x < max) {
                double y = Math.min(max, x * factor);
                double fy = requireNumber(f.applyAsDouble(y), y);
                if (fy <= 0) {
                    return new Bracket(x, y, fx, fy);
                }
                x = y;
                fx = fy;
            }
            return null;
        }
        while (x > min) {
            double y = Math.max(min, x / factor);
            double fy = requireNumber(f.applyAsDouble(y), y);
            if (fy >= 0) {
                return new Bracket(y, x, fy, fx);
            }
            x = y;
            fx = fy;
        }
        return null;
    }

    private static double requireNumber(double fx, double x) {
        if (Double.isNaN(fx)) {
            throw new IllegalArgumentException("function is NaN at " + x);
        }
        return fx;
    }
}
