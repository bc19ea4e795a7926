package io.dpaudit.mechanisms.checkin;

import io.dpaudit.core.Checks;
import io.dpaudit.core.InvalidInputException;
import io.dpaudit.core.model.Parameters;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Validated parameters of the random check-in protocols of Balle, Kairouz, McMahan, Thakkar &amp; Thakurta (NeurIPS
 * 2020, seed 004).
 *
 * @param type {@code random-checkin} (Algorithm 1, A_fix), {@code random-checkin-averaged} (Algorithm 2) or
 *     {@code random-checkin-sliding} (Section 4.2)
 * @param clients n, at least 1
 * @param slots m: update slots (the window size for sliding windows), at least 1
 * @param p0 the check-in probability, in (0, 1]
 * @param randomizer {@code rr} (binary randomized response) or {@code gaussian} (a clipped scalar plus N(0, sigma^2))
 * @param eps0 randomized response's local privacy level (NaN for the Gaussian randomizer)
 * @param sigma the Gaussian randomizer's noise standard deviation (NaN for randomized response)
 * @param clip the Gaussian randomizer's clipping bound C: inputs are clipped to [-C, C] (NaN for randomized response)
 * @param pair the Gaussian randomizer's neighbouring values: {@code one-sided} (C against 0) or {@code symmetric}
 *     (+C against -C)
 * @param dataset {@code canonical}, {@code helper}, {@code opposite}, {@code worst} (the maximum of the three) or
 *     {@code exhaustive} (every dataset, n at most 30)
 * @param target sliding windows: {@code interior} (client m, whose window lies inside the served slots) or
 *     {@code edge} (client 1, whose window meets the served slots in one slot)
 * @param rounds R, independent repetitions
 */
