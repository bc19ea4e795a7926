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
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;

/**
 * Importance sampling of balls-and-bins' privacy profile over E epochs, with intervals that hold with no assumption
 * on the weights' tails: {@code estimate.method = importance} for {@code balls-and-bins}, whose rounds are dependent
 * (the generic estimator tilts independent rounds and refuses it).
 *
 * <p><b>The remove direction</b> ({@code delta_P(eps) = E_P[(1 - e^{eps - L})_+]}, L the E epochs' summed loss): the
 * samples are drawn from the tilted law {@code r = prod_e P e^{theta L_e} / M(theta)} ({@link AllocationTilt}, an
 * integer theta, exact), and {@code Y = M^E e^{-theta L} (1 - e^{eps - L})_+} has mean {@code delta_P(eps)} and lies in
 * {@code [0, R]} with {@code R = M^E e^{-theta eps} g(theta)}, {@code g(theta) = max_u e^{-theta u} (1 - e^{-u})}:
 * Maurer &amp; Pontil's empirical Bernstein bounds on {@code Y / R} in [0, 1] give the interval, and R itself is a
 * deterministic (Chernoff) upper bound. Each target has its own theta (the one minimising R at its centre).
 *
 * <p><b>The add direction</b> ({@code delta_Q(eps) = E_Q[(1 - e^{eps + L})_+]}): plain sampling of Q, whose
 * empirical Bernstein interval is tight where delta_Q is not small, and above it the Chernoff bound
 * {@code delta_Q(eps) <= g(theta') e^{-theta' eps} E_Q[e^{-theta' L}]^E} with
 * {@code E_Q[e^{-theta' L}] <= e^{theta' (1 + theta'/T) tau^2 / 2}} (the arithmetic mean S/T is at least the geometric
 * mean of the independent w_t), minimised over theta'. The profile is the larger of the two directions at every
 * point; every statement of the grid holds simultaneously at the stated confidence (a union bound over the grid, both
 * directions and both sides).
 */
final class AllocationImportanceEstimator implements ProfileEstimation {
    static final String SOURCE = "importance sampling of balls-and-bins from its likelihood-ratio-tilted law P e^{theta "
            + "L} / M(theta) (integer theta: a finite mixture of shifted Gaussians, sampled exactly), whose weights are "
            + "at most M^E e^{-theta eps} where the profile's integrand is non-zero; add direction by plain sampling and "
            + "a Chernoff bound; intervals: " + EmpiricalBernstein.SOURCE;
    static final int SHARD = 1 << 11;
    static final int BAND_POINTS = 64;
    static final double PILOT_FRACTION = 0.1;
    static final double BAND_LOW = 0.85;
    static final double BAND_HIGH = 1.15;

    private final int steps;
    private final int epochs;
    private final double sigma;
    private final double tau;
    private final long samples;
    private final AllocationTilt[] tilts;

    /**
     * @param steps T
     * @param epochs E
     * @param sigma the noise multiplier (the canary's shift is 1)
     * @param samples samples per target and direction
     */
    AllocationImportanceEstimator(int steps, int epochs, double sigma, long samples) {
        this.steps = steps;
        this.epochs = epochs;
        this.sigma = sigma;
        this.tau = 1 / sigma;
        this.samples = samples;
        this.tilts = new AllocationTilt[AllocationTilt.MAX_THETA];
        for (int t = 1; t <= AllocationTilt.MAX_THETA; t++) {
            tilts[t - 1] = new AllocationTilt(steps, 1.0, sigma, t);
        }
    }

    /** {@code log g(theta)}, {@code g(theta) = max_u e^{-theta u} (1 - e^{-u})} ({@link TiltedProfileEstimator#logG}). */
    static double logG(double theta) {
        return TiltedProfileEstimator.logG(theta);
    }

    /** {@code log R} of tilt {@code tilt} at {@code eps}: the remove direction's Chernoff bound. */
    double logRange(AllocationTilt tilt, double eps) {
        return epochs * tilt.logM() - tilt.theta() * eps + logG(tilt.theta());
    }

