package io.dpaudit.core.estimate.power;

import io.dpaudit.core.estimate.tradeoff.CertifiedTradeOff;
import io.dpaudit.core.fdp.TradeOffFunction;
import io.dpaudit.core.numerics.Normal;
import io.dpaudit.core.numerics.SafeRounding;

/**
 * What a certified trade-off curve could have refuted: the smallest {@code mu} such that, were the audited pair a
 * Gaussian shift with trade-off curve {@code G_mu}, the certification would have refuted the f-DP claim with
 * probability at least {@link DetectionPower#PROBABILITY}, and how far that lies above {@code claimMu}, the largest
 * {@code mu} whose {@code G_mu} satisfies the claim ({@code mu} itself for a {@code mu}-GDP claim).
 *
 * <p>Model. Every certified point comes from a test with observed type I rate {@code alpha_hat} on {@code n} trials of
 * {@code M(D)}; the alternative is taken to have a test at the same type I rate with type II rate
 * {@code G_mu(alpha_hat)} on {@code n'} trials of {@code M(D')} (its likelihood-ratio tests attain {@code G_mu}, and
 * the audit's thresholds span the type I rates). Each of the two error counts stays at or below its 0.95 binomial
 * quantile with probability 0.95, so with probability at least 0.9 both upper bounds are at most the bounds
 * ({@link io.dpaudit.core.estimate.tradeoff.CertifiedTradeOff#rateBound}) of those quantiles, {@code A} and {@code B(mu)}; the point then refutes the
 * claim when {@code B(mu) < f(A)} or {@code reverse(B(mu)) > A} (both monotone in the counts). {@code mu} is the
 * smallest value at which some point does, found by bisection per point to {@code 1e-3} relative and rounded up;
 * {@code +inf} when none does up to {@value #MU_CAP}.
 *
 * @param mu the smallest detectable {@code mu}, {@code +inf} when none up to {@value #MU_CAP}, NaN when the curve does
 *     not carry what the computation needs (an audit of external points)
 * @param claimMu the largest {@code mu} whose {@code G_mu} satisfies the claim (at least 0)
 * @param probability the detection probability ({@link DetectionPower#PROBABILITY})
 */
public record TradeOffPower(double mu, double claimMu, double probability) {
    /** Largest {@code mu} searched. */
    public static final double MU_CAP = 50;
    private static final int CLAIM_GRID = 2000;

    /** {@code mu - claimMu}: the size of the smallest detectable violation, in GDP units. */
    public double muGap() {
        return mu - claimMu;
    }

    /**
     * Whether a claim that was not refuted is inconclusive: no Gaussian pair up to {@value #MU_CAP} would have been
     * refuted, or only one at least {@value DetectionPower#INCONCLUSIVE_FACTOR} times the claim's {@code mu}.
     */
    public boolean inconclusive() {
        if (Double.isNaN(mu)) {
            return false;
        }
        return DetectionPower.inconclusive(mu, claimMu);
    }

    /**
     * The power of {@code curve} against the claim {@code T(M(D), M(D')) >= f}, {@code T(M(D'), M(D)) >= reverse}.
     *
     * @param gdpMu the claim's {@code mu} when it is {@code mu}-GDP, NaN otherwise
     */
    public static TradeOffPower of(CertifiedTradeOff curve, TradeOffFunction f, TradeOffFunction reverse,
            double gdpMu) {
        return withClaimMu(curve, f, reverse, Double.isNaN(gdpMu) ? largestSatisfiedMu(f, reverse) : gdpMu);
    }

