package io.dpaudit.mechanisms.prifedsync;

import io.dpaudit.core.model.MechanismType;
import java.util.List;
import java.util.Map;

/** PriFedSync's entry in the catalog (seed 002). */
public final class PriFedSyncMechanisms {
    private PriFedSyncMechanisms() {
    }

    /** {@code prifedsync}. */
    public static List<MechanismType> types() {
        return List.of(new MechanismType(PriFedSyncParameters.TYPE, "PriFedSync (seed 002): m clients, K local "
                + "noisy-SGD steps per round on batches of B of n records drawn without replacement, Poisson client "
                + "sampling p, R rounds; replace one record of client j", "clients m >= 2, records n, batch B <= n, "
                + "localSteps K (1), sigma >= 0.05 (noise multiplier), clip C (1), p in (0, 1], rounds R (1), notion = "
                + "weak | strong (weak), view = per-round | broadcast (per-round), state = fresh | persistent (fresh; "
                + "persistent needs batch = records), pair = aligned-others | symmetric | one-sided (aligned-others, "
                + "the leakiest), noiseConvention = replace-one | add-remove (replace-one: noise std 2 sigma C)", p -> new PriFedSync(p, PriFedSyncParameters.parse(p)), Map.of("sigma", 1.0)));
    }
}
