package io.dpaudit.core.model;

import io.dpaudit.core.bounds.BoundFamily;
import io.dpaudit.core.bounds.PrivacyBound;
import java.util.List;
import org.apache.commons.rng.UniformRandomProvider;

/**
 * A mechanism configuration that dp-audit can simulate and bound: its simulators (reduced and faithful) and the
 * analytic bounds that apply to it.
 */
public interface AuditableMechanism {
    /** Type name as in scenarios, e.g. {@code poisson-subsampled-gaussian}. */
    String type();

    /** The validated parameters, in the user's order. */
    Parameters parameters();

    /** Adjacency the simulators and bounds refer to, e.g. {@code "add/remove one record"}. */
    String adjacency();

    /** The reduced simulator: an exact sampler of the worst-case pair's sufficient statistic. */
    MechanismSimulator reduced();

    /**
     * The faithful simulator: explicit records, clipping and sampling as the algorithm describes.
     *
     * @param options simulator options (e.g. {@code records}, {@code dimension})
     * @param datasetRng the only randomness used to build the dataset
     */
    MechanismSimulator faithful(Parameters options, UniformRandomProvider datasetRng);

    /** The bounds that apply to this configuration, evaluated at its parameters. */
    default List<PrivacyBound> bounds() {
        return boundFamilies().stream().map(f -> f.atSigma().apply(sigma())).toList();
    }

    /** The bounds as functions of sigma, for calibration. */
    List<BoundFamily> boundFamilies();

    /** The noise standard deviation of this configuration. */
    double sigma();

    /**
     * What a reader of a report on this configuration must know beyond the bounds table: side conditions of a
     * theorem that fail here, conventions that differ from the source paper's, and the like. One sentence each.
     */
    default List<String> notes() {
        return List.of();
    }
}
