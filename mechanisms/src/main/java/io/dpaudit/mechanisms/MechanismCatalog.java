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

    private static final String DPFED_PARAMETERS = "clients K >= 2, selected m or fraction tau (m = tau K whole for "
            + "uniform), sigma = nu > 0 (noise std on the sum), clip G (1), rounds T (1), dimension D (16), "
            + "canary = spike | smooth, others = replacement (uniform default) | orthogonal";

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
                    RandomParticipation::parse),
            new Entry(DpFed.SUBSAMPLED_TYPE,
                    "fixed-size subsampled Gaussian (seed 003): m of K clients uniformly without replacement, clipped "
                            + "sum + N(0, nu^2 I); replace one client (sensitivity 2G)",
                    DPFED_PARAMETERS, DpFed::parseSubsampled),
            new Entry(DpFed.DP_FED_TYPE,
                    "DP-Fed (seed 003, Algorithm 1 without smoothing): (1/m)(sum of clipped updates + N(0, nu^2 I)), "
                            + "uniform (replace-one) or Poisson (add/remove) client selection",
                    DPFED_PARAMETERS + ", sampling = uniform | poisson", DpFed::parseDpFed),
            new Entry(DpFed.DP_FED_LS_TYPE,
                    "DP-Fed-LS (seed 003, Algorithm 1): DP-Fed followed by Laplacian smoothing A_s^{-1} (periodic "
                            + "chain, by FFT)",
                    DPFED_PARAMETERS + ", sampling = uniform | poisson, smoothing s > 0 (1)", DpFed::parseDpFedLs));

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
