package io.dpaudit.mechanisms.shuffle;

import io.dpaudit.core.Checks;
import io.dpaudit.core.InvalidInputException;
import io.dpaudit.core.accounting.DpEvent;
import io.dpaudit.core.law.DiscreteLaw;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.commons.math3.distribution.BinomialDistribution;

/**
 * The exact law, in both worlds, of what the server sees in one round of a shuffled protocol: the number {@code K} of
 * reports and the multiset of their symbols, when the target record is used with probability {@code K/n} given
 * {@code K} and every other report comes from a record holding the same value.
 *
 * <p><b>Derivation.</b> Let {@code o}, {@code a}, {@code b} be the randomizer's output laws on the others' value, on the
 * target's value in {@code D} and on it in {@code D'}. Given {@code K = k}, the symbol counts {@code N} are
 * {@code Mult(k, o)} when the target is not used, and {@code Mult(k-1, o) + e_Y} with {@code Y ~ a} (or {@code b}) when
 * it is. Since {@code Mult(k-1, o)(N - e_y) = Mult(k, o)(N) N_y / (k o_y)},
 * <pre>
 *   P_D(N | k) = Mult(k, o)(N) [1 - w + (w/k) sum_y N_y a_y / o_y],   w = k/n,
 * </pre>
 * and likewise for {@code D'} with {@code b}: both worlds are tilts of one multinomial, and with {@code w = k/n} the
 * tilt is {@code 1 + (1/n) sum_y N_y (a_y/o_y - 1)}. Other protocols give the target another inclusion probability
 * {@code w(k)} (random check-ins: the probability {@code s} that the target is the one selected in its slot); the
 * tilt is then {@code 1 + (w(k)/k) sum_y N_y (a_y/o_y - 1)}. The counts only matter through groups of symbols with equal
 * ratio pairs {@code (a_y/o_y, b_y/o_y)}: for binary randomized response (and the sign randomizer on its worst-case
 * pair) there are two groups, so the atoms are {@code (K, ones)}; for k-ary randomized response three. The law of
 * {@code K} is {@code Binomial(m, q)} for client self-sampling (seed 001), a point mass for a fixed number of clients
 * or for plain shuffling of {@code n} reports ({@code K = n}, {@code w = 1}).
 *
 * <p><b>Tails.</b> Values of {@code K} and count vectors whose probability (under the base multinomial) is below
 * {@code 10^-40} are left out; the mass they carry in either world is at most {@link #droppedMass()} (a bound, not an
 * estimate), which exact profiles add to δ and compositions put at {@code +inf}.
 *
 * <p>Binomial log-probabilities come from commons-math3's saddle-point expansion (Loader 2000), accurate to a few ulps
 * in the tails; the tilts are evaluated with {@code log1p}.
 */
public final class ShuffleLaw {
    /** Largest number of atoms a law may have. */
    public static final int MAX_ATOMS = 1 << 22;
    private static final double LOG_NEGLIGIBLE = Math.log(1e-40);

    private final int groups;
    private final int[] atomK;
    private final int[] atomCounts;   // groups per atom, row-major
    private final double[] logWith;
    private final double[] logWithout;
    private final double dropped;
    /** Atom by packed group counts, built on first use (the faithful simulator's statistic needs it). */
    private volatile Map<Long, Integer> index;
    private final int[] groupOfSymbol;
    private final String describe;

    /** How many reports a round receives. */
    public sealed interface Reports {
        /** Every one of {@code clients} clients reports with probability {@code q} ({@code K ~ Binomial(m, q)}). */
        record SelfSampled(int clients, double q) implements Reports {
        }

        /** Exactly {@code k} reports (a fixed number of clients, or plain shuffling of {@code k} reports). */
        record Fixed(int k) implements Reports {
        }
    }

    /**
     * @param randomizer the local randomizer
     * @param others the value every other record holds
     * @param target the target record's value in {@code D}
     * @param replacement its value in {@code D'}
     * @param reports the law of the number of reports
     * @param records the total number of records {@code n}; the target is used with probability {@code K/n}
     */
    public ShuffleLaw(LocalRandomizer randomizer, double[] others, double[] target, double[] replacement,
            Reports reports, long records) {
        this(randomizer, others, target, replacement, reports, k -> (double) k / records, "target used w.p. K/n, n = "
                + records + " records");
    }

