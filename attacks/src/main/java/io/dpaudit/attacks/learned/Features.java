package io.dpaudit.attacks.learned;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The features logistic regression sees: for each coordinate {@code x_j} of the output, {@code x_j} and
 * {@code x_j^2} standardised over the pooled fitting sample (non-finite values count as 0 there), and an indicator
 * {@code 1[x_j = a]} for each atom {@code a} — a value the coordinate takes in at least 1% of the pooled sample, at
 * most {@value #MAX_ATOMS} per coordinate — so that flags and sentinels inside a continuous coordinate (an aborted
 * query's -1, a "false" of -1000) are features of their own. Plus a constant.
 */
final class Features {
    static final int MAX_ATOMS = 4;
    static final double ATOM_SHARE = 0.01;
    /** At most this many coordinates get squares and atoms; beyond, only the raw values (bounds the Newton steps). */
    static final int RICH_COORDINATES = 64;

    private final int length;
    private final double[] mean;
    private final double[] scale;
    private final double[] squareMean;
    private final double[] squareScale;
    private final double[][] atoms;
    private final int count;

    private Features(int length, double[] mean, double[] scale, double[] squareMean, double[] squareScale,
            double[][] atoms) {
        this.length = length;
        this.mean = mean;
        this.scale = scale;
        this.squareMean = squareMean;
        this.squareScale = squareScale;
        this.atoms = atoms;
        int c = 1 + length;
        for (int j = 0; j < length; j++) {
            c += (squareScale[j] > 0 ? 1 : 0) + atoms[j].length;
        }
        this.count = c;
    }

    /** Standardisation and atoms from the pooled fitting sample. */
    static Features of(TrainingSample s) {
        int l = s.length();
        int n = 2 * s.fitCount();
        double[] mean = new double[l];
        double[] scale = new double[l];
        double[] sqMean = new double[l];
        double[] sqScale = new double[l];
        double[][] atoms = new double[l][];
        double[] column = new double[n];
        for (int j = 0; j < l; j++) {
            for (int i = 0; i < s.fitCount(); i++) {
                column[i] = s.fitWith()[i * l + j];
                column[s.fitCount() + i] = s.fitWithout()[i * l + j];
            }
            double m = 0;
            double q = 0;
            for (double v : column) {
                double x = Double.isFinite(v) ? v : 0;
                m += x;
                q += x * x;
            }
            m /= n;
            double var = Math.max(0, q / n - m * m);
            mean[j] = m;
            scale[j] = var > 0 ? Math.sqrt(var) : 1;
            boolean rich = j < RICH_COORDINATES;
            if (rich) {
                double sm = 0;
                double sq = 0;
                for (double v : column) {
                    double x = Double.isFinite(v) ? v : 0;
                    double x2 = x * x;
                    sm += x2;
                    sq += x2 * x2;
                }
                sm /= n;
                double v2 = sq / n - sm * sm;
                sqMean[j] = sm;
                sqScale[j] = v2 > 1e-300 && Double.isFinite(v2) ? Math.sqrt(v2) : 0;
                atoms[j] = frequentValues(column);
            } else {
                atoms[j] = new double[0];
            }
        }
        return new Features(l, mean, scale, sqMean, sqScale, atoms);
    }

    /** Values taking at least {@link #ATOM_SHARE} of the column, the most frequent first, at most {@link #MAX_ATOMS}. */
    private static double[] frequentValues(double[] column) {
        double[] sorted = column.clone();
        Arrays.sort(sorted);
        List<double[]> runs = new ArrayList<>(); // {value, count}
        int start = 0;
        for (int i = 1; i <= sorted.length; i++) {
            if (i == sorted.length || Double.compare(sorted[i], sorted[start]) != 0) {
                int len = i - start;
                if (len >= ATOM_SHARE * sorted.length) {
                    runs.add(new double[] {sorted[start], len});
                }
                start = i;
            }
        }
        runs.sort((a, b) -> Double.compare(b[1], a[1]));
        double[] out = new double[Math.min(MAX_ATOMS, runs.size())];
        for (int i = 0; i < out.length; i++) {
            out[i] = runs.get(i)[0];
        }
        return out;
    }

    /** Number of features, the constant included. */
    int count() {
        return count;
    }

    /** Writes the features of the output at {@code x[offset, offset + length)} into {@code f[0, count)}. */
    void compute(double[] x, int offset, double[] f) {
        int k = 0;
        f[k++] = 1.0;
        for (int j = 0; j < length; j++) {
            double v = x[offset + j];
            double fin = Double.isFinite(v) ? v : 0;
            f[k++] = (fin - mean[j]) / scale[j];
            if (squareScale[j] > 0) {
                f[k++] = (fin * fin - squareMean[j]) / squareScale[j];
            }
            for (double a : atoms[j]) {
                f[k++] = Double.compare(v, a) == 0 ? 1.0 : 0.0;
            }
        }
    }

    /** Weighted sum {@code w . features(x)} without materialising the features. */
    double dot(double[] w, double[] x, int offset) {
        int k = 0;
        double s = w[k++];
        for (int j = 0; j < length; j++) {
            double v = x[offset + j];
            double fin = Double.isFinite(v) ? v : 0;
            s += w[k++] * ((fin - mean[j]) / scale[j]);
            if (squareScale[j] > 0) {
                s += w[k++] * ((fin * fin - squareMean[j]) / squareScale[j]);
            }
            for (double a : atoms[j]) {
                if (Double.compare(v, a) == 0) {
                    s += w[k];
                }
                k++;
            }
        }
        return s;
    }

    /** One line: how many features of which kinds. */
    String describe() {
        int squares = 0;
        int atomCount = 0;
        for (int j = 0; j < length; j++) {
            squares += squareScale[j] > 0 ? 1 : 0;
            atomCount += atoms[j].length;
        }
        return count + " features (" + length + " values, " + squares + " squares, " + atomCount
                + " atom indicators, a constant)";
    }
}
