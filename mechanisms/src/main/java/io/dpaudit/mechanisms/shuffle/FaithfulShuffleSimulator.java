package io.dpaudit.mechanisms.shuffle;

import io.dpaudit.core.InvalidInputException;
import io.dpaudit.core.engine.TrialSampler;
import io.dpaudit.core.engine.World;
import io.dpaudit.core.model.MechanismSimulator;
import io.dpaudit.core.model.OutputModel;
import io.dpaudit.core.model.RoundStatistic;
import java.util.Arrays;
import java.util.Locale;
import org.apache.commons.rng.UniformRandomProvider;

/**
 * Faithful simulator of a shuffled round as Algorithm 1 of seed 001 (dss-SGD) runs it, with explicit clients, records,
 * coins, randomizer and shuffle: {@code m} clients hold {@code r} records each (inputs of the randomizer); in every
 * round each client tosses its own coin with probability {@code q} (or, for the fixed scheme, {@code qm} clients are
 * chosen uniformly by a partial Fisher–Yates shuffle), a participating client picks one of its records uniformly,
 * applies the local randomizer and sends the report; the shuffler permutes the {@code K} reports uniformly
 * (Fisher–Yates). An output round is what the server receives: a block of {@code m} slots holding the {@code K}
 * shuffled reports (symbols) followed by {@code -1} for the clients that sent nothing.
 *
 * <p>The dataset: client 0's record 0 is the target (its value in {@code D}, its replacement in {@code D'}); every other
 * record holds the value of the configuration ({@code canonical}: the replacement; {@code opposite}: the target's value).
 * Plain shuffling is {@code q = r = 1}.
 *
 * <p>Random draws per round: the participation (one {@code nextDouble()} per client, or {@code qm} {@code nextInt}),
 * then per participating client in client order one {@code nextInt(r)} and the randomizer's draws, then {@code K - 1}
 * {@code nextInt} for the shuffle.
 *
 * <p>A planted bug can be switched on for the tests of the equivalence test itself: client 0 always sends its first
 * record (the target), as a client that ignored the record sampling step would.
 */
final class FaithfulShuffleSimulator {
    /** Largest number of records (clients x records). */
    static final long MAX_RECORDS = 1L << 25;

    /** Deliberate faults, for tests of the auditor. */
    enum PlantedBug {
        NONE, CLIENT_ONE_ALWAYS_SENDS_TARGET
    }

    private final ShuffleParameters p;
    private final LocalRandomizer randomizer;
    /** Every record's input, client c's record j at {@code c r + j}; slot 0 (the target) is set per world. */
    private final double[][] data;
    private final double[] target;
    private final double[] replacement;
    private final PlantedBug bug;

    private FaithfulShuffleSimulator(ShuffleParameters p, String configuration, PlantedBug bug) {
        this.p = p;
        this.randomizer = p.localRandomizer();
        this.target = randomizer.target();
        this.replacement = randomizer.replacement();
        this.bug = bug;
        long records = (long) p.clients() * p.records();
        if (records > MAX_RECORDS) {
            throw new InvalidInputException("mechanism.clients", p.clients(), "times records (" + p.records()
                    + ") exceeds " + MAX_RECORDS + " records for the faithful simulator; use the reduced one");
        }
        double[] others = configuration.equals("opposite") ? target : replacement;
        this.data = new double[(int) records][];
        Arrays.fill(data, others); // identical values share one array
        data[0] = null;
    }

    /** The faithful simulator of {@code p} on a dataset configuration; its statistic is {@code law}'s atom. */
    static MechanismSimulator of(ShuffleParameters p, String configuration, ShuffleLaw law, PlantedBug bug) {
        FaithfulShuffleSimulator f = new FaithfulShuffleSimulator(p, configuration, bug);
        OutputModel model = new OutputModel(p.rounds(), new Counts(law, p.clients()), law.withCanary(),
                law.withoutCanary(), null);
        String description = String.format(Locale.ROOT, "faithful: %d clients x %d records (%s dataset), %s, %s; "
                + "reports shuffled (Fisher-Yates)%s", p.clients(), p.records(), configuration,
                p.sampling().equals("fixed") ? p.fixedClients() + " clients per round chosen uniformly"
                        : "each client takes part w.p. " + p.q(), f.randomizer.describe(), bug == PlantedBug.NONE ? ""
                        : " [PLANTED BUG: " + bug + "]");
        return MechanismSimulator.of(model, description, f::sampler);
    }

