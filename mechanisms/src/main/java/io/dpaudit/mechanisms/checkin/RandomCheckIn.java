package io.dpaudit.mechanisms.checkin;

import io.dpaudit.core.Checks;
import io.dpaudit.core.accounting.Adjacency;
import io.dpaudit.core.accounting.DpEvent;
import io.dpaudit.core.accounting.PldAccountant;
import io.dpaudit.core.bounds.BoundFamily;
import io.dpaudit.core.model.AuditableMechanism;
import io.dpaudit.core.model.MechanismSimulator;
import io.dpaudit.core.model.Parameters;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.commons.rng.UniformRandomProvider;

/**
 * Random check-ins (Balle, Kairouz, McMahan, Thakkar &amp; Thakurta, "Privacy Amplification via Random Check-Ins",
 * NeurIPS 2020, seed 004): Algorithm 1 (A_fix), Algorithm 2 (averaged updates) and sliding windows (Section 4.2), with
 * binary randomized response or a Gaussian randomizer on a clipped scalar. Adjacency: replace one client's record.
 * Calibration parameter: {@code eps0} (randomized response) or {@code sigma}.
 */
public final class RandomCheckIn implements AuditableMechanism {
    private final Parameters parameters;
    private final CheckInParameters p;
    private final CheckInModel model;

    RandomCheckIn(Parameters parameters, CheckInParameters p) {
        this.parameters = parameters;
        this.p = p;
        this.model = new CheckInModel(p);
        if (p.rr() && !p.averaged() && !p.dataset().equals("worst") && !p.dataset().equals("exhaustive")
                && !p.dataset().equals("canonical")) {
            CheckInDataset d = CheckInDataset.named(p.dataset());
            double work = SlotValueLaw.work(p.clients(), p.slots(), p.p0(), d.highOthers() + 1);
            if (work > SlotValueLaw.MAX_WORK) {
                throw new io.dpaudit.core.InvalidInputException(parameters.field("dataset"), p.dataset(),
                        String.format(Locale.ROOT, "needs about %.2g operations for its exact law at these clients, "
                                + "slots and p0, more than the %.0e it is computed for; use the canonical dataset",
                                work, SlotValueLaw.MAX_WORK));
            }
        }
        if (p.dataset().equals("helper") && p.clients() < 2) {
            throw new io.dpaudit.core.InvalidInputException(parameters.field("dataset"), p.dataset(),
                    "needs clients >= 2 (one other client holds the target's value)");
        }
    }

    /** R independent repetitions of the check-in protocol. */
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
    public CheckInParameters checkInParameters() {
        return p;
    }

    @Override
    public String adjacency() {
        return "replace one client's record";
    }

    @Override
    public MechanismSimulator reduced() {
        return ReducedCheckInSimulator.of(model);
    }

    @Override
    public MechanismSimulator faithful(Parameters options, UniformRandomProvider datasetRng) {
        options.allowOnly(Set.of("kind", "plantedBug"));
        FaithfulCheckInSimulator.PlantedBug bug = FaithfulCheckInSimulator.PlantedBug.parse(
                options.field("plantedBug"), options.text("plantedBug", "none"));
        if (p.averaged()) {
            if (bug != FaithfulCheckInSimulator.PlantedBug.NONE) {
                throw new io.dpaudit.core.InvalidInputException(options.field("plantedBug"), bug.label,
                        "applies to random-checkin and random-checkin-sliding only");
            }
            return FaithfulAveragedSimulator.of(model);
        }
        return faithful(bug);
    }

    /** The faithful simulator on the simulated dataset, possibly with a planted bug. */
    MechanismSimulator faithful(FaithfulCheckInSimulator.PlantedBug bug) {
        return p.averaged() ? FaithfulAveragedSimulator.of(model)
                : FaithfulCheckInSimulator.of(model, model.simulated(), bug);
    }

    /** The model (laws, exact curve), for tests. */
    CheckInModel model() {
        return model;
    }

    @Override
    public List<BoundFamily> boundFamilies() {
        return new CheckInBounds(model).families();
    }

    @Override
    public String referenceBound() {
        return (p.rr() || p.targetWindow() == 1) ? p.type() + "-exact" : null;
    }

