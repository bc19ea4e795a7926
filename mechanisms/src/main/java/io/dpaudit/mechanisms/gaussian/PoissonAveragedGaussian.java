package io.dpaudit.mechanisms.gaussian;

import io.dpaudit.core.Checks;
import io.dpaudit.core.InvalidInputException;
import io.dpaudit.core.bounds.BoundFamily;
import io.dpaudit.core.model.AuditableMechanism;
import io.dpaudit.core.model.MechanismSimulator;
import io.dpaudit.core.model.Parameters;
import io.dpaudit.mechanisms.gaussian.AveragedGaussianParameters.Divisor;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.commons.rng.UniformRandomProvider;

/**
 * The Poisson-subsampled Gaussian sum divided by an expected batch size, as Opacus v1.0–v1.6 releases it
 * (meta-pytorch/opacus #571, #819; formula sheet §15.1): per round {@code (sum_{i in B} clip(g_i) + N(0, sigma^2 I_d))
 * / b}. With {@code divisor = per-dataset} (the shipped behaviour) {@code b = int(|dataset| q)} of the dataset the
 * mechanism runs on, so add/remove neighbours can be divided by different {@code b}, and the release's scale, visible
 * in the squared norm of its {@code d - 1} coordinates off the canary, tells them apart more surely as {@code d} grows.
 * With {@code divisor = fixed} the divisor is one public constant and the mechanism is post-processing of the
 * subsampled Gaussian, whose accountants then hold.
 *
 * <p>Bounds: for a fixed divisor, those of {@code poisson-subsampled-gaussian} at the same {@code (q, sigma, clip,
 * rounds)}. For a per-dataset divisor none is proven; a claim of the subsampled Gaussian accountant, as the library
 * printed it, is {@code "assuming": {"divisor": "fixed"}}.
 */
public final class PoissonAveragedGaussian implements AuditableMechanism {
    private final Parameters parameters;
    private final AveragedGaussianParameters a;

    PoissonAveragedGaussian(Parameters parameters, AveragedGaussianParameters a) {
        this.parameters = parameters;
        this.a = a;
    }

    /** Parses type {@code poisson-averaged-gaussian}. */
    static PoissonAveragedGaussian parse(Parameters p) {
        return new PoissonAveragedGaussian(p, AveragedGaussianParameters.parse(p));
    }

    /** The validated parameters. */
    public AveragedGaussianParameters averagedParameters() {
        return a;
    }

    @Override
    public String type() {
        return AveragedGaussianParameters.TYPE;
    }

    @Override
    public Parameters parameters() {
        return parameters;
    }

    @Override
    public String adjacency() {
        return "add/remove one record";
    }

    @Override
    public long roundsPerTrial() {
        return a.sum().rounds();
    }

    @Override
    public MechanismSimulator reduced() {
        return ReducedAveragedGaussianSimulator.of(a);
    }

    @Override
    public MechanismSimulator faithful(Parameters options, UniformRandomProvider datasetRng) {
        options.allowOnly(Set.of("kind"));
        if ((double) a.records() * a.dimension() > FaithfulAveragedGaussianSimulator.MAX_CELLS) {
            throw new InvalidInputException(parameters.field("records"), a.records(), String.format(Locale.ROOT,
                    "times dimension (%d) is more than the faithful simulator's %d gradient coordinates; use the "
                    + "reduced simulator", a.dimension(), FaithfulAveragedGaussianSimulator.MAX_CELLS));
        }
        return FaithfulAveragedGaussianSimulator.of(a);
    }

    /** The subsampled Gaussian's bounds for a fixed divisor; none for a per-dataset one. */
    @Override
    public List<BoundFamily> boundFamilies() {
        if (a.divisor() == Divisor.PER_DATASET && a.divisorWithCanary() != a.divisorWithoutCanary()) {
            return List.of();
        }
        GaussianParameters g = a.sum();
        return PoissonSubsampledGaussian.of(g.q(), g.sigma(), g.clip(), g.rounds()).boundFamilies();
    }

    @Override
    public List<String> notes() {
        long with = a.divisorWithCanary();
        long without = a.divisorWithoutCanary();
        if (with == without) {
            return List.of(String.format(Locale.ROOT, "The divisor is %d in both worlds (%s): the release is "
                    + "post-processing of the Poisson-subsampled Gaussian, whose bounds apply.", with,
                    a.divisor() == Divisor.FIXED ? "fixed" : "q (n + 1) and q n have the same integer part"));
        }
        return List.of(String.format(Locale.ROOT, "The divisor is int(q |D|) = %d with the canary and %d without "
                + "(q = %s, n = %d): the release's scale differs by %d/%d between the neighbours, so no bound of the "
                + "subsampled Gaussian applies; with d = %d the squared norm off the canary shows it.", with, without,
                Checks.format(a.sum().q()), a.records(), with, without, a.dimension()));
    }
}
