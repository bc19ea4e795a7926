package io.dpaudit.core.fdp;

import java.util.Arrays;

/**
 * A trade-off function given by the vertices of a convex, non-increasing polygonal curve (the exact curve of a pair
 * of discrete laws, or an empirical envelope), linearly interpolated, 0 beyond the last vertex.
 *
 * @param alpha vertex abscissae, non-decreasing, from 0
 * @param beta vertex ordinates
 */
public record PiecewiseLinearTradeOff(double[] alpha, double[] beta) implements TradeOffFunction {
    public PiecewiseLinearTradeOff {
        if (alpha.length != beta.length || alpha.length == 0) {
            throw new IllegalArgumentException("vertex arrays of equal, positive length required");
        }
        alpha = alpha.clone();
        beta = beta.clone();
    }

    @Override
    public double beta(double a) {
        if (a <= alpha[0]) {
            return beta[0];
        }
        int i = Arrays.binarySearch(alpha, a);
        if (i >= 0) {
            // the lowest beta among equal abscissae
            int j = i;
            while (j + 1 < alpha.length && alpha[j + 1] == a) {
                j++;
            }
            return beta[j];
        }
        int hi = -i - 1;
        if (hi >= alpha.length) {
            return Math.max(0.0, beta[alpha.length - 1] - (a - alpha[alpha.length - 1]));
        }
        int lo = hi - 1;
        double w = (a - alpha[lo]) / (alpha[hi] - alpha[lo]);
        return beta[lo] + w * (beta[hi] - beta[lo]);
    }
}
