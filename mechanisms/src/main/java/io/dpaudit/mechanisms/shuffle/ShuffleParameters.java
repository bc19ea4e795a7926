package io.dpaudit.mechanisms.shuffle;

import io.dpaudit.core.Checks;
import io.dpaudit.core.InvalidInputException;
import io.dpaudit.core.model.Parameters;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Validated parameters of the shuffled protocols: dss-SGD (seed 001: client self-sampling, one local record, a local
 * randomizer, a shuffler) and plain shuffling of {@code n} reports, which is dss-SGD with {@code q = r = 1}.
 *
 * @param type {@code dss-sgd} or {@code shuffled-randomizer}
 * @param clients m (dss-SGD) or n (shuffled-randomizer), at least 1
 * @param records r, records per client (1 for shuffled-randomizer)
 * @param q the probability that a client takes part in a round (1 for shuffled-randomizer)
 * @param sampling {@code self} (each client tosses its own coin, K ~ Binomial(m, q)) or {@code fixed} (exactly
 *     {@code qm} clients, chosen uniformly: the scheme of Girgis et al.'s reference [25])
 * @param randomizer {@code rr}, {@code krr} or {@code sign}
 * @param eps0 the randomizer's local privacy level, the calibration parameter
 * @param symbols categories of k-ary randomized response
 * @param dimension dimension of the sign randomizer's input
 * @param rounds T, composed rounds
 * @param config which worst-case dataset: {@code canonical} (every other record holds the target's replacement),
 *     {@code opposite} (every other record holds the target's value) or {@code worst} (the one with the larger exact
 *     curve); written {@code config} (seed 001's name) or {@code dataset} (seed 004's name for the same choice). For
 *     plain shuffling, seed 004's third named dataset, {@code helper} (one other report's input equal to the
 *     target's), is never worse than {@code canonical} (a test checks it) and is not offered.
 */
public record ShuffleParameters(String type, int clients, int records, double q, String sampling, String randomizer,
        double eps0, int symbols, int dimension, int rounds, String config) {
    /** dss-SGD. */
    public static final String DSS_TYPE = "dss-sgd";
    /** Plain shuffling of n reports. */
    public static final String SHUFFLED_TYPE = "shuffled-randomizer";
    /** Largest eps0 accepted. */
    static final double MAX_EPS0 = 20;
    /** Largest number of rounds. */
    static final int MAX_ROUNDS = 100_000;
    private static final List<String> RANDOMIZERS = List.of("rr", "krr", "sign");
    private static final List<String> CONFIGS = List.of("canonical", "opposite", "worst");

    /** Parses {@code type}'s parameters. */
    static ShuffleParameters parse(String type, Parameters p) {
        boolean dss = type.equals(DSS_TYPE);
        Set<String> allowed = new LinkedHashSet<>(List.of("type", "clients", "randomizer", "eps0", "symbols",
                "dimension", "rounds", "config", "dataset"));
        if (dss) {
            allowed.addAll(List.of("records", "q", "sampling"));
        }
        p.allowOnly(allowed);
        long m = p.wholeNumber("clients", 1);
        if (m > 100_000_000L) {
            throw new InvalidInputException(p.field("clients"), m, "must be <= 100000000");
        }
        long r = dss ? p.wholeNumber("records", 1, 1) : 1;
        if (m * r > 1L << 40) {
            throw new InvalidInputException(p.field("records"), r, "times clients must be <= 2^40 records");
        }
        double q = dss ? Checks.samplingProbability(p.field("q"), p.number("q")) : 1.0;
        String sampling = dss ? p.text("sampling", "self") : "self";
        if (!sampling.equals("self") && !sampling.equals("fixed")) {
            throw new InvalidInputException(p.field("sampling"), sampling, "must be self or fixed");
        }
        if (sampling.equals("fixed")) {
            double k = q * m;
            if (Math.abs(k - Math.rint(k)) > 1e-9 * Math.max(1, k) || Math.rint(k) < 1) {
                throw new InvalidInputException(p.field("q"), q, "times clients = " + Checks.format(k)
                        + " must be a whole number >= 1 for a fixed number of clients per round");
            }
        }
        String randomizer = p.text("randomizer", "rr");
        if (!RANDOMIZERS.contains(randomizer)) {
            throw new InvalidInputException(p.field("randomizer"), randomizer, "unknown randomizer (known: "
                    + String.join(", ", RANDOMIZERS) + ")");
        }
        double eps0 = Checks.positive(p.field("eps0"), p.number("eps0"));
        if (eps0 > MAX_EPS0) {
            throw new InvalidInputException(p.field("eps0"), eps0, "must be <= " + Checks.format(MAX_EPS0)
                    + " (beyond it the local randomizer reveals its input with probability 1 - 2e-9)");
        }
        long symbols = 2;
        if (p.has("symbols")) {
            if (!randomizer.equals("krr")) {
                throw new InvalidInputException(p.field("symbols"), p.number("symbols"),
                        "applies to randomizer krr only");
            }
            symbols = p.wholeNumber("symbols", 2);
            if (symbols > 1 << 16) {
                throw new InvalidInputException(p.field("symbols"), symbols, "must be <= 65536");
            }
        } else if (randomizer.equals("krr")) {
            symbols = 4;
        }
        long dimension = 1;
        if (p.has("dimension")) {
            if (!randomizer.equals("sign")) {
                throw new InvalidInputException(p.field("dimension"), p.number("dimension"),
                        "applies to randomizer sign only");
            }
            dimension = p.wholeNumber("dimension", 1);
            if (dimension > 1 << 16) {
                throw new InvalidInputException(p.field("dimension"), dimension, "must be <= 65536");
            }
        } else if (randomizer.equals("sign")) {
            dimension = 8;
        }
        long rounds = p.wholeNumber("rounds", 1, 1);
        if (rounds > MAX_ROUNDS) {
            throw new InvalidInputException(p.field("rounds"), rounds, "must be <= " + MAX_ROUNDS);
        }
        if (p.has("config") && p.has("dataset")) {
            throw new InvalidInputException(p.field("dataset"), p.values().get("dataset"), "names the same choice as "
                    + "config; give one of them");
        }
        String key = p.has("dataset") ? "dataset" : "config";
        String config = p.text(key, "worst");
        if (!CONFIGS.contains(config)) {
            throw new InvalidInputException(p.field(key), config, "must be one of " + String.join(", ", CONFIGS)
                    + (config.equals("helper") ? " (helper, one other input equal to the target's, is never worse "
                    + "than canonical for shuffling)" : ""));
        }
        return new ShuffleParameters(type, (int) m, (int) r, q, sampling, randomizer, eps0, (int) symbols,
                (int) dimension, (int) rounds, config);
    }

    /** The same configuration with another eps0 (for calibration). */
    ShuffleParameters withEps0(double e) {
        return new ShuffleParameters(type, clients, records, q, sampling, randomizer, e, symbols, dimension, rounds,
                config);
    }

    /** The same configuration with another number of rounds. */
    ShuffleParameters withRounds(int t) {
        return new ShuffleParameters(type, clients, records, q, sampling, randomizer, eps0, symbols, dimension, t,
                config);
    }

    /** The same configuration with another dataset configuration. */
    ShuffleParameters withConfig(String c) {
        return new ShuffleParameters(type, clients, records, q, sampling, randomizer, eps0, symbols, dimension,
                rounds, c);
    }

    /** The total number of records {@code n = m r}. */
    long totalRecords() {
        return (long) clients * records;
    }

    /** Whether this is dss-SGD (as opposed to plain shuffling). */
    boolean dss() {
        return type.equals(DSS_TYPE);
    }

    /** The number of clients per round of the fixed scheme, {@code qm}. */
    int fixedClients() {
        return (int) Math.rint(q * clients);
    }

    /** The probability that the target's client takes part in a round: q, or qm/m for the fixed scheme. */
    double participation() {
        return q;
    }

    /** The local randomizer. */
    LocalRandomizer localRandomizer() {
        return switch (randomizer) {
            case "rr" -> new RandomizedResponse(eps0);
            case "krr" -> new KaryRandomizedResponse(eps0, symbols);
            default -> new SignRandomizer(eps0, dimension, 1.0);
        };
    }

    /** The law of the number of reports per round. */
    ShuffleLaw.Reports reports() {
        if (!dss()) {
            return new ShuffleLaw.Reports.Fixed(clients);
        }
        return sampling.equals("fixed") ? new ShuffleLaw.Reports.Fixed(fixedClients())
                : new ShuffleLaw.Reports.SelfSampled(clients, q);
    }

    /** The exact law of a round under a dataset configuration ({@code canonical} or {@code opposite}). */
    ShuffleLaw law(String configuration) {
        LocalRandomizer r = localRandomizer();
        double[] others = configuration.equals("opposite") ? r.target() : r.replacement();
        return new ShuffleLaw(r, others, r.target(), r.replacement(), reports(), totalRecords());
    }

    /** One line for reports. */
    String describe() {
        return String.format(Locale.ROOT, "%s: %d clients%s, %s, %d round(s), %s dataset", type, clients,
                dss() ? String.format(Locale.ROOT, " x %d records, %s sampling q = %s", records, sampling,
                        Checks.format(q)) : "", localRandomizer().describe(), rounds, config);
    }
}
