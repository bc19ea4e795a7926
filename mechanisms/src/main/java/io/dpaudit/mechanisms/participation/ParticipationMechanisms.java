package io.dpaudit.mechanisms.participation;

import io.dpaudit.core.model.MechanismType;
import java.util.List;
import java.util.Map;

/** The random-participation family's entry in the catalog (seed 000). */
public final class ParticipationMechanisms {
    private ParticipationMechanisms() {
    }

    /** {@code random-participation}. */
    public static List<MechanismType> types() {
        return List.of(new MechanismType(ParticipationParameters.TYPE,
                "random participation in FL (seed 000): clients join w.p. p, sample records w.p. q; one record of "
                        + "client 1 differs",
                "p, q in (0, 1], d >= 0, sigma > 0, clip (1), rounds (1), adversary = aligned | orthogonal | zero, "
                        + "variant = random-participation | reveal-participation | only-local-sampling | "
                        + "central-shuffling, clients (faithful)",
                p -> new RandomParticipation(p, ParticipationParameters.parse(p)), Map.of("sigma", 1.0)));
    }
}
