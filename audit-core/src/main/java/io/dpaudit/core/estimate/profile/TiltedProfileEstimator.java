package io.dpaudit.core.estimate.profile;

import io.dpaudit.core.law.DiscreteLaw;
import io.dpaudit.core.law.GaussianMixture;
import io.dpaudit.core.law.StatisticLaw;
import io.dpaudit.core.rng.RandomStreams;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.commons.rng.UniformRandomProvider;

/**
 * The privacy profile {@code δ(ε)} of T independent rounds of a pair of one-dimensional Gaussian mixtures (at most two
 * components each, one σ: the Gaussian mechanism, the Poisson-subsampled Gaussian, Poisson batches), of a pair of
 * two-dimensional ones (seed 000's orthogonal configuration; {@link TiltedPlane}, p tilted whole, no strata) or of a pair of
 * discrete laws with a finite loss (the check-ins' and shuffles' reduced simulators) down to δ = 1e-12 and below, with
 * rigorous two-sided intervals: stratified importance sampling under exponential tilts of the privacy loss. The
 * per-round pieces (log moments, exact tilted draws) come from a {@link TiltedFamily}.
 *
 * <p><b>Strata.</b> For one direction (expectation under the world p, round loss {@code ℓ = log p/q}, loss
 * {@code L = Σ_t ℓ(x_t)}), {@code δ(ε) = E_p[(1 - e^{ε-L})_+]}. When p has two components (a round with and without
 * the canary), condition on the number k of rounds drawn from component 1: {@code k ~ Binomial(T, a_1)} with
 * probabilities {@code b_k}, and given k the rounds are independent Gaussians. (Tilting the mixture itself mixes the
 * rare choice of the canary's component with the size of its loss; measured at T = 1, q = 0.01 and 3·10^6 samples the
 * strata halve the interval at δ = 1e-10 and 1e-12.)
 *
 * <p><b>Tilts.</b> In stratum k every round is tilted within its component by one {@code θ_k}:
 * {@code r(x) = φ_σ(x - μ_c) e^{θ_k ℓ(x)} / M_c(θ_k)} ({@link TiltedRound}: an exact sampler, also where the tilted law
 * is bimodal), so the likelihood ratio of the stratum's output is {@code M_1^k M_0^{T-k} e^{-θ_k L}}, a function of L.
 * {@code θ_k} minimises the stratum's Chernoff bound {@code Λ_k(θ) - θε* + log g(θ)} at the band's centre ε* over a
 * fixed logarithmic grid of θ ({@code Λ_k = k log M_1 + (T-k) log M_0}), so {@code L > ε*} is typical under the
 * proposal instead of rare (Siegmund 1976; Bucklew, <i>Introduction to rare event simulation</i>, 2004, ch. 5).
 * A draw first picks its stratum with probability {@code π_k ∝ b_k B_k(ε*)} (the stratum's share of the Chernoff
 * bound), then its rounds.
 *
 * <p><b>Why the intervals are rigorous.</b> A draw from stratum k contributes
 * {@code Y = (b_k/π_k) M_1^k M_0^{T-k} e^{-θ_k L} (1 - e^{ε-L})_+}, an unbiased term of δ(ε). It is 0 for L ≤ ε and,
 * with {@code u = L - ε}, at most {@code (b_k/π_k) e^{Λ_k(θ_k) - θ_k ε} g(θ_k)},
 * {@code g(θ) = max_u e^{-θu}(1 - e^{-u}) = (θ/(1+θ))^θ/(1+θ)}; the largest of these over the sampled strata,
 * {@code R(ε)}, is a Chernoff bound of the tail (with the choice of π, all strata's bounds are equal at ε*). So
 * {@code Y/R ∈ [0, 1]} and the empirical-Bernstein bound of Maurer &amp; Pontil (2009; {@link io.dpaudit.core.estimate.EmpiricalBernstein})
 * holds with no assumption on the weights' tails (plain empirical Bernstein on raw, unbounded weights would be
 * vacuous). Strata whose share is below e^{-30} of the largest are not sampled; their Chernoff bounds (valid for any
 * θ) are added to the upper end. Assumptions: the stated densities are the mechanism's (white-box evidence), and
 * {@code M_c(θ)} is known to a relative {@value TiltedRound#MOMENT_ALLOWANCE} ({@link TiltedRound#logMoment}: quadrature
 * checked at two steps), applied outward as {@code (1 ± a)^T}; the tilted law's mass outside its table is proven below
 * τ = e^{-30} per round, relative ({@link TiltedFamily#truncatedMass}), and the interval is widened by it: the lower
 * end multiplied by {@code 1 - Tτ}, {@code Tτ R} added to the upper end.
 *
 * <p><b>Grid, fixed before the counted samples.</b> Every target gets a band of {@value #BAND_POINTS} + 1 evenly
 * spaced ε values: a requested ε the band {@code [0.98 ε, 1.02 ε]}; a requested δ the band {@code [0.85 ε̂, 1.15 ε̂]}
 * around ε̂, read off a pilot of {@code n/10} samples (from their own streams) over {@code [0.35, 1]} times the
 * Chernoff bound's ε, moved down when the answer is the pilot band's bottom. Each grid point is computed from its
 * band's samples only; both directions use the same points.
 *
 * <p><b>Confidence.</b> Every interval (two directions, two sides, K grid points) is taken at level
 * {@code (1 - c)/(4K)}, so all hold together with probability at least c; the profile is the larger direction's
 * (lower: larger lower bound; upper: larger upper bound), and since δ is non-increasing in ε the uppers are replaced
 * by their running minimum from the left and the lowers by their running maximum from the right, on the same event.
 *
 * <p><b>Where it is weak.</b> Many rounds with a tiny sampling rate (T = 1000, q = 0.001): the tail is one round with
 * a very large loss, which a tilt of every round does not reproduce; the intervals stay valid but are wide (the
 * effective sample size reported per grid point shows it).
 *
 * <p><b>Reproducibility and memory.</b> Samples are drawn in shards of {@value #SHARD}, each from one stream taken in a
 * fixed order from the run's {@link RandomStreams}; shard sums are added in shard order, in waves of a few shards per
 * thread, so the numbers do not depend on the thread count and memory does not grow with the samples.
 */
