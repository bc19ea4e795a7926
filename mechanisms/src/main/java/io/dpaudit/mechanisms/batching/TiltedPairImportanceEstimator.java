package io.dpaudit.mechanisms.batching;

import io.dpaudit.core.audit.ProfileEstimation;
import io.dpaudit.core.engine.ProgressListener;
import io.dpaudit.core.estimate.EmpiricalBernstein;
import io.dpaudit.core.estimate.profile.PrivacyLossEstimate;
import io.dpaudit.core.estimate.profile.TiltedProfileEstimator;
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
import java.util.function.Function;
import org.apache.commons.rng.UniformRandomProvider;

/**
 * Importance sampling of a dependent-round sampler's privacy profile over E epochs ({@link TiltedPair}: balls-and-bins,
 * k-of-T random allocation, the shuffle's lower-bound pair), with intervals that hold with no assumption on the
 * weights' tails: {@code estimate.method = importance} for those samplers, whose rounds are dependent (the generic
 * estimator tilts independent rounds and refuses them).
 *
 * <p><b>The remove direction</b> ({@code delta_P(eps) = E_P[(1 - e^{eps - L})_+]}, L the E epochs' summed loss): the
 * samples are drawn from a tilt r of the pair in every epoch (parameter theta, weight {@code dP/dr <= B e^{-theta L}}
 * per epoch), and {@code Y = (dP/dr) (1 - e^{eps - L})_+} has mean {@code delta_P(eps)} and lies in {@code [0, R]} with
 * {@code R = B^E e^{-theta eps} g(theta)}, {@code g(theta) = max_u e^{-theta u} (1 - e^{-u})}: Maurer &amp; Pontil's
 * empirical Bernstein bounds on {@code Y / R} in [0, 1] give the interval, and R itself is a deterministic (Chernoff)
 * upper bound. Each target has its own tilt (the one minimising R at its centre).
 *
 * <p><b>The add direction</b> ({@code delta_Q(eps) = E_Q[(1 - e^{eps + L})_+]}): plain sampling of Q, whose
 * empirical Bernstein interval is tight where delta_Q is not small, and above it the Chernoff bound
 * {@code delta_Q(eps) <= g(theta') e^{-theta' eps} E_Q[e^{-theta' L}]^E} with the pair's bound on the moment
 * ({@link TiltedPair#logAddMoment}), minimised over theta', and for one epoch {@code delta_Q(eps) <= Q(L < -eps)}
 * ({@link TiltedPair#logAddTail}). The profile is the larger of the two directions at every
 * point; every statement of the grid holds simultaneously at the stated confidence (a union bound over the grid, both
 * directions and both sides).
 */
final class TiltedPairImportanceEstimator implements ProfileEstimation {
    static final int SHARD = 1 << 11;
    static final int BAND_POINTS = 64;
    static final double PILOT_FRACTION = 0.1;
    static final double BAND_LOW = 0.85;
    static final double BAND_HIGH = 1.15;

    private final TiltedPair pair;
    private final int epochs;
    private final long samples;
    private final String what;

    /**
     * @param pair one epoch's pair and its tilts
     * @param epochs E, independent epochs
     * @param samples samples per target and direction
     * @param what one epoch's output, for the estimate's description (e.g. "100 steps")
     */
    TiltedPairImportanceEstimator(TiltedPair pair, int epochs, long samples, String what) {
        this.pair = pair;
        this.epochs = epochs;
        this.samples = samples;
        this.what = what;
    }

    /** The pair's tilts (built by the pair on first use; at least one). */
    private List<TiltedPair.Tilt> tilts() {
        List<TiltedPair.Tilt> tilts = pair.tilts();
        if (tilts.isEmpty()) {
            throw new IllegalStateException("a pair with no tilt");
        }
        return tilts;
    }

    /** Balls-and-bins (k = 1) or k-of-T random allocation over E epochs of T steps at noise sigma. */
    static TiltedPairImportanceEstimator allocation(int steps, int k, int epochs, double sigma, long samples) {
        return new TiltedPairImportanceEstimator(new AllocationTiltedPair(steps, k, sigma), epochs, samples,
                steps + " steps");
    }

    /** The estimate's source line: the pair's method and the intervals'. */
    String source() {
        return pair.source() + "; intervals: " + EmpiricalBernstein.SOURCE;
    }

    /** {@code log g(theta)}, {@code g(theta) = max_u e^{-theta u} (1 - e^{-u})} ({@link TiltedProfileEstimator#logG}). */
    static double logG(double theta) {
        return TiltedProfileEstimator.logG(theta);
    }

