package io.dpaudit.core.model;

import java.util.Map;
import java.util.function.Function;

/**
 * One mechanism type as the catalog lists it: what scenarios and the command line call it, how its parameters are
 * validated, and what value its calibration parameter may take while {@code dp-audit calibrate} varies it.
 *
 * @param type name used in scenarios and on the command line
 * @param summary one line
 * @param parameters parameter list with domains and defaults, one line
 * @param parser validates parameters and builds the mechanism (an {@link io.dpaudit.core.InvalidInputException}
 *     naming the field for bad input)
 * @param calibrationPlaceholders given the values the user wrote, the values filled in for calibration parameters
 *     left out when calibrating (calibration replaces them; any valid value lets the other parameters parse), e.g.
 *     {@code sigma = 1}; they may depend on the user's values (the parameter calibrated can depend on a randomizer)
 */
public record MechanismType(String type, String summary, String parameters,
        Function<Parameters, AuditableMechanism> parser,
        Function<Map<String, Object>, Map<String, Object>> calibrationPlaceholders) {

    /** A type whose placeholders do not depend on the user's values. */
    public MechanismType(String type, String summary, String parameters, Function<Parameters, AuditableMechanism> parser,
            Map<String, Object> calibrationPlaceholders) {
        this(type, summary, parameters, parser, fixed(calibrationPlaceholders));
    }

    private static Function<Map<String, Object>, Map<String, Object>> fixed(Map<String, Object> placeholders) {
        Map<String, Object> copy = Map.copyOf(placeholders);
        return values -> copy;
    }
}
