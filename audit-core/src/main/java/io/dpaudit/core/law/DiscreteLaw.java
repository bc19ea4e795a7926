package io.dpaudit.core.law;

import io.dpaudit.core.numerics.LogSpace;
import java.util.Arrays;

/**
 * A law on the finite set of atoms {@code 0, 1, ..., A-1}: the statistic is one number, the index of the atom that
 * occurred (a mechanism maps its sufficient statistic — a count, a pair of counts, a symbol — to an atom index and
 * says what each atom means in {@link #describeAtom}). Probabilities are held as logarithms, so that atoms in far
 * tails keep their relative precision; they are exact up to the mechanism's own evaluation of them.
 *
 * <p>The density is with respect to counting measure: {@code logDensity(i) = log P(atom i)}, and {@code -inf} at a
 * number that is not an atom index. Two discrete laws over the same atoms form a neighbouring pair whose
 * log-likelihood ratio is {@link #logRatio}.
 */
public final class DiscreteLaw implements StatisticLaw {
    private final double[] logProbabilities;
    private final AtomNames names;

    /** What each atom stands for, for reports and messages. */
    @FunctionalInterface
    public interface AtomNames {
        /** A short name of atom {@code i}, e.g. {@code "K=12, ones=7"}. */
        String name(int atom);
    }

    /**
     * @param logProbabilities {@code log P(atom i)}, each {@code <= 0} or {@code -inf}; they must sum to 1 within
     *     1e-9 (mass deliberately dropped from far tails belongs in an atom of its own, so that the law stays a law)
     * @param names what the atoms stand for
     */
    public DiscreteLaw(double[] logProbabilities, AtomNames names) {
        if (logProbabilities.length == 0) {
            throw new IllegalArgumentException("a discrete law needs at least one atom");
        }
        for (double l : logProbabilities) {
            if (Double.isNaN(l) || l > 1e-12) {
                throw new IllegalArgumentException("log-probabilities must be <= 0, not " + l);
            }
        }
        double total = Math.exp(LogSpace.sum(logProbabilities, 0, logProbabilities.length));
        if (Math.abs(total - 1) > 1e-9) {
            throw new IllegalArgumentException("probabilities sum to " + total);
        }
        this.logProbabilities = logProbabilities.clone();
        this.names = names;
    }

    /** A law from probabilities (each in [0, 1], summing to 1 within 1e-9). */
    public static DiscreteLaw ofProbabilities(double[] probabilities, AtomNames names) {
        return new DiscreteLaw(Arrays.stream(probabilities).map(Math::log).toArray(), names);
    }

    @Override
    public int dimension() {
        return 1;
    }

    /** Number of atoms. */
    public int atoms() {
        return logProbabilities.length;
    }

    /** {@code log P(atom i)}. */
    public double logProbability(int atom) {
        return logProbabilities[atom];
    }

    /** {@code P(atom i)}. */
    public double probability(int atom) {
        return Math.exp(logProbabilities[atom]);
    }

    /** All probabilities, a new array. */
    public double[] probabilities() {
        return Arrays.stream(logProbabilities).map(Math::exp).toArray();
    }

    /** What atom {@code i} stands for. */
    public String describeAtom(int atom) {
        return names.name(atom);
    }

    @Override
    public double logDensity(double[] x, int offset) {
        double v = x[offset];
        if (!(v >= 0 && v < logProbabilities.length) || v != Math.rint(v)) {
            return Double.NEGATIVE_INFINITY;
        }
        return logProbabilities[(int) v];
    }

    /**
     * The per-atom log-likelihood ratio {@code log P(i) - log Q(i)} of this law {@code P} against {@code other}
     * ({@code Q}) over the same atoms: {@code +inf} where only {@code P} has mass, {@code -inf} where only {@code Q}
     * has, NaN where neither has (an atom no output ever lands on).
     */
    public double[] logRatio(DiscreteLaw other) {
        if (other.atoms() != atoms()) {
            throw new IllegalArgumentException("laws over " + atoms() + " and " + other.atoms() + " atoms");
        }
        double[] r = new double[atoms()];
        for (int i = 0; i < r.length; i++) {
            double a = logProbabilities[i];
            double b = other.logProbabilities[i];
            r[i] = a == Double.NEGATIVE_INFINITY && b == Double.NEGATIVE_INFINITY ? Double.NaN : a - b;
        }
        return r;
    }
}