    /** {@code log R} of tilt {@code tilt} at {@code eps}: the remove direction's Chernoff bound. */
    double logRange(TiltedPair.Tilt tilt, double eps) {
        return epochs * tilt.logWeightBound() - tilt.theta() * eps + logG(tilt.theta());
    }

    /** The tilt whose Chernoff bound at {@code eps} is smallest. */
    TiltedPair.Tilt bestTilt(double eps) {
        TiltedPair.Tilt best = tilts().get(0);
        for (TiltedPair.Tilt t : tilts()) {
            if (logRange(t, eps) < logRange(best, eps)) {
                best = t;
            }
        }
        return best;
    }

    /** The smallest ε whose remove-direction Chernoff bound is at most {@code delta} (an upper end of ε(δ)). */
    double chernoffEpsilon(double delta) {
        double best = Double.POSITIVE_INFINITY;
        for (TiltedPair.Tilt t : tilts()) {
            best = Math.min(best, (epochs * t.logWeightBound() + logG(t.theta()) - Math.log(delta)) / t.theta());
        }
        return Math.max(0, best);
    }

    /** {@code log} of the add direction's Chernoff bound at {@code eps} (0: no bound). */
    double logAddChernoff(double eps) {
        double best = 0;
        for (int i = 0; i <= 400; i++) {
            double th = 1e-3 * Math.pow(10, i / 40.0);
            double v = epochs * pair.logAddMoment(th) - th * eps + logG(th);
            best = Math.min(best, v);
        }
        return best;
    }