    /**
     * The same, with the claim's {@code mu} given: {@code gdpMu} for a μ-GDP claim, else
     * {@link #largestSatisfiedMu}{@code (f, reverse)} — a property of the claim alone, which a claim audited many times
     * computes once ({@code TradeOffClaim.claimMu}).
     */
    public static TradeOffPower withClaimMu(CertifiedTradeOff curve, TradeOffFunction f, TradeOffFunction reverse,
            double claimMu) {
        if (curve.rateBound() == null || curve.trials() <= 0) {
            return new TradeOffPower(Double.NaN, claimMu, DetectionPower.PROBABILITY);
        }
        long n = curve.trials();
        long nPrime = curve.otherTrials();
        // The bisections below ask for the same counts' bounds again and again (an incomplete-beta inversion each).
        CertifiedTradeOff.RateUpperBound exact = curve.rateBound();
        java.util.Map<Long, Double> memo = new java.util.HashMap<>();
        CertifiedTradeOff.RateUpperBound bound = (count, trials) -> trials == nPrime
                ? memo.computeIfAbsent(count, c -> exact.upper(c, trials)) : exact.upper(count, trials);
        double best = Double.POSITIVE_INFINITY;
        for (CertifiedTradeOff.Point p : curve.points()) {
            double a = p.alphaRate();
            if (!(a > 0 && a < 1)) {
                continue;
            }
            double lo = Math.max(0, claimMu);
            double hi = Math.min(best, MU_CAP);
            if (!(hi > lo)) {
                continue;
            }
            double upperA = bound.upper(DetectionPower.upperQuantile(n, a, DetectionPower.PER_COUNT), n);
            double fA = f.beta(upperA);
            if (cannotRefute(a, hi, upperA, fA, reverse, nPrime)) {
                continue;
            }
            // The count quantile c(mu) of the alternative's errors falls as mu grows (G_mu(a) falls), and the point
            // refutes exactly when c(mu) is at most the largest refuting count c*: found once between the counts at
            // the bracket's ends (their bounds are remembered across points), it leaves one evaluation of the
            // distribution function per bisection step, where finding c(mu) itself took several.
            long countHi = DetectionPower.upperQuantile(nPrime, gaussianBeta(a, hi), DetectionPower.PER_COUNT);
            if (!refutes(countHi, upperA, fA, reverse, nPrime, bound)) {
                continue;
            }
            long countLo = DetectionPower.upperQuantile(nPrime, gaussianBeta(a, lo), DetectionPower.PER_COUNT);
            if (refutes(countLo, upperA, fA, reverse, nPrime, bound)) {
                best = lo;
                continue;
            }
            long largestRefuting = countHi;
            long smallestNotRefuting = countLo;
            while (smallestNotRefuting - largestRefuting > 1) {
                long count = largestRefuting + (smallestNotRefuting - largestRefuting) / 2;
                if (refutes(count, upperA, fA, reverse, nPrime, bound)) {
                    largestRefuting = count;
                } else {
                    smallestNotRefuting = count;
                }
            }
            while (hi - lo > 1e-3 * Math.max(hi, 1e-3)) {
                double mid = 0.5 * (lo + hi);
                if (DetectionPower.upperQuantileAtMost(largestRefuting, nPrime, gaussianBeta(a, mid),
                        DetectionPower.PER_COUNT)) {
                    hi = mid;
                } else {
                    lo = mid;
                }
            }
            best = hi;
        }
        return new TradeOffPower(Double.isFinite(best) ? SafeRounding.up(best) : best, claimMu,
                DetectionPower.PROBABILITY);
    }

    /**
     * A screen without the incomplete beta: whether the point certainly does not refute at {@code mu}. The count
     * quantile at {@link DetectionPower#PER_COUNT} (above 1/2) is at least the binomial median, which is at least
     * {@code floor(n' G_mu(a))}; a Clopper–Pearson upper bound is at least its count over {@code n'}; and
     * {@code reverse} is non-increasing. So when the rate {@code L = (floor(n' G_mu(a)) - 1) / n'} (one count lower,
     * against rounding) already fails both refutation conditions ({@code L >= f(A)} and {@code reverse(L) <= A}), so
     * does the bound at the quantile, and {@link #refutes} would say false: the answer is the same, without the dozen
     * evaluations of the incomplete beta that the quantile and its bound cost.
     */
    private static boolean cannotRefute(double a, double mu, double upperA, double fA, TradeOffFunction reverse,
            long nPrime) {
        double floorRate = Math.max(0.0, Math.floor(nPrime * gaussianBeta(a, mu)) - 1.0) / nPrime;
        return floorRate >= fA && reverse.beta(floorRate) <= upperA;
    }

    /** {@code G_mu(a)}: the type II rate of the Gaussian shift's test at type I rate {@code a}. */
    private static double gaussianBeta(double a, double mu) {
        return Normal.cdf(Normal.inverseSurvival(a) - mu);
    }

    /** Whether a point refutes the claim when the alternative's error count is at its quantile {@code count}. */
    private static boolean refutes(long count, double upperA, double fA, TradeOffFunction reverse, long nPrime,
            CertifiedTradeOff.RateUpperBound bound) {
        double upperB = bound.upper(count, nPrime);
        return upperB < fA || reverse.beta(upperB) > upperA;
    }

    /**
     * The largest {@code mu >= 0} whose {@code G_mu} lies on or above both {@code f} and {@code reverse}:
     * {@code inf_alpha Phi^-1(1 - alpha) - Phi^-1(f(alpha))} over {@value #CLAIM_GRID} logit-spaced {@code alpha} in
     * {@code [1e-12, 1 - 1e-12]}, for both functions (on a grid the infimum is approached from above; a reader's
     * "gap" is then at most slightly too small).
     */
    public static double largestSatisfiedMu(TradeOffFunction f, TradeOffFunction reverse) {
        double best = Double.POSITIVE_INFINITY;
        double reach = Math.log(1e12);
        for (int i = 0; i <= CLAIM_GRID; i++) {
            double x = -reach + 2 * reach * i / CLAIM_GRID;
            double a = 1 / (1 + Math.exp(-x));
            for (TradeOffFunction g : new TradeOffFunction[] {f, reverse}) {
                double b = g.beta(a);
                if (b > 0) {
                    best = Math.min(best, Normal.inverseSurvival(a) - Normal.quantile(Math.min(1, b)));
                }
            }
        }
        return Double.isFinite(best) ? Math.max(0, best) : 0;
    }
}
