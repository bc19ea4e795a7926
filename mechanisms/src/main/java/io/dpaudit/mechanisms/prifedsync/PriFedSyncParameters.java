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
 *     in) or {@code broadcast} (a different threat model: every round's synchronised model is observed, as when the
 *     global model is published each round — not the seed's weak notion)
 * @param pair the gradients, in units of C, of the target record in {@code D}, of its replacement in {@code D'} and
 *     of the client's other records: {@code aligned-others} (+1, -1, -1: the others point the replacement's way, so
 *     the step sum in {@code D'} does not depend on the batch; the leakiest, default), {@code symmetric} (+1, -1, 0)
 *     or {@code one-sided} (+1, 0, 0)
 * @param state {@code fresh} (every round starts from a model that carries nothing of earlier rounds, as Theorem 1's
 *     composition assumes) or {@code persistent} (a global model persists: whenever the observing client takes part it
 *     sees client j's updates of every earlier round in which j was selected)
 * @param noiseConvention {@code replace-one} (noise std {@code 2 sigma C}, so that a step is {@code G_{1/sigma}}
 *     under replace-one, as the seed's {@code f_j} and its demo code's Opacus noise multiplier {@code 2 sigma} mean,
 *     default) or {@code add-remove} (noise std {@code sigma C}, Opacus's convention read as the seed's {@code
 *     sigma}: the planted convention bug)
 */
public record PriFedSyncParameters(int clients, int records, int batch, int localSteps, double sigma, double clip,
        double p, int rounds, String notion, String view, String pair, String state, String noiseConvention) {
    /** The type name. */
    public static final String TYPE = "prifedsync";
    /** Largest K R. */
    static final long MAX_STEPS = 1_000_000L;

    static PriFedSyncParameters parse(Parameters p) {
        p.allowOnly(Set.of("type", "clients", "records", "batch", "localSteps", "sigma", "clip", "p", "rounds",
                "notion", "view", "pair", "state", "noiseConvention"));
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
        String pair = choice(p, "pair", "aligned-others", List.of("aligned-others", "symmetric", "one-sided"));
        String state = choice(p, "state", "fresh", List.of("fresh", "persistent"));
        String convention = choice(p, "noiseConvention", "replace-one", List.of("replace-one", "add-remove"));
        if (state.equals("persistent")) {
            if (view.equals("broadcast")) {
                throw new InvalidInputException(p.field("state"), state, "does not combine with view broadcast (an "
                        + "observer of every round's model already sees every update; use state fresh with it)");
            }
            if (b != n) {
                throw new InvalidInputException(p.field("batch"), b, "must equal records (" + n + ") with state "
                        + "persistent: its exact law and curve are implemented for full-batch local steps only");
            }
            if (r > PersistentStateProfile.MAX_ROUNDS) {
                throw new InvalidInputException(p.field("rounds"), r, "must be <= " + PersistentStateProfile.MAX_ROUNDS
                        + " with state persistent");
            }
        }
        return new PriFedSyncParameters((int) m, (int) n, (int) b, (int) k, sigma, clip, rate, (int) r, notion, view,
                pair, state, convention);
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
        return new PriFedSyncParameters(clients, records, batch, localSteps, s, clip, p, rounds, notion, view, pair,
                state, noiseConvention);
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
        return p * observation();
    }

    /** The noise standard deviation in units of C: {@code 2 sigma} (replace-one convention) or {@code sigma}. */
    double noiseScale() {
        return noiseConvention.equals("replace-one") ? 2 * sigma : sigma;
    }

    /** The other records' gradient along the canary, in units of C. */
    double othersGradient() {
        return pair.equals("aligned-others") ? -1.0 : 0.0;
    }

    /** The replacement's gradient along the canary, in units of C. */
    double replacementGradient() {
        return pair.equals("one-sided") ? 0.0 : -1.0;
    }

    /**
     * The step sum's shift when the target record is in the batch, after the others' known gradients are removed, in
     * units of C: {@code 1 - others} in {@code D}.
     */
    double meanWith() {
        return 1.0 - othersGradient();
    }

    /** The same in {@code D'}: {@code replacement - others}. */
    double meanWithout() {
        return replacementGradient() - othersGradient();
    }

    /** True for {@code state: persistent}. */
    boolean persistent() {
        return state.equals("persistent");
    }

    /**
     * The probability that the observer takes part in a round: {@code p} (weak: one other client) or {@code 1 -
     * (1-p)^{m-1}} (strong: any other client).
     */
    double observation() {
        return notion.equals("weak") ? p : -Math.expm1((clients - 1) * Math.log1p(-p));
    }

    /** One line for reports. */
    String describe() {
        return String.format(Locale.ROOT, "prifedsync: m = %d clients, client j with n = %d records, batch B = %d "
                + "(without replacement, fresh each step), K = %d local steps, noise multiplier sigma = %s, clip C = %s, "
                + "client sampling p = %s, R = %d rounds, %s notion, %s view, %s state, %s pair (%s), noise std %s "
                + "(%s convention)", clients, records, batch, localSteps, Checks.format(sigma), Checks.format(clip),
                Checks.format(p), rounds, notion, view, state, pair, pairText(), noiseConvention.equals("replace-one")
                        ? "2 sigma C" : "sigma C", noiseConvention);
    }

    /** The pair in words. */
    String pairText() {
        return switch (pair) {
            case "aligned-others" -> "target +C against -C, the client's other records -C";
            case "symmetric" -> "target +C against -C, other records 0";
            default -> "target C against 0, other records 0";
        };
    }
}
