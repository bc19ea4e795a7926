package io.dpaudit.mechanisms.view;

import java.util.Arrays;
import java.util.Locale;
import org.apache.commons.math3.distribution.BinomialDistribution;

/**
 * The law of K, the number of steps whose batch holds the canary, on {@code min, min + 1, ..., min + pmf.length - 1}.
 *
 * <p>A binomial law keeps the counts whose probability is at least {@code e^-92} (about 1e-40) times the mode's and is
 * renormalised: every dropped count has probability below 1e-40, so at most 10^6 of them drop less than 1e-34 of mass,
 * and the pair they give differs from the untruncated one by less than that in total variation (hence in every
 * δ(ε)). The simulator draws from this same law, so the exact profile below is exact for the simulated pair.
 *
 * @param min the smallest count
 * @param pmf the probabilities of {@code min, min + 1, ...}, summing to 1
 * @param description one line, e.g. {@code Binomial(1000, 0.01)} or {@code 4}
 */
public record CountLaw(int min, double[] pmf, String description) {
    /** Counts below this many times the mode's probability (log scale) are dropped. */
    static final double LOG_CUTOFF = -92.0;

    public CountLaw {
        pmf = pmf.clone();
    }

    /** K = {@code k} always. */
    public static CountLaw point(int k) {
        return new CountLaw(k, new double[] {1.0}, Integer.toString(k));
    }

    /** K ~ Binomial(n, p), truncated where the probability is below {@code e^-92} times the mode's. */
    public static CountLaw binomial(int n, double p) {
        if (p >= 1) {
            return point(n);
        }
        BinomialDistribution law = new BinomialDistribution(null, n, p);
        int mode = (int) Math.min(n, Math.floor((n + 1) * p));
        double top = law.logProbability(mode);
        int lo = mode;
        while (lo > 0 && law.logProbability(lo - 1) - top >= LOG_CUTOFF) {
            lo--;
        }
        int hi = mode;
        while (hi < n && law.logProbability(hi + 1) - top >= LOG_CUTOFF) {
            hi++;
        }
        double[] w = new double[hi - lo + 1];
        double sum = 0;
        for (int k = lo; k <= hi; k++) {
            w[k - lo] = Math.exp(law.logProbability(k) - top);
            sum += w[k - lo];
        }
        for (int i = 0; i < w.length; i++) {
            w[i] /= sum;
        }
        return new CountLaw(lo, w, String.format(Locale.ROOT, "Binomial(%d, %s)", n, Double.toString(p)));
    }

    /** Whether K is one count. */
    public boolean isPoint() {
        return pmf.length == 1;
    }

    /** The largest count. */
    public int max() {
        return min + pmf.length - 1;
    }

    /** The cumulative probabilities, for drawing K by inversion (the last is exactly 1). */
    double[] cumulative() {
        double[] c = new double[pmf.length];
        double s = 0;
        for (int i = 0; i < pmf.length; i++) {
            s += pmf[i];
            c[i] = s;
        }
        c[c.length - 1] = 1.0;
        return c;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CountLaw c && c.min == min && Arrays.equals(c.pmf, pmf);
    }

    @Override
    public int hashCode() {
        return 31 * min + Arrays.hashCode(pmf);
    }

    @Override
    public String toString() {
        return description;
    }
}