public record CheckInParameters(String type, int clients, int slots, double p0, String randomizer, double eps0,
        double sigma, double clip, String pair, String dataset, String target, int rounds) {
    /** Algorithm 1, fixed window. */
    public static final String FIXED_TYPE = "random-checkin";
    /** Algorithm 2, averaged updates. */
    public static final String AVERAGED_TYPE = "random-checkin-averaged";
    /** Section 4.2, sliding windows. */
    public static final String SLIDING_TYPE = "random-checkin-sliding";
    /** Largest eps0 accepted (as for the shuffled protocols). */
    static final double MAX_EPS0 = 20;
    /** Largest number of slots: the exact law of the releases has m + 1 atoms, each a sum of O(sqrt m) terms. */
    static final int MAX_SLOTS = 100_000;
    /** Largest number of clients. */
    static final int MAX_CLIENTS = 1_000_000_000;
    /** Largest number of clients for an exhaustive search over datasets. */
    static final int MAX_EXHAUSTIVE_CLIENTS = 30;
    /**
     * Largest number of rounds of an exhaustive search, which composes every dataset's curve and keeps them all. At
     * n = 30, eps0 = 20 (30 datasets): 87 s over 1000 rounds, 134 s and the heap's 6 GB over 10^4, out of memory over
     * 10^5 (2 cores).
     */
    static final int MAX_EXHAUSTIVE_ROUNDS = 1000;
    /** Largest number of rounds. */
    static final int MAX_ROUNDS = 100_000;
    /** Largest clip/sigma: beyond it one release all but reveals its input, and the exact curve is refused. */
    static final double MAX_CLIP_OVER_SIGMA = 1000;
    private static final List<String> DATASETS = List.of("canonical", "helper", "opposite", "worst", "exhaustive");

    /** Parses {@code type}'s parameters. */
    static CheckInParameters parse(String type, Parameters p) {
        boolean sliding = type.equals(SLIDING_TYPE);
        boolean averaged = type.equals(AVERAGED_TYPE);
        Set<String> allowed = new LinkedHashSet<>(List.of("type", "clients", "slots", "p0", "randomizer", "eps0",
                "sigma", "clip", "pair", "dataset", "rounds"));
        if (sliding) {
            allowed.add("target");
        }
        p.allowOnly(allowed);
        long n = p.wholeNumber("clients", 1);
        if (n > MAX_CLIENTS) {
            throw new InvalidInputException(p.field("clients"), n, "must be <= " + MAX_CLIENTS);
        }
        long m = p.wholeNumber("slots", 1);
        if (m > MAX_SLOTS) {
            throw new InvalidInputException(p.field("slots"), m, "must be <= " + MAX_SLOTS);
        }
        if (sliding && m > n) {
            throw new InvalidInputException(p.field("slots"), m, "the window size must be <= clients (" + n
                    + "): slots m..n are served");
        }
        double p0 = p.number("p0");
        if (!(p0 > 0 && p0 <= 1)) {
            throw new InvalidInputException(p.field("p0"), p0, "must be in (0, 1]");
        }
        String randomizer = p.text("randomizer", "rr");
        double eps0 = Double.NaN;
        double sigma = Double.NaN;
        double clip = Double.NaN;
        String pair = "";
        if (randomizer.equals("rr")) {
            for (String g : List.of("sigma", "clip", "pair")) {
                if (p.has(g)) {
                    throw new InvalidInputException(p.field(g), p.values().get(g), "applies to randomizer gaussian "
                            + "only");
                }
            }
            eps0 = Checks.positive(p.field("eps0"), p.number("eps0"));
            if (eps0 > MAX_EPS0) {
                throw new InvalidInputException(p.field("eps0"), eps0, "must be <= " + Checks.format(MAX_EPS0)
                        + " (beyond it randomized response reveals its input with probability 1 - 2e-9)");
            }
        } else if (randomizer.equals("gaussian")) {
            if (p.has("eps0")) {
                throw new InvalidInputException(p.field("eps0"), p.values().get("eps0"), "applies to randomizer rr "
                        + "only: the Gaussian randomizer is set by sigma and clip");
            }
            if (averaged) {
                throw new InvalidInputException(p.field("randomizer"), randomizer, "averaged updates are simulated "
                        + "with randomizer rr only");
            }
            sigma = Checks.positive(p.field("sigma"), p.number("sigma"));
            clip = Checks.positive(p.field("clip"), p.number("clip", 1.0));
            if (!Double.isFinite(clip) || clip / sigma > MAX_CLIP_OVER_SIGMA) {
                throw new InvalidInputException(p.field("sigma"), sigma, "must be >= clip/" + Checks.format(
                        MAX_CLIP_OVER_SIGMA) + " = " + Checks.format(clip / MAX_CLIP_OVER_SIGMA) + " (below, one "
                        + "release reveals its input: the protocol is no better than its check-in coin, p0)");
            }
            pair = p.text("pair", "symmetric");
            if (!pair.equals("one-sided") && !pair.equals("symmetric")) {
                throw new InvalidInputException(p.field("pair"), pair, "must be one-sided or symmetric");
            }
        } else {
            throw new InvalidInputException(p.field("randomizer"), randomizer, "unknown randomizer (known: rr, "
                    + "gaussian)");
        }
        boolean twoValued = randomizer.equals("rr") && type.equals(FIXED_TYPE);
        String dataset = p.text("dataset", twoValued ? "worst" : "canonical");
        if (!DATASETS.contains(dataset)) {
            throw new InvalidInputException(p.field("dataset"), dataset, "must be one of "
                    + String.join(", ", DATASETS));
        }
        if (!twoValued && !dataset.equals("canonical")) {
            throw new InvalidInputException(p.field("dataset"), dataset, "only the canonical dataset is simulated for "
                    + type + (type.equals(FIXED_TYPE) ? " with randomizer gaussian" : ""));
        }
        if (dataset.equals("exhaustive") && n > MAX_EXHAUSTIVE_CLIENTS) {
            throw new InvalidInputException(p.field("dataset"), dataset, "needs clients <= " + MAX_EXHAUSTIVE_CLIENTS
                    + ", not " + n);
        }
        String target = sliding ? p.text("target", "interior") : "";
        if (sliding) {
            if (!target.equals("interior") && !target.equals("edge")) {
                throw new InvalidInputException(p.field("target"), target, "must be interior or edge");
            }
            if (target.equals("interior") && n < 2 * m - 1) {
                throw new InvalidInputException(p.field("clients"), n, "an interior client (window inside the served "
                        + "slots m..n) needs clients >= 2 slots - 1 = " + (2 * m - 1));
            }
        }
        long rounds = p.wholeNumber("rounds", 1, 1);
        if (rounds > MAX_ROUNDS) {
            throw new InvalidInputException(p.field("rounds"), rounds, "must be <= " + MAX_ROUNDS);
        }
        if (dataset.equals("exhaustive") && rounds > MAX_EXHAUSTIVE_ROUNDS) {
            throw new InvalidInputException(p.field("rounds"), rounds, "must be <= " + MAX_EXHAUSTIVE_ROUNDS
                    + " with dataset exhaustive (one composed curve per dataset, " + n + " of them here; "
                    + "dataset worst composes three)");
        }
        return new CheckInParameters(type, (int) n, (int) m, p0, randomizer, eps0, sigma, clip, pair, dataset,
                target, (int) rounds);
    }

    /** Whether the randomizer is randomized response. */
    boolean rr() {
        return randomizer.equals("rr");
    }

    /** The value of the calibration parameter: eps0 for randomized response, sigma for the Gaussian randomizer. */
    double calibrated() {
        return rr() ? eps0 : sigma;
    }

    /** The same configuration with another value of the calibration parameter. */
    CheckInParameters withCalibrated(double v) {
        return rr() ? new CheckInParameters(type, clients, slots, p0, randomizer, v, sigma, clip, pair, dataset,
                target, rounds) : new CheckInParameters(type, clients, slots, p0, randomizer, eps0, v, clip, pair,
                        dataset, target, rounds);
    }

    /** The same configuration with another dataset. */
    CheckInParameters withDataset(String d) {
        return new CheckInParameters(type, clients, slots, p0, randomizer, eps0, sigma, clip, pair, d, target,
                rounds);
    }

    /** The same configuration with another check-in probability. */
    CheckInParameters withP0(double p) {
        return new CheckInParameters(type, clients, slots, p, randomizer, eps0, sigma, clip, pair, dataset, target,
                rounds);
    }

    /** Sliding windows. */
    boolean sliding() {
        return type.equals(SLIDING_TYPE);
    }

    /** Averaged updates. */
    boolean averaged() {
        return type.equals(AVERAGED_TYPE);
    }

    /**
     * The target client (1-based) of sliding windows: client m (interior) or client 1 (edge); client 1 otherwise.
     */
    int targetClient() {
        return sliding() && target.equals("interior") ? slots : 1;
    }

    /**
     * The number of served slots in the target's window: m for A_fix and for an interior client; for sliding windows
     * {@code |[j, j+m-1] cap [m, n]|}.
     */
    int targetWindow() {
        if (!sliding()) {
            return slots;
        }
        int j = targetClient();
        int lo = Math.max(j, slots);
        int hi = Math.min(j + slots - 1, clients);
        return hi - lo + 1;
    }

    /** The number of releases the adversary sees: m, or n - m + 1 served slots for sliding windows. */
    int releases() {
        return sliding() ? clients - slots + 1 : slots;
    }

    /** The randomizer, one phrase. */
    String describeRandomizer() {
        return rr() ? "binary randomized response, eps0 = " + Checks.format(eps0)
                : String.format(Locale.ROOT, "Gaussian randomizer: clip to [-%s, %s] plus N(0, %s^2), %s pair (%s)",
                        Checks.format(clip), Checks.format(clip), Checks.format(sigma), pair, pair.equals("symmetric")
                                ? "+C against -C" : "C against 0");
    }

    /** One line for reports. */
    String describe() {
        String shape = switch (type) {
            case SLIDING_TYPE -> String.format(Locale.ROOT, "n = %d clients, windows of m = %d slots, slots %d..%d "
                    + "served, target client %d (%s, %d served slots in its window)", clients, slots, slots, clients,
                    targetClient(), target, targetWindow());
            case AVERAGED_TYPE -> String.format(Locale.ROOT, "n = %d clients, m = %d slots, every check-in used and "
                    + "averaged per slot, empty slots skipped", clients, slots);
            default -> String.format(Locale.ROOT, "n = %d clients, m = %d slots", clients, slots);
        };
        return String.format(Locale.ROOT, "%s: %s, p0 = %s, %s, %d round(s), %s dataset", type, shape,
                Checks.format(p0), describeRandomizer(), rounds, dataset);
    }
}
