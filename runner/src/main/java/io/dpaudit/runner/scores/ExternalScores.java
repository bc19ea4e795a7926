package io.dpaudit.runner.scores;

import io.dpaudit.core.bounds.BoundFamily;
import io.dpaudit.core.model.AuditableMechanism;
import io.dpaudit.core.model.MechanismSimulator;
import io.dpaudit.core.model.Parameters;
import java.util.List;
import org.apache.commons.rng.UniformRandomProvider;

/**
 * The "mechanism" of an audit of external scores: nothing dp-audit runs, only the two files and what is known of them
 * (names, sizes, SHA-256, number of scores), which the report records as the mechanism's parameters.
 */
public final class ExternalScores implements AuditableMechanism {
    /** The type name reports show. */
    public static final String TYPE = "external-scores";
    private final Parameters parameters;

    /** External scores described by {@code parameters} (file names, sizes, SHA-256, counts). */
    public ExternalScores(Parameters parameters) {
        this.parameters = parameters;
    }

    /** One release per score. */
    @Override
    public long roundsPerTrial() {
        return 1;
    }

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public Parameters parameters() {
        return parameters;
    }

    @Override
    public String adjacency() {
        return "that of the run which produced the scores (not known to dp-audit)";
    }

    @Override
    public MechanismSimulator reduced() {
        throw new UnsupportedOperationException("external scores are not simulated");
    }

    @Override
    public MechanismSimulator faithful(Parameters options, UniformRandomProvider datasetRng) {
        throw new UnsupportedOperationException("external scores are not simulated");
    }

    @Override
    public List<BoundFamily> boundFamilies() {
        return List.of();
    }

    @Override
    public List<String> notes() {
        return List.of("External scores: the bounds hold for the process that produced them, provided each file holds "
                + "independent scores, one per run of the mechanism on its world's dataset (with the canary in "
                + "--with, without it in --without), and the scoring function was fixed before these runs (not fitted "
                + "on them). The threshold is chosen on a seeded random part of each file and certified on the rest.");
    }
}
