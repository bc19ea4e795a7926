package io.dpaudit.mechanisms.shuffle;

import io.dpaudit.core.bounds.BoundKind;
import io.dpaudit.core.bounds.DiscretePairProfile;
import io.dpaudit.core.bounds.PrivacyBound;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One shuffled-protocol configuration with its exact laws and per-round profiles computed once: building the law of a
 * round with hundreds of thousands of atoms takes a noticeable fraction of a second, and the simulators, the bounds and
 * the notes all need it. Thread-safe; what it computes depends on the parameters only.
 */
final class ShuffleModel {
    private static final double REFERENCE_DELTA = 1e-6;

    private final ShuffleParameters p;
    private final Map<String, ShuffleLaw> laws = new ConcurrentHashMap<>();
    private final Map<String, DiscretePairProfile> profiles = new ConcurrentHashMap<>();
    private volatile String simulated;
    private volatile PrivacyBound exact;

    ShuffleModel(ShuffleParameters p) {
        this.p = p;
    }

    ShuffleParameters parameters() {
        return p;
    }

    /** The exact law of a round under a dataset configuration ({@code canonical} or {@code opposite}). */
    ShuffleLaw law(String configuration) {
        return laws.computeIfAbsent(configuration, p::law);
    }

    /** The per-round exact profile of one dataset configuration. */
    DiscretePairProfile perRound(String configuration) {
        return profiles.computeIfAbsent(configuration, c -> {
            ShuffleLaw law = law(c);
            return new DiscretePairProfile(p.type() + "-exact(" + c + ")", "exact profile of one round, " + c
                    + " dataset: " + law.describe(), BoundKind.PAIR_PROFILE, law.withCanary(), law.withoutCanary(),
                    law.droppedMass());
        });
    }

    /** The exact curve over all rounds ({@link ShuffleBounds#exact}), computed once. */
    PrivacyBound exact() {
        PrivacyBound e = exact;
        if (e == null) {
            e = ShuffleBounds.exactCurve(this);
            exact = e;
        }
        return e;
    }

    /** The configurations the exact curve maximises over. */
    List<String> configurations() {
        return p.config().equals("worst") ? List.of("canonical", "opposite") : List.of(p.config());
    }

    /**
     * The configuration the simulators use: the given one, or for {@code worst} the one whose per-round exact epsilon
     * at delta = 1e-6 is larger (canonical on a tie, as for every randomizer here, whose two configurations are mirror
     * images).
     */
    String simulatedConfiguration() {
        String s = simulated;
        if (s == null) {
            if (!p.config().equals("worst")) {
                s = p.config();
            } else {
                double canonical = perRound("canonical").epsilon(REFERENCE_DELTA);
                double opposite = perRound("opposite").epsilon(REFERENCE_DELTA);
                s = opposite > canonical * (1 + 1e-9) ? "opposite" : "canonical";
            }
            simulated = s;
        }
        return s;
    }
}
