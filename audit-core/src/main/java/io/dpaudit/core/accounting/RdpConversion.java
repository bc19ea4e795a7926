package io.dpaudit.core.accounting;

import io.dpaudit.core.Checks;
import io.dpaudit.core.numerics.SafeRounding;

/**
 * From an RDP curve {@code (alpha_i, r_i)} to (ε, δ)-DP. Two valid conversions are applied at every order and the
 * best result over orders and conversions is returned:
 * <ul>
 *   <li>Mironov (2017), Prop. 3: {@code eps = r + log(1/delta)/(alpha - 1)};</li>
 *   <li>the improved conversion of Balle et al. (2020, Thm 21) / Canonne, Kamath &amp; Steinke (2020, Prop. 12) /
 *       Asoodeh et al. (2020, Eq. 20): {@code eps = r + log((alpha-1)/alpha) - (log delta + log alpha)/(alpha - 1)},
 *       equivalently {@code delta = exp((alpha-1)(r - eps + log(1 - 1/alpha)))/alpha};</li>
 *   <li>the total-variation shortcut: {@code TV <= sqrt(1 - e^{-KL})} (Pinsker–Bretagnolle–Huber) and
 *       {@code KL <= r(alpha)} for every {@code alpha > 1}, so {@code delta >= sqrt(1 - e^{-r})} gives
 *       {@code eps = 0}.</li>
 * </ul>
 * Results are clamped to {@code eps >= 0}, {@code delta in [0, 1]} and rounded up.
 */
public final class RdpConversion {
    private RdpConversion() {
    }

    /**
     * A conversion result.
     *
     * @param value the ε (or δ)
     * @param order the order that attained it (NaN for the total-variation shortcut)
     * @param method which conversion attained it
     */
    public record Result(double value, double order, String method) {
    }

    /** The smallest ε for {@code delta} over all orders and conversions. */
    public static Result epsilon(double[] orders, double[] rdp, double delta) {
        Checks.delta("delta", delta);
        double best = Double.POSITIVE_INFINITY;
        double bestOrder = Double.NaN;
        String method = "none";
        double logDelta = Math.log(delta);
        for (int i = 0; i < orders.length; i++) {
            double a = orders[i];
            double r = rdp[i];
            if (!(r < Double.POSITIVE_INFINITY)) {
                continue;
            }
            if (r <= 0 || delta * delta >= -Math.expm1(-r)) {
                return new Result(0.0, Double.NaN, "total variation");
            }
            double mironov = r - logDelta / (a - 1);
            if (mironov < best) {
                best = mironov;
                bestOrder = a;
                method = "Mironov 2017";
            }
            double improved = r + Math.log1p(-1 / a) - (logDelta + Math.log(a)) / (a - 1);
            if (improved < best) {
                best = improved;
                bestOrder = a;
                method = "improved (Balle et al. 2020)";
            }
        }
        return new Result(SafeRounding.up(Math.max(0.0, best)), bestOrder, method);
    }

    /** The smallest δ for {@code epsilon} over all orders and conversions. */
    public static Result delta(double[] orders, double[] rdp, double epsilon) {
        Checks.nonNegative("epsilon", epsilon);
        double bestLog = 0.0; // delta <= 1 always
        double bestOrder = Double.NaN;
        String method = "trivial";
        for (int i = 0; i < orders.length; i++) {
            double a = orders[i];
            double r = rdp[i];
            if (!(r < Double.POSITIVE_INFINITY)) {
                continue;
            }
            double tv = r <= 0 ? Double.NEGATIVE_INFINITY : 0.5 * Math.log(-Math.expm1(-r));
            if (tv < bestLog) {
                bestLog = tv;
                bestOrder = Double.NaN;
                method = "total variation";
            }
            double mironov = (a - 1) * (r - epsilon);
            if (mironov < bestLog) {
                bestLog = mironov;
                bestOrder = a;
                method = "Mironov 2017";
            }
            double improved = (a - 1) * (r - epsilon + Math.log1p(-1 / a)) - Math.log(a);
            if (improved < bestLog) {
                bestLog = improved;
                bestOrder = a;
                method = "improved (Balle et al. 2020)";
            }
        }
        return new Result(SafeRounding.upProbability(Math.exp(bestLog)), bestOrder, method);
    }
}
