package io.dpaudit.mechanisms.noisysgd;

import io.dpaudit.core.model.MechanismType;
import java.util.List;
import java.util.Map;

/** The noisy-SGD family's entry in the catalog. */
public final class NoisySgdMechanisms {
    private NoisySgdMechanisms() {
    }

    /** {@code noisy-sgd}. */
    public static List<MechanismType> types() {
        return List.of(new MechanismType(NoisySgdMechanism.TYPE,
                "DP-SGD on a real model (quadratic or logistic loss), only the final model released (black box)",
                "loss = quadratic | logistic (quadratic), dimension d in [2, 256] (5), records n (50), q in (0, 1], "
                + "steps T (100), sigma (noise multiplier), clip C (1), learningRate (0.1), diameter D (none), canary = "
                + "gradient | input (gradient), canaryNorm (input; 10)",
                p -> new NoisySgdMechanism(p, NoisySgdParameters.parse(p)), Map.of("sigma", 1.0)));
    }
}