public final class TiltedProfileEstimator {
    /** The sampling method's name in reports ({@code estimate.method}). */
    public static final String NAME = "importance";
    /** How the intervals are obtained, in reports. */
    public static final String SOURCE = "stratified importance sampling under exponential tilts of the privacy loss "
            + "(Siegmund 1976; Bucklew 2004, ch. 5); every weighted term bounded by the tail's Chernoff bound, so "
            + "empirical-Bernstein intervals (Maurer & Pontil 2009, Theorem 4) apply; white-box: relies on the "
            + "simulator's exact densities";
    static final int SHARD = 1 << 12;
    /** Intervals per band (so BAND_POINTS + 1 points). */
    static final int BAND_POINTS = 160;
    static final double DELTA_BAND_LOW = 0.85;
    static final double DELTA_BAND_HIGH = 1.15;
    /** The pilot's band is [PILOT_BAND_LOW, 1] times its top; it moves down at most PILOT_ROUNDS - 1 times. */
    static final double PILOT_BAND_LOW = 0.35;
    static final int PILOT_ROUNDS = 4;
    static final double EPSILON_BAND = 0.02;
    static final double PILOT_FRACTION = 0.1;
    static final double THETA_MAX = 1000;
    static final double THETA_MIN = 1e-3;
    /** Ratio of successive tilts on the grid every stratum chooses its θ from. */
    static final double THETA_RATIO = 1.1;
    /** Strata whose share of the Chernoff bound is below e^{-30} of the largest are bounded, not sampled. */
    static final double DROP_LOG_SHARE = 30;
    /** Largest T accepted (a sample costs O(T)). */
    public static final int MAX_ROUNDS = 100_000;

    private TiltedProfileEstimator() {
    }

    /**
     * The estimate and what it cost.
     *
     * @param estimate the intervals ({@code method} {@value #NAME})
     * @param effectiveSampleSize per grid point, {@code (Σ Y)^2 / Σ Y^2} of the direction that carries the estimate
     * @param plainTrialsEquivalent per grid point, the plain Monte Carlo trials per world whose standard error
     *        {@code sqrt(δ(1-δ)/N)} would equal this estimate's
     * @param samplesPerDirection samples drawn per direction (pilot included)
     */
    public record Result(PrivacyLossEstimate estimate, double[] effectiveSampleSize, double[] plainTrialsEquivalent,
            long samplesPerDirection) {
    }

