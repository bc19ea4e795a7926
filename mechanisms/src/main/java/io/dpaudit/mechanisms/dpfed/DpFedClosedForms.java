package io.dpaudit.mechanisms.dpfed;

import io.dpaudit.core.Checks;
import io.dpaudit.core.InvalidInputException;
import io.dpaudit.core.bounds.PrivacyBound;
import io.dpaudit.core.numerics.SafeRounding;
import java.util.Locale;

/**
 * The closed-form guarantees of Liang et al., "Exploring Private Federated Learning with Laplacian Smoothing"
 * (seed 003): Lemmas 2 and 3 (per-round RDP of the subsampled Gaussian, with side conditions) and Theorems 1 and 2
 * (a closed-form noise level for {@code (epsilon, delta)} over {@code T} rounds, for some {@code lambda in (0, 1)}).
 *
 * <p>Notation: {@code nu} is the noise standard deviation on the sum of clipped updates, {@code G} the clipping norm,
 * {@code tau} the client sampling fraction, {@code x = v^2} the squared noise multiplier with respect to the
 * sensitivity used ({@code v = nu / Delta}).
 *
 * <p>Both lemmas share the order condition {@code alpha - 1 <= (2/3) x ln(1 / (alpha tau (1 + x)))}. Its right side
 * decreases in {@code alpha} and its left side increases, so it holds exactly for {@code alpha} up to a largest order
 * {@link #largestOrder} (and for none when {@code tau (1 + x) >= 1}). The theorems restate it as
 * {@code alpha - 1 <= nu^2/(6 G^2) ln(1 / (tau alpha (1 + nu^2/(4 G^2))))}, the same condition with
 * {@code x = nu^2 / (4 G^2)}.
 */
final class DpFedClosedForms {
    /** Grid of lambda values searched by the theorems (any lambda in (0, 1) is allowed, so a grid is safe). */
    private static final int LAMBDA_GRID = 2000;

    private DpFedClosedForms() {
    }

    /** Which lemma: constant of the RDP bound, threshold on {@code x}, and whether orders must be integers. */
    enum Lemma {
        /**
         * Lemma 2 (uniform sampling without replacement): {@code (alpha, 3.5 tau^2 alpha / x)}-RDP for
         * {@code x >= 0.67} and the order condition. Its proof bounds WBK19's Theorem 9, which holds for integer
         * orders; we therefore evaluate it at integer {@code alpha >= 2} only.
         */
        LEMMA_2("lemma-2", "Lemma 2", 3.5, 0.67, true),
        /**
         * Lemma 3 (Poisson sampling): {@code (alpha, 2 tau^2 alpha / x)}-RDP for {@code x >= 0.53} and the order
         * condition (the statement says "drawn uniformly without replacement"; its title, proof and use are Poisson).
         */
        LEMMA_3("lemma-3", "Lemma 3", 2.0, 0.53, false);

        final String name;
        final String label;
        final double constant;
        final double threshold;
        final boolean integerOrders;

        Lemma(String name, String label, double constant, double threshold, boolean integerOrders) {
            this.name = name;
            this.label = label;
            this.constant = constant;
            this.threshold = threshold;
            this.integerOrders = integerOrders;
        }
    }

    /** Which theorem: constant under the square root and threshold of its first condition. */
    enum Theorem {
        /** Theorem 1 (uniform), Eq. (3): {@code nu >= (tau G / eps) sqrt((14 T / lambda)(log(1/delta)/(1-lambda) + eps))}. */
        THEOREM_1("thm-1", "Theorem 1, Eq. (3)", 14.0, 0.67),
        /**
         * Theorem 2 (Poisson), Eq. (4): the same with 8 for 14 and 0.53 for 0.67 (its proof writes 0.43; we check the
         * statement's 0.53, the stricter).
         */
        THEOREM_2("thm-2", "Theorem 2, Eq. (4)", 8.0, 0.53);

        final String name;
        final String label;
        final double constant;
        final double threshold;

        Theorem(String name, String label, double constant, double threshold) {
            this.name = name;
            this.label = label;
            this.constant = constant;
            this.threshold = threshold;
        }
    }

