package io.dpaudit.attacks;

import io.dpaudit.attacks.learned.LearnedDistinguisher;
import io.dpaudit.core.InvalidInputException;
import io.dpaudit.core.blackbox.StatisticScorer;
import io.dpaudit.core.blackbox.TrainableScorer;
import io.dpaudit.core.engine.Scorer;
import io.dpaudit.core.model.MechanismSimulator;
import io.dpaudit.core.model.OutputModel;
import java.util.List;
import java.util.function.Function;

/**
 * The attacks dp-audit knows, by scenario name. White-box attacks need the exact law of the simulator's outputs
 * ({@link OutputModel}); the generic ones ({@code statistic}, {@code learned}) need only outputs, and are the ones for
 * black-box mechanisms.
 */
public final class AttackCatalog {
    /** Default attack. */
    public static final String DEFAULT = LikelihoodRatioAttack.NAME;
    /** The generic threshold attack on the output's first coordinate. */
    public static final String STATISTIC = "statistic";

    /**
     * An attack ready to run: a scorer, or a distinguisher that must first learn from samples of its own.
     *
     * @param scorer the scorer, or null when {@code trainable} is given
     * @param trainable the learned distinguisher, or null
     * @param simulator an exact reduction of the mechanism's simulator for this scorer (its outputs are what the
     *     scorer reads, drawn from their exact law more cheaply), or null to run the mechanism's own simulator
     */
    public record Attack(Scorer scorer, TrainableScorer trainable, MechanismSimulator simulator) {
        public Attack {
            if ((scorer == null) == (trainable == null)) {
                throw new IllegalArgumentException("exactly one of scorer and trainable");
            }
        }

        /** An attack on the mechanism's own simulator. */
        public Attack(Scorer scorer, TrainableScorer trainable) {
            this(scorer, trainable, null);
        }
    }

    /**
     * One attack.
     *
     * @param name scenario name
     * @param summary one line
     * @param needsLaw whether the attack needs the exact law of the outputs
     * @param factory builds the attack for a simulator
     */
    public record Entry(String name, String summary, boolean needsLaw, Function<MechanismSimulator, Attack> factory) {
    }

    private static final List<Entry> ENTRIES = List.of(
            new Entry(LikelihoodRatioAttack.NAME,
                    "exact log-likelihood ratio of the worst-case pair, summed over rounds (optimal)", true,
                    s -> new Attack(LikelihoodRatioAttack.of(s.outputModel()), null)),
            new Entry(ProjectionAttack.NAME,
                    "projection of the output on the canary direction, summed over rounds", true,
                    s -> new Attack(ProjectionAttack.of(s.outputModel()), null)),
            new Entry(STATISTIC,
                    "threshold on the output's first coordinate (generic; black-box mechanisms)", false,
                    s -> new Attack(StatisticScorer.firstCoordinate(s.outputLength()), null)),
            new Entry(MaxAttack.NAME,
                    "the largest value of the output (generic; Chua et al.'s test of shuffled batches)", false,
                    s -> new Attack(new MaxAttack(s.outputLength()), null)),
            new Entry(LearnedDistinguisher.NAME,
                    "a classifier between the worlds learned from samples of its own (generic; black-box mechanisms)",
                    false, s -> new Attack(null, new LearnedDistinguisher())));

    private AttackCatalog() {
    }

    /** All attacks. */
    public static List<Entry> entries() {
        return ENTRIES;
    }

    /**
     * The attack named {@code name} for {@code simulator}.
     *
     * @throws InvalidInputException for an unknown name, or a white-box attack on a simulator that states no law
     *     ({@code field} names the field in messages)
     */
    public static Attack create(String field, String name, MechanismSimulator simulator) {
        return create(field, name, simulator, false);
    }

    /**
     * As {@link #create(String, String, MechanismSimulator)}; with {@code reduce}, an attack whose score has an exact
     * law cheaper to draw than the outputs it is computed from comes with that sampler
     * ({@link Attack#simulator()}): the projection attack's sum over rounds ({@code ProjectionSum}, O(1) per trial).
     * Callers pass {@code reduce} only when nothing else reads the outputs (no privacy-loss estimate, which needs the
     * rounds) and the simulator is not a faithful one kept for its own sake.
     */
    public static Attack create(String field, String name, MechanismSimulator simulator, boolean reduce) {
        if (reduce && name.equals(ProjectionAttack.NAME) && simulator.outputModel() != null) {
            Attack summed = ProjectionSum.tryOf(simulator);
            if (summed != null) {
                ProjectionAttack.of(simulator.outputModel()); // same input checks as the per-round attack
                return summed;
            }
        }
        for (Entry e : ENTRIES) {
            if (e.name().equals(name)) {
                if (e.needsLaw() && simulator.outputModel() == null) {
                    throw new InvalidInputException(field, name, "needs the exact law of the outputs, which the "
                            + "simulator (" + simulator.description() + ") does not state; use attack "
                            + LearnedDistinguisher.NAME + " or " + STATISTIC);
                }
                return e.factory().apply(simulator);
            }
        }
        throw new InvalidInputException(field, name, "unknown attack (known: "
                + String.join(", ", ENTRIES.stream().map(Entry::name).toList()) + ")");
    }

    /**
     * The white-box scorer named {@code name} for {@code model}.
     *
     * @throws InvalidInputException for an unknown name or a generic attack
     */
    public static Scorer create(String field, String name, OutputModel model) {
        if (name.equals(LikelihoodRatioAttack.NAME)) {
            return LikelihoodRatioAttack.of(model);
        }
        if (name.equals(ProjectionAttack.NAME)) {
            return ProjectionAttack.of(model);
        }
        throw new InvalidInputException(field, name, "unknown white-box attack (known: "
                + LikelihoodRatioAttack.NAME + ", " + ProjectionAttack.NAME + ")");
    }
}
