package io.dpaudit.mechanisms.batching;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;

/**
 * k-of-T random allocation's pair tilted by an integer power of its likelihood ratio, sampled exactly.
 *
 * <p>One epoch's pair: {@code P = C(T,k)^{-1} sum_{|B| = k} N(1_B, s^2 I_T)} against {@code Q = N(0, s^2 I_T)}; with
 * {@code w_t = e^{x_t / s^2 - 1/(2 s^2)}} (under Q, {@code E_Q[w^c] = mu_c = e^{c (c-1) tau^2 / 2}}, {@code tau = 1/s})
 * the likelihood ratio is {@code R = e_k(w) / C(T,k)}, the elementary symmetric polynomial, and {@code L = log R}.
 *
 * <p>For an integer {@code theta >= 1} the tilted law {@code r = P e^{theta L} / M = Q R^n / M}, {@code n = theta + 1},
 * is a finite mixture of shifted Gaussians: expanding {@code R^n} over n labels, each choosing a k-subset
 * {@code B_i}, gives {@code Q(x) prod_i prod_{t in B_i} w_t = N(x; sum_i 1_{B_i}, s^2 I) prod_t mu_{c_t}} with
 * {@code c_t} the number of labels whose subset holds t. So {@code M = E_P[e^{theta L}] = C(T,k)^{-n} sum over the
 * n-tuples of subsets of prod_t mu_{c_t}}, and a draw of r is: a tuple with probability proportional to
 * {@code prod_t mu_{c_t}}, then {@code x = sum_t c_t e_t + s Z}.
 *
 * <p><b>The tuple, exactly.</b> The labels choose in turn; adding a subset to the counts so far multiplies the weight
 * by {@code prod_{t in B} mu_{c_t + 1} / mu_{c_t} = e^{tau^2 sum_{t in B} c_t}}, which depends only on how many of its
 * k steps sit at each count level j. So the state after d labels is the profile {@code m_j} (how many steps have count
 * j; {@code m_0 = T - sum}), a transition takes {@code a_j} steps from level j ({@code sum a_j = k}) in
 * {@code prod_j C(m_j, a_j)} ways at weight {@code e^{tau^2 sum_j j a_j}}, and the tuples' total weight is a sum over
 * paths computed backwards ({@code Z_n = 1}, in log space). A draw walks forward with each transition's probability
 * {@code ways x weight x Z(next) / Z(state)}, then picks the steps: {@code a_j} uniformly among those at level j
 * (distinct, uniformly fresh ones for level 0). The profiles' number grows with {@code nk}; a tilt whose table would
 * pass {@value #MAX_TRANSITIONS} transitions is not built ({@link #build} returns null).
 *
 * <p>The importance weight {@code dP/dr = M e^{-theta L}} is a function of L (slack 0): at most {@code M e^{-theta eps}}
 * where {@code L >= eps}.
 */
final class SubsetTilt implements TiltedPair.Tilt {
    /** The largest table of profile transitions built for one tilt. */
    static final int MAX_TRANSITIONS = 400_000;

    private final int steps;
    private final int k;
    private final double sigma;
    private final int theta;
    private final double logM;
    private final State root;
    private final SubsetShiftLaw with;
    private final SubsetShiftLaw without;

    private SubsetTilt(int steps, int k, double sigma, int theta, State root, double logM) {
        this.steps = steps;
        this.k = k;
        this.sigma = sigma;
        this.theta = theta;
        this.root = root;
        this.logM = logM;
        this.with = new SubsetShiftLaw(steps, k, 1.0, sigma);
        this.without = new SubsetShiftLaw(steps, 0, 0.0, sigma);
    }

    /** A profile of counts after some labels, with its transitions to the next label's profiles. */
    private static final class State {
        final int[] m; // m[j]: steps with count j, j = 0..n
        double logZ;
        int[][] moves; // a[j] per transition
        State[] next;
        double[] logWays; // log(ways x weight) per transition
        double[] cumulative;