    /**
     * The largest order {@code alpha} with {@code alpha - 1 <= (2/3) x ln(1 / (alpha tau (1 + x)))}, or 1 when no
     * {@code alpha > 1} satisfies it. Bisection to machine precision, rounded down (the safe side).
     */
    static double largestOrder(double tau, double x) {
        double atOne = orderSlack(tau, x, 1.0);
        if (!(atOne > 0)) {
            return 1.0;
        }
        double lo = 1.0;
        double hi = 2.0 + atOne; // the slack at hi is negative: the log term only decreases
        for (int i = 0; i < 200 && hi - lo > 1e-14 * hi; i++) {
            double mid = 0.5 * (lo + hi);
            if (orderSlack(tau, x, mid) >= 0) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    private static double orderSlack(double tau, double x, double alpha) {
        return (2.0 / 3.0) * x * Math.log(1.0 / (alpha * tau * (1.0 + x))) - (alpha - 1.0);
    }

    /**
     * A lemma composed over {@code T} rounds by RDP additivity ({@code T c tau^2 alpha / x}) and converted by the
     * paper's Lemma 1 ({@code eps = rho(alpha) + log(1/delta)/(alpha - 1)}), optimised over the orders where the
     * lemma's conditions hold. When they hold for no order the bound certifies nothing ({@code delta = 1}).
     */
    static final class LemmaBound implements PrivacyBound {
        private final Lemma lemma;
        private final double tau;
        private final double x;
        private final int rounds;
        private final String sensitivity;
        private final double slope;
        private final double minOrder;
        private final double maxOrder;

        /**
         * @param lemma which lemma
         * @param tau sampling fraction
         * @param noise noise standard deviation on the sum
         * @param sensitivityValue l2 sensitivity of the sum ({@code 2G} replace-one, {@code G} add/remove)
         * @param sensitivity how the sensitivity was chosen, for the source
         * @param rounds {@code T}
         */
        LemmaBound(Lemma lemma, double tau, double noise, double sensitivityValue, String sensitivity, int rounds) {
            this.lemma = lemma;
            this.tau = tau;
            double v = noise / sensitivityValue;
            this.x = v * v;
            this.rounds = rounds;
            this.sensitivity = sensitivity;
            this.slope = rounds * lemma.constant * tau * tau / x;
            this.minOrder = lemma.integerOrders ? 2.0 : 1.0;
            double largest = largestOrder(tau, x);
            this.maxOrder = lemma.integerOrders ? Math.floor(largest) : largest;
        }

        /** Whether {@code x >= threshold}. */
        boolean noiseConditionHolds() {
            return x >= lemma.threshold;
        }

        /** Whether some admissible order satisfies the order condition. */
        boolean orderConditionHolds() {
            return lemma.integerOrders ? maxOrder >= 2 : maxOrder > 1;
        }

        /** Whether the lemma certifies anything here. */
        boolean applicable() {
            return noiseConditionHolds() && orderConditionHolds();
        }

        /** Squared noise multiplier {@code x}. */
        double squaredMultiplier() {
            return x;
        }

        /** Largest admissible order (1 when none). */
        double maxOrder() {
            return maxOrder;
        }

        /** One sentence on the lemma's conditions here. */
        String conditions() {
            String head = String.format(Locale.ROOT, "%s (%s): nu^2/Delta^2 = %s %s %s", lemma.label, lemma.name,
                    sig(x), noiseConditionHolds() ? ">=" : "<", sig(lemma.threshold));
            if (!noiseConditionHolds()) {
                return head + ": its noise condition FAILS, so it certifies nothing here.";
            }
            if (!orderConditionHolds()) {
                return head + String.format(Locale.ROOT, ", but its order condition alpha - 1 <= (2/3)(nu/Delta)^2 "
                        + "ln(1/(alpha tau (1 + (nu/Delta)^2))) FAILS for every %s order > 1 (tau (1 + x) = %s): it "
                        + "certifies nothing here.", lemma.integerOrders ? "integer" : "", sig(tau * (1 + x)));
            }
            return head + String.format(Locale.ROOT, "; its order condition holds for %s1 < alpha <= %s.",
                    lemma.integerOrders ? "integer " : "", sig(maxOrder));
        }

        @Override
        public String name() {
            return lemma.name;
        }

        @Override
        public String source() {
            return String.format(Locale.ROOT, "Liang et al. (seed 003) %s: (alpha, %s tau^2 alpha/(nu/Delta)^2)-RDP per "
                    + "round with Delta = %s, when (nu/Delta)^2 >= %s and alpha - 1 <= (2/3)(nu/Delta)^2 "
                    + "ln(1/(alpha tau (1+(nu/Delta)^2)))%s; %d rounds by RDP composition; Lemma 1 conversion "
                    + "eps = rho + log(1/delta)/(alpha-1), best admissible order", lemma.label,
                    sig(lemma.constant), sensitivity, sig(lemma.threshold),
                    lemma.integerOrders ? ", integer alpha (its proof rests on WBK19 Thm 9)" : "", rounds);
        }

        @Override
        public double epsilon(double delta) {
            Checks.delta("delta", delta);
            if (!applicable()) {
                return Double.POSITIVE_INFINITY;
            }
            double log = Math.log(1.0 / delta);
            double best = Double.POSITIVE_INFINITY;
            double optimum = 1.0 + Math.sqrt(log / slope);
            for (double alpha : candidates(optimum)) {
                best = Math.min(best, slope * alpha + log / (alpha - 1.0));
            }
            return SafeRounding.up(best);
        }

        @Override
        public double delta(double epsilon) {
            if (!applicable()) {
                return 1.0;
            }
            double optimum = (epsilon + slope) / (2.0 * slope);
            double best = 0.0;
            boolean first = true;
            for (double alpha : candidates(optimum)) {
                double logDelta = (alpha - 1.0) * (slope * alpha - epsilon);
                best = first ? logDelta : Math.min(best, logDelta);
                first = false;
            }
            return best >= 0 ? 1.0 : SafeRounding.upProbability(Math.exp(best));
        }

        /** The admissible orders nearest the unconstrained optimum (two for integer orders). */
        private double[] candidates(double optimum) {
            if (!lemma.integerOrders) {
                double a = Math.min(maxOrder, Math.max(optimum, 1.0 + 1e-12));
                return new double[] {a};
            }
            double lo = Math.min(maxOrder, Math.max(minOrder, Math.floor(optimum)));
            double hi = Math.min(maxOrder, Math.max(minOrder, Math.ceil(optimum)));
            return new double[] {lo, hi};
        }
    }

    /**
     * A theorem as a privacy profile: {@code epsilon(delta)} is the smallest {@code eps} for which some
     * {@code lambda in (0, 1)} (searched on a grid of {@value #LAMBDA_GRID} values, which is safe: each is allowed)
     * makes the theorem's noise inequality and both of its conditions hold at {@code alpha = log(1/delta)/((1 -
     * lambda) eps) + 1}. For fixed {@code lambda} the inequality is quadratic in {@code eps}:
     * {@code eps >= (B + sqrt(B^2 + 4 nu^2 B L/(1 - lambda)))/(2 nu^2)} with {@code B = (tau G)^2 c T / lambda} and
     * {@code L = log(1/delta)}; the order condition holds iff {@code alpha <= alpha_max}, i.e.
     * {@code eps >= L/((1 - lambda)(alpha_max - 1))}.
     */
    static final class TheoremBound implements PrivacyBound {
        private final Theorem theorem;
        private final double tau;
        private final double noise;
        private final double clip;
        private final int rounds;
        private final double x;
        private final double maxOrder;

        TheoremBound(Theorem theorem, double tau, double noise, double clip, int rounds) {
            this.theorem = theorem;
            this.tau = tau;
            this.noise = noise;
            this.clip = clip;
            this.rounds = rounds;
            this.x = noise * noise / (4 * clip * clip);
            this.maxOrder = largestOrder(tau, x);
        }

        boolean noiseConditionHolds() {
            return x >= theorem.threshold;
        }

        boolean applicable() {
            return noiseConditionHolds() && maxOrder > 1.0;
        }

        /** One sentence on the theorem's conditions here. */
        String conditions() {
            String head = String.format(Locale.ROOT, "%s (%s): nu^2/(4G^2) = %s %s %s", theorem.label, theorem.name,
                    sig(x), noiseConditionHolds() ? ">=" : "<", sig(theorem.threshold));
            if (!noiseConditionHolds()) {
                return head + ": its first condition FAILS for every lambda, so it certifies nothing at this nu.";
            }
            if (!(maxOrder > 1.0)) {
                return head + String.format(Locale.ROOT, ", but its condition on alpha FAILS for every alpha > 1 "
                        + "(tau (1 + nu^2/(4G^2)) = %s >= 1): it certifies nothing at this nu.",
                        sig(tau * (1 + x)));
            }
            return head + String.format(Locale.ROOT, "; its condition on alpha holds iff alpha <= %s, which bounds "
                    + "from below the epsilon it can certify.", sig(maxOrder));
        }

        @Override
        public String name() {
            return theorem.name;
        }

        @Override
        public String source() {
            return String.format(Locale.ROOT, "Liang et al. (seed 003) %s: (eps, delta)-DP after %d rounds when nu >= "
                    + "(tau G/eps) sqrt((%s T/lambda)(log(1/delta)/(1-lambda) + eps)) for some lambda in (0,1) with "
                    + "nu^2/(4G^2) >= %s and alpha - 1 <= nu^2/(6G^2) log(1/(tau alpha (1+nu^2/(4G^2)))), "
                    + "alpha = log(1/delta)/((1-lambda) eps) + 1; as printed (sensitivity 2G)", theorem.label, rounds,
                    Checks.format(theorem.constant), Checks.format(theorem.threshold));
        }

        @Override
        public double epsilon(double delta) {
            Checks.delta("delta", delta);
            return SafeRounding.up(epsilonAt(Math.log(1.0 / delta)));
        }

        private double epsilonAt(double log) {
            if (!applicable()) {
                return Double.POSITIVE_INFINITY;
            }
            double best = Double.POSITIVE_INFINITY;
            double tg2 = tau * clip * tau * clip;
            double nu2 = noise * noise;
            for (int i = 1; i < LAMBDA_GRID; i++) {
                double lambda = (double) i / LAMBDA_GRID;
                double b = tg2 * theorem.constant * rounds / lambda;
                double fromNoise = (b + Math.sqrt(b * b + 4 * nu2 * b * log / (1 - lambda))) / (2 * nu2);
                double fromOrder = log / ((1 - lambda) * (maxOrder - 1.0));
                best = Math.min(best, Math.max(fromNoise, fromOrder));
            }
            return best;
        }

        /**
         * The smallest delta whose epsilon is at most {@code epsilon}. Its {@code L = log(1/delta)} is the largest that
         * some {@code lambda} of the grid allows under both conditions, each in closed form: {@code fromNoise(L) <= eps}
         * iff {@code L <= (1 - lambda) eps (nu^2 eps - b) / b} (squaring {@code sqrt(b^2 + 4 nu^2 b L/(1 - lambda))
         * <= 2 nu^2 eps - b}, both sides non-negative when {@code nu^2 eps >= b}; none when {@code nu^2 eps < b}), and
         * {@code fromOrder(L) <= eps} iff {@code L <= eps (1 - lambda)(alpha_max - 1)}. That {@code L} is lowered by
         * relative steps (1e-15 up, tenfold each) until the theorem's own epsilon at it is at most {@code epsilon}, so
         * rounding never makes delta smaller than the theorem gives; a bisection on {@code L} is the fallback should
         * eight steps not do (the bisection alone took 50-60 passes over the grid of lambda for each delta).
         */
        @Override
        public double delta(double epsilon) {
            if (!applicable() || !(epsilonAt(1e-300) <= epsilon)) {
                return 1.0;
            }
            double lo = 1e-300; // log(1/delta) where epsilon is met
            double hi = 700.0;
            if (epsilonAt(hi) <= epsilon) {
                return 0.0;
            }
            double closed = Math.min(hi, largestLog(epsilon));
            double step = 1e-15;
            for (int i = 0; i < 8 && closed > lo; i++, step *= 10) {
                if (epsilonAt(closed) <= epsilon) {
                    return SafeRounding.upProbability(Math.exp(-closed));
                }
                closed *= 1 - step;
            }
            for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
                double mid = 0.5 * (lo + hi);
                if (epsilonAt(mid) <= epsilon) {
                    lo = mid;
                } else {
                    hi = mid;
                }
            }
            return SafeRounding.upProbability(Math.exp(-lo));
        }

        /** The largest {@code log(1/delta)} the grid of lambda allows at {@code epsilon}, in closed form (see delta). */
        private double largestLog(double epsilon) {
            double tg2 = tau * clip * tau * clip;
            double nu2 = noise * noise;
            double best = 0;
            for (int i = 1; i < LAMBDA_GRID; i++) {
                double lambda = (double) i / LAMBDA_GRID;
                double b = tg2 * theorem.constant * rounds / lambda;
                if (!(nu2 * epsilon >= b)) {
                    continue;
                }
                double fromNoise = (1 - lambda) * epsilon * (nu2 * epsilon - b) / b;
                double fromOrder = epsilon * (1 - lambda) * (maxOrder - 1.0);
                best = Math.max(best, Math.min(fromNoise, fromOrder));
            }
            return best;
        }

        /**
         * The theorem's own calibration: the smallest {@code nu} for which some {@code lambda} on the grid satisfies
         * Eq. (3)/(4) and both conditions. The order condition, as a function of {@code y = nu^2/(4G^2)}, is
         * {@code h(y) = (2/3) y ln(1/(tau alpha (1 + y))) >= alpha - 1} with {@code h} concave, so it holds on an
         * interval {@code [y_a, y_b]} (possibly empty): large noise violates it. The result is rounded up.
         *
         * @throws InvalidInputException when no lambda admits any nu
         */
        static double calibrate(Theorem theorem, double tau, double clip, int rounds, double epsilon, double delta) {
            Checks.positive("epsilon", epsilon);
            Checks.delta("delta", delta);
            double log = Math.log(1.0 / delta);
            double best = Double.POSITIVE_INFINITY;
            for (int i = 1; i < LAMBDA_GRID; i++) {
                double lambda = (double) i / LAMBDA_GRID;
                double alpha = log / ((1 - lambda) * epsilon) + 1;
                double nuRequired = (tau * clip / epsilon)
                        * Math.sqrt(theorem.constant * rounds / lambda * (log / (1 - lambda) + epsilon));
                double[] interval = orderInterval(tau, alpha);
                if (interval == null) {
                    continue;
                }
                double y = Math.max(Math.max(nuRequired * nuRequired / (4 * clip * clip), theorem.threshold),
                        interval[0]);
                if (y <= interval[1]) {
                    best = Math.min(best, 2 * clip * Math.sqrt(y));
                }
            }
            if (!Double.isFinite(best)) {
                throw new InvalidInputException("epsilon, delta", String.format(Locale.ROOT, "(%s, %s)",
                        Checks.format(epsilon), Checks.format(delta)), "no noise level satisfies " + theorem.label
                        + " and its conditions for any lambda in (0, 1)");
            }
            return SafeRounding.up(best);
        }

        /** {@code [y_a, y_b]} where {@code (2/3) y ln(1/(tau alpha (1+y))) >= alpha - 1}, or null. */
        private static double[] orderInterval(double tau, double alpha) {
            double zero = 1.0 / (tau * alpha) - 1.0; // h(zero) = 0, h < 0 beyond
            if (!(zero > 0)) {
                return null;
            }
            double target = alpha - 1.0;
            double lo = 0;
            double hi = zero;
            for (int i = 0; i < 200; i++) { // ternary search for the maximum of the concave h
                double m1 = lo + (hi - lo) / 3;
                double m2 = hi - (hi - lo) / 3;
                if (h(tau, alpha, m1) < h(tau, alpha, m2)) {
                    lo = m1;
                } else {
                    hi = m2;
                }
            }
            double top = 0.5 * (lo + hi);
            if (h(tau, alpha, top) < target) {
                return null;
            }
            double a = bisect(tau, alpha, target, 0.0, top, true);
            double b = bisect(tau, alpha, target, top, zero, false);
            return new double[] {a, b};
        }

        private static double h(double tau, double alpha, double y) {
            return (2.0 / 3.0) * y * Math.log(1.0 / (tau * alpha * (1.0 + y)));
        }

        /** Crossing of {@code h = target} in {@code [lo, hi]}; returns the end inside the feasible set. */
        private static double bisect(double tau, double alpha, double target, double lo, double hi,
                boolean increasing) {
            for (int i = 0; i < 200; i++) {
                double mid = 0.5 * (lo + hi);
                boolean feasible = h(tau, alpha, mid) >= target;
                if (feasible == increasing) {
                    hi = mid;
                } else {
                    lo = mid;
                }
            }
            return increasing ? hi : lo;
        }
    }

    /** A value of a condition for a sentence: six significant digits (whole numbers as they are). */
    private static String sig(double v) {
        if (!Double.isFinite(v) || v == Math.rint(v)) {
            return Checks.format(v);
        }
        return new java.math.BigDecimal(v).round(new java.math.MathContext(6)).stripTrailingZeros().toPlainString();
    }
}
