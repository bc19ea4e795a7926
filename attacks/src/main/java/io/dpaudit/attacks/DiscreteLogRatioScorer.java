package io.dpaudit.attacks;

import io.dpaudit.core.engine.LossBracket;
import io.dpaudit.core.engine.Scorer;
import io.dpaudit.core.law.DiscreteLaw;
import io.dpaudit.core.model.LinearStatistic;
import io.dpaudit.core.model.OutputModel;
import io.dpaudit.core.model.RoundStatistic;
import java.util.Arrays;
import java.util.Locale;

/**
 * The exact likelihood-ratio attack for a discrete per-round statistic (an atom index), scored so that every value
 * of the log-likelihood ratio is counted exactly.
 *
 * <p>Per atom {@code i} the ratio {@code L_i = log P(i) - log Q(i)} is tabulated once. It is rounded to the lattice
 * {@code 2^-b Z} ({@code b <= 32}, chosen so that a sum over all rounds stays below 2^52 in magnitude) and summed over
 * rounds in integer arithmetic: a trial's score is then an exact function of the <i>multiset</i> of atoms it produced,
 * whatever their order, and outputs whose ratios are equal (up to the lattice) are tied exactly rather than split by
 * floating-point rounding. The rounded ratio differs from the exact one by at most {@code T 2^-(b+1)}; it is still a
 * fixed function of the output, so every test on it is a valid test, and only the attack's optimality is
 * approximate — to about {@code T 10^-10}.
 *
 * <p><b>Exact counting.</b> When the set of values the score can take is small enough to enumerate — always for one
 * round (at most one value per atom), and for {@code T} rounds when the {@code T}-fold sumset of the per-round values
 * has at most 2^20 elements — the score is the <i>rank</i> of the value in that sorted set and
 * {@link #rankValues()} gives the set, so the engine's histogram gives each value a slot of its own and every
 * threshold test "ratio at least v" is evaluated on exact counts (no binning). Otherwise the score is the rounded ratio
 * itself, histogrammed like a continuous score.
 *
 * <p>Why no randomised tests: along the ROC segment between two consecutive thresholds both error rates are affine
 * in the randomisation weight, so {@code TPR - e^eps FPR} is affine and {@code (TPR - delta)/FPR} a ratio of affine
 * functions — both monotone. The (ε, δ) objectives are therefore optimised at a vertex, a deterministic threshold at a
 * value, and the exact counts reach the Neyman–Pearson optimum for them.
 *
 * <p>Atoms with {@code P(i) > 0 = Q(i)} score {@code +inf} (they prove the world is {@code D}) and the reverse
 * {@code -inf}; atoms with no mass in either world score NaN, which the engine reports as a simulator bug.
 */
final class DiscreteLogRatioScorer implements Scorer {
    /** Largest number of distinct score values counted exactly. */
    static final int MAX_EXACT_VALUES = 1 << 20;
    /** Largest work (sumset size times per-round values) spent enumerating the values of a sum over rounds. */
    private static final long MAX_ENUMERATION_WORK = 1L << 23;
    private static final int MAX_LATTICE_BITS = 32;

    private final int rounds;
    private final int roundDimension;
    private final RoundStatistic statistic;
    private final boolean atomIsOutput;
    /** Per atom: the rounded ratio in lattice units; meaningful where {@code kind == 0}. */
    private final long[] lattice;
    /** Per atom: 0 finite, 1 plus infinity, -1 minus infinity, 2 no mass in either world. */
    private final byte[] kind;
    private final double unit;
    /** Sorted finite sums (lattice units) when counted exactly; null otherwise. */
    private final long[] sums;
    private final boolean hasPlusInfinity;
    private final boolean hasMinusInfinity;
    private final double[] rankValues;
    /** One round with exact ranks: the score of each atom, looked up directly (NaN for atoms without mass). */
    private final double[] scoreOfAtom;

    private DiscreteLogRatioScorer(OutputModel model, double[] ratio) {
        this.rounds = model.rounds();
        this.roundDimension = model.roundDimension();
        this.statistic = model.statistic();
        LinearStatistic linear = model.linearStatistic();
        this.atomIsOutput = linear != null && linear.isIdentity();
        int atoms = ratio.length;
        this.kind = new byte[atoms];
        double maxFinite = 1.0;
        boolean plus = false;
        boolean minus = false;
        for (int i = 0; i < atoms; i++) {
            double r = ratio[i];
            if (Double.isNaN(r)) {
                kind[i] = 2;
            } else if (r == Double.POSITIVE_INFINITY) {
                kind[i] = 1;
                plus = true;
            } else if (r == Double.NEGATIVE_INFINITY) {
                kind[i] = -1;
                minus = true;
            } else {
                maxFinite = Math.max(maxFinite, Math.abs(r));
            }
        }
        this.hasPlusInfinity = plus;
        this.hasMinusInfinity = minus;
        int bits = (int) Math.min(MAX_LATTICE_BITS, Math.floor(52 - Math.log(rounds * maxFinite) / Math.log(2)));
        this.unit = Math.scalb(1.0, -bits);
        this.lattice = new long[atoms];
        for (int i = 0; i < atoms; i++) {
            if (kind[i] == 0) {
                lattice[i] = Math.round(Math.scalb(ratio[i], bits));
            }
        }
        this.sums = enumerateSums();
        if (sums == null) {
            this.rankValues = null;
        } else {
            int n = sums.length + (plus ? 1 : 0) + (minus ? 1 : 0);
            double[] v = new double[n];
            int o = 0;
            if (minus) {
                v[o++] = Double.NEGATIVE_INFINITY;
            }
            for (long s : sums) {
                v[o++] = s * unit;
            }
            if (plus) {
                v[o] = Double.POSITIVE_INFINITY;
            }
            this.rankValues = v;
        }
        if (rounds == 1 && sums != null) {
            this.scoreOfAtom = new double[atoms];
            for (int i = 0; i < atoms; i++) {
                scoreOfAtom[i] = kind[i] == 0 ? finiteScore(lattice[i])
                        : infiniteScore(kind[i] == 1 ? 1 : kind[i] == -1 ? 1000 : 1_000_000);
            }
        } else {
            this.scoreOfAtom = null;
        }
    }

