package io.dpaudit.mechanisms.view;

import java.util.Arrays;
import java.util.Locale;
import io.dpaudit.core.law.BinomialTable;
import org.apache.commons.rng.UniformRandomProvider;

/**
 * The law of K, the number of steps whose batch holds the canary, on {@code min, min + 1, ..., min + pmf.length - 1}.
 *
 * <p>A binomial law is core's {@link BinomialTable}: the counts of probability below 1e-40 are dropped and the rest
 * renormalised, so at most 10^6 dropped counts remove less than 1e-34 of mass, and the pair differs from the
 * untruncated one by less than that in total variation (hence in every δ(ε)). The simulator draws from this same table,
 * so the exact profile is exact for the simulated pair.
 *
 * @param min the smallest count
 * @param pmf the probabilities of {@code min, min + 1, ...}, summing to 1
 * @param description one line, e.g. {@code Binomial(1000, 0.01)} or {@code 4}
 * @param table the binomial table K is drawn from, or null when K is one count
 */
public record CountLaw(int min, double[] pmf, String description, BinomialTable table) {
    public CountLaw {
        pmf = pmf.clone();
    }

    /** K = {@code k} always. */
    public static CountLaw point(int k) {
        return new CountLaw(k, new double[] {1.0}, Integer.toString(k), null);
    }

    /** K ~ Binomial(n, p), without the counts of probability below 1e-40 ({@link BinomialTable}). */
    public static CountLaw binomial(int n, double p) {
        if (p >= 1) {
            return point(n);
        }
        BinomialTable table = new BinomialTable(n, p);
        double[] w = new double[table.size()];
        for (int i = 0; i < w.length; i++) {
            w[i] = table.probability(i);
        }
        return new CountLaw(table.first(), w, String.format(Locale.ROOT, "Binomial(%d, %s)", n, Double.toString(p)),
                table);
    }

    /** One draw of K. */
    int sample(UniformRandomProvider rng) {
        return table == null ? min : table.sample(rng);
    }

    /** Whether K is one count. */
    public boolean isPoint() {
        return pmf.length == 1;
    }

    /** The largest count. */
    public int max() {
        return min + pmf.length - 1;
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
