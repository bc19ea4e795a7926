package io.dpaudit.mechanisms.shuffle;

import io.dpaudit.core.bounds.BoundFamily;
import io.dpaudit.core.model.AuditableMechanism;
import io.dpaudit.core.model.MechanismSimulator;
import io.dpaudit.core.model.Parameters;
import java.util.List;
import java.util.Set;
import org.apache.commons.rng.UniformRandomProvider;

/**
 * A shuffled protocol: dss-SGD (Girgis, Data &amp; Diggavi, ISIT 2021, seed 001, Algorithm 1 — client self-sampling,
 * one local record, an {@code eps0}-LDP randomizer, a shuffler, the server averaging the {@code K_t} reports) or plain
 * shuffling of {@code n} reports (its {@code q = r = 1} case). Adjacency: replace one record (of client 1).
 *
 * <p>What the server sees in a round is the number {@code K_t} of reports and their multiset; given {@code K_t = k}
 * the target record is used with probability {@code k/n} — not {@code q}, not {@code q/r}. The exact law of that view
 * ({@link ShuffleLaw}) is what the reduced simulator samples, what the likelihood-ratio attack scores and what the
 * exact curve sums. Its calibration parameter is {@code eps0}.
 */
public final class ShuffledProtocol implements AuditableMechanism {
    private final Parameters parameters;
    private final ShuffleParameters p;
    private final ShuffleModel model;

    ShuffledProtocol(Parameters parameters, ShuffleParameters p) {
        this.parameters = parameters;
        this.p = p;
        this.model = new ShuffleModel(p);
    }

    /** The protocol's rounds. */
    @Override
    public long roundsPerTrial() {
        return p.rounds();
    }

    @Override
    public String type() {
        return p.type();
    }

    @Override
    public Parameters parameters() {
        return parameters;
    }

    /** The validated parameters. */
    public ShuffleParameters shuffleParameters() {
        return p;
    }

    @Override
    public String adjacency() {
        return p.dss() ? "replace one record of client 1" : "replace one report's input";
    }

    @Override
    public MechanismSimulator reduced() {
        String configuration = model.simulatedConfiguration();
        return ReducedShuffleSimulator.of(model.law(configuration), p.rounds(), p.describe() + ", simulated on the "
                + configuration + " dataset");
    }

    @Override
    public MechanismSimulator faithful(Parameters options, UniformRandomProvider datasetRng) {
        return faithful(options, FaithfulShuffleSimulator.PlantedBug.NONE);
    }

    /** The faithful simulator, possibly with a planted bug (for tests of the auditor). */
    MechanismSimulator faithful(Parameters options, FaithfulShuffleSimulator.PlantedBug bug) {
        options.allowOnly(Set.of("kind"));
        String configuration = model.simulatedConfiguration();
        return FaithfulShuffleSimulator.of(p, configuration, model.law(configuration), bug);
    }

    @Override
    public List<BoundFamily> boundFamilies() {
        return new ShuffleBounds(model).families();
    }

    @Override
    public String referenceBound() {
        return p.type() + "-exact";
    }

    @Override
    public List<String> notes() {
        return new ShuffleBounds(model).notes();
    }
}
