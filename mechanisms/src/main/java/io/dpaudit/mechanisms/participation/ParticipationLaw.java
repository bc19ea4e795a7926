package io.dpaudit.mechanisms.participation;

import io.dpaudit.core.law.BinomialTable;
import io.dpaudit.core.law.GaussianMixture;
import java.util.TreeMap;

/**
 * The law of the per-round sufficient statistic of random participation for one adversary configuration, in units
 * of the clip C (means) and the noise standard deviation sigma.
 *
 * <p>With {@code j} the probability that the canary's client takes part and {@code r} the probability that each of
 * its records is sampled given that it takes part, {@code K ~ Binomial(d, r)} the number of its other records
 * sampled and {@code B'} the canary's inclusion ({@code Bernoulli(r)}, only in {@code D}):
 * <ul>
 *   <li>aligned: {@code y = (K + B') C + sigma Z} when the client takes part, {@code sigma Z} otherwise;</li>
 *   <li>orthogonal: {@code (u, v) = (B' C, K C) + sigma Z_2};</li>
 *   <li>zero: {@code y = B' C + sigma Z}.</li>
 * </ul>
 * Random participation is {@code (j, r) = (p, q)}; only local sampling {@code (1, q)}; central shuffling
 * {@code (1, pq)} (records independent); weak client sampling is {@code (1, q)} <i>given</i> that the client took part
 * (the participation itself is published and has probability p in both worlds). Equal means are merged.
 */
final class ParticipationLaw {
    final GaussianMixture withCanary;
    final GaussianMixture withoutCanary;
    final BinomialTable others;

    ParticipationLaw(Adversary adversary, double join, double record, int d, double sigma, double clip) {
        this.others = new BinomialTable(d, record);
        TreeMap<Long, Double> with = new TreeMap<>();
        TreeMap<Long, Double> without = new TreeMap<>();
        // Key: u index * 2^32 + v index, means in units of C.
        if (join < 1) {
            add(with, 0, 0, 1 - join);
            add(without, 0, 0, 1 - join);
        }
        for (int i = 0; i < others.size(); i++) {
            int k = others.first() + i;
            double w = join * others.probability(i);
            switch (adversary) {
                case ALIGNED -> {
                    add(with, k, 0, w * (1 - record));
                    add(with, k + 1, 0, w * record);
                    add(without, k, 0, w);
                }
                case ORTHOGONAL -> {
                    add(with, 0, k, w * (1 - record));
                    add(with, 1, k, w * record);
                    add(without, 0, k, w);
                }
                case ZERO -> {
                    add(with, 0, 0, w * (1 - record));
                    add(with, 1, 0, w * record);
                    add(without, 0, 0, w);
                }
            }
        }
        int dim = adversary == Adversary.ORTHOGONAL ? 2 : 1;
        this.withCanary = mixture(with, dim, sigma, clip);
        this.withoutCanary = mixture(without, dim, sigma, clip);
    }

    private static void add(TreeMap<Long, Double> m, int u, int v, double w) {
        if (w > 0) {
            m.merge(((long) u << 32) | v, w, Double::sum);
        }
    }

    private static GaussianMixture mixture(TreeMap<Long, Double> m, int dim, double sigma, double clip) {
        double total = m.values().stream().mapToDouble(Double::doubleValue).sum();
        double[] weights = new double[m.size()];
        double[][] means = new double[m.size()][dim];
        int i = 0;
        for (var e : m.entrySet()) {
            int u = (int) (e.getKey() >>> 32);
            int v = (int) (e.getKey() & 0xffffffffL);
            weights[i] = e.getValue() / total;
            means[i][0] = u * clip;
            if (dim == 2) {
                means[i][1] = v * clip;
            }
            i++;
        }
        return new GaussianMixture(weights, means, sigma);
    }
}
