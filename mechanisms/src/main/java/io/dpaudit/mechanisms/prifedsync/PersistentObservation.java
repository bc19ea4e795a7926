package io.dpaudit.mechanisms.prifedsync;

import io.dpaudit.core.model.RoundStatistic;

/**
 * A round's block under {@code state: persistent}: a flag (1 when the observer takes part in the round and the global
 * model has taken up at least one update of client j since the observer last saw it), the number {@code s} of such
 * updates (public: the participant list of each synchronisation is known, as in the seed's Lemma 3.8, where a round
 * without both clients is a distinguishable outcome), then the model's change along the canary ({@code width} values,
 * the first along the canary) less everything the adversary knows. The statistic is {@code (s, change along the
 * canary)}.
 */
final class PersistentObservation implements RoundStatistic {
    private final int width;

    PersistentObservation(int width) {
        this.width = width;
    }

    @Override
    public int dimension() {
        return 2;
    }

    @Override
    public int roundDimension() {
        return 2 + width;
    }

    @Override
    public boolean extract(double[] block, int offset, double[] into) {
        if (block[offset] == 0.0) {
            return false;
        }
        into[0] = block[offset + 1];
        into[1] = block[offset + 2];
        return true;
    }
}
