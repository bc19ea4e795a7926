package io.dpaudit.core.estimate.tradeoff;

import io.dpaudit.core.Checks;
import io.dpaudit.core.fdp.TradeOffFunction;
import io.dpaudit.core.numerics.Normal;
import io.dpaudit.core.numerics.SafeRounding;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A certified empirical trade-off curve: points {@code (alpha_u, beta_u)}, each the upper confidence bounds on the two
 * error rates of one threshold test between {@code M(D)} (type I error: rejecting it) and {@code M(D')}, all holding
 * simultaneously with probability at least {@code confidence}. Then some test has errors at most {@code (alpha_u,
 * beta_u)}, so the true trade-off curve {@code T(M(D), M(D'))} lies on or below every point, and on or below their
 * lower convex envelope (randomising between two tests reaches any point of the segment joining them).
 *
 * <p>What follows, with the same confidence (Dong, Roth &amp; Su 2019; used for auditing by Nasr et al., USENIX
 * Security 2023):
 * <ul>
 *   <li>an {@code f}-DP claim is false when a point lies strictly below {@code f}: {@code beta_u < f(alpha_u)}, or, for
 *       the reverse pair {@code T(M(D'), M(D))} that f-DP also constrains, {@code alpha_u < f(beta_u)};</li>
 *   <li>a GDP lower bound {@code mu >= Phi^-1(1 - alpha_u) - Phi^-1(beta_u)} at every point (the smallest {@code mu}
 *       whose {@code G_mu} passes on or below it);</li>
 *   <li>an ε lower bound at δ: {@code (epsilon, delta)}-DP needs {@code beta >= 1 - delta - e^eps alpha} and
 *       {@code beta >= e^-eps (1 - delta - alpha)}.</li>
 * </ul>
 * All results are rounded down (lower bounds) by {@link SafeRounding#down}.
 *
 * @param method how the simultaneous bounds were obtained, one line
 * @param confidence the simultaneous confidence
 * @param points every certified point, ascending in {@code alpha}
 */
public record CertifiedTradeOff(String method, double confidence, List<Point> points, long trials, long otherTrials,
        RateUpperBound rateBound) {
    /**
     * One certified point.
     *
     * @param alpha upper bound on the type I error (rejecting {@code M(D)} when it is true)
     * @param beta upper bound on the type II error
     * @param test the threshold test: {@code "reject D when score < t"} or {@code "... >= t"}, with {@code t}
     * @param alphaRate the observed type I error rate (NaN when unknown); for power statements only
     * @param betaRate the observed type II error rate (NaN when unknown); for power statements only
     */
    public record Point(double alpha, double beta, String test, double alphaRate, double betaRate) {
        /** A point without its observed rates. */
        public Point(double alpha, double beta, String test) {
            this(alpha, beta, test, Double.NaN, Double.NaN);
        }
    }

    /**
     * How a point's upper bound follows from a count: what {@link io.dpaudit.core.estimate.power.TradeOffPower} needs to say what the certification
     * could have detected.
     */
    public interface RateUpperBound {
        /** The upper bound the certification puts on a rate observed as {@code count} of {@code trials}. */
        double upper(long count, long trials);
    }

    /** A curve without the information power statements need (its {@link io.dpaudit.core.estimate.power.TradeOffPower} is unknown). */
    public CertifiedTradeOff(String method, double confidence, List<Point> points) {
        this(method, confidence, points, 0, 0, null);
    }

    public CertifiedTradeOff {
        points = points.stream().sorted(Comparator.comparingDouble(Point::alpha).thenComparingDouble(Point::beta))
                .toList();
    }

    /**
     * The vertices of the lower convex envelope of the points together with {@code (0, 1)} and {@code (1, 0)}
     * (both always on or above a trade-off curve), ascending in {@code alpha}; the anchors carry the test name
     * {@code "trivial"}.
     */
    public List<Point> envelope() {
        List<Point> all = new ArrayList<>();
        all.add(new Point(0.0, 1.0, "trivial"));
        all.addAll(points);
        all.add(new Point(1.0, 0.0, "trivial"));
        all.sort(Comparator.comparingDouble(Point::alpha).thenComparingDouble(Point::beta));
        List<Point> hull = new ArrayList<>();
        for (int i = 0; i < all.size(); i++) {
            Point p = all.get(i);
            if (i > 0 && all.get(i - 1).alpha() == p.alpha()) {
                continue; // the lowest beta at this alpha came first
            }
            while (hull.size() >= 2) {
                Point a = hull.get(hull.size() - 2);
                Point b = hull.get(hull.size() - 1);
                double cross = (b.alpha() - a.alpha()) * (p.beta() - a.beta())
                        - (b.beta() - a.beta()) * (p.alpha() - a.alpha());
                if (cross <= 0) {
                    hull.remove(hull.size() - 1); // b lies on or above the segment a-p
                } else {
                    break;
                }
            }
            hull.add(p);
        }
        return List.copyOf(hull);
    }

    /** The GDP lower bound: the largest {@code Phi^-1(1 - alpha_u) - Phi^-1(beta_u)} over the points, at least 0. */
    public double gdpMuLowerBound() {
        double best = 0;
        for (Point p : points) {
            best = Math.max(best, mu(p));
        }
        return SafeRounding.down(best);
    }

    /** The point that gives {@link #gdpMuLowerBound}, or null when it is 0. */
    public Point gdpMuPoint() {
        Point arg = null;
        double best = 0;
        for (Point p : points) {
            double m = mu(p);
            if (m > best) {
                best = m;
                arg = p;
            }
        }
        return arg;
    }

    private static double mu(Point p) {
        if (!(p.alpha() < 1 && p.beta() < 1 && p.alpha() > 0 && p.beta() > 0)) {
            return 0;
        }
        return Normal.inverseSurvival(p.alpha()) - Normal.quantile(p.beta());
    }

    /** The ε lower bound at {@code delta} implied by the points (0 when none implies more). */
    public double epsilonLowerBound(double delta) {
        Checks.deltaOrZero("delta", delta);
        double best = 0;
        for (Point p : points) {
            best = Math.max(best, epsilonAt(p.alpha(), p.beta(), delta));
            best = Math.max(best, epsilonAt(p.beta(), p.alpha(), delta));
        }
        return SafeRounding.down(best);
    }

    private static double epsilonAt(double a, double b, double delta) {
        double numerator = 1 - delta - a;
        return numerator > 0 && b > 0 ? Math.log(numerator / b) : 0;
    }

    /**
     * The point that refutes {@code f}-DP (both orders of the pair bounded by {@code f}) by the widest margin, or null.
     */
    public Refutation refute(TradeOffFunction f) {
        return refute(f, f);
    }

    /**
     * The point that refutes {@code T(M(D), M(D')) >= f} and {@code T(M(D'), M(D)) >= reverse} by the widest margin —
     * {@code f(alpha_u) - beta_u > 0}, or {@code reverse(beta_u) - alpha_u > 0} for the reversed test (the complement
     * of the same test, a test of {@code M(D')} with errors {@code (beta_u, alpha_u)}) — or null when none does. For a
     * claim about one ordered pair {@code reverse = f^{-1}}, which a reversed point violates exactly when its forward
     * point violates {@code f}.
     */
    public Refutation refute(TradeOffFunction f, TradeOffFunction reverse) {
        Refutation worst = null;
        for (Point p : points) {
            double m1 = f.beta(p.alpha()) - p.beta();
            double m2 = reverse.beta(p.beta()) - p.alpha();
            double m = Math.max(m1, m2);
            if (m > 0 && (worst == null || m > worst.margin())) {
                worst = new Refutation(p, m, m2 > m1);
            }
        }
        return worst;
    }

    /**
     * A certified point strictly below a claimed trade-off function.
     *
     * @param point the point
     * @param margin by how much it lies below: {@code f(alpha_u) - beta_u}, or {@code reverse(beta_u) - alpha_u} for the
     *     reverse pair
     * @param reversePair whether the point refutes {@code T(M(D'), M(D)) >= f} (read as {@code (beta_u, alpha_u)})
     */
    public record Refutation(Point point, double margin, boolean reversePair) {
    }
}
