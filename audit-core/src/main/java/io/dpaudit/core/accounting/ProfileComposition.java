package io.dpaudit.core.accounting;

import io.dpaudit.core.bounds.LabelledBound;
import io.dpaudit.core.bounds.PairProfile;
import io.dpaudit.core.bounds.PrivacyBound;

/**
 * A per-round privacy profile composed over {@code T} rounds by the PLD accountant: an exact pair
 * ({@link PairProfile}) direction by direction, any other profile through its symmetric dominating pair. The result
 * keeps the per-round bound's kind (a composed pair profile is still the exact profile of one pair; a composed
 * theorem is still the theorem's claim).
 *
 * <p>The round's loss range, which the accountant covers with its profiled grid, is {@code [-L, L]} for the smallest
 * power of two {@code L} (between 2^-20 and 64) with {@code delta(L) <= 1e-25}. It used to start at 1 whatever the
 * round's scale, so that a round with much noise (losses of order 10^-3) was discretised on a grid as coarse as its
 * losses: Theorem 4.1 of seed 000 at sigma = 595 over 1000 rounds gave ε(1e-10) = 0.1000 where 0.0715 is the same
 * bound composed on a grid matched to it.
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
        // a round whose loss stays far below 1 (much noise): a range matched to it, so that the grid resolves it
        while (maxLoss > 0x1p-20 && perRound.delta(maxLoss / 2) <= 1e-25) {
            maxLoss /= 2;
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
