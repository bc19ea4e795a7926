package io.dpaudit.core.model;

import io.dpaudit.core.audit.ProfileEstimation;
import io.dpaudit.core.bounds.BoundFamily;
import io.dpaudit.core.bounds.PrivacyBound;
import io.dpaudit.core.engine.ProgressListener;
import java.util.ArrayList;
import java.util.List;
import org.apache.commons.rng.UniformRandomProvider;

/**
 * A mechanism configuration that dp-audit can simulate and bound: its simulators (reduced and faithful), whose output
 * models state the exact law of a sufficient statistic, and the analytic bounds that apply to it. Nothing here assumes
 * Gaussian noise: the parameter a calibration varies is named by each bound family ({@code sigma}, {@code eps0},
 * {@code p0}, ...).
 */
public interface AuditableMechanism {
    /** Type name as in scenarios, e.g. {@code poisson-subsampled-gaussian}. */
    String type();

    /** The validated parameters, in the user's order. */
    Parameters parameters();

    /** Adjacency the simulators and bounds refer to, e.g. {@code "add/remove one record"}. */
    String adjacency();

    /**
     * The noisy releases the mechanism composes per trial — its rounds or steps (T E for a DP-SGD batch sampler of T
     * steps over E epochs), 1 for a single release — declared by the family, not read from a parameter's name. What a
     * throughput in rounds ({@code roundsPerSecondPerCore}) counts.
     */
    long roundsPerTrial();

    /** The reduced simulator: an exact sampler of the simulated pair's sufficient statistic. */
    MechanismSimulator reduced();

    /**
     * The faithful simulator: explicit records, clipping, sampling and randomization as the algorithm describes.
     *
     * @param options simulator options (e.g. {@code records}, {@code dimension})
     * @param datasetRng the only randomness used to build the dataset
     */
    MechanismSimulator faithful(Parameters options, UniformRandomProvider datasetRng);

    /**
     * The bounds that can be calibrated, each as a function of its named parameter and knowing this configuration's
     * value of it. Building a family is cheap; evaluating one may not be.
     */
    List<BoundFamily> boundFamilies();

    /**
     * Every analytic bound that applies, evaluated at this configuration: the families at their current value and
     * {@link #otherBounds()}. Each call computes them (accountants run here), so a caller that needs the list more than
     * once keeps it.
     */
    default List<PrivacyBound> bounds() {
        return bounds(ProgressListener.NONE);
    }

    /**
     * {@link #bounds()}, telling {@code progress} which bound it computes (phase {@code prepare}) and checking it
     * between bounds (a run's budget), since composing an accountant can take seconds.
     */
    default List<PrivacyBound> bounds(ProgressListener progress) {
        List<PrivacyBound> list = new ArrayList<>();
        List<BoundFamily> families = boundFamilies();
        long start = System.nanoTime();
        for (int i = 0; i < families.size(); i++) {
            BoundFamily f = families.get(i);
            progress.check("computing bound " + f.name());
            progress.onPhase("prepare", String.format(java.util.Locale.ROOT, "bound %d of %d: %s (%.1f s so far)",
                    i + 1, families.size(), f.name(), (System.nanoTime() - start) / 1e9));
            list.add(f.atCurrent());
        }
        progress.check("computing the exact profiles");
        progress.onPhase("prepare", String.format(java.util.Locale.ROOT, "exact profiles of the simulated pairs "
                + "(%.1f s so far)", (System.nanoTime() - start) / 1e9));
        list.addAll(otherBounds());
        return List.copyOf(list);
    }

    /**
     * Bounds that are not calibrated (exact profiles of simulated pairs, for instance), evaluated at this
     * configuration. None by default.
     */
    default List<PrivacyBound> otherBounds() {
        return List.of();
    }

    /**
     * What the adversary sees: {@code transcript} (every release, the default) or {@code last-iterate} (only the final
     * model, for the DP-SGD samplers that offer it).
     */
    default String view() {
        return "transcript";
    }

    /**
     * A white-box importance sampler of the simulated pair's privacy profile ({@code estimate.method = importance}) for
     * a mechanism whose rounds the generic estimator cannot tilt one at a time (rounds that depend on each other);
     * null, the default, where the mechanism has none of its own.
     *
     * @param samplesPerTarget samples per target and direction
     */
    default ProfileEstimation importanceEstimation(long samplesPerTarget) {
        return null;
    }

    /**
     * Whether the simulated pair is proven to be the mechanism's worst case (its curve is the mechanism's privacy
     * curve), as for every mechanism whose simulator is exact and whose canary is the worst one; false for a
     * lower-bound pair (the shuffle's: other datasets may lose more), whose two-sided estimate then refutes claims
     * but shows none loose.
     */
    default boolean simulatedPairIsWorstCase() {
        return true;
    }

    /**
     * The name of the bound that is the exact privacy curve of the simulated pair (e.g. {@code random-checkin-exact}),
     * against which reports measure how loose every other bound is and what share of it the audit recovers. Null by
     * default: reports then use a bound named {@code TYPE-exact}, else the first exact profile of a pair.
     */
    default String referenceBound() {
        return null;
    }

    /**
     * What a reader of a report on this configuration must know beyond the bounds table: side conditions of a
     * theorem that fail here, conventions that differ from the source paper's, and the like. One sentence each.
     */
    default List<String> notes() {
        return List.of();
    }
}
