package io.dpaudit.mechanisms.participation;

import io.dpaudit.core.InvalidInputException;
import java.util.Arrays;

/** The schemes Hasircioğlu &amp; Gündüz compare (seed 000, Sections 4 and 5.1). */
public enum ParticipationVariant {
    /** Algorithm 1: clients join with probability p, joining clients Poisson-sample records with probability q. */
    RANDOM_PARTICIPATION("random-participation"),
    /** Weak client sampling (WCS, §5.1.2): as Algorithm 1, but which clients joined is public. */
    REVEAL_PARTICIPATION("reveal-participation"),
    /** Only local sampling (OLS, §5.1.1): every client joins (p = 1). */
    ONLY_LOCAL_SAMPLING("only-local-sampling"),
    /** Central shuffling (CS, §5.1.3): every record is sampled independently with probability pq. */
    CENTRAL_SHUFFLING("central-shuffling");

    private final String label;

    ParticipationVariant(String label) {
        this.label = label;
    }

    /** The scenario name. */
    public String label() {
        return label;
    }

    static ParticipationVariant parse(String field, String value) {
        return Arrays.stream(values()).filter(v -> v.label.equals(value)).findFirst().orElseThrow(() ->
                new InvalidInputException(field, value, "must be one of " + String.join(", ",
                        Arrays.stream(values()).map(ParticipationVariant::label).toList())));
    }
}
