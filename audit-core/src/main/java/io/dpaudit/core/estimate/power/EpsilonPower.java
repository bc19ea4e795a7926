package io.dpaudit.core.estimate.power;

import io.dpaudit.core.estimate.DeltaLowerBound;
import io.dpaudit.core.estimate.EpsilonLowerBound;
import io.dpaudit.core.estimate.SelectedTest;
import io.dpaudit.core.bounds.GaussianBound;
import io.dpaudit.core.engine.ScoreCounts;
import io.dpaudit.core.engine.World;
import io.dpaudit.core.numerics.Normal;
import io.dpaudit.core.numerics.SafeRounding;
import java.util.TreeSet;

/**
 * The power behind an (ε, δ) verdict in the claim's own units ({@code power.epsilon}): the smallest ε at the claim's δ
 * such that every Laplace mechanism, and (for δ &gt; 0) every Gaussian mechanism, with at least that ε at the claim's δ
 * would have been refuted by this audit with probability at least {@value DetectionPower#PROBABILITY}.
 *
 * <p><b>Which tests.</b> A test the audit can certify is a threshold event {@code E} of the histogram; the other
 * world's rate on it, {@code Q}, is what the evaluation trials showed. {@link DetectionPower} gives for each such
 * event the smallest flagged-world rate {@code P*(Q) = delta*(Q) + e^eps_c Q} at which the certification refutes the
 * claim {@code (eps_c, delta_c)} with probability at least 0.9 (both counts on their sides of their 0.95 quantiles).
 * The candidate events are the histogram's tails in both directions and both worlds, at up to {@value #RATE_TARGETS}
 * rates spread geometrically from one trial to a half, plus the test the audit certified its verdict with (in the
 * form that certified it, coupled trials included). A mechanism is taken as detected when its rate on some candidate
 * event reaches that event's {@code P*}: the audit's held-out selection chooses the best test it can see, so this
 * assumes the selection finds it, a power statement as {@link DetectionPower}'s is (conditional on the other world's
 * observed rates), not a certified bound.
 *
 * <p><b>Two families.</b> Each is a one-parameter family of location shifts whose threshold tests reach every rate
 * {@code Q}; a member is detected when some candidate's {@code P*(Q)} is at most its rate at {@code Q}:
 * <ul>
 *   <li><b>Laplace</b>, {@code Lap(0, b)} against {@code Lap(Delta, b)}, {@code eps' = Delta / b}: the rate at
 *       {@code Q} is {@code e^eps' Q} for {@code Q <= e^-eps' / 2}, {@code 1 - e^-eps' / (4Q)} up to {@code Q = 1/2},
 *       {@code 1 - (1 - Q) e^-eps'} above; its privacy profile is {@code delta(eps) = 1 - e^{(eps - eps') / 2}}, so its
 *       ε at {@code delta_c} is {@code eps' + 2 log(1 - delta_c)}. Pure ε-DP and tight on its tails: it decides
 *       pure-DP claims ({@code delta_c = 0}), where no Gaussian mechanism has a finite ε;</li>
 *   <li><b>Gaussian DP</b> (Dong, Roth &amp; Su 2019), {@code N(0, 1)} against {@code N(mu, 1)}: the rate at
 *       {@code Q} is {@code Phi(Phi^-1(Q) + mu)}, the family {@link TradeOffPower} uses for f-DP claims, with its
 *       exact ε at {@code delta_c} ({@link GaussianBound}). It penalises tests that see only the bulk of the
 *       distributions: a bulk test detects a Gaussian mechanism whose ε at a small {@code delta_c} is several times
 *       its ε at the bulk, so a small-δ claim is powered only by tests in the tail.</li>
 * </ul>
 * {@code power.epsilon} is the larger of the two families' thresholds ({@code delta_c > 0}) or the Laplace one
 * ({@code delta_c = 0}). Mechanisms with heavier tails than a Gaussian at the same bulk (a subsampled Gaussian at
 * small δ) are not covered; a two-sided white-box estimate, where the simulator has one, covers them.
 *
 * <p><b>The rule.</b> A claim with {@code eps_c > 0} that was not refuted is powered-consistent when
 * {@code power.epsilon <= }{@value #CONSISTENT_FACTOR}{@code  eps_c}, inconclusive otherwise. A claim of ε = 0 has no
 * scale in ε: it is powered when the certified test's detectable δ is below
 * {@value DetectionPower#INCONCLUSIVE_FACTOR} times its δ (any finite detectable δ when its δ is 0 too).
 */