    /**
     * @param randomizer the local randomizer
     * @param others the value every other record holds
     * @param target the target record's value in {@code D}
     * @param replacement its value in {@code D'}
     * @param reports the law of the number of reports
     * @param inclusion {@code k -> } the probability that the target's report is among the {@code k} reports
     * @param inclusionDescription one phrase for reports, e.g. {@code "target used w.p. K/n"}
     */
    public ShuffleLaw(LocalRandomizer randomizer, double[] others, double[] target, double[] replacement,
            Reports reports, java.util.function.IntToDoubleFunction inclusion, String inclusionDescription) {
        double[] o = randomizer.law(others, 0);
        double[] a = randomizer.law(target, 0);
        double[] b = randomizer.law(replacement, 0);
        // Group symbols by their ratio pair.
        List<double[]> keys = new ArrayList<>();
        List<Double> base = new ArrayList<>();
        this.groupOfSymbol = new int[o.length];
        for (int y = 0; y < o.length; y++) {
            if (!(o[y] > 0)) {
                throw new IllegalArgumentException("the others' reports must have full support");
            }
            double ra = a[y] / o[y];
            double rb = b[y] / o[y];
            int g = -1;
            for (int i = 0; i < keys.size(); i++) {
                if (Math.abs(keys.get(i)[0] - ra) <= 1e-12 * ra && Math.abs(keys.get(i)[1] - rb) <= 1e-12 * rb) {
                    g = i;
                }
            }
            if (g < 0) {
                keys.add(new double[] {ra, rb});
                base.add(0.0);
                g = keys.size() - 1;
            }
            base.set(g, base.get(g) + o[y]);
            groupOfSymbol[y] = g;
        }
        this.groups = keys.size();
        if (groups > 3) {
            throw new InvalidInputException("randomizer", randomizer.name(), "its reports fall into " + groups
                    + " groups of equal likelihood ratios; at most 3 are supported");
        }
        double[] og = base.stream().mapToDouble(Double::doubleValue).toArray();
        double[] ra = keys.stream().mapToDouble(x -> x[0] - 1).toArray();
        double[] rb = keys.stream().mapToDouble(x -> x[1] - 1).toArray();

        int kLo;
        int kHi;
        double[] logK;
        long possibleK;
        if (reports instanceof Reports.SelfSampled s) {
            int m = s.clients();
            if (s.q() == 1.0) {
                kLo = m;
                kHi = m;
                logK = new double[] {0.0};
            } else {
                BinomialDistribution kLaw = new BinomialDistribution(null, m, s.q());
                double mean = m * s.q();
                double reach = 40 * Math.sqrt(mean * (1 - s.q())) + 10;
                int from = (int) Math.max(0, Math.floor(mean - reach));
                int to = (int) Math.min(m, Math.ceil(mean + reach));
                int lo = to;
                int hi = from;
                for (int k = from; k <= to; k++) {
                    if (kLaw.logProbability(k) >= LOG_NEGLIGIBLE) {
                        lo = Math.min(lo, k);
                        hi = Math.max(hi, k);
                    }
                }
                kLo = lo;
                kHi = hi;
                logK = new double[hi - lo + 1];
                for (int k = lo; k <= hi; k++) {
                    logK[k - lo] = kLaw.logProbability(k);
                }
            }
            possibleK = m + 1L;
        } else {
            int k = ((Reports.Fixed) reports).k();
            kLo = k;
            kHi = k;
            logK = new double[] {0.0};
            possibleK = 1;
        }
        if (kHi >= 1 << 21) {
            throw new InvalidInputException("mechanism.clients", kHi, "reports per round: the exact law is computed "
                    + "for fewer than 2097152 reports per round");
        }
        // Refuse before enumerating when the atoms cannot fit: each free group count of K = k spans at most
        // min(k + 1, 28 standard deviations + 2) values above 1e-40.
        double estimate = 0;
        for (int k = kLo; k <= kHi; k++) {
            double perK = 1;
            for (int g = 0; g < groups - 1; g++) {
                double p = og[g];
                perK *= Math.min(k + 1.0, 28 * Math.sqrt(k * p * (1 - p)) + 2);
            }
            estimate += perK;
        }
        if (estimate > MAX_ATOMS) {
            throw new InvalidInputException("mechanism.clients", reports instanceof Reports.SelfSampled s
                    ? s.clients() : kHi, String.format(Locale.ROOT, "gives a per-round statistic of about %.3g atoms of "
                    + "non-negligible probability, more than the %d the exact law is computed for; use fewer clients "
                    + "(or a randomizer whose reports fall into fewer groups)", estimate, MAX_ATOMS));
        }
        Atoms found = new Atoms(groups, (int) Math.min(MAX_ATOMS, estimate + 16));
        int[] n = new int[groups];
        for (int k = kLo; k <= kHi; k++) {
            double w = inclusion.applyAsDouble(k);
            if (!(w >= 0 && w <= 1)) {
                throw new IllegalArgumentException("inclusion probability " + w + " at k = " + k);
            }
            enumerate(og, logK[k - kLo], 0, k, 0.0, n, found, ra, rb, k == 0 ? 0.0 : w / k);
        }
        int atoms = found.size;
        this.atomK = Arrays.copyOf(found.k, atoms);
        this.atomCounts = Arrays.copyOf(found.counts, atoms * groups);
        this.logWith = Arrays.copyOf(found.logWith, atoms);
        this.logWithout = Arrays.copyOf(found.logWithout, atoms);
        // Every left-out atom has base probability below 1e-40, and a world's probability is at most the largest tilt
        // times that; there are at most (values of K) x (count vectors of the largest K) of them.
        double maxTilt = 1;
        for (int g = 0; g < groups; g++) {
            maxTilt = Math.max(maxTilt, 1 + Math.max(ra[g], rb[g]));
        }
        double maxK = reports instanceof Reports.SelfSampled s ? s.clients() : kHi;
        double possibleCounts = Math.pow(maxK + 1, groups - 1);
        this.dropped = Math.min(1.0, maxTilt * Math.exp(LOG_NEGLIGIBLE) * possibleK * possibleCounts);
        this.describe = String.format(Locale.ROOT, "%s; %s; %s; %d atoms (K, counts of %d symbol groups)",
                randomizer.describe(), reports instanceof Reports.SelfSampled s
                ? "K ~ Binomial(" + s.clients() + ", " + Checks.format(s.q()) + ")" : "K = " + kLo,
                inclusionDescription, atoms, groups);
    }