    private TrialSampler sampler(UniformRandomProvider rng) {
        return new Sampler(rng);
    }

    /** The server's view reduced to {@link ShuffleLaw}'s atom: K and the counts of each symbol group. */
    static final class Counts implements RoundStatistic {
        private final ShuffleLaw law;
        private final int slots;

        Counts(ShuffleLaw law, int slots) {
            this.law = law;
            this.slots = slots;
        }

        @Override
        public int dimension() {
            return 1;
        }

        @Override
        public int roundDimension() {
            return slots;
        }

        @Override
        public boolean extract(double[] block, int offset, double[] into) {
            int c0 = 0;
            int c1 = 0;
            int c2 = 0;
            for (int i = 0; i < slots; i++) {
                double v = block[offset + i];
                if (v >= 0) {
                    int g = law.groupOf((int) v);
                    if (g == 0) {
                        c0++;
                    } else if (g == 1) {
                        c1++;
                    } else {
                        c2++;
                    }
                }
            }
            int atom = law.atomOf(c0, c1, c2);
            if (atom < 0) {
                throw new IllegalStateException("the faithful simulator produced group counts " + c0 + ", " + c1
                        + ", " + c2 + ", an atom the exact law left out as having probability below 1e-40");
            }
            into[0] = atom;
            return true;
        }
    }

    private final class Sampler implements TrialSampler {
        private final UniformRandomProvider rng;
        private final int[] reports;
        private final int[] order;

        Sampler(UniformRandomProvider rng) {
            this.rng = rng;
            this.reports = new int[p.clients()];
            this.order = new int[p.clients()];
            for (int i = 0; i < order.length; i++) {
                order[i] = i;
            }
        }

        @Override
        public void sample(World world, double[] out, int trials) {
            double[] targetValue = world == World.WITH_CANARY ? target : replacement;
            int m = p.clients();
            int r = p.records();
            boolean fixed = p.sampling().equals("fixed");
            int selected = p.fixedClients();
            for (int block = 0; block < trials * p.rounds(); block++) {
                int k = 0;
                if (fixed) {
                    for (int i = 0; i < selected; i++) { // order[0..selected) is a uniform subset
                        int j = i + rng.nextInt(m - i);
                        int t = order[i];
                        order[i] = order[j];
                        order[j] = t;
                    }
                    for (int i = 0; i < selected; i++) {
                        reports[k++] = report(order[i], r, targetValue);
                    }
                } else {
                    for (int c = 0; c < m; c++) {
                        if (p.q() >= 1.0 || rng.nextDouble() < p.q()) {
                            reports[k++] = report(c, r, targetValue);
                        }
                    }
                }
                for (int i = k - 1; i > 0; i--) { // the shuffler
                    int j = rng.nextInt(i + 1);
                    int t = reports[i];
                    reports[i] = reports[j];
                    reports[j] = t;
                }
                int base = block * m;
                for (int i = 0; i < m; i++) {
                    out[base + i] = i < k ? reports[i] : -1.0;
                }
            }
        }

        /** Client {@code c} picks a record uniformly and reports it through the randomizer. */
        private int report(int c, int r, double[] targetValue) {
            int record = c == 0 && bug == PlantedBug.CLIENT_ONE_ALWAYS_SENDS_TARGET ? 0 : (r == 1 ? 0 : rng.nextInt(r));
            int i = c * r + record;
            return randomizer.report(i == 0 ? targetValue : data[i], 0, rng);
        }
    }
}