public final class EpsilonPower {
    /** A claim is powered when the audit would refute a mechanism with this many times the claimed ε. */
    public static final double CONSISTENT_FACTOR = 1.5;
    /** Rates spread geometrically from one trial to a half at which candidate events are taken, per tail and world. */
    static final int RATE_TARGETS = 24;

    private EpsilonPower() {
    }

    /**
     * The events an audit could have certified a δ bound on: the other world's count on each, for each orientation,
     * at the certification's error level per rate.
     *
     * @param withTrials trials of the world with the canary
     * @param withoutTrials trials of the world without it
     * @param level the error level of each rate's Clopper–Pearson limit
     * @param otherIsWithout the other world's counts on candidate events when the flagged world is the one with the
     *     canary (sorted, distinct, each in {@code [1, withoutTrials - 1]})
     * @param otherIsWith the same when the flagged world is the one without it
     */
    public record Candidates(long withTrials, long withoutTrials, double level, long[] otherIsWithout,
            long[] otherIsWith) {
        public Candidates {
            otherIsWithout = otherIsWithout.clone();
            otherIsWith = otherIsWith.clone();
        }

        /** The candidates of an evaluation phase's counts ({@code level}: the certification's error level per rate). */
        public static Candidates of(ScoreCounts evaluation, double level) {
            return new Candidates(evaluation.trials(World.WITH_CANARY), evaluation.trials(World.WITHOUT_CANARY), level,
                    rates(evaluation, World.WITHOUT_CANARY), rates(evaluation, World.WITH_CANARY));
        }

        /** No candidate events beside the certified test (an audit whose counts were not kept). */
        public static Candidates none(long trials, double level) {
            return new Candidates(trials, trials, level, new long[0], new long[0]);
        }

        /** The same events with every count and trial count multiplied by {@code scale}. */
        Candidates scaled(double scale) {
            return new Candidates(Math.round(withTrials * scale), Math.round(withoutTrials * scale), level,
                    scale(otherIsWithout, scale), scale(otherIsWith, scale));
        }

        private static long[] scale(long[] counts, double scale) {
            long[] out = new long[counts.length];
            for (int i = 0; i < counts.length; i++) {
                out[i] = Math.round(counts[i] * scale);
            }
            return out;
        }

        /**
         * The world's tail counts (upper and lower tails at every edge) nearest to {@value #RATE_TARGETS} rates
         * spread geometrically from one trial to half the trials.
         */
        private static long[] rates(ScoreCounts counts, World world) {
            long n = counts.trials(world);
            if (n < 2) {
                return new long[0];
            }
            TreeSet<Long> tails = new TreeSet<>();
            long[] upper = counts.upperTail(world);
            for (long u : upper) {
                if (u > 0 && u < n) {
                    tails.add(u);
                    tails.add(n - u); // the lower tail at the same edge
                }
            }
            TreeSet<Long> chosen = new TreeSet<>();
            if (tails.isEmpty()) {
                return new long[0];
            }
            double top = Math.log(n / 2.0);
            for (int j = 0; j < RATE_TARGETS; j++) {
                double target = Math.exp(top * j / Math.max(1, RATE_TARGETS - 1));
                Long below = tails.floor((long) Math.floor(target));
                Long above = tails.ceiling((long) Math.ceil(target));
                if (below != null) {
                    chosen.add(below);
                }
                if (above != null) {
                    chosen.add(above);
                }
            }
            return chosen.stream().mapToLong(Long::longValue).toArray();
        }
    }

    /**
     * {@code power.epsilon} of an audit whose verdict's δ bound is {@code bound} (its test is always a candidate, in
     * the form that certified it) and whose other candidate events are {@code candidates}; rounded up, {@code +inf}
     * when some family has no detectable member.
     */
    public static double epsilon(DeltaLowerBound bound, Candidates candidates, double claimEpsilon,
            double claimDelta) {
        Thresholds t = new Thresholds();
        double certified = DetectionPower.detectableDelta(bound, claimEpsilon, claimDelta);
        t.add(otherRate(bound), certified, claimEpsilon);
        for (int o = 0; o < 2; o++) {
            long n = o == 0 ? candidates.withTrials() : candidates.withoutTrials();
            long m = o == 0 ? candidates.withoutTrials() : candidates.withTrials();
            for (long count : o == 0 ? candidates.otherIsWithout() : candidates.otherIsWith()) {
                double q = (double) count / m;
                if (!t.couldImprove(q, claimEpsilon)) {
                    continue;
                }
                double detectable = DetectionPower.detectableDelta(n, m, count, candidates.level(),
                        candidates.level(), claimEpsilon, claimDelta);
                t.add(q, detectable, claimEpsilon);
            }
        }
        // the Laplace pair with eps' has eps' + 2 log(1 - delta) at delta (its profile 1 - e^{(eps - eps') / 2})
        double laplace = Double.isFinite(t.laplace)
                ? Math.max(claimEpsilon, SafeRounding.up(t.laplace + 2 * Math.log1p(-claimDelta))) : t.laplace;
        if (claimDelta == 0 || laplace == Double.POSITIVE_INFINITY) {
            return laplace;
        }
        double gaussian = Double.isFinite(t.mu) ? Math.max(claimEpsilon, new GaussianBound(t.mu).epsilon(claimDelta))
                : Double.POSITIVE_INFINITY;
        return Math.max(laplace, gaussian);
    }

