package io.dpaudit.mechanisms.dpfed;

import io.dpaudit.core.model.MechanismType;
import java.util.List;
import java.util.Map;

/** The DP-Fed family's entries in the catalog (seed 003). */
public final class DpFedMechanisms {
    private static final String PARAMETERS = "clients K >= 2, selected m or fraction tau (m = tau K whole for "
            + "uniform), sigma = nu > 0 (noise std on the sum), clip G (1), rounds T (1), dimension D (16), "
            + "canary = spike | smooth, others = replacement (uniform default) | orthogonal";

    private DpFedMechanisms() {
    }

    /** {@code fixed-size-subsampled-gaussian}, {@code dp-fed}, {@code dp-fed-ls}. */
    public static List<MechanismType> types() {
        return List.of(
                type(DpFedParameters.SUBSAMPLED_TYPE, "fixed-size subsampled Gaussian (seed 003): m of K clients "
                        + "uniformly without replacement, clipped sum + N(0, nu^2 I); replace one client "
                        + "(sensitivity 2G)", PARAMETERS),
                type(DpFedParameters.DP_FED_TYPE, "DP-Fed (seed 003, Algorithm 1 without smoothing): (1/m)(sum of "
                        + "clipped updates + N(0, nu^2 I)), uniform (replace-one) or Poisson (add/remove) client "
                        + "selection", PARAMETERS + ", sampling = uniform | poisson"),
                type(DpFedParameters.DP_FED_LS_TYPE, "DP-Fed-LS (seed 003, Algorithm 1): DP-Fed followed by "
                        + "Laplacian smoothing A_s^{-1} (periodic chain, by FFT)", PARAMETERS
                        + ", sampling = uniform | poisson, smoothing s > 0 (1)"));
    }

    private static MechanismType type(String name, String summary, String parameters) {
        return new MechanismType(name, summary, parameters,
                p -> new DpFed(p, DpFedParameters.parseType(name, p)), Map.of("sigma", 1.0));
    }
}