        State(int[] m) {
            this.m = m;
        }
    }

    /**
     * The tilt {@code theta} of k-of-T allocation at noise {@code sigma}, or null when its table of profiles would pass
     * {@value #MAX_TRANSITIONS} transitions.
     */
    static SubsetTilt build(int steps, int k, double sigma, int theta) {
        if (theta < 1 || k < 1 || k > steps) {
            throw new IllegalArgumentException("theta " + theta + ", k " + k + ", T " + steps);
        }
        int n = theta + 1;
        double tau2 = 1 / (sigma * sigma);
        int[] start = new int[n + 1];
        start[0] = steps;
        State root = new State(start);
        List<State> layer = List.of(root);
        List<List<State>> layers = new ArrayList<>();
        layers.add(layer);
        long transitions = 0;
        for (int d = 0; d < n; d++) {
            Map<String, State> nextLayer = new HashMap<>();
            for (State s : layer) {
                List<int[]> moves = new ArrayList<>();
                compositions(k, s.m, d, 0, new int[n + 1], moves);
                transitions += moves.size();
                if (transitions > MAX_TRANSITIONS) {
                    return null;
                }
                s.moves = moves.toArray(new int[0][]);
                s.next = new State[moves.size()];
                s.logWays = new double[moves.size()];
                for (int i = 0; i < s.moves.length; i++) {
                    int[] a = s.moves[i];
                    int[] m = s.m.clone();
                    double log = 0;
                    for (int j = 0; j <= d; j++) {
                        if (a[j] > 0) {
                            log += SubsetShiftLaw.logBinomial(s.m[j], a[j]) + tau2 * j * a[j];
                            m[j] -= a[j];
                            m[j + 1] += a[j];
                        }
                    }
                    s.logWays[i] = log;
                    s.next[i] = nextLayer.computeIfAbsent(Arrays.toString(m), key -> new State(m));
                }
            }
            layer = new ArrayList<>(nextLayer.values());
            layers.add(layer);
        }
        for (State s : layers.get(n)) {
            s.logZ = 0;
        }
        for (int d = n - 1; d >= 0; d--) {
            for (State s : layers.get(d)) {
                double top = Double.NEGATIVE_INFINITY;
                for (int i = 0; i < s.moves.length; i++) {
                    top = Math.max(top, s.logWays[i] + s.next[i].logZ);
                }
                double total = 0;
                for (int i = 0; i < s.moves.length; i++) {
                    total += Math.exp(s.logWays[i] + s.next[i].logZ - top);
                }
                s.logZ = top + Math.log(total);
                s.cumulative = new double[s.moves.length];
                double acc = 0;
                for (int i = 0; i < s.moves.length; i++) {
                    acc += Math.exp(s.logWays[i] + s.next[i].logZ - s.logZ);
                    s.cumulative[i] = acc;
                }
                s.cumulative[s.moves.length - 1] = 1.0;
            }
        }
        double logM = root.logZ - n * SubsetShiftLaw.logBinomial(steps, k);
        return new SubsetTilt(steps, k, sigma, theta, root, logM);
    }

    /** Every {@code a[0..d]} with {@code sum a = left} and {@code a[j] <= m[j]}, from level {@code j} on. */
    private static void compositions(int left, int[] m, int d, int j, int[] a, List<int[]> out) {
        if (j == d) {
            if (left <= m[d]) {
                a[d] = left;
                out.add(a.clone());
                a[d] = 0;
            }
            return;
        }
        for (int take = Math.min(left, m[j]); take >= 0; take--) {
            a[j] = take;
            compositions(left - take, m, d, j + 1, a, out);
        }
        a[j] = 0;
    }

    @Override
    public double theta() {
        return theta;
    }

    /** {@code log M = log E_P[e^{theta L}]}: the weight is exactly {@code M e^{-theta L}}. */
    @Override
    public double logWeightBound() {
        return logM;
    }