    /** The tilt whose Chernoff bound at {@code eps} is smallest. */
    AllocationTilt bestTilt(double eps) {
        AllocationTilt best = tilts[0];
        for (AllocationTilt t : tilts) {
            if (logRange(t, eps) < logRange(best, eps)) {
                best = t;
            }
        }
        return best;
    }

    /** The smallest ε whose remove-direction Chernoff bound is at most {@code delta} (an upper end of ε(δ)). */
    double chernoffEpsilon(double delta) {
        double best = Double.POSITIVE_INFINITY;
        for (AllocationTilt t : tilts) {
            best = Math.min(best, (epochs * t.logM() + logG(t.theta()) - Math.log(delta)) / t.theta());
        }
        return Math.max(0, best);
    }

    /** {@code log} of the add direction's Chernoff bound at {@code eps} (0: no bound). */
    double logAddChernoff(double eps) {
        double best = 0;
        for (int i = 0; i <= 400; i++) {
            double th = 1e-3 * Math.pow(10, i / 40.0);
            double v = epochs * th * (1 + th / steps) * tau * tau / 2 - th * eps + logG(th);
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
            String bracket = String.format(Locale.ROOT, "exact log-likelihood ratio of %d epoch(s) of %d steps, "
                    + "white-box; %d targets, %d samples per target (remove direction, tilted) and %d plain samples of "
                    + "the add direction", epochs, steps, bands.size(), samples, samples);
            return new PrivacyLossEstimate("importance", SOURCE, confidence, samples, bracket, 0, intervals, ess,
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
                String.format(Locale.ROOT, "%d samples of %d epoch(s) of %d steps at %.3g samples/s on %d thread(s)",
                        total, epochs, steps, 1 / perSample, threads));
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
        ZigguratSampler.NormalizedGaussian gauss = ZigguratSampler.NormalizedGaussian.of(rng);
        int[] chosen = new int[AllocationTilt.MAX_THETA + 1];
        int[] counts = new int[AllocationTilt.MAX_THETA + 1];
        AllocationTilt tilt = band.tilt;
        double theta = tilt.theta();
        double logGTheta = logG(theta);
        return (size, sums) -> {
            for (int i = 0; i < size; i++) {
                double loss = 0;
                for (int e = 0; e < epochs; e++) {
                    loss += tilt.sampleLoss(rng, gauss, chosen, counts);
                }
                sums.n++;
                for (int j = 0; j < band.points(); j++) {
                    double u = loss - band.epsilon(j);
                    if (!(u > 0)) {
                        break; // the band's points increase: none further is below the loss
                    }
                    double y = Math.min(1.0, Math.exp(-theta * u - logGTheta) * -Math.expm1(-u));
                    sums.sum[j] += y;
                    sums.sumOfSquares[j] += y * y;
                }
            }
        };
    }

    /** A shard's plain sampler of Q for the add direction, at every grid point. */
    private Shard addShard(double[] grid, UniformRandomProvider rng) {
        ZigguratSampler.NormalizedGaussian gauss = ZigguratSampler.NormalizedGaussian.of(rng);
        int[] none = new int[0];
        return (size, sums) -> {
            for (int i = 0; i < size; i++) {
                double loss = 0;
                for (int e = 0; e < epochs; e++) {
                    loss += AllocationTilt.lossOf(gauss, steps, 1.0, sigma, none, none, 0);
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
    private record Band(double lo, double step, int points, AllocationTilt tilt) {
        static Band of(double lo, double hi, AllocationTilt tilt) {
            lo = Math.max(0, lo);
            return hi > lo ? new Band(lo, (hi - lo) / BAND_POINTS, BAND_POINTS + 1, tilt) : new Band(lo, 0, 1, tilt);
        }

        double epsilon(int j) {
            return lo + j * step;
        }
    }
}
