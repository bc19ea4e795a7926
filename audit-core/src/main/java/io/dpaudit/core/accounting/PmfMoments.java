package io.dpaudit.core.accounting;

/**
 * The moment generating functions of one {@link PrivacyLossPmf}'s finite part, in index units: what
 * {@link PmfComposition} chooses a composition's Chernoff window and exponential tilt by. Computed from the masses as
 * stored, with the log masses and the non-zero indices cached once per PLD.
 */
final class PmfMoments {
    /** Entries per block of {@link #blockedLogMoment}. */
    static final int BLOCK = 64;

    private final PrivacyLossPmf pmf;
    private final double[] m;

    PmfMoments(PrivacyLossPmf pmf) {
        this.pmf = pmf;
        this.m = pmf.masses();
    }
    private volatile double[] blockLogMassCache;

    /**
     * An upper bound on {@link #logMoment}: the masses of each block of {@value #BLOCK} entries put at the block's
     * last index for {@code t > 0}, its first for {@code t < 0}.
     */
    double blockedLogMoment(double t) {
        double[] blocks = blockLogMassCache;
        if (blocks == null) {
            blocks = new double[(m.length + BLOCK - 1) / BLOCK];
            for (int b = 0; b < blocks.length; b++) {
                double sum = 0;
                for (int j = b * BLOCK; j < Math.min(m.length, (b + 1) * BLOCK); j++) {
                    sum += m[j];
                }
                blocks[b] = Math.log(sum);
            }
            blockLogMassCache = blocks;
        }
        double max = Double.NEGATIVE_INFINITY;
        for (int b = 0; b < blocks.length; b++) {
            int j = t > 0 ? Math.min(m.length - 1, (b + 1) * BLOCK - 1) : b * BLOCK;
            max = Math.max(max, blocks[b] + t * (pmf.offset() + j));
        }
        if (max == Double.NEGATIVE_INFINITY) {
            return Double.NEGATIVE_INFINITY;
        }
        double s = 0;
        for (int b = 0; b < blocks.length; b++) {
            int j = t > 0 ? Math.min(m.length - 1, (b + 1) * BLOCK - 1) : b * BLOCK;
            s += Math.exp(blocks[b] + t * (pmf.offset() + j) - max);
        }
        return max + Math.log(s);
    }

    /**
     * The cumulant generating function {@code K(t) = log sum_j p_j e^{t (pmf.offset() + j)}} (index units) and its first
     * two derivatives, the tilted mean and variance of the index, into {@code out[0..2]}; one pass, centred for
     * accuracy.
     */
    void cumulants(double t, double[] out) {
        double[] lm = logMasses();
        int[] nz = nonZero();
        double max = Double.NEGATIVE_INFINITY;
        for (int j : nz) {
            max = Math.max(max, lm[j] + t * j);
        }
        if (max == Double.NEGATIVE_INFINITY) {
            out[0] = Double.NEGATIVE_INFINITY;
            out[1] = Double.NaN;
            out[2] = Double.NaN;
            return;
        }
        double centre = 0.5 * (m.length - 1);
        double s0 = 0;
        double s1 = 0;
        double s2 = 0;
        for (int j : nz) {
            double w = Math.exp(lm[j] + t * j - max);
            double d = j - centre;
            s0 += w;
            s1 += w * d;
            s2 += w * d * d;
        }
        double mean = s1 / s0;
        out[0] = max + Math.log(s0) + t * pmf.offset();
        out[1] = pmf.offset() + centre + mean;
        out[2] = Math.max(0.0, s2 / s0 - mean * mean);
    }

    /** {@code log sum_j p_j e^{t (pmf.offset() + j)}}, the log moment generating function in index units. */
    double logMoment(double t) {
        double[] lm = logMasses();
        int[] nz = nonZero();
        double max = Double.NEGATIVE_INFINITY;
        for (int j : nz) {
            max = Math.max(max, lm[j] + t * (pmf.offset() + j));
        }
        if (max == Double.NEGATIVE_INFINITY) {
            return Double.NEGATIVE_INFINITY;
        }
        double s = 0;
        for (int j : nz) {
            s += Math.exp(lm[j] + t * (pmf.offset() + j) - max);
        }
        return max + Math.log(s);
    }

    private volatile double[] logMassCache;
    private volatile int[] nonZeroCache;

    private double[] logMasses() {
        double[] lm = logMassCache;
        if (lm == null) {
            lm = new double[m.length];
            for (int j = 0; j < m.length; j++) {
                lm[j] = Math.log(m[j]);
            }
            logMassCache = lm;
        }
        return lm;
    }

    private int[] nonZero() {
        int[] nz = nonZeroCache;
        if (nz == null) {
            nz = java.util.stream.IntStream.range(0, m.length).filter(j -> m[j] > 0).toArray();
            nonZeroCache = nz;
        }
        return nz;
    }

    /** This (untilted) PLD's finite part tilted by {@code e^{theta l}} and normalised; its log normaliser. */
    PrivacyLossPmf tilted(double t) {
        double logNorm = logMoment(t * pmf.h()); // log sum_j p_j e^{t l_j}, since l_j = (pmf.offset() + j) h
        double[] p = new double[m.length];
        for (int j = 0; j < m.length; j++) {
            p[j] = m[j] > 0 ? Math.exp(Math.log(m[j]) + t * pmf.loss(j) - logNorm) : 0.0;
        }
        return new PrivacyLossPmf(pmf.h(), pmf.offset(), p, 0.0, 0.0, t, logNorm, Double.NEGATIVE_INFINITY);
    }

    /** {@code sum_j p_j e^{t l_j} l_j / sum_j p_j e^{t l_j}}, without allocating. */
    double tiltedMeanLoss(double t) {
        double[] lm = logMasses();
        int[] nz = nonZero();
        double max = Double.NEGATIVE_INFINITY;
        for (int j : nz) {
            max = Math.max(max, lm[j] + t * pmf.loss(j));
        }
        double s0 = 0;
        double s1 = 0;
        for (int j : nz) {
            double w = Math.exp(lm[j] + t * pmf.loss(j) - max);
            s0 += w;
            s1 += w * pmf.loss(j);
        }
        return s1 / s0;
    }
}