    /**
     * Whether this estimator handles the pair: one-dimensional Gaussian mixtures of at most two components with one σ,
     * two-dimensional ones with few distinct first coordinates ({@link TiltedPlane#supports}), or discrete laws with a
     * finite loss; 1 ≤ T ≤ 100 000.
     */
    public static boolean supports(Object withCanary, Object withoutCanary, int rounds) {
        if (rounds < 1 || rounds > MAX_ROUNDS) {
            return false;
        }
        if (withCanary instanceof GaussianMixture a && withoutCanary instanceof GaussianMixture b) {
            return a.dimension() == 1 && b.dimension() == 1 && a.sd() == b.sd() && a.components() <= 2
                    && b.components() <= 2 || TiltedPlane.supports(a, b);
        }
        return withCanary instanceof DiscreteLaw a && withoutCanary instanceof DiscreteLaw b
                && TiltedFamily.Discrete.applies(a, b) && TiltedFamily.Discrete.applies(b, a);
    }

    /** The family of one direction: p the expectation world's law, q the other's. */
    private static TiltedFamily family(Object p, Object q) {
        if (p instanceof GaussianMixture a && q instanceof GaussianMixture b) {
            return a.dimension() == 2 ? new TiltedFamily.Plane(a, b) : new TiltedFamily.Gaussian(a, b);
        }
        return new TiltedFamily.Discrete((DiscreteLaw) p, (DiscreteLaw) q);
    }

    /**
     * Estimates the profile.
     *
     * @param withCanary the per-round law of the statistic in D
     * @param withoutCanary in D'
     * @param rounds T
     * @param epsilons ε values to resolve (non-negative finite; others are ignored)
     * @param deltas δ values whose ε to resolve (in (0, 1); others are ignored)
     * @param samplesPerTarget counted samples per target and direction, at least 100
     * @param confidence simultaneous confidence of the whole grid
     * @param streams where the shards' streams come from, in order
     * @param threads worker threads
     */
    public static Result estimate(StatisticLaw withCanary, StatisticLaw withoutCanary, int rounds,
            List<Double> epsilons, List<Double> deltas, long samplesPerTarget, double confidence,
            RandomStreams streams, int threads) {
        return estimate(withCanary, withoutCanary, rounds, epsilons, deltas, samplesPerTarget, confidence, streams,
                threads, io.dpaudit.core.engine.ProgressListener.NONE);
    }

