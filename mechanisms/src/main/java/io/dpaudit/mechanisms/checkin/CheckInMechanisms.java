package io.dpaudit.mechanisms.checkin;

import io.dpaudit.core.model.MechanismType;
import java.util.List;
import java.util.Map;

/** The random check-in protocols' entries in the catalog (seed 004). */
public final class CheckInMechanisms {
    private static final String COMMON = "clients n >= 1, slots m >= 1 (<= 100000), p0 in (0, 1], randomizer = rr | "
            + "gaussian (rr), eps0 > 0 (rr, <= 20), sigma > 0 and clip C (1) and pair = one-sided | symmetric "
            + "(symmetric) (gaussian), rounds R (1)";

    private CheckInMechanisms() {
    }

    /** The calibration parameter's placeholder: sigma for the Gaussian randomizer, eps0 otherwise. */
    private static Map<String, Object> placeholders(Map<String, Object> values) {
        return "gaussian".equals(values.get("randomizer")) ? Map.of("sigma", 1.0) : Map.of("eps0", 1.0);
    }

    /** {@code random-checkin}, {@code random-checkin-averaged} and {@code random-checkin-sliding}. */
    public static List<MechanismType> types() {
        return List.of(
                new MechanismType(CheckInParameters.FIXED_TYPE, "random check-ins, Algorithm 1 (seed 004): each of "
                        + "n clients checks in w.p. p0 at a uniform slot of m; each slot releases the randomizer on "
                        + "one uniformly chosen check-in or on the dummy; replace one client's record", COMMON
                        + ", dataset = canonical | helper | opposite | worst | exhaustive (worst; exhaustive needs "
                        + "n <= 30)", p -> new RandomCheckIn(p, CheckInParameters.parse(CheckInParameters.FIXED_TYPE,
                                p)), CheckInMechanisms::placeholders),
                new MechanismType(CheckInParameters.AVERAGED_TYPE, "random check-ins with averaged updates, "
                        + "Algorithm 2 (seed 004): every check-in of a slot is used and averaged, empty slots skipped, "
                        + "counts observed", "clients n >= 1, slots m >= 1, p0 in (0, 1], randomizer = rr, eps0 > 0, "
                        + "rounds R (1)", p -> new RandomCheckIn(p, CheckInParameters.parse(
                                CheckInParameters.AVERAGED_TYPE, p)), Map.of("eps0", 1.0)),
                new MechanismType(CheckInParameters.SLIDING_TYPE, "random check-ins with sliding windows, Section "
                        + "4.2 (seed 004): client j checks in w.p. p0 at a uniform slot of [j, j+m-1]; slots m..n are "
                        + "served", COMMON + ", target = interior | edge (interior: client m, needs n >= 2m - 1; "
                        + "edge: client 1)", p -> new RandomCheckIn(p, CheckInParameters.parse(
                                CheckInParameters.SLIDING_TYPE, p)), CheckInMechanisms::placeholders));
    }
}