    @Override
    public TiltedPair.EpochSampler sampler(UniformRandomProvider rng) {
        return new Sampler(rng);
    }

    /** One shard's sampler: the touched steps and their counts, the output vector, all reused. */
    private final class Sampler implements TiltedPair.EpochSampler {
        private final UniformRandomProvider rng;
        private final ZigguratSampler.NormalizedGaussian gauss;
        private final int[] touchedStep;
        private final int[] touchedCount;
        private final int[] picked;
        private final int[] candidates;
        private final int[] fresh;
        private final double[] x;

        Sampler(UniformRandomProvider rng) {
            this.rng = rng;
            this.gauss = ZigguratSampler.NormalizedGaussian.of(rng);
            int slots = (theta + 1) * k;
            this.touchedStep = new int[slots];
            this.touchedCount = new int[slots];
            this.picked = new int[k];
            this.candidates = new int[slots];
            this.fresh = new int[k];
            this.x = new double[steps];
        }

        @Override
        public double next() {
            int touched = 0;
            State s = root;
            for (int depth = 0; depth <= theta; depth++) { // one label per step of the walk
                double u = rng.nextDouble();
                int i = 0;
                while (s.cumulative[i] < u) {
                    i++;
                }
                int[] a = s.moves[i];
                int pickedCount = 0;
                for (int j = 1; j <= depth; j++) {
                    if (a[j] == 0) {
                        continue;
                    }
                    int c = 0;
                    for (int q = 0; q < touched; q++) {
                        if (touchedCount[q] == j) {
                            candidates[c++] = q;
                        }
                    }
                    for (int r = 0; r < a[j]; r++) { // partial Fisher-Yates: a_j distinct slots of level j
                        int pick = r + rng.nextInt(c - r);
                        int tmp = candidates[r];
                        candidates[r] = candidates[pick];
                        candidates[pick] = tmp;
                        picked[pickedCount++] = candidates[r];
                    }
                }
                int fresher = 0;
                for (int r = 0; r < a[0]; r++) { // a_0 distinct untouched steps, uniformly
                    int t;
                    boolean ok;
                    do {
                        t = rng.nextInt(steps);
                        ok = true;
                        for (int q = 0; q < touched && ok; q++) {
                            ok = touchedStep[q] != t;
                        }
                        for (int q = 0; q < fresher && ok; q++) {
                            ok = fresh[q] != t;
                        }
                    } while (!ok);
                    fresh[fresher++] = t;
                }
                for (int q = 0; q < pickedCount; q++) {
                    touchedCount[picked[q]]++;
                }
                for (int q = 0; q < fresher; q++) {
                    touchedStep[touched] = fresh[q];
                    touchedCount[touched++] = 1;
                }
                s = s.next[i];
            }
            for (int t = 0; t < steps; t++) {
                x[t] = sigma * gauss.sample();
            }
            for (int q = 0; q < touched; q++) {
                x[touchedStep[q]] += touchedCount[q];
            }
            return with.logRatio(without, x, 0);
        }

        @Override
        public double slack() {
            return 0;
        }
    }

    /** One epoch under Q: {@code L = log(e_k(w) / C(T,k))} of {@code x = s Z}. */
    static TiltedPair.EpochSampler plain(int steps, int k, double sigma, UniformRandomProvider rng) {
        SubsetShiftLaw with = new SubsetShiftLaw(steps, k, 1.0, sigma);
        SubsetShiftLaw without = new SubsetShiftLaw(steps, 0, 0.0, sigma);
        ZigguratSampler.NormalizedGaussian gauss = ZigguratSampler.NormalizedGaussian.of(rng);
        double[] x = new double[steps];
        return new TiltedPair.EpochSampler() {
            @Override
            public double next() {
                for (int t = 0; t < steps; t++) {
                    x[t] = sigma * gauss.sample();
                }
                return with.logRatio(without, x, 0);
            }

            @Override
            public double slack() {
                return 0;
            }
        };
    }
}