    /**
     * Estimates the profile, telling {@code progress} what the rest is expected to take once the first target's samples
     * in one direction are drawn (their rate, the pilots having warmed the sampler up, times the samples left over the
     * threads): a run whose expectation exceeds its control's cap is refused there, before the bulk of the work.
     */
    public static Result estimate(StatisticLaw withCanary, StatisticLaw withoutCanary, int rounds,
            List<Double> epsilons, List<Double> deltas, long samplesPerTarget, double confidence,
            RandomStreams streams, int threads, io.dpaudit.core.engine.ProgressListener progress) {
        if (!supports(withCanary, withoutCanary, rounds)) {
            throw new IllegalArgumentException("importance sampling needs one-dimensional Gaussian mixtures of at most "
                    + "two components with one sigma, two-dimensional ones with at most " + TiltedPlane.MAX_GROUPS
                    + " distinct first coordinates, or discrete laws with a finite loss, and 1 <= T <= " + MAX_ROUNDS);
        }
        if (samplesPerTarget < 100) {
            throw new IllegalArgumentException("importance sampling needs at least 100 samples per target, got "
                    + samplesPerTarget);
        }
        if (!(confidence > 0 && confidence < 1)) {
            throw new IllegalArgumentException("confidence must be in (0, 1): " + confidence);
        }
        Direction[] dirs = {new Direction(family(withCanary, withoutCanary), rounds),
            new Direction(family(withoutCanary, withCanary), rounds)};
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, threads), r -> {
            Thread t = new Thread(r, "dp-audit-importance");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Band> bands = new ArrayList<>();
            for (double e : epsilons) {
                if (e >= 0 && Double.isFinite(e)) {
                    bands.add(Band.around(e, e * (1 - EPSILON_BAND), e * (1 + EPSILON_BAND)));
                }
            }
            long pilotSamples = Math.max(100, (long) (samplesPerTarget * PILOT_FRACTION));
            long targets = Math.max(1, bands.size() + deltas.stream().filter(d -> d > 0 && d < 1).count());
            expect(dirs[0], rounds, 2 * targets * samplesPerTarget + 2 * (targets - bands.size()) * pilotSamples,
                    samplesPerTarget, pool, threads, progress);
            long[] used = {0}; // samples drawn, both directions
            for (double d : deltas) {
                if (d > 0 && d < 1) {
                    double guess = pilotEpsilon(dirs, d, pilotSamples, streams, pool, threads, used);
                    bands.add(Band.around(guess, guess * DELTA_BAND_LOW, guess * DELTA_BAND_HIGH));
                }
            }
            if (bands.isEmpty()) {
                bands.add(Band.around(0, 0, 0));
            }
            // Grid points in order; each belongs to the first band that produced its value.
            TreeMap<Double, int[]> owner = new TreeMap<>();
            for (int b = 0; b < bands.size(); b++) {
                Band band = bands.get(b);
                for (int j = 0; j < band.points(); j++) {
                    owner.putIfAbsent(band.epsilon(j), new int[] {b, j});
                }
            }
            int k = owner.size();
            double alpha = (1 - confidence) / (4.0 * k);
            TiltedPlans.BandSums[][] sums = new TiltedPlans.BandSums[2][bands.size()];
            for (int b = 0; b < bands.size(); b++) {
                for (int d = 0; d < 2; d++) {
                    sums[d][b] = sample(dirs[d].plan(bands.get(b)), samplesPerTarget, streams, pool, threads, used);
                }
            }
            double[] eps = new double[k];
            double[] lower = new double[k];
            double[] upper = new double[k];
            double[] point = new double[k];
            double[] ess = new double[k];
            double[] plain = new double[k];
            int i = 0;
            for (Map.Entry<Double, int[]> e : owner.entrySet()) {
                int b = e.getValue()[0];
                int j = e.getValue()[1];
                eps[i] = e.getKey();
                double bestPoint = -1;
                for (int d = 0; d < 2; d++) {
                    TiltedPlans.Interval v = sums[d][b].interval(j, alpha);
                    lower[i] = Math.max(lower[i], v.lower());
                    upper[i] = Math.max(upper[i], v.upper());
                    if (v.point() > bestPoint) {
                        bestPoint = v.point();
                        ess[i] = v.ess();
                        plain[i] = v.plainEquivalent();
                    }
                }
                point[i] = bestPoint;
                i++;
            }
            List<PrivacyLossEstimate.DeltaInterval> grid = PrivacyLossEstimate.monotoneGrid(eps, lower, upper, point);
            long perDirection = used[0] / 2;
            String bracket = String.format(Locale.ROOT, "exact log-likelihood ratio of %d round(s), white-box; "
                    + "%d targets, %d samples per target and direction", rounds, bands.size(), samplesPerTarget);
            PrivacyLossEstimate estimate = new PrivacyLossEstimate(NAME, SOURCE, confidence, perDirection, bracket,
                    0, grid, ess, plain);
            return new Result(estimate, ess, plain, perDirection);
        } finally {
            pool.shutdownNow();
        }
    }

    /** Samples of the expectation's probe (drawn from a stream of its own: the estimate's numbers do not change). */
    private static final long PROBE_SAMPLES = 2000;

    /**
     * Tells {@code progress} what the estimate is expected to take, before any of its samples: the wall time of
     * {@value #PROBE_SAMPLES} probe samples of the first direction (at ε = 0, on the threads, after as many untimed ones
     * that warm the JIT up) per sample, times the {@code total} samples the targets and their pilots will draw. A run whose expectation
     * exceeds its control's cap is refused there, naming {@code estimate.samples}.
     */
    private static void expect(Direction first, int rounds, long total, long samplesPerTarget, ExecutorService pool,
            int threads, io.dpaudit.core.engine.ProgressListener progress) {
        long n = Math.min(PROBE_SAMPLES, samplesPerTarget);
        RandomStreams own = new RandomStreams(0x5eedL);
        TiltedPlans.Plan plan = first.plan(Band.around(0, 0, 0));
        sample(plan, n, own, pool, threads, new long[1]); // the JIT's warm-up, not timed
        long[] probed = {0};
        long start = System.nanoTime();
        sample(plan, n, own, pool, threads, probed);
        double perSample = (System.nanoTime() - start) / 1e9 / Math.max(1, probed[0]);
        io.dpaudit.core.engine.RunControl.of(progress).expect(perSample * total, "estimate.samples",
                samplesPerTarget, String.format(Locale.ROOT, "%d importance samples of %d round(s) at %.3g samples/s "
                        + "on %d thread(s)", total, rounds, 1 / perSample, threads));
    }

    /**
     * ε̂ for a δ target: the Chernoff bound's ε (an upper end), then a pilot over {@code [0.35, 1]} times it, at the
     * band's saddle point, in both directions; ε̂ is the first pilot grid point whose larger point estimate is at most
     * δ (the band's top when none is; the band moves down when it is the bottom).
     */
    private static double pilotEpsilon(Direction[] dirs, double delta, long samples, RandomStreams streams,
            ExecutorService pool, int threads, long[] used) {
        double top = Math.max(dirs[0].chernoffEpsilon(delta), dirs[1].chernoffEpsilon(delta));
        if (!(top > 0)) {
            return 0;
        }
        // The Chernoff ε can be several times the true one (many rounds of small sampling rates): when the pilot's
        // answer is the bottom of its band, look again below it, up to PILOT_ROUNDS times.
        for (int round = 0; round < PILOT_ROUNDS; round++) {
            Band band = Band.around(top * 0.7, top * PILOT_BAND_LOW, top);
            double[] best = new double[band.points()];
            for (Direction d : dirs) {
                TiltedPlans.BandSums s = sample(d.plan(band), samples, streams, pool, threads, used);
                for (int j = 0; j < band.points(); j++) {
                    best[j] = Math.max(best[j], s.interval(j, 0.5).point());
                }
            }
            int first = -1;
            for (int j = 0; j < band.points(); j++) {
                if (best[j] <= delta) {
                    first = j;
                    break;
                }
            }
            if (first < 0) {
                return top; // not reached within the band: the upper end
            }
            if (first > 0 || round == PILOT_ROUNDS - 1) {
                return band.epsilon(first);
            }
            top = band.lo;
        }
        return top;
    }

    /** Samples {@code n} outputs of the plan's proposal and sums {@code Y/R} and its square at every band point. */
    private static TiltedPlans.BandSums sample(TiltedPlans.Plan plan, long n, RandomStreams streams, ExecutorService pool, int threads,
            long[] used) {
        used[0] += n;
        TiltedPlans.BandSums total = new TiltedPlans.BandSums(plan);
        long shards = (n + SHARD - 1) / SHARD;
        int wave = Math.max(1, 4 * threads);
        for (long first = 0; first < shards; first += wave) {
            int count = (int) Math.min(wave, shards - first);
            List<Future<TiltedPlans.BandSums>> futures = new ArrayList<>(count);
            for (int s = 0; s < count; s++) {
                long shard = first + s;
                int size = (int) Math.min(SHARD, n - shard * SHARD);
                UniformRandomProvider rng = streams.next();
                futures.add(pool.submit(() -> plan.run(rng, size)));
            }
            for (Future<TiltedPlans.BandSums> f : futures) {
                try {
                    total.add(f.get());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new io.dpaudit.core.numerics.Interruption.Interrupted("importance sampling");
                } catch (ExecutionException e) {
                    Throwable c = e.getCause();
                    throw c instanceof RuntimeException re ? re : new IllegalStateException(c);
                }
            }
        }
        return total;
    }

    /**
     * {@code log g(θ) = θ log(θ/(1+θ)) - log(1+θ)}, with {@code g(0) = 1}: {@code g(θ) = max_u e^{-θu} (1 - e^{-u})},
     * the largest value of a tilted sample's term {@code e^{-θ(L - ε)} (1 - e^{ε - L})}.
     */
    public static double logG(double theta) {
        return theta == 0 ? 0 : theta * Math.log(theta / (1 + theta)) - Math.log1p(theta);
    }

    /** Evenly spaced ε values {@code lo + j (hi - lo)/BAND_POINTS}; one point when {@code lo = hi}. */
    record Band(double centre, double lo, double step, int points) {
        static Band around(double centre, double lo, double hi) {
            lo = Math.max(0, lo);
            if (!(hi > lo)) {
                return new Band(centre, lo, 0, 1);
            }
            return new Band(centre, lo, (hi - lo) / BAND_POINTS, BAND_POINTS + 1);
        }

        double epsilon(int j) {
            return lo + j * step;
        }
    }

    /**
     * One direction: the expectation world p (one or two components), the other world q, T rounds; and the verified
     * log moments {@code log M_c(θ)} of p's components on a fixed logarithmic grid of θ, shared by every plan.
     */
    /**
     * The verified log moments on the θ grid, per family (they depend on the per-round laws only, not on T or the
     * targets): computed once per process and shared, read-only, by every estimate of the same pair; at most
     * {@value #MOMENT_CACHE} families are kept.
     */
    private static final int MOMENT_CACHE = 64;
    private static final Map<String, double[][]> MOMENTS = java.util.Collections.synchronizedMap(
            new java.util.LinkedHashMap<>(16, 0.75f, true) {
                @Override
                protected boolean removeEldestEntry(Map.Entry<String, double[][]> eldest) {
                    return size() > MOMENT_CACHE;
                }
            });

    static final class Direction {
        final TiltedFamily family;
        final int rounds;
        final double[] thetaGrid;
        /** {@code [c][i] = log M_c(θ_i)}: the family's verified log moments. */
        final double[][] logMoments;
        /** {@code log g(θ_i)} at every grid point ({@link #logG}, evaluated once: the Chernoff search reads it often). */
        private final double[] logGGrid;
        /** {@code log b_k} for k = 0..T, filled on first use (the same values {@link #logBinomialOf} gives). */
        private double[] logBinomials;

        Direction(TiltedFamily family, int rounds) {
            this.family = family;
            this.rounds = rounds;
            List<Double> grid = new ArrayList<>();
            grid.add(0.0);
            for (double t = THETA_MIN; t <= THETA_MAX; t *= THETA_RATIO) {
                grid.add(t);
            }
            thetaGrid = grid.stream().mapToDouble(Double::doubleValue).toArray();
            logGGrid = new double[thetaGrid.length];
            for (int i = 0; i < thetaGrid.length; i++) {
                logGGrid[i] = logG(thetaGrid[i]);
            }
            logMoments = MOMENTS.computeIfAbsent(family.key(), k -> {
                int c = family.components();
                double[][] m = new double[c][thetaGrid.length];
                for (int comp = 0; comp < c; comp++) {
                    for (int i = 0; i < thetaGrid.length; i++) {
                        double lm = family.logMoment(comp, thetaGrid[i]);
                        // NaN marks a tilt whose round cannot be tabulated: no stratum using the component picks it.
                        m[comp][i] = family.tabulable(comp, thetaGrid[i], lm) ? lm : Double.NaN;
                    }
                }
                return m;
            });
        }

        /**
         * {@code log Λ_k(θ_i) = k log M_1(θ_i) + (T - k) log M_0(θ_i)} (k rounds from component 1); NaN when a component
         * the stratum draws from cannot be tilted by θ_i (never chosen: NaN compares false).
         */
        double lambda(int k, int i) {
            double bulk = k == rounds ? 0 : (rounds - k) * logMoments[0][i];
            return k == 0 ? bulk : bulk + k * logMoments[1][i];
        }

        /** The smallest ε whose Chernoff bound (summed over strata, each at its best grid θ) is at most δ. */
        double chernoffEpsilon(double delta) {
            double lo = 0;
            double hi = 1;
            while (logChernoff(hi) > Math.log(delta)) {
                lo = hi;
                hi *= 2;
                if (hi > 1e6) {
                    return hi;
                }
            }
            for (int it = 0; it < 60; it++) {
                double mid = 0.5 * (lo + hi);
                if (logChernoff(mid) > Math.log(delta)) {
                    lo = mid;
                } else {
                    hi = mid;
                }
            }
            return hi;
        }

        /** {@code log Σ_k b_k min_i e^{Λ_k(θ_i) - θ_i ε} g(θ_i)}, an upper bound on δ(ε) of this direction. */
        double logChernoff(double epsilon) {
            double total = Double.NEGATIVE_INFINITY;
            for (int k = 0; k <= maxStratum(); k++) {
                total = io.dpaudit.core.numerics.LogSpace.add(total, logBinomial(k) + bestTheta(k, epsilon)[1]);
            }
            return total;
        }

        int maxStratum() {
            return family.components() == 1 ? 0 : rounds;
        }

        /**
         * {@code log b_k}: the probability of k rounds from component 1 (1 for a one-component p). Tabulated for all k
         * on first use: the Chernoff search (about 80 bisection steps, each over all T + 1 strata) would otherwise
         * evaluate three log-gamma functions per stratum and step (20 s of one core at T = 10^4).
         */
        double logBinomial(int k) {
            if (family.components() == 1) {
                return 0;
            }
            if (logBinomials == null) {
                double[] table = new double[rounds + 1];
                for (int j = 0; j <= rounds; j++) {
                    table[j] = logBinomialOf(j);
                }
                logBinomials = table;
            }
            return logBinomials[k];
        }

        private double logBinomialOf(int k) {
            double a1 = family.weight(1);
            return org.apache.commons.math3.special.Gamma.logGamma(rounds + 1.0)
                    - org.apache.commons.math3.special.Gamma.logGamma(k + 1.0)
                    - org.apache.commons.math3.special.Gamma.logGamma(rounds - k + 1.0)
                    + (k == 0 ? 0 : k * Math.log(a1)) + (rounds - k == 0 ? 0 : (rounds - k) * Math.log1p(-a1));
        }

        /** {index, log bound}: the grid θ minimising stratum k's Chernoff bound {@code Λ_k(θ) - θε + log g(θ)}. */
        double[] bestTheta(int k, double epsilon) {
            int best = 0;
            double value = Double.POSITIVE_INFINITY;
            for (int i = 0; i < thetaGrid.length; i++) {
                double v = lambda(k, i) - thetaGrid[i] * epsilon + logGGrid[i];
                if (v < value) {
                    value = v;
                    best = i;
                }
            }
            return new double[] {best, value};
        }

        /**
         * The proposal for a band: strata k (rounds from component 1) drawn with probability
         * {@code π_k ∝ b_k B_k(ε*)} (each stratum's share of the Chernoff bound at the band's centre), each tilted at
         * its own best grid θ; strata whose share is below e^{-30} of the largest are not sampled and enter the upper
         * bound through their Chernoff bounds.
         */
        TiltedPlans.Plan plan(Band band) {
            double centre = band.centre;
            int strata = maxStratum() + 1;
            double[] logShare = new double[strata];
            int[] thetaIndex = new int[strata];
            double top = Double.NEGATIVE_INFINITY;
            for (int k = 0; k < strata; k++) {
                double[] b = bestTheta(k, centre);
                thetaIndex[k] = (int) b[0];
                logShare[k] = logBinomial(k) + b[1];
                top = Math.max(top, logShare[k]);
            }
            List<Integer> kept = new ArrayList<>();
            double[] dropped = new double[band.points()];
            for (int k = 0; k < strata; k++) {
                if (logShare[k] >= top - DROP_LOG_SHARE) {
                    kept.add(k);
                } else {
                    double t = thetaGrid[thetaIndex[k]];
                    for (int j = 0; j < band.points(); j++) {
                        dropped[j] += Math.exp(logBinomial(k) + lambda(k, thetaIndex[k]) - t * band.epsilon(j)
                                + logGGrid[thetaIndex[k]]);
                    }
                }
            }
            int s = kept.size();
            int[] ks = new int[s];
            double[] theta = new double[s];
            double[] logWeight = new double[s]; // log(b_k/π_k) + Λ_k(θ_k)
            double[] cumulative = new double[s];
            double logTotal = Double.NEGATIVE_INFINITY;
            for (int m = 0; m < s; m++) {
                logTotal = io.dpaudit.core.numerics.LogSpace.add(logTotal, logShare[kept.get(m)]);
            }
            double acc = 0;
            for (int m = 0; m < s; m++) {
                int k = kept.get(m);
                ks[m] = k;
                theta[m] = thetaGrid[thetaIndex[k]];
                double logPi = logShare[k] - logTotal;
                acc += Math.exp(logPi);
                cumulative[m] = acc;
                logWeight[m] = logBinomial(k) - logPi + lambda(k, thetaIndex[k]);
            }
            cumulative[s - 1] = 1.0;
            // log R_j = max_m [logWeight_m - θ_m ε_j + log g(θ_m)]; c[m][j] = e^{logWeight_m - θ_m ε_j - log R_j}.
            double[] logRange = new double[band.points()];
            double[][] c = new double[s][band.points()];
            for (int j = 0; j < band.points(); j++) {
                double r = Double.NEGATIVE_INFINITY;
                for (int m = 0; m < s; m++) {
                    r = Math.max(r, logWeight[m] - theta[m] * band.epsilon(j) + logG(theta[m]));
                }
                logRange[j] = r;
                for (int m = 0; m < s; m++) {
                    c[m][j] = Math.exp(logWeight[m] - theta[m] * band.epsilon(j) - r);
                }
            }
            return new TiltedPlans.Plan(band, this.rounds, family, ks, theta, cumulative, c, logRange, dropped);
        }
    }
}
