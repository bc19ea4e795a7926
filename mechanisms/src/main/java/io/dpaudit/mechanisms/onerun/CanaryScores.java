package io.dpaudit.mechanisms.onerun;

/**
 * The outcome of one simulated training run: the scores of the canaries whose coin put them into the training data
 * and of those it left out, each in canary order.
 *
 * @param included scores of the included canaries
 * @param excluded scores of the others
 */
public record CanaryScores(double[] included, double[] excluded) {
    /** Canaries in all. */
    public int canaries() {
        return included.length + excluded.length;
    }

    /** Splits {@code scores} by {@code coins} (true: included). */
    static CanaryScores split(boolean[] coins, double[] scores) {
        int in = 0;
        for (boolean c : coins) {
            in += c ? 1 : 0;
        }
        double[] a = new double[in];
        double[] b = new double[coins.length - in];
        int i = 0;
        int j = 0;
        for (int k = 0; k < coins.length; k++) {
            if (coins[k]) {
                a[i++] = scores[k];
            } else {
                b[j++] = scores[k];
            }
        }
        return new CanaryScores(a, b);
    }
}
