package io.dpaudit.mechanisms.shuffle;

import io.dpaudit.core.model.MechanismType;
import java.util.List;
import java.util.Map;

/** The shuffled protocols' entries in the catalog (seed 001). */
public final class ShuffleMechanisms {
    private static final String RANDOMIZER = "randomizer = rr | krr | sign (rr), eps0 > 0 (the randomizer's local "
            + "privacy, <= 20), symbols (krr, 4), dimension (sign, 8), rounds T (1), config = canonical | opposite | "
            + "worst (worst)";

    private ShuffleMechanisms() {
    }

    /** {@code dss-sgd} and {@code shuffled-randomizer}. */
    public static List<MechanismType> types() {
        return List.of(
                new MechanismType(ShuffleParameters.DSS_TYPE, "dss-SGD (seed 001): m clients of r records; each "
                        + "client joins a round w.p. q, reports one random record through an eps0-LDP randomizer; the "
                        + "K_t reports are shuffled; replace one record", "clients m >= 1, records r (1), q in (0, 1], "
                        + "sampling = self | fixed (self), " + RANDOMIZER,
                        p -> new ShuffledProtocol(p, ShuffleParameters.parse(ShuffleParameters.DSS_TYPE, p)),
                        Map.of("eps0", 1.0)),
                new MechanismType(ShuffleParameters.SHUFFLED_TYPE, "n reports of an eps0-LDP randomizer, uniformly "
                        + "shuffled (Feldman, McMillan & Talwar's setting); replace one report's input",
                        "clients n >= 1, " + RANDOMIZER,
                        p -> new ShuffledProtocol(p, ShuffleParameters.parse(ShuffleParameters.SHUFFLED_TYPE, p)),
                        Map.of("eps0", 1.0)));
    }
}