    /**
     * Whether a claim that was not refuted is powered (see the class comment), from its {@code power.epsilon} and its
     * certified test's detectable δ.
     */
    public static boolean powered(double powerEpsilon, double detectableDelta, double claimEpsilon,
            double claimDelta) {
        if (claimEpsilon > 0) {
            return powerEpsilon <= CONSISTENT_FACTOR * claimEpsilon;
        }
        if (!Double.isFinite(detectableDelta)) {
            return false;
        }
        return claimDelta == 0 || detectableDelta < DetectionPower.INCONCLUSIVE_FACTOR * claimDelta;
    }

    /** Whether the audit of {@code bound} and {@code candidates} powers the claim. */
    public static boolean powered(DeltaLowerBound bound, Candidates candidates, double claimEpsilon,
            double claimDelta) {
        double detectable = DetectionPower.detectableDelta(bound, claimEpsilon, claimDelta);
        if (claimEpsilon == 0) {
            return powered(Double.NaN, detectable, claimEpsilon, claimDelta);
        }
        return powered(epsilon(bound, candidates, claimEpsilon, claimDelta), detectable, claimEpsilon, claimDelta);
    }

    /** Whether the audit of {@code bound} alone (its certified test the only candidate) powers the claim. */
    public static boolean powered(DeltaLowerBound bound, double claimEpsilon, double claimDelta) {
        return powered(bound, Candidates.none(bound.test().trials(), bound.test().errorLevelPerRate()), claimEpsilon,
                claimDelta);
    }

