package io.dpaudit.core.accounting;

import io.dpaudit.core.bounds.LabelledBound;
import io.dpaudit.core.bounds.PairProfile;
import io.dpaudit.core.bounds.PrivacyBound;

/**
 * A per-round privacy profile composed over {@code T} rounds by the PLD accountant: an exact pair
 * ({@link PairProfile}) direction by direction, any other profile through its symmetric dominating pair. The result
 * keeps the per-round bound's kind (a composed pair profile is still the exact profile of one pair; a composed
 * theorem is still the theorem's claim).
 */
public final class ProfileComposition {
    private ProfileComposition() {
    }

    /** {@code perRound} composed {@code rounds} times, named {@code pld(<name>)}. */
    public static PrivacyBound compose(PrivacyBound perRound, int rounds) {
        double maxLoss = 1;
        while (maxLoss < 64 && perRound.delta(maxLoss) > 1e-25) {
            maxLoss *= 2;
        }
        DpEvent.Profiled round = perRound instanceof PairProfile pair
                ? new DpEvent.Profiled(perRound.name(), pair::remove, pair::add, maxLoss)
                : DpEvent.Profiled.symmetric(perRound.name(), perRound::delta, maxLoss);
        String name = "pld(" + perRound.name() + ")";
        PrivacyBound pld = new PldAccountant().account(name, new DpEvent.SelfComposed(round, rounds),
                Adjacency.ADD_REMOVE);
        return new LabelledBound(name, perRound.kind(), pld, "per-round bound composed over " + rounds + " rounds: "
                + pld.source() + "; per round: " + perRound.source());
    }
}
