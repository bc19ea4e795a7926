package io.dpaudit.mechanisms.checkin;

import io.dpaudit.core.InvalidInputException;
import io.dpaudit.core.engine.TrialSampler;
import io.dpaudit.core.engine.World;
import io.dpaudit.core.law.StatisticLaw;
import io.dpaudit.core.model.MechanismSimulator;
import io.dpaudit.core.model.OutputModel;
import java.util.Locale;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;

/**
 * Faithful simulator of random check-ins with a fixed window (Algorithm 1, A_fix) or sliding windows (Section 4.2), as
 * the seed describes them, with explicit clients, coins, slots, selection, dummies and randomizer:
 * <ol>
 *   <li>each client (in index order) tosses its check-in coin ({@code nextDouble() < p0}) and, if it checks in, draws
 *       a uniform slot of its window ({@code nextInt(m)}): all {@code m} slots for A_fix, slots {@code j..j+m-1} for
 *       client {@code j} with sliding windows (a check-in outside the served slots {@code m..n} is never used);</li>
 *   <li>each slot keeps one of its check-ins uniformly by reservoir sampling (the {@code c}-th check-in replaces the
 *       kept one when {@code nextInt(c) == 0});</li>
 *   <li>each served slot releases the local randomizer's output on the kept client's record, or on the dummy record
 *       when no one checked in: randomized response ({@code nextDouble()}, a 0/1 release) or the Gaussian randomizer
 *       (the value clipped to [-C, C] plus {@code sigma} times a standard normal).</li>
 * </ol>
 * An output round is the block of released values, slot by slot. The dataset: the target client holds 1 (the clip
 * bound C for the Gaussian randomizer) in {@code D} and 0 (or -C for the symmetric pair) in {@code D'}; the first
 * {@code h} other clients hold 1, the rest 0; the dummy holds 1 or 0 as the dataset says.
 *
 * <p>Planted faults, for tests of the auditor: {@code target-always-selected} (the target wins its slot whenever it
 * checks in) and {@code skip-dummies} (empty slots release nothing, NaN in the block: the server learns which slots
 * were empty and the blanket of dummy updates disappears).
 */
final class FaithfulCheckInSimulator {
    /** Largest clients plus slots simulated explicitly. */
    static final int MAX_SIZE = 1 << 24;

    /** Deliberate faults, for tests of the auditor. */
    enum PlantedBug {
        NONE("none"), TARGET_ALWAYS_SELECTED("target-always-selected"), SKIP_DUMMIES("skip-dummies");

        final String label;

        PlantedBug(String label) {
            this.label = label;
        }

        static PlantedBug parse(String field, String s) {
            for (PlantedBug b : values()) {
                if (b.label.equals(s)) {
                    return b;
                }
            }
            throw new InvalidInputException(field, s, "must be none, target-always-selected or skip-dummies");
        }
    }

    private final CheckInParameters p;
    private final CheckInDataset dataset;
    private final PlantedBug bug;
    private final int targetIndex;
    /** First slot (1-based) that is released: m for sliding windows, 1 for A_fix. */
    private final int firstServed;

    private FaithfulCheckInSimulator(CheckInParameters p, CheckInDataset dataset, PlantedBug bug) {
        this.p = p;
        this.dataset = dataset;
        this.bug = bug;
        this.targetIndex = p.targetClient() - 1;
        this.firstServed = p.sliding() ? p.slots() : 1;
        if ((long) p.clients() + p.slots() > MAX_SIZE) {
            throw new InvalidInputException("mechanism.clients", p.clients(), "plus slots exceeds " + MAX_SIZE
                    + " for the faithful simulator; use the reduced one");
        }
    }

