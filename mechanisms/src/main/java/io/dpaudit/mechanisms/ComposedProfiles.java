package io.dpaudit.mechanisms;

import io.dpaudit.core.accounting.AccountantBound;
import io.dpaudit.core.accounting.Adjacency;
import io.dpaudit.core.accounting.DpEvent;
import io.dpaudit.core.accounting.PldAccountant;
import io.dpaudit.core.bounds.PairProfile;
import io.dpaudit.core.bounds.PrivacyBound;

/**
 * A per-round privacy profile composed over {@code T} rounds by the PLD accountant: an exact pair
 * ({@link PairProfile}) direction by direction, any other profile through its symmetric dominating pair. The result
 * keeps the per-round bound's kind (a composed pair profile is still the exact profile of one pair).
 */
final class ComposedProfiles {
    private ComposedProfiles() {
    }

    /** {@code perRound} composed {@code rounds} times, named {@code pld(<name>)}. */
    static PrivacyBound compose(PrivacyBound perRound, int rounds) {
        double maxLoss = 1;
        while (maxLoss < 64 && perRound.delta(maxLoss) > 1e-25) {
            maxLoss *= 2;
        }
        DpEvent.Profiled round = perRound instanceof PairProfile pair
                ? new DpEvent.Profiled(perRound.name(), pair::remove, pair::add, maxLoss)
                : DpEvent.Profiled.symmetric(perRound.name(), perRound::delta, maxLoss);
        AccountantBound pld = new AccountantBound("pld(" + perRound.name() + ")", new PldAccountant(),
                new DpEvent.SelfComposed(round, rounds), Adjacency.ADD_REMOVE);
        return new LabelledBound(pld.name(), perRound.kind(), pld, () -> "per-round bound composed over " + rounds
                + " rounds: " + pld.source() + "; per round: " + perRound.source());
    }
}
