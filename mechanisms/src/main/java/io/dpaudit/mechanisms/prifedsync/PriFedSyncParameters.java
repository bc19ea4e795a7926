package io.dpaudit.mechanisms.prifedsync;

import io.dpaudit.core.Checks;
import io.dpaudit.core.InvalidInputException;
import io.dpaudit.core.model.Parameters;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Validated parameters of PriFedSync (Zheng, Chen, Long &amp; Su, AISTATS 2021, seed 002) with noisy SGD as the local
 * algorithm (the seed's Algorithm 2), all clients alike.
 *
 * @param clients m, at least 2
 * @param records n_j, records of the target client j
 * @param batch B_j, drawn without replacement afresh at every local step, {@code 1 <= B <= n}
 * @param localSteps K, local noisy-SGD steps per synchronisation round
 * @param sigma the noise multiplier: each step adds {@code N(0, (sigma C)^2)} to the sum of clipped gradients
 * @param clip C, the clipping norm
 * @param p the Poisson client-sampling rate of a synchronisation
 * @param rounds R, synchronisation rounds
 * @param notion {@code weak} (one other client's view) or {@code strong} (the joint view of all other clients)
 * @param view {@code per-round} (the seed's model: a client sees a synchronised model only in rounds it takes part
 *     in, so client j's update of a round reaches the adversary only if the adversary takes part too) or
 *     {@code broadcast} (every synchronised model is seen, as when the global model is published each round)
 * @param pair the target record's clipped gradient in {@code D} and {@code D'}: {@code symmetric} ({@code +C} against
 *     {@code -C}, the worst case of replace-one) or {@code one-sided} ({@code C} against 0)
 */
public record PriFedSyncParameters(int clients, int records, int batch, int localSteps, double sigma, double clip,
        double p, int rounds, String notion, String view, String pair) {
    /** The type name. */
    public static final String TYPE = "prifedsync";
    /** Largest K R. */
    static final long MAX_STEPS = 1_000_000L;

    static PriFedSyncParameters parse(Parameters p) {
        p.allowOnly(Set.of("type", "clients", "records", "batch", "localSteps", "sigma", "clip", "p", "rounds",
                "notion", "view", "pair"));
        long m = p.wholeNumber("clients", 2);
        if (m > 1_000_000) {
            throw new InvalidInputException(p.field("clients"), m, "must be <= 1000000");
        }
        long n = p.wholeNumber("records", 1);
        if (n > 1_000_000_000L) {
            throw new InvalidInputException(p.field("records"), n, "must be <= 1000000000");
        }
        long b = p.wholeNumber("batch", 1);
        if (b > n) {
            throw new InvalidInputException(p.field("batch"), b, "must be <= records (" + n + "): a batch is drawn "
                    + "without replacement");
        }
        long k = p.wholeNumber("localSteps", 1, 1);
        double sigma = Checks.positive(p.field("sigma"), p.number("sigma"));
        if (!Double.isFinite(sigma)) {
            throw new InvalidInputException(p.field("sigma"), sigma, "must be finite");
        }
        double clip = Checks.positive(p.field("clip"), p.number("clip", 1.0));
        if (!Double.isFinite(clip)) {
            throw new InvalidInputException(p.field("clip"), clip, "must be finite");
        }
        double rate = p.number("p");
        if (!(rate > 0 && rate <= 1)) {
            throw new InvalidInputException(p.field("p"), rate, "must be in (0, 1]");
        }
        long r = p.wholeNumber("rounds", 1, 1);
        if (k * r > MAX_STEPS) {
            throw new InvalidInputException(p.field("rounds"), r, "times localSteps (" + k + ") must be <= "
                    + MAX_STEPS);
        }
        if (sigma < 0.05) {
            throw new InvalidInputException(p.field("sigma"), sigma, "must be >= 0.05 (below, one step all but "
                    + "reveals the record; the exact curve is not computed there)");
        }
        String notion = choice(p, "notion", "weak", List.of("weak", "strong"));
        String view = choice(p, "view", "per-round", List.of("per-round", "broadcast"));
        String pair = choice(p, "pair", "symmetric", List.of("symmetric", "one-sided"));
        return new PriFedSyncParameters((int) m, (int) n, (int) b, (int) k, sigma, clip, rate, (int) r, notion, view,
                pair);
    }

    private static String choice(Parameters p, String name, String def, List<String> allowed) {
        String v = p.text(name, def);
        if (!allowed.contains(v)) {
            throw new InvalidInputException(p.field(name), v, "must be one of " + String.join(", ", allowed));
        }
        return v;
    }

    /** The same with another noise multiplier (for calibration). */
    PriFedSyncParameters withSigma(double s) {
        return new PriFedSyncParameters(clients, records, batch, localSteps, s, clip, p, rounds, notion, view, pair);
    }

    /** The per-step inclusion probability of the target record, {@code B/n}. */
    double gamma() {
        return (double) batch / records;
    }

    /**
     * The probability that client j's update of a round reaches the adversary: {@code p^2} (weak, per-round: j and
     * the observing client both sampled), {@code p (1 - (1-p)^{m-1})} (strong, per-round: j and at least one other
     * client), {@code p} (broadcast).
     */
    double visibility() {
        if (view.equals("broadcast")) {
            return p;
        }
        return notion.equals("weak") ? p * p : p * -Math.expm1((clients - 1) * Math.log1p(-p));
    }

    /** The replacement's gradient along the canary, in units of C: -1 (symmetric) or 0 (one-sided). */
    double replacementSign() {
        return pair.equals("symmetric") ? -1.0 : 0.0;
    }

    /** One line for reports. */
    String describe() {
        return String.format(Locale.ROOT, "prifedsync: m = %d clients, client j with n = %d records, batch B = %d "
                + "(without replacement, fresh each step), K = %d local steps, noise multiplier sigma = %s, clip C = %s, "
                + "client sampling p = %s, R = %d rounds, %s notion, %s view, %s pair (target gradient %s)", clients,
                records, batch, localSteps, Checks.format(sigma), Checks.format(clip), Checks.format(p), rounds, notion,
                view, pair, pair.equals("symmetric") ? "+C against -C" : "C against 0");
    }
}