    /** Growable primitive storage of the atoms while they are enumerated. */
    private static final class Atoms {
        final int groups;
        int size;
        int[] k;
        int[] counts;
        double[] logWith;
        double[] logWithout;

        Atoms(int groups, int capacity) {
            this.groups = groups;
            this.k = new int[capacity];
            this.counts = new int[capacity * groups];
            this.logWith = new double[capacity];
            this.logWithout = new double[capacity];
        }

        void add(int[] n, double lw, double lo) {
            if (size == k.length) {
                int c = Math.max(16, 2 * size);
                k = Arrays.copyOf(k, c);
                counts = Arrays.copyOf(counts, c * groups);
                logWith = Arrays.copyOf(logWith, c);
                logWithout = Arrays.copyOf(logWithout, c);
            }
            int total = 0;
            for (int g = 0; g < groups; g++) {
                counts[size * groups + g] = n[g];
                total += n[g];
            }
            k[size] = total;
            logWith[size] = lw;
            logWithout[size] = lo;
            size++;
        }
    }

    private void enumerate(double[] og, double logBase, int g, int remaining, double logMult, int[] n, Atoms atoms,
            double[] ra, double[] rb, double perReport) {
        if (g == groups - 1) {
            n[g] = remaining;
            double sa = 0;
            double sb = 0;
            for (int i = 0; i < groups; i++) {
                sa += n[i] * ra[i];
                sb += n[i] * rb[i];
            }
            double lp = logBase + logMult;
            atoms.add(n, lp + Math.log1p(sa * perReport), lp + Math.log1p(sb * perReport));
            return;
        }
        double rest = 0;
        for (int i = g; i < groups; i++) {
            rest += og[i];
        }
        double p = Math.min(1.0, og[g] / rest);
        if (remaining == 0 || p == 1.0) {
            int x = p == 1.0 ? remaining : 0;
            n[g] = x;
            enumerate(og, logBase, g + 1, remaining - x, logMult, n, atoms, ra, rb, perReport);
            return;
        }
        BinomialDistribution d = new BinomialDistribution(null, remaining, p);
        // Only values within 40 standard deviations (plus 10) of the mean can reach 1e-40, even for skewed binomials.
        double mean = remaining * p;
        double reach = 40 * Math.sqrt(mean * (1 - p)) + 10;
        int from = (int) Math.max(0, Math.floor(mean - reach));
        int to = (int) Math.min(remaining, Math.ceil(mean + reach));
        for (int x = from; x <= to; x++) {
            double l = d.logProbability(x);
            if (logMult + l >= LOG_NEGLIGIBLE) {
                n[g] = x;
                enumerate(og, logBase, g + 1, remaining - x, logMult + l, n, atoms, ra, rb, perReport);
            }
        }
    }

