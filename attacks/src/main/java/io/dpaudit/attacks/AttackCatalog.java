package io.dpaudit.attacks;

import io.dpaudit.core.InvalidInputException;
import io.dpaudit.core.engine.Scorer;
import io.dpaudit.core.model.OutputModel;
import java.util.List;
import java.util.function.Function;

/** The attacks dp-audit knows, by scenario name. */
public final class AttackCatalog {
    /** Default attack. */
    public static final String DEFAULT = LikelihoodRatioAttack.NAME;

    /**
     * One attack.
     *
     * @param name scenario name
     * @param summary one line
     * @param factory builds the scorer for a simulator's output model
     */
    public record Entry(String name, String summary, Function<OutputModel, Scorer> factory) {
    }

    private static final List<Entry> ENTRIES = List.of(
            new Entry(LikelihoodRatioAttack.NAME,
                    "exact log-likelihood ratio of the worst-case pair, summed over rounds (optimal)",
                    LikelihoodRatioAttack::of),
            new Entry(ProjectionAttack.NAME,
                    "projection of the output on the canary direction, summed over rounds",
                    ProjectionAttack::of));

    private AttackCatalog() {
    }

    /** All attacks. */
    public static List<Entry> entries() {
        return ENTRIES;
    }

    /**
     * The scorer named {@code name} for {@code model}.
     *
     * @throws InvalidInputException for an unknown name ({@code field} names the field in messages)
     */
    public static Scorer create(String field, String name, OutputModel model) {
        for (Entry e : ENTRIES) {
            if (e.name().equals(name)) {
                return e.factory().apply(model);
            }
        }
        throw new InvalidInputException(field, name, "unknown attack (known: "
                + String.join(", ", ENTRIES.stream().map(Entry::name).toList()) + ")");
    }
}