    @Override
    public List<String> notes() {
        List<String> notes = new ArrayList<>();
        if (p.rr() && p.type().equals(CheckInParameters.FIXED_TYPE)) {
            notes.add(datasetNote());
            for (CheckInDataset d : model.unaffordable()) {
                notes.add(String.format(Locale.ROOT, "The %s dataset is left out of the maximum: its exact law needs "
                        + "about %.2g operations here (more than %.0e). The exact curve is then a lower bound on the "
                        + "worst case over fewer datasets; the effect of the others vanishes as n/m grows.", d.name(),
                        SlotValueLaw.work(p.clients(), p.slots(), p.p0(), d.highOthers() + 1),
                        SlotValueLaw.MAX_WORK));
            }
        }
        if (!p.averaged()) {
            notes.add(String.format(Locale.ROOT, "Expected dummy updates per pass (%s): exactly %.6g of %d slot(s); "
                    + "the printed-style bound gives %.6g.", DummyUpdates.proposition(p), DummyUpdates.expected(p),
                    p.releases(), DummyUpdates.bound(p)));
        } else {
            notes.add("Averaged updates with randomized response and counts observed are exactly shuffling of the "
                    + "N ~ Binomial(n, p0) check-ins' reports, whatever m; Theorem 4.1 is not implemented (its "
                    + "constants are not recoverable from the seed's text).");
        }
        if (p.rr() && !p.sliding() && !p.averaged() && p.eps0() > 1) {
            notes.add("Theorem 3.2's 7 p0 eps0 clause needs eps0 <= 1 and is not listed at eps0 = "
                    + Checks.format(p.eps0()) + ".");
        }
        if (!p.rr()) {
            notes.add(String.format(Locale.ROOT, "Which neighbouring pair of the Gaussian randomizer is worst for "
                    + "check-ins is open: this run simulates the %s pair; run pair = %s for the other.", p.pair(),
                    p.pair().equals("symmetric") ? "one-sided" : "symmetric"));
            if (p.targetWindow() > 1) {
                notes.add("No exact curve is computed for the Gaussian randomizer over a window of "
                        + p.targetWindow() + " slots (the privacy loss is a log of a sum of log-normals); the "
                        + "likelihood-ratio attack still uses the exact density, and the proven bounds bound it above.");
            }
        }
        if (p.rr() && p.rounds() > 1) {
            double lo = 0;
            for (CheckInDataset d : model.datasets()) {
                lo = Math.max(lo, PldAccountant.optimisticDiscrete().account("lower", new DpEvent.SelfComposed(
                        model.event(d), p.rounds()), Adjacency.REPLACE_ONE).epsilon(1e-5));
            }
            notes.add(String.format(Locale.ROOT, "%s-exact over %d rounds is the PLD of the discrete per-round loss "
                    + "with losses rounded up to the grid; rounding them down gives epsilon(1e-5) = %.6g against "
                    + "%.6g: the exact curve lies between.", p.type(), p.rounds(), lo, model.exact().epsilon(1e-5)));
        }
        return notes;
    }

    private String datasetNote() {
        List<CheckInModel.Ranked> ranking = model.ranking();
        if (ranking.size() == 1) {
            return String.format(Locale.ROOT, "Simulated dataset: %s (per round, exact epsilon = %.6g at delta = "
                    + "1e-6).", ranking.get(0).dataset().name(), ranking.get(0).epsilon());
        }
        double canonical = ranking.stream().filter(r -> r.dataset().canonical()).findFirst().orElseThrow().epsilon();
        CheckInModel.Ranked top = ranking.get(0);
        StringBuilder b = new StringBuilder();
        if (p.dataset().equals("exhaustive")) {
            b.append(String.format(Locale.ROOT, "Exhaustive search over all %d datasets of n = %d clients (up to "
                    + "relabelling 0 and 1): the worst is '%s', per round epsilon = %.6g at delta = 1e-6, %+.3g%% "
                    + "against the canonical dataset's %.6g. Next:", ranking.size(), p.clients(), top.dataset().name(),
                    top.epsilon(), 100 * (top.epsilon() / canonical - 1), canonical));
            for (int i = 1; i < Math.min(4, ranking.size()); i++) {
                b.append(String.format(Locale.ROOT, " '%s' %.6g;", ranking.get(i).dataset().name(),
                        ranking.get(i).epsilon()));
            }
            b.setLength(b.length() - 1);
            b.append(". The exact curve is the maximum over all of them and the simulators use the worst.");
        } else {
            b.append("Per round at delta = 1e-6 the exact epsilon is");
            for (CheckInModel.Ranked r : ranking) {
                b.append(String.format(Locale.ROOT, " %.6g (%s),", r.epsilon(), r.dataset().name()));
            }
            b.setLength(b.length() - 1);
            b.append(String.format(Locale.ROOT, "; the exact curve is the maximum and the simulators use %s%s.",
                    top.dataset().name(), top.dataset().canonical() ? "" : String.format(Locale.ROOT,
                            " (%+.3g%% over canonical)", 100 * (top.epsilon() / canonical - 1))));
        }
        return b.toString();
    }
}
