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
    private final PriFedSyncBounds bounds;

    PriFedSync(Parameters parameters, PriFedSyncParameters p) {
        this.parameters = parameters;
        this.p = p;
        this.exact = PriFedSyncBounds.exact(p);
        this.bounds = new PriFedSyncBounds(p, exact);
    }

    /** R synchronisation rounds (each client's K local steps happen inside one). */
    @Override
    public long roundsPerTrial() {
        return p.rounds();
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
        return p.persistent() ? ReducedPersistentSimulator.of(p) : ReducedPriFedSyncSimulator.of(p);
    }

    @Override
    public MechanismSimulator faithful(Parameters options, UniformRandomProvider datasetRng) {
        options.allowOnly(Set.of("kind", "dimension"));
        long d = options.wholeNumber("dimension", 4, 1);
        if (d > 1024) {
            throw new io.dpaudit.core.InvalidInputException(options.field("dimension"), d, "must be <= 1024");
        }
        return p.persistent() ? FaithfulPersistentSimulator.of(p, (int) d)
                : FaithfulPriFedSyncSimulator.of(p, (int) d);
    }

    @Override
    public List<BoundFamily> boundFamilies() {
        return bounds.families();
    }

    @Override
    public String referenceBound() {
        return "prifedsync-exact";
    }

    @Override
    public List<String> notes() {
        List<String> notes = new ArrayList<>();
        notes.add("Pair audited: " + p.pair() + " (" + p.pairText() + "). Among replace-one pairs inside client j "
                + "(the others' gradients and the replacement's anywhere in [-C, C]), aligned-others is the leakiest: "
                + "its step law in D' does not depend on the batch, and (1 - B/n) N(0, s^2) + (B/n) N(2C, s^2) against "
                + "N(0, s^2) dominates every other pair of the family (PriFedSyncTest checks this on a grid).");
        notes.add(String.format(Locale.ROOT, "Noise: std %s = %s C (%s convention)%s.", p.noiseConvention().equals(
                "replace-one") ? "2 sigma C" : "sigma C", io.dpaudit.core.Checks.format(p.noiseScale()),
                p.noiseConvention(), p.noiseConvention().equals("replace-one") ? ": a step is G_{1/sigma} under "
                + "replace-one, as the seed's f_j says (its demo code's Opacus multiplier is 2 sigma)"
                : ": Opacus's noise multiplier read as the seed's sigma; under replace-one a step is then "
                + "G_{2/sigma}, not the G_{1/sigma} the seed's statements use — the convention bug"));
        if (p.persistent()) {
            notes.add(String.format(Locale.ROOT, "State persistent: the global model carries client j's update of a "
                    + "round to the observer whenever it takes part later, so an update is seen with probability up to "
                    + "p; rounds are not independent mechanisms and Theorem 1's composition g^{(x)R} does not apply "
                    + "(formula sheet §10). Probability that some update of j is seen: %.6g.",
                    ((PersistentStateProfile) exact).reach()));
        } else {
            notes.add(String.format(Locale.ROOT, "Client j's update of a round reaches the adversary with probability "
                    + "%.6g (%s notion, %s view); the seed's Lemma 3.8 uses p^2 = %.6g, the probability that j and one "
                    + "given other client are both sampled.", p.visibility(), p.notion(), p.view(), p.p() * p.p()));
        }
        if (p.view().equals("broadcast")) {
            notes.add("View broadcast is a different threat model from the seed's weak notion: an always-observed "
                    + "global model (published every round), so each round of j is seen with probability p. The "
                    + "seed's claims are about the per-round view; with a persistent model, use state persistent.");
        } else if (!p.persistent()) {
            notes.add("The per-round view with fresh state is the seed's model: a client sees only the synchronised "
                    + "models of rounds it takes part in, and no round carries anything of an earlier one. With a "
                    + "persistent global model a client sampled later sees j's earlier updates: state persistent.");
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
