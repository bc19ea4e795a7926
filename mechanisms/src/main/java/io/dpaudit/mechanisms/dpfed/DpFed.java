package io.dpaudit.mechanisms.dpfed;

import io.dpaudit.core.InvalidInputException;
import io.dpaudit.core.bounds.BoundFamily;
import io.dpaudit.core.bounds.PrivacyBound;
import io.dpaudit.core.model.AuditableMechanism;
import io.dpaudit.core.model.MechanismSimulator;
import io.dpaudit.core.model.Parameters;
import io.dpaudit.mechanisms.dpfed.DpFedParameters.Sampling;
import java.util.List;
import java.util.Set;
import org.apache.commons.rng.UniformRandomProvider;

/**
 * DP-Fed and DP-Fed-LS (Liang et al., seed 003, Algorithm 1) and their core, the fixed-size subsampled Gaussian. In
 * each of {@code T} rounds the server selects clients — {@code m} of {@code K} uniformly without replacement, or each
 * independently with probability {@code tau} (Poisson) —, every selected client's update is clipped to l2 norm
 * {@code G}, and the server releases {@code c A_s^{-1}(sum of clipped updates + N(0, nu^2 I_D))}: {@code c = 1} and
 * {@code s = 0} for {@code fixed-size-subsampled-gaussian}, {@code c = 1/m} (with {@code m = tau K} for Poisson) for
 * {@code dp-fed} ({@code s = 0}) and {@code dp-fed-ls} ({@code s > 0}, Laplacian smoothing).
 *
 * <p>Adjacency: with uniform selection, replace one client's data (the sum's sensitivity is {@code 2G}); with Poisson
 * selection, add or remove one client (sensitivity {@code G}).
 *
 * <p>The adversary's configuration ({@code others}): {@code replacement} (uniform only, the default) gives every other
 * client the update that replaces the canary's, so that the released sum is a constant plus, in {@code D} only, the
 * difference {@code 2G u} when the canary's client is selected — the worst case we know for replace-one, and the pair
 * {@code (1-gamma) N(0, nu^2) + gamma N(2G, nu^2)} vs {@code N(0, nu^2)} per round; {@code orthogonal} gives the
 * others updates orthogonal to the canary's, so the canary's slot contributes {@code +G u} in {@code D} and
 * {@code -G u} in {@code D'} when selected (the usual configuration for Poisson, where {@code D'} lacks the client).
 *
 * <p>Parameters: {@code clients} K, {@code selected} m or {@code fraction} tau, {@code sampling} ({@code uniform} |
 * {@code poisson}), {@code sigma} = nu (noise standard deviation on the sum, the paper's nu; the paper's sigma is
 * {@code smoothing}), {@code clip} G (1), {@code rounds} T (1), {@code dimension} D (16), {@code smoothing} s
 * ({@code dp-fed-ls} only, default 1), {@code canary} ({@code spike} = e_1 | {@code smooth} = constant unit vector),
 * {@code others}.
 */
public final class DpFed implements AuditableMechanism {
    private final Parameters parameters;
    private final DpFedParameters m;

    DpFed(Parameters parameters, DpFedParameters m) {
        this.parameters = parameters;
        this.m = m;
    }

    /** T rounds of client selection and noise. */
    @Override
    public long roundsPerTrial() {
        return m.rounds();
    }

    @Override
    public String type() {
        return m.type();
    }

    @Override
    public Parameters parameters() {
        return parameters;
    }

    /** The validated parameters. */
    public DpFedParameters dpFedParameters() {
        return m;
    }

    @Override
    public String adjacency() {
        return m.sampling() == Sampling.UNIFORM ? "replace one client's data (sum sensitivity 2G)"
                : "add/remove one client (sum sensitivity G)";
    }

    @Override
    public MechanismSimulator reduced() {
        return ReducedDpFedSimulator.of(m);
    }

    @Override
    public MechanismSimulator faithful(Parameters options, UniformRandomProvider datasetRng) {
        options.allowOnly(Set.of("kind", "dimension"));
        if (options.has("dimension")) {
            throw new InvalidInputException(options.field("dimension"), options.number("dimension"),
                    "set the dimension in the mechanism, which both simulators share");
        }
        if (m.dimension() > FaithfulDpFedSimulator.MAX_DIMENSION) {
            throw new InvalidInputException(parameters.field("dimension"), m.dimension(), "must be <= "
                    + FaithfulDpFedSimulator.MAX_DIMENSION + " for the faithful simulator");
        }
        return FaithfulDpFedSimulator.of(m, datasetRng);
    }

    /**
     * The bounds as functions of nu: the PLD and RDP accountants on the exact event (certified), the paper's lemma
     * and theorem (closed forms, conditions checked), and the paper's own accounting ({@link DpFedBounds}).
     */
    @Override
    public List<BoundFamily> boundFamilies() {
        return new DpFedBounds(m).families();
    }

    /** The exact profile of the simulated pair over T rounds. */
    @Override
    public List<PrivacyBound> otherBounds() {
        return List.of(new DpFedBounds(m).pairProfile());
    }

    /** The paper's own accounting at noise {@code noise} (for tests). */
    PrivacyBound paperConvention(double noise) {
        return new DpFedBounds(m).paperConvention(noise);
    }

    @Override
    public List<String> notes() {
        return new DpFedBounds(m).notes();
    }
}
