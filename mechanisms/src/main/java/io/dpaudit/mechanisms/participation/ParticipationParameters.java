package io.dpaudit.mechanisms.participation;

import io.dpaudit.core.Checks;
import io.dpaudit.core.InvalidInputException;
import io.dpaudit.core.model.Parameters;
import java.util.Set;

/**
 * Validated parameters of random participation (seed 000), shared by its simulators and bounds.
 *
 * @param p probability that a client takes part in a round, in (0, 1] (1 for only-local-sampling)
 * @param q probability that a taking-part client samples each of its records, in (0, 1]
 * @param d the canary client's other records, in {@code [0, 10^5]}
 * @param sigma noise standard deviation, {@code > 0}
 * @param clip clipping norm, {@code > 0}
 * @param rounds composed rounds, in {@code [1, 10^5]}
 * @param adversary the configuration of the canary client's other records
 * @param variant the scheme
 * @param clients number of clients of the faithful simulator when its options do not say (default 8)
 */
public record ParticipationParameters(double p, double q, int d, double sigma, double clip, int rounds,
        Adversary adversary, ParticipationVariant variant, long clients) {
    /** Type name. */
    public static final String TYPE = "random-participation";

    public ParticipationParameters {
        Checks.samplingProbability("p", p);
        Checks.samplingProbability("q", q);
        Checks.positive("sigma", sigma);
        Checks.positive("clip", clip);
    }

    /** Parses and validates a scenario's {@code mechanism} object. */
    static ParticipationParameters parse(Parameters p) {
        p.allowOnly(Set.of("type", "p", "q", "d", "sigma", "clip", "rounds", "adversary", "variant", "clients"));
        ParticipationVariant variant = ParticipationVariant.parse(p.field("variant"),
                p.text("variant", ParticipationVariant.RANDOM_PARTICIPATION.label()));
        double join = variant == ParticipationVariant.ONLY_LOCAL_SAMPLING
                ? Checks.samplingProbability(p.field("p"), p.number("p", 1.0))
                : Checks.samplingProbability(p.field("p"), p.number("p"));
        if (variant == ParticipationVariant.ONLY_LOCAL_SAMPLING && join != 1.0) {
            throw new InvalidInputException(p.field("p"), join, "must be 1 for only-local-sampling (every client takes "
                    + "part)");
        }
        double q = Checks.samplingProbability(p.field("q"), p.number("q"));
        long d = p.wholeNumber("d", 0);
        if (d > 100_000) {
            throw new InvalidInputException(p.field("d"), d, "must be <= 100000");
        }
        double sigma = Checks.positive(p.field("sigma"), p.number("sigma"));
        double clip = Checks.positive(p.field("clip"), p.number("clip", 1.0));
        long rounds = p.wholeNumber("rounds", 1, 1);
        if (rounds > 100_000) {
            throw new InvalidInputException(p.field("rounds"), rounds, "must be <= 100000");
        }
        Adversary adversary = Adversary.parse(p.field("adversary"), p.text("adversary", Adversary.ALIGNED.label()));
        long clients = p.has("clients") ? p.wholeNumber("clients", 1) : 8;
        return new ParticipationParameters(join, q, (int) d, sigma, clip, (int) rounds, adversary, variant, clients);
    }

    /** The same configuration with another noise standard deviation (for calibration). */
    ParticipationParameters withSigma(double s) {
        return new ParticipationParameters(p, q, d, s, clip, rounds, adversary, variant, clients);
    }

    /** Probability that client 1 takes part in a round, as sampled (1 for OLS and CS). */
    double samplingJoinProbability() {
        return variant == ParticipationVariant.ONLY_LOCAL_SAMPLING || variant == ParticipationVariant.CENTRAL_SHUFFLING
                ? 1.0 : p;
    }

    /** Probability that one of client 1's records is sampled given that it takes part (pq for CS). */
    double samplingRecordProbability() {
        return variant == ParticipationVariant.CENTRAL_SHUFFLING ? p * q : q;
    }

    /** Whether client 1's participation is published (weak client sampling). */
    boolean revealed() {
        return variant == ParticipationVariant.REVEAL_PARTICIPATION;
    }

    /** Probability of the event outside which the two worlds do not differ at all (p for WCS, else 1). */
    double scale() {
        return revealed() ? p : 1.0;
    }

    /** The law of the statistic for an adversary configuration (given participation, for WCS). */
    ParticipationLaw law(Adversary a) {
        double j = revealed() ? 1.0 : samplingJoinProbability();
        return new ParticipationLaw(a, j, samplingRecordProbability(), d, sigma, clip);
    }
}