    /** The scorer for a model whose laws are discrete over the same atoms. */
    static DiscreteLogRatioScorer of(OutputModel model, DiscreteLaw with, DiscreteLaw without) {
        return new DiscreteLogRatioScorer(model, with.logRatio(without));
    }

    /** The sorted distinct finite values of a sum of {@code rounds} per-round values; null when too many. */
    private long[] enumerateSums() {
        long[] perRound = Arrays.stream(indicesOfKind(0)).mapToLong(i -> lattice[i]).sorted().distinct().toArray();
        if (perRound.length == 0) {
            return new long[0];
        }
        long[] current = {0L};
        for (int t = 0; t < rounds; t++) {
            if ((long) current.length * perRound.length > MAX_ENUMERATION_WORK) {
                return null;
            }
            long[] next = new long[current.length * perRound.length];
            int o = 0;
            for (long a : current) {
                for (long b : perRound) {
                    next[o++] = a + b;
                }
            }
            current = Arrays.stream(next).sorted().distinct().toArray();
            if (current.length > MAX_EXACT_VALUES) {
                return null;
            }
        }
        return current;
    }

    private int[] indicesOfKind(int k) {
        int n = 0;
        for (byte b : kind) {
            if (b == k) {
                n++;
            }
        }
        int[] idx = new int[n];
        int o = 0;
        for (int i = 0; i < kind.length; i++) {
            if (kind[i] == k) {
                idx[o++] = i;
            }
        }
        return idx;
    }

    @Override
    public int outputLength() {
        return rounds * roundDimension;
    }

    @Override
    public double[] rankValues() {
        return rankValues == null ? null : rankValues.clone();
    }

    @Override
    public double[] score(double[] outputs, int trials, double[] scores) {
        if (scoreOfAtom != null && atomIsOutput) {
            // One round, exact ranks: a table lookup per trial (the billion-trial path).
            double[] table = scoreOfAtom;
            for (int i = 0; i < trials; i++) {
                scores[i] = table[(int) outputs[i]];
            }
            return scores;
        }
        double[] s = atomIsOutput ? null : new double[statistic.dimension()];
        for (int i = 0; i < trials; i++) {
            long sum = 0;
            int infinities = 0; // +1 per plus-infinity round, +1000 per minus-infinity round, huge for no-mass
            for (int t = 0; t < rounds; t++) {
                int base = (i * rounds + t) * roundDimension;
                int atom;
                if (atomIsOutput) {
                    atom = (int) outputs[base];
                } else if (statistic.extract(outputs, base, s)) {
                    atom = (int) s[0];
                } else {
                    continue;
                }
                byte k = kind[atom];
                if (k == 0) {
                    sum += lattice[atom];
                } else {
                    infinities += k == 1 ? 1 : k == -1 ? 1000 : 1_000_000;
                }
            }
            scores[i] = infinities == 0 ? finiteScore(sum) : infiniteScore(infinities);
        }
        return scores;
    }

    private double finiteScore(long sum) {
        if (sums == null) {
            return sum * unit;
        }
        int r = Arrays.binarySearch(sums, sum);
        return (hasMinusInfinity ? 1 : 0) + r; // r >= 0: every reachable sum was enumerated
    }

    /** Rare path: some round proved one world (or no atom had mass: a simulator bug, scored NaN). */
    private double infiniteScore(int infinities) {
        if (infinities >= 1_000_000 || (infinities % 1000 != 0 && infinities >= 1000)) {
            return Double.NaN; // a no-mass atom, or proofs of both worlds in one output
        }
        boolean plus = infinities < 1000;
        if (sums == null) {
            return plus ? Double.POSITIVE_INFINITY : Double.NEGATIVE_INFINITY;
        }
        return plus ? rankValues.length - 1 : 0;
    }

    /**
     * Each round's ratio is rounded to the lattice (error at most half a unit) from a value computed in floating
     * point; the bracket applies to the score, or to the rank values when the score is a rank.
     */
    @Override
    public LossBracket lossBracket() {
        return LossBracket.within(rounds * (unit / 2 + LikelihoodRatioAttack.ROUND_SLACK),
                LikelihoodRatioAttack.RELATIVE_SLACK);
    }

    @Override
    public String description() {
        return String.format(Locale.ROOT, "%s: exact LLR of a discrete statistic (per-atom table, %s), summed over "
                + "%d round(s); %s", LikelihoodRatioAttack.NAME, "rounded to 2^-" + Math.round(-Math.log(unit)
                / Math.log(2)), rounds, rankValues != null ? "every one of its " + rankValues.length
                + " values counted exactly" : "histogrammed (too many distinct values to count exactly)");
    }
}