    /** The faithful simulator on {@code dataset}; its statistic is the target window's, with the model's laws. */
    static MechanismSimulator of(CheckInModel model, CheckInDataset dataset, PlantedBug bug) {
        CheckInParameters p = model.parameters();
        FaithfulCheckInSimulator f = new FaithfulCheckInSimulator(p, dataset, bug);
        int releases = p.releases();
        int from = Math.max(p.targetClient(), f.firstServed) - f.firstServed;
        StatisticLaw with;
        StatisticLaw without;
        if (p.rr()) {
            CheckInModel.Round r = model.round(dataset);
            with = r.withCanary();
            without = r.withoutCanary();
        } else {
            StatisticLaw[] laws = model.gaussianLaws();
            with = laws[0];
            without = laws[1];
        }
        if (!p.sliding()) {
            from = 0;
        }
        OutputModel out = new OutputModel(p.rounds(), new WindowStatistic(releases, from, p.targetWindow(), p.rr()),
                with, without, null);
        String description = String.format(Locale.ROOT, "faithful: %s; explicit check-in coins, uniform slots, "
                + "reservoir selection, dummy updates, %d release(s) per round, %s dataset%s", p.describe(), releases,
                dataset.name(), bug == PlantedBug.NONE ? "" : " [PLANTED BUG: " + bug.label + "]");
        return MechanismSimulator.of(out, description, f::sampler);
    }

    private Sampler sampler(UniformRandomProvider rng) {
        return new Sampler(rng);
    }

    /** One shard's sampler; it also counts the dummy updates it performs (Propositions 3.4 and 4.4). */
    final class Sampler implements TrialSampler {
        private final UniformRandomProvider rng;
        private final ZigguratSampler.NormalizedGaussian normal;
        private final int[] count;
        private final int[] kept;
        private final double[] values;
        private long dummies;
        private long passes;

        Sampler(UniformRandomProvider rng) {
            this.rng = rng;
            this.normal = p.rr() ? null : ZigguratSampler.NormalizedGaussian.of(rng);
            this.count = new int[p.releases()];
            this.kept = new int[p.releases()];
            this.values = new double[p.clients()];
            for (int i = 1, h = 0; i < p.clients() + 1 && h < dataset.highOthers(); i++) {
                int c = i - 1;
                if (c != targetIndex) {
                    values[c] = 1.0;
                    h++;
                }
            }
        }

        @Override
        public void sample(World world, double[] out, int trials) {
            boolean gaussian = !p.rr();
            double high = gaussian ? p.clip() : 1.0;
            double targetValue = world == World.WITH_CANARY ? high
                    : (gaussian && p.pair().equals("symmetric") ? -p.clip() : 0.0);
            double dummyValue = dataset.dummyHigh() ? high : 0.0;
            double truth = p.rr() ? 1.0 / (1.0 + Math.exp(-p.eps0())) : 0.0;
            int n = p.clients();
            int m = p.slots();
            int releases = p.releases();
            double p0 = p.p0();
            for (int block = 0; block < trials * p.rounds(); block++) {
                java.util.Arrays.fill(count, 0);
                boolean targetIn = false;
                int targetSlot = -1;
                for (int c = 0; c < n; c++) {
                    if (!(p0 >= 1.0 || rng.nextDouble() < p0)) {
                        continue;
                    }
                    int first = p.sliding() ? c + 1 : 1; // 1-based first slot of the window
                    int slot = first + rng.nextInt(m) - firstServed;
                    if (slot < 0 || slot >= releases) {
                        continue; // a slot that is not served
                    }
                    if (++count[slot] == 1 || rng.nextInt(count[slot]) == 0) {
                        kept[slot] = c;
                    }
                    if (c == targetIndex) {
                        targetIn = true;
                        targetSlot = slot;
                    }
                }
                if (bug == PlantedBug.TARGET_ALWAYS_SELECTED && targetIn) {
                    kept[targetSlot] = targetIndex;
                }
                int base = block * releases;
                for (int i = 0; i < releases; i++) {
                    double v;
                    if (count[i] == 0) {
                        dummies++;
                        if (bug == PlantedBug.SKIP_DUMMIES) {
                            out[base + i] = Double.NaN;
                            continue;
                        }
                        v = dummyValue;
                    } else {
                        v = kept[i] == targetIndex ? targetValue : values[kept[i]] * high;
                    }
                    if (gaussian) {
                        double clipped = Math.max(-p.clip(), Math.min(p.clip(), v));
                        out[base + i] = clipped + p.sigma() * normal.sample();
                    } else {
                        boolean truthful = rng.nextDouble() < truth;
                        out[base + i] = truthful ? v : 1.0 - v;
                    }
                }
                passes++;
            }
        }

        /** Dummy updates performed so far. */
        long dummyUpdates() {
            return dummies;
        }

        /** Passes (rounds) simulated so far. */
        long passes() {
            return passes;
        }
    }
}