    /**
     * The factor {@code 2^k} ({@code k >= 1}) by which the audit's trials must grow, every count growing in proportion,
     * for it to power the claim: the smallest such; 0 when none does before the scaled trials pass
     * {@value DetectionPower#MAX_RESOLVE_TRIALS} per world. Power grows with the trials (every limit tightens), so the
     * factor is the first {@code k} at which {@link #poweredAt} holds: found by steps {@code k = 1, 2, 4, 8, ...} (the
     * largest {@code k} allowed last) and bisection between the last two, so a claim a few doublings short of its
     * power costs two or three evaluations.
     */
    public static long scaleToResolve(DeltaLowerBound bound, Candidates candidates, double claimEpsilon,
            double claimDelta) {
        long trials = Math.max(Math.max(bound.test().trials(), bound.test().otherTrials()),
                Math.max(candidates.withTrials(), candidates.withoutTrials()));
        int maxK = 0;
        while (maxK < 62 && trials * Math.scalb(1.0, maxK + 1) <= DetectionPower.MAX_RESOLVE_TRIALS) {
            maxK++;
        }
        int lo = 0; // not powered at 2^lo (the audit itself is not)
        int hi = -1; // powered at 2^hi, once found
        for (int k = 1; ; k = Math.min(maxK, 2 * k)) {
            if (k > maxK) {
                return 0;
            }
            if (poweredAt(bound, candidates, claimEpsilon, claimDelta, k)) {
                hi = k;
                break;
            }
            if (k == maxK) {
                return 0;
            }
            lo = k;
        }
        while (hi - lo > 1) {
            int mid = (lo + hi) >>> 1;
            if (poweredAt(bound, candidates, claimEpsilon, claimDelta, mid)) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        return 1L << hi;
    }

    private static boolean poweredAt(DeltaLowerBound bound, Candidates candidates, double claimEpsilon,
            double claimDelta, int k) {
        double scale = Math.scalb(1.0, k);
        DeltaLowerBound scaled = DetectionPower.scaled(bound, scale);
        if (claimEpsilon == 0) {
            return powered(scaled, candidates.scaled(scale), claimEpsilon, claimDelta);
        }
        return epsilonWithinFactor(scaled, candidates.scaled(scale), claimEpsilon, claimDelta);
    }

    /**
     * Whether {@link #epsilon}{@code (bound, candidates, claimEpsilon, claimDelta)} is at most
     * {@value #CONSISTENT_FACTOR}{@code  claimEpsilon} ({@code claimEpsilon > 0}): the same answer with less work. The
     * threshold is the larger of two minima over the candidates, each of a non-decreasing function of the candidate's
     * needed rate, so it is within the factor exactly when some candidate brings each family within it. A candidate of
     * other-world rate {@code q} needs at least {@code delta_c + e^eps_c q} (its test's flagged-world count must exceed
     * the Clopper–Pearson target {@code delta_c + e^eps_c FPR_upper}, and {@code FPR_upper >= q}), so a candidate whose
     * floor cannot bring a family within the factor is never computed; the answer is false at once when no candidate's
     * floor can, and true as soon as both families are within it.
     */
    static boolean epsilonWithinFactor(DeltaLowerBound bound, Candidates candidates, double claimEpsilon,
            double claimDelta) {
        Reach reach = new Reach(claimEpsilon, claimDelta);
        double certifiedRate = otherRate(bound);
        boolean laplacePossible = reach.laplaceFloorWithin(certifiedRate);
        double bestFloorMu = reach.floorMu(certifiedRate);
        for (int o = 0; o < 2; o++) {
            long m = o == 0 ? candidates.withoutTrials() : candidates.withTrials();
            for (long count : o == 0 ? candidates.otherIsWithout() : candidates.otherIsWith()) {
                double q = (double) count / m;
                laplacePossible |= reach.laplaceFloorWithin(q);
                bestFloorMu = Math.min(bestFloorMu, reach.floorMu(q));
            }
        }
        if (!laplacePossible || claimDelta > 0 && !reach.gaussianWithin(bestFloorMu)) {
            return false;
        }
        reach.add(certifiedRate, DetectionPower.detectableDelta(bound, claimEpsilon, claimDelta));
        for (int o = 0; o < 2 && !reach.within(); o++) {
            long n = o == 0 ? candidates.withTrials() : candidates.withoutTrials();
            long m = o == 0 ? candidates.withoutTrials() : candidates.withTrials();
            for (long count : o == 0 ? candidates.otherIsWithout() : candidates.otherIsWith()) {
                if (reach.within()) {
                    break;
                }
                double q = (double) count / m;
                if (reach.worthComputing(q)) {
                    reach.add(q, DetectionPower.detectableDelta(n, m, count, candidates.level(),
                            candidates.level(), claimEpsilon, claimDelta));
                }
            }
        }
        return reach.within();
    }

    /**
     * The two families' thresholds as {@link #epsilon} finishes them, held against {@value #CONSISTENT_FACTOR} times
     * the claimed ε as candidates come in ({@link #epsilonWithinFactor}).
     */
    private static final class Reach {
        private final Thresholds t = new Thresholds();
        private final double claimEpsilon;
        private final double claimDelta;
        private final double limit;
        private boolean laplaceWithin;
        private boolean gaussianWithin;

        Reach(double claimEpsilon, double claimDelta) {
            this.claimEpsilon = claimEpsilon;
            this.claimDelta = claimDelta;
            this.limit = CONSISTENT_FACTOR * claimEpsilon;
            this.gaussianWithin = claimDelta == 0; // a pure-DP claim has the Laplace family only
        }

        /** The least needed rate of a candidate of other-world rate {@code q}, or NaN when it cannot detect. */
        private double floor(double q) {
            double logBase = claimEpsilon + Math.log(q);
            return q > 0 && q < 1 && logBase < 0 ? claimDelta + Math.exp(logBase) : Double.NaN;
        }

        /** The Laplace threshold as {@link #epsilon} reports it, from the family's smallest {@code eps'}. */
        private boolean laplaceWithin(double epsPrime) {
            return Double.isFinite(epsPrime) && SafeRounding.up(epsPrime + 2 * Math.log1p(-claimDelta)) <= limit;
        }

        /** The Gaussian threshold as {@link #epsilon} reports it, from the family's smallest {@code mu}. */
        boolean gaussianWithin(double mu) {
            return Double.isFinite(mu) && new GaussianBound(mu).epsilon(claimDelta) <= limit;
        }

        boolean laplaceFloorWithin(double q) {
            double f = floor(q);
            return f < 1 && laplaceWithin(laplaceEpsilon(q, f));
        }

        double floorMu(double q) {
            double f = floor(q);
            return f < 1 ? gaussianMu(q, f) : Double.POSITIVE_INFINITY;
        }

        /** Whether the candidate could bring a family that is not yet within the factor within it. */
        boolean worthComputing(double q) {
            double f = floor(q);
            if (!(f < 1)) {
                return false;
            }
            return !laplaceWithin && laplaceWithin(laplaceEpsilon(q, f))
                    || !gaussianWithin && gaussianMu(q, f) < t.mu;
        }

        void add(double q, double detectable) {
            double mu = t.mu;
            t.add(q, detectable, claimEpsilon);
            laplaceWithin = laplaceWithin(t.laplace);
            if (!gaussianWithin && t.mu < mu) {
                gaussianWithin = gaussianWithin(t.mu);
            }
        }

        boolean within() {
            return laplaceWithin && gaussianWithin;
        }
    }

    /** The other world's observed rate on the certified test's event: {@code FP / m}, or for coupled trials its share. */
    static double otherRate(DeltaLowerBound bound) {
        EpsilonLowerBound.PairedCounts p = bound.paired();
        if (p != null) {
            return (double) (p.both() + p.otherOnly()) / bound.test().trials();
        }
        SelectedTest t = bound.test();
        return (double) t.falsePositives() / t.otherTrials();
    }

    /** The smallest detectable member of each family over the candidates seen so far. */
    private static final class Thresholds {
        double laplace = Double.POSITIVE_INFINITY;
        double mu = Double.POSITIVE_INFINITY;

        /** Adds the candidate of other-world rate {@code q} whose detectable δ at the claim's ε is {@code detectable}. */
        void add(double q, double detectable, double claimEpsilon) {
            if (!Double.isFinite(detectable) || !(q > 0 && q < 1)) {
                return;
            }
            double logBase = claimEpsilon + Math.log(q);
            double needed = logBase >= 0 ? Double.POSITIVE_INFINITY : detectable + Math.exp(logBase);
            if (!(needed < 1)) {
                return;
            }
            laplace = Math.min(laplace, laplaceEpsilon(q, needed));
            mu = Math.min(mu, gaussianMu(q, needed));
        }

        /**
         * Whether a candidate of rate {@code q} could lower either threshold: its needed rate is at least
         * {@code e^eps_c q}, so the Laplace member it detects has at least {@code laplaceEpsilon(q, e^eps_c q)} and the
         * Gaussian one at least {@code gaussianMu(q, e^eps_c q)} (both rise with the needed rate).
         */
        boolean couldImprove(double q, double claimEpsilon) {
            if (!(q > 0 && q < 1)) {
                return false;
            }
            double logBase = claimEpsilon + Math.log(q);
            if (logBase >= 0) {
                return false;
            }
            double floor = Math.exp(logBase);
            return laplaceEpsilon(q, floor) < laplace || gaussianMu(q, floor) < mu;
        }
    }

    /**
     * The smallest {@code eps'} whose Laplace pair reaches rate {@code needed} on the event where the other world's
     * rate is {@code q} (see the class comment; the rate rises with {@code eps'}).
     */
    static double laplaceEpsilon(double q, double needed) {
        if (!(needed > q)) {
            return Double.POSITIVE_INFINITY; // no privacy loss cannot be what a refutation needs: never optimistic
        }
        if (needed <= 0.5) {
            return Math.log(needed) - Math.log(q); // e^eps' q on the tail
        }
        if (q <= 0.5) {
            return -Math.log(4 * q * (1 - needed));
        }
        return Math.log1p(-q) - Math.log1p(-needed);
    }

    /** The rate of the Laplace pair with {@code eps'} on the event where the other world's rate is {@code q}. */
    static double laplaceRate(double q, double epsilon) {
        if (q <= 0.5 * Math.exp(-epsilon)) {
            return Math.exp(epsilon) * q;
        }
        if (q <= 0.5) {
            return 1 - Math.exp(-epsilon) / (4 * q);
        }
        return 1 - (1 - q) * Math.exp(-epsilon);
    }

    /** The smallest {@code mu} whose Gaussian pair reaches rate {@code needed} where the other world's rate is {@code q}. */
    static double gaussianMu(double q, double needed) {
        double mu = Normal.quantile(needed) - Normal.quantile(q);
        return mu > 0 ? mu : Double.POSITIVE_INFINITY; // mu <= 0 only by rounding: never optimistic
    }

}
