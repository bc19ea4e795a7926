package io.dpaudit.mechanisms.prifedsync;

import io.dpaudit.core.bounds.BoundFamily;
import io.dpaudit.core.bounds.PrivacyBound;
import io.dpaudit.core.model.AuditableMechanism;
import io.dpaudit.core.model.MechanismSimulator;
import io.dpaudit.core.model.Parameters;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.commons.rng.UniformRandomProvider;

/**
 * PriFedSync (Zheng, Chen, Long &amp; Su, "Federated f-Differential Privacy", AISTATS 2021, seed 002): clients run
 * {@code K} local noisy-SGD steps on batches drawn without replacement, the server synchronises a Poisson sample of
 * clients each round, {@code R} rounds. Adjacency: replace one record of client j. What the adversary sees: the
 * updates of client j that reach it (weak: one other client; strong: all other clients jointly; per-round or broadcast
 * view). Calibration parameter: the noise multiplier {@code sigma}.
 */
public final class PriFedSync implements AuditableMechanism {
    private final Parameters parameters;
    private final PriFedSyncParameters p;
    private final PrivacyBound exact;

    PriFedSync(Parameters parameters, PriFedSyncParameters p) {
        this.parameters = parameters;
        this.p = p;
        this.exact = new VisibleRoundsProfile("prifedsync-exact", p);
    }

    @Override
    public String type() {
        return PriFedSyncParameters.TYPE;
    }

    @Override
    public Parameters parameters() {
        return parameters;
    }

    @Override
    public String adjacency() {
        return "replace one record of client j";
    }

    @Override
    public MechanismSimulator reduced() {
        return ReducedPriFedSyncSimulator.of(p);
    }

    @Override
    public MechanismSimulator faithful(Parameters options, UniformRandomProvider datasetRng) {
        options.allowOnly(Set.of("kind", "dimension"));
        long d = options.wholeNumber("dimension", 4, 1);
        if (d > 1024) {
            throw new io.dpaudit.core.InvalidInputException(options.field("dimension"), d, "must be <= 1024");
        }
        return FaithfulPriFedSyncSimulator.of(p, (int) d);
    }

    @Override
    public List<BoundFamily> boundFamilies() {
        return new PriFedSyncBounds(p, exact).families();
    }

    @Override
    public String referenceBound() {
        return "prifedsync-exact";
    }

    @Override
    public List<String> notes() {
        List<String> notes = new ArrayList<>();
        notes.add(String.format(Locale.ROOT, "Client j's update of a round reaches the adversary with probability "
                + "%.6g (%s notion, %s view); the seed's Lemma 3.8 uses p^2 = %.6g, the probability that j and one "
                + "given other client are both sampled.", p.visibility(), p.notion(), p.view(), p.p() * p.p()));
        if (p.view().equals("per-round")) {
            notes.add("The per-round view is the seed's model: a client sees only the synchronised models of rounds it "
                    + "takes part in, and each round is analysed on its own. A persistent global model carries j's "
                    + "update of a round into every later one, so a client sampled later, or anyone who sees the final "
                    + "model, sees it too: then view = broadcast (probability p per round) is the relevant model.");
        }
        if (p.notion().equals("strong")) {
            notes.add("The strong notion's bound composes (m - 1) R copies as if each other client saw an independent "
                    + "release; all of them see the same update of client j, so the joint view is no more than one "
                    + "copy per round in which j's update reaches any of them.");
        }
        notes.add("The adversary is taken to know every other record and every other client's update (worst case); "
                + "what remains is client j's K noisy step sums along the canary in each round that reaches it.");
        return notes;
    }
}