    @Override
    public PrivacyLossEstimate estimate(List<Double> epsilons, List<Double> deltas, double confidence,
            RandomStreams streams, int threads, ProgressListener progress) {
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, threads), r -> {
            Thread t = new Thread(r, "dp-audit-importance");
            t.setDaemon(true);
            return t;
        });
        try {
            expect(epsilons, deltas, pool, threads, progress);
            List<Band> bands = new ArrayList<>();
            for (double e : epsilons) {
                if (e >= 0 && Double.isFinite(e)) {
                    bands.add(Band.of(e, e, bestTilt(e)));
                }
            }
            long pilot = Math.max(200, (long) (samples * PILOT_FRACTION));
            for (double d : deltas) {
                if (d > 0 && d < 1) {
                    double guess = pilotEpsilon(d, pilot, streams, pool, threads);
                    bands.add(Band.of(guess * BAND_LOW, guess * BAND_HIGH, bestTilt(guess)));
                }
            }
            if (bands.isEmpty()) {
                bands.add(Band.of(0, 0, bestTilt(0)));
            }
            TreeMap<Double, int[]> owner = new TreeMap<>();
            for (int b = 0; b < bands.size(); b++) {
                for (int j = 0; j < bands.get(b).points(); j++) {
                    owner.putIfAbsent(bands.get(b).epsilon(j), new int[] {b, j});
                }
            }
            int k = owner.size();
            double alpha = (1 - confidence) / (4.0 * k);
            Sums[] remove = new Sums[bands.size()];
            for (int b = 0; b < bands.size(); b++) {
                Band band = bands.get(b);
                remove[b] = run(rng -> removeShard(band, rng), band.points(), samples, streams, pool, threads);
            }
            double[] grid = new double[k];
            int g = 0;
            for (double e : owner.keySet()) {
                grid[g++] = e;
            }
            Sums add = run(rng -> addShard(grid, rng), k, samples, streams, pool, threads);
            double[] lower = new double[k];
            double[] upper = new double[k];
            double[] point = new double[k];
            double[] ess = new double[k];
            double[] plain = new double[k];
            int i = 0;
            for (Map.Entry<Double, int[]> e : owner.entrySet()) {
                Band band = bands.get(e.getValue()[0]);
                int j = e.getValue()[1];
                double eps = e.getKey();
                double logR = logRange(band.tilt, eps);
                Sums s = remove[e.getValue()[0]];
                double r = Math.exp(logR);
                double rUp = Math.min(1.0, r * (1 + 1e-12));
                double removeUpper = Math.min(rUp, Math.min(1.0, EmpiricalBernstein.upper(s.n, s.sum[j],
                        s.sumOfSquares[j], alpha)) * rUp);
                double removeLower = EmpiricalBernstein.lower(s.n, s.sum[j], s.sumOfSquares[j], alpha) * r
                        * (1 - 1e-12);
                double removePoint = Math.min(1.0, s.sum[j] / s.n * r);
                double addUpper = Math.min(EmpiricalBernstein.upper(add.n, add.sum[i], add.sumOfSquares[i], alpha),
                        Math.exp(logAddChernoff(eps)) * (1 + 1e-12));
                if (epochs == 1) { // delta_Q(eps) <= Q(L < -eps), the pair's own tail bound
                    addUpper = Math.min(addUpper, Math.exp(pair.logAddTail(eps)) * (1 + 1e-12));
                }
                double addLower = EmpiricalBernstein.lower(add.n, add.sum[i], add.sumOfSquares[i], alpha);
                double addPoint = add.sum[i] / add.n;
                lower[i] = Math.max(0, Math.max(removeLower, addLower));
                upper[i] = Math.min(1.0, Math.max(removeUpper, addUpper));
                boolean removeLarger = removePoint >= addPoint;
                point[i] = Math.max(removePoint, addPoint);
                Sums src = removeLarger ? s : add;
                int idx = removeLarger ? j : i;
                double scale = removeLarger ? r : 1;
                ess[i] = src.sumOfSquares[idx] > 0 ? src.sum[idx] * src.sum[idx] / src.sumOfSquares[idx] : 0;
                double mean = src.sum[idx] / src.n;
                double variance = Math.max(0, src.sumOfSquares[idx] / src.n - mean * mean) * scale * scale / src.n;
                plain[i] = variance > 0 ? point[i] * (1 - point[i]) / variance : Double.POSITIVE_INFINITY;
                i++;
            }
            List<PrivacyLossEstimate.DeltaInterval> intervals = PrivacyLossEstimate.monotoneGrid(grid, lower, upper,
                    point);
            String bracket = String.format(Locale.ROOT, "exact log-likelihood ratio of %d epoch(s) of %s, "
                    + "white-box; %d targets, %d samples per target (remove direction, tilted) and %d plain samples of "
                    + "the add direction", epochs, what, bands.size(), samples, samples);
            return new PrivacyLossEstimate("importance", source(), confidence, samples, bracket, 0, intervals, ess,
                    plain);
        } finally {
            pool.shutdownNow();
        }
    }

    /** Probe samples that time the sampler before any counted one (on a stream of their own). */
    static final long PROBE_SAMPLES = 2000;

    /**
     * Tells {@code progress} what the estimate is expected to take (refused there when over its control's cap, naming
     * {@code estimate.samples}): the per-sample time of {@value #PROBE_SAMPLES} probe samples of the remove direction
     * (after as many untimed ones, the JIT's warm-up) times every sample the targets, their pilots and the add
     * direction will draw.
     */
    private void expect(List<Double> epsilons, List<Double> deltas, ExecutorService pool, int threads,
            ProgressListener progress) {
        long n = Math.min(PROBE_SAMPLES, samples);
        RandomStreams own = new RandomStreams(0x5eedL);
        Band probe = Band.of(1, 1, bestTilt(1));
        run(rng -> removeShard(probe, rng), 1, n, own, pool, threads);
        long start = System.nanoTime();
        run(rng -> removeShard(probe, rng), 1, n, own, pool, threads);
        double perSample = (System.nanoTime() - start) / 1e9 / n;
        long deltaTargets = deltas.stream().filter(d -> d > 0 && d < 1).count();
        long pilot = Math.max(200, (long) (samples * PILOT_FRACTION));
        long total = (epsilons.size() + deltaTargets + 1) * samples + 4 * deltaTargets * pilot;
        io.dpaudit.core.engine.RunControl.of(progress).expect(perSample * total, "estimate.samples", samples,
                String.format(Locale.ROOT, "%d samples of %d epoch(s) of %s at %.3g samples/s on %d thread(s)",
                        total, epochs, what, 1 / perSample, threads));
    }

    /**
     * ε̂ for a δ target: the Chernoff ε as the top of a band {@code [0.35, 1]} of it, sampled at the band's centre
     * tilt; the first band point whose point estimate is at most δ (looking again below the band, up to 4 times, when
     * that is its bottom).
     */
    private double pilotEpsilon(double delta, long n, RandomStreams streams, ExecutorService pool, int threads) {
        double top = chernoffEpsilon(delta);
        for (int round = 0; round < 4 && top > 0; round++) {
            Band band = Band.of(0.35 * top, top, bestTilt(0.7 * top));
            Sums s = run(rng -> removeShard(band, rng), band.points(), n, streams, pool, threads);
            int first = -1;
            for (int j = 0; j < band.points(); j++) {
                double r = Math.exp(logRange(band.tilt, band.epsilon(j)));
                if (s.sum[j] / s.n * r <= delta) {
                    first = j;
                    break;
                }
            }
            if (first < 0) {
                return top;
            }
            if (first > 0 || round == 3) {
                return band.epsilon(first);
            }
            top = band.lo;
        }
        return top;
    }

    /** A shard's sampler of the remove direction for {@code band}. */
    private Shard removeShard(Band band, UniformRandomProvider rng) {
        TiltedPair.EpochSampler sampler = band.tilt.sampler(rng);
        double theta = band.tilt.theta();
        double logGTheta = logG(theta);
        return (size, sums) -> {
            for (int i = 0; i < size; i++) {
                double loss = 0;
                double slack = 0;
                for (int e = 0; e < epochs; e++) {
                    loss += sampler.next();
                    slack += sampler.slack();
                }
                sums.n++;
                for (int j = 0; j < band.points(); j++) {
                    double u = loss - band.epsilon(j);
                    if (!(u > 0)) {
                        break; // the band's points increase: none further is below the loss
                    }
                    // Y / R = e^{slack - theta u} (1 - e^{-u}) / g(theta), at most 1 (1 up to rounding: clamped)
                    double y = Math.min(1.0, Math.exp(-theta * u - logGTheta + slack) * -Math.expm1(-u));
                    sums.sum[j] += y;
                    sums.sumOfSquares[j] += y * y;
                }
            }
        };
    }

    /** A shard's plain sampler of Q for the add direction, at every grid point. */
    private Shard addShard(double[] grid, UniformRandomProvider rng) {
        TiltedPair.EpochSampler sampler = pair.plain(rng);
        return (size, sums) -> {
            for (int i = 0; i < size; i++) {
                double loss = 0;
                for (int e = 0; e < epochs; e++) {
                    loss += sampler.next();
                }
                sums.n++;
                for (int j = 0; j < grid.length && grid[j] < -loss; j++) {
                    double y = -Math.expm1(grid[j] + loss);
                    sums.sum[j] += y;
                    sums.sumOfSquares[j] += y * y;
                }
            }
        };
    }

    /** Runs {@code n} samples in shards of {@value #SHARD}, each on its own stream taken in order, merged in order. */
    private static Sums run(Function<UniformRandomProvider, Shard> shards, int points, long n, RandomStreams streams,
            ExecutorService pool, int threads) {
        Sums total = null;
        long count = (n + SHARD - 1) / SHARD;
        int wave = Math.max(1, 4 * threads);
        for (long first = 0; first < count; first += wave) {
            int size = (int) Math.min(wave, count - first);
            List<Future<Sums>> futures = new ArrayList<>(size);
            for (int s = 0; s < size; s++) {
                int m = (int) Math.min(SHARD, n - (first + s) * SHARD);
                UniformRandomProvider rng = streams.next();
                futures.add(pool.submit(() -> {
                    Sums sums = new Sums(points);
                    shards.apply(rng).run(m, sums);
                    return sums;
                }));
            }
            for (Future<Sums> f : futures) {
                try {
                    Sums s = f.get();
                    if (total == null) {
                        total = s;
                    } else {
                        total.add(s);
                    }
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

    /** One shard's work: {@code size} samples added to {@code sums}. */
    private interface Shard {
        void run(int size, Sums sums);
    }

    /** Running sums of {@code Y / R} (remove) or {@code Y} (add) and their squares, per point. */
    private static final class Sums {
        final double[] sum;
        final double[] sumOfSquares;
        long n;

        Sums(int points) {
            sum = new double[points];
            sumOfSquares = new double[points];
        }

        void add(Sums o) {
            n += o.n;
            for (int j = 0; j < sum.length; j++) {
                sum[j] += o.sum[j];
                sumOfSquares[j] += o.sumOfSquares[j];
            }
        }
    }

    /** Evenly spaced ε from lo to hi ({@value #BAND_POINTS} + 1 points; one when equal), sampled at one tilt. */
    private record Band(double lo, double step, int points, TiltedPair.Tilt tilt) {
        static Band of(double lo, double hi, TiltedPair.Tilt tilt) {
            lo = Math.max(0, lo);
            return hi > lo ? new Band(lo, (hi - lo) / BAND_POINTS, BAND_POINTS + 1, tilt) : new Band(lo, 0, 1, tilt);
        }

        double epsilon(int j) {
            return lo + j * step;
        }
    }
}