    /** Group counts (up to three, each below 2^21) packed into one key. */
    private static long key(int c0, int c1, int c2) {
        return ((long) c0 << 42) | ((long) c1 << 21) | c2;
    }

    private static long key(int[] counts) {
        return key(counts[0], counts.length > 1 ? counts[1] : 0, counts.length > 2 ? counts[2] : 0);
    }

    /** Number of atoms. */
    public int atoms() {
        return atomK.length;
    }

    /** Number of symbol groups (2 for binary randomized response). */
    public int groups() {
        return groups;
    }

    /** The group of a report symbol. */
    public int groupOf(int symbol) {
        return groupOfSymbol[symbol];
    }

    /**
     * The atom whose group counts are {@code c0, c1, c2} (the counts of groups beyond {@link #groups()} must be 0);
     * -1 if it was left out as negligible.
     */
    public int atomOf(int c0, int c1, int c2) {
        Map<Long, Integer> m = index;
        if (m == null) {
            m = new HashMap<>();
            int[] c = new int[groups];
            for (int i = 0; i < atomK.length; i++) {
                System.arraycopy(atomCounts, i * groups, c, 0, groups);
                m.put(key(c), i);
            }
            index = m;
        }
        Integer i = m.get(key(c0, c1, c2));
        return i == null ? -1 : i;
    }

    /** {@code K} of atom {@code i}. */
    public int reports(int atom) {
        return atomK[atom];
    }

    /** Count of group {@code g} in atom {@code i}. */
    public int count(int atom, int g) {
        return atomCounts[atom * groups + g];
    }

    /** A bound on the probability the left-out atoms carry, in either world. */
    public double droppedMass() {
        return dropped;
    }

    /** The law in {@code D} (with the target's value). */
    public DiscreteLaw withCanary() {
        return new DiscreteLaw(normalised(logWith), this::name);
    }

    /** The law in {@code D'}. */
    public DiscreteLaw withoutCanary() {
        return new DiscreteLaw(normalised(logWithout), this::name);
    }

    private static double[] normalised(double[] logs) {
        double total = io.dpaudit.core.numerics.LogSpace.sum(logs, 0, logs.length);
        return Arrays.stream(logs).map(l -> l - total).toArray();
    }

    /** The privacy-loss distributions of one round (dropped mass at {@code +inf}), for composition. */
    public DpEvent.DiscreteLoss event(String description) {
        DpEvent.DiscreteLoss d = DpEvent.DiscreteLoss.ofLogPair(description, normalised(logWith),
                normalised(logWithout));
        return new DpEvent.DiscreteLoss(description, withInfinity(d.remove()), withInfinity(d.add()));
    }

    private DpEvent.LossMasses withInfinity(DpEvent.LossMasses m) {
        return new DpEvent.LossMasses(m.losses(), m.masses(), m.infinityMass() + dropped);
    }

    private String name(int atom) {
        StringBuilder b = new StringBuilder("K=").append(atomK[atom]).append(", counts=[");
        for (int g = 0; g < groups; g++) {
            b.append(g > 0 ? ", " : "").append(atomCounts[atom * groups + g]);
        }
        return b.append(']').toString();
    }

    /** One line: randomizer, law of K, atoms. */
    public String describe() {
        return describe;
    }
}
