package io.dpaudit.mechanisms;

import io.dpaudit.core.InvalidInputException;
import io.dpaudit.core.model.AuditableMechanism;
import io.dpaudit.core.model.Parameters;
import java.util.List;
import java.util.function.Function;

/** The mechanism types dp-audit knows, by scenario type name. */
public final class MechanismCatalog {
    /**
     * One mechanism type.
     *
     * @param type name used in scenarios and on the command line
     * @param summary one line
     * @param parameters parameter list with domains and defaults
     * @param parser validates parameters and builds the mechanism
     */
    public record Entry(String type, String summary, String parameters,
            Function<Parameters, AuditableMechanism> parser) {
    }

    private static final List<Entry> ENTRIES = List.of(
            new Entry(PoissonSubsampledGaussian.GAUSSIAN_TYPE,
                    "Gaussian mechanism: clipped sum + N(0, sigma^2 I), add/remove one record",
                    "sigma > 0 (noise std), clip > 0 (default 1), rounds >= 1 (default 1)",
                    PoissonSubsampledGaussian::parseGaussian),
            new Entry(PoissonSubsampledGaussian.TYPE,
                    "Poisson-subsampled Gaussian (DP-SGD step): each record kept w.p. q, clipped sum + noise",
                    "q in (0, 1], sigma > 0 (noise std), clip > 0 (default 1), rounds >= 1 (default 1)",
                    PoissonSubsampledGaussian::parse),
            new Entry(RandomParticipation.TYPE,
                    "random participation in FL (seed 000): clients join w.p. p, sample records w.p. q; one record of "
                            + "client 1 differs",
                    "p, q in (0, 1], d >= 0, sigma > 0, clip (1), rounds (1), adversary = aligned | orthogonal | zero, "
                            + "variant = random-participation | reveal-participation | only-local-sampling | "
                            + "central-shuffling, clients (faithful)",
                    RandomParticipation::parse));

    private MechanismCatalog() {
    }

    /** All known types. */
    public static List<Entry> entries() {
        return ENTRIES;
    }

    /**
     * Builds the mechanism named by the {@code type} parameter.
     *
     * @throws InvalidInputException for an unknown type or invalid parameters
     */
    public static AuditableMechanism parse(Parameters parameters) {
        String type = parameters.text("type", null);
        if (type == null) {
            throw InvalidInputException.missing(parameters.field("type"));
        }
        for (Entry e : ENTRIES) {
            if (e.type().equals(type)) {
                return e.parser().apply(parameters);
            }
        }
        throw new InvalidInputException(parameters.field("type"), type, "unknown mechanism type (known: "
                + String.join(", ", ENTRIES.stream().map(Entry::type).toList()) + ")");
    }
}
