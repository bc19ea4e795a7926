package io.dpaudit.mechanisms.checkin;

import io.dpaudit.core.InvalidInputException;
import io.dpaudit.core.engine.TrialSampler;
import io.dpaudit.core.engine.World;
import io.dpaudit.core.model.MechanismSimulator;
import io.dpaudit.core.model.OutputModel;
import io.dpaudit.core.model.RoundStatistic;
import io.dpaudit.mechanisms.shuffle.ShuffleLaw;
import java.util.Locale;
import org.apache.commons.rng.UniformRandomProvider;

/**
 * Faithful simulator of averaged updates (Algorithm 2, A_avg) with binary randomized response: each client (in index
 * order) checks in with probability {@code p0} ({@code nextDouble()}) at a uniform slot ({@code nextInt(m)}) and
 * randomizes its bit ({@code nextDouble()}); every slot with check-ins releases the number of its check-ins and the
 * average of their randomized bits; empty slots are skipped. An output round is {@code m} pairs (count, average), the
 * average NaN for an empty slot. The target is client 1, holding 1 in {@code D} and 0 in {@code D'}; every other
 * client holds 0 (the canonical dataset).
 */
final class FaithfulAveragedSimulator {
    private FaithfulAveragedSimulator() {
    }

    static MechanismSimulator of(CheckInModel model) {
        CheckInParameters p = model.parameters();
        if ((long) p.clients() + 2L * p.slots() > FaithfulCheckInSimulator.MAX_SIZE) {
            throw new InvalidInputException("mechanism.clients", p.clients(), "plus twice the slots exceeds "
                    + FaithfulCheckInSimulator.MAX_SIZE + " for the faithful simulator; use the reduced one");
        }
        CheckInModel.Round r = model.round(CheckInDataset.CANONICAL);
        OutputModel out = new OutputModel(p.rounds(), new Totals(r.averaged(), p.slots()), r.withCanary(),
                r.withoutCanary(), null);
        String description = String.format(Locale.ROOT, "faithful: %s; explicit check-in coins and slots, every "
                + "check-in's randomized bit averaged per slot, (count, average) released per occupied slot",
                p.describe());
        return MechanismSimulator.of(out, description, rng -> new Sampler(rng, p));
    }

    /** The atom (number of check-ins, number of ones) of the averaged round, from the slots' counts and averages. */
    static final class Totals implements RoundStatistic {
        private final ShuffleLaw law;
        private final int slots;
        private final int groupOfZero;

        Totals(ShuffleLaw law, int slots) {
            this.law = law;
            this.slots = slots;
            this.groupOfZero = law.groupOf(0);
        }

        @Override
        public int dimension() {
            return 1;
        }

        @Override
        public int roundDimension() {
            return 2 * slots;
        }

        @Override
        public boolean extract(double[] block, int offset, double[] into) {
            int total = 0;
            int ones = 0;
            for (int i = 0; i < slots; i++) {
                int c = (int) block[offset + 2 * i];
                if (c > 0) {
                    total += c;
                    ones += (int) Math.rint(c * block[offset + 2 * i + 1]);
                }
            }
            int zeros = total - ones;
            int atom = groupOfZero == 0 ? law.atomOf(zeros, ones, 0) : law.atomOf(ones, zeros, 0);
            if (atom < 0) {
                throw new IllegalStateException("the faithful simulator produced " + total + " check-ins with " + ones
                        + " ones, an atom the exact law left out as having probability below 1e-40");
            }
            into[0] = atom;
            return true;
        }
    }

    private static final class Sampler implements TrialSampler {
        private final UniformRandomProvider rng;
        private final CheckInParameters p;
        private final int[] count;
        private final int[] ones;

        Sampler(UniformRandomProvider rng, CheckInParameters p) {
            this.rng = rng;
            this.p = p;
            this.count = new int[p.slots()];
            this.ones = new int[p.slots()];
        }

        @Override
        public void sample(World world, double[] out, int trials) {
            int targetBit = world == World.WITH_CANARY ? 1 : 0;
            double truth = 1.0 / (1.0 + Math.exp(-p.eps0()));
            int m = p.slots();
            for (int block = 0; block < trials * p.rounds(); block++) {
                java.util.Arrays.fill(count, 0);
                java.util.Arrays.fill(ones, 0);
                for (int c = 0; c < p.clients(); c++) {
                    if (!(p.p0() >= 1.0 || rng.nextDouble() < p.p0())) {
                        continue;
                    }
                    int slot = rng.nextInt(m);
                    int bit = c == 0 ? targetBit : 0;
                    int report = rng.nextDouble() < truth ? bit : 1 - bit;
                    count[slot]++;
                    ones[slot] += report;
                }
                int base = block * 2 * m;
                for (int i = 0; i < m; i++) {
                    out[base + 2 * i] = count[i];
                    out[base + 2 * i + 1] = count[i] == 0 ? Double.NaN : (double) ones[i] / count[i];
                }
            }
        }
    }
}
