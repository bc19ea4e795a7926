package io.dpaudit.mechanisms.participation;

import io.dpaudit.core.Checks;
import io.dpaudit.core.engine.TrialSampler;
import io.dpaudit.core.engine.World;
import io.dpaudit.core.model.MechanismSimulator;
import io.dpaudit.core.model.OutputModel;
import io.dpaudit.mechanisms.common.Clipping;
import java.util.Arrays;
import java.util.Locale;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;

/**
 * Faithful simulator of Algorithm 1 of Hasircioğlu &amp; Gündüz (seed 000) and of the schemes it is compared with:
 * {@code N} explicit clients with {@code d} records each and {@code m}-dimensional gradients. In every round each
 * client decides to take part ({@code Bernoulli(p)}; always for only-local-sampling), each record of a taking-part
 * client is sampled ({@code Bernoulli(q)}); for central shuffling every record is sampled independently with
 * {@code pq}. The clipped gradients of the sampled records are summed and {@code N(0, sigma^2 I_m)} is added (the
 * 1/(p N_t q d) scaling of Eq. 4 is public post-processing and is left out). Weak client sampling also publishes
 * whether client 1 took part (first coordinate of each round; the other clients' flags do not depend on the world).
 *
 * <p>Dataset: client 1 holds the canary (only in {@code D}), gradient {@code 2C e_1}, and {@code d} records whose
 * gradients follow the adversary configuration — {@code 2C e_1} (aligned), {@code 2C e_2} (orthogonal) or zero — so
 * clipping shortens them to C; the other clients' gradients are random in the span of {@code e_3..e_m} with norms
 * uniform in {@code (0, 3C)}, orthogonal to what the adversary uses. Random draws per round: per client a
 * participation coin, then a coin per record of a taking-part client (client 1's canary last, in {@code D}), then
 * {@code m} ziggurat normals.
 */
final class FaithfulParticipationSimulator {
    private final int clients;
    private final int d;
    private final int m;
    private final double join;
    private final double record;
    private final boolean flagged;
    private final double sigma;
    private final int rounds;
    /** Clipped gradients: client c's record i at (c * d + i) * m. */
    private final double[] gradients;
    private final double[] canary;
    private final OutputModel model;

    private FaithfulParticipationSimulator(ParticipationParameters mech, int clients, int dimension,
            UniformRandomProvider data) {
        this.clients = Checks.atLeast("simulator.clients", clients, 1);
        this.m = Checks.atLeast("simulator.dimension", dimension, 3);
        this.d = mech.d();
        this.join = mech.samplingJoinProbability();
        this.record = mech.samplingRecordProbability();
        this.flagged = mech.revealed();
        this.sigma = mech.sigma();
        this.rounds = mech.rounds();
        double clip = mech.clip();
        this.gradients = new double[clients * d * m];
        this.canary = Clipping.clip(unit(0, 2 * clip), clip);
        double[] own = switch (mech.adversary()) {
            case ALIGNED -> unit(0, 2 * clip);
            case ORTHOGONAL -> unit(1, 2 * clip);
            case ZERO -> new double[m];
        };
        for (int i = 0; i < d; i++) {
            System.arraycopy(Clipping.clip(own, clip), 0, gradients, i * m, m);
        }
        ZigguratSampler.NormalizedGaussian g = ZigguratSampler.NormalizedGaussian.of(data);
        for (int c = 1; c < clients; c++) {
            for (int i = 0; i < d; i++) {
                double[] v = new double[m];
                for (int j = 2; j < m; j++) {
                    v[j] = g.sample();
                }
                double n = Clipping.norm(v);
                double target = 3 * clip * data.nextDouble();
                for (int j = 2; j < m; j++) {
                    v[j] *= target / n;
                }
                System.arraycopy(Clipping.clip(v, clip), 0, gradients, (c * d + i) * m, m);
            }
        }
        ParticipationLaw law = mech.law(mech.adversary());
        int stat = mech.adversary() == Adversary.ORTHOGONAL ? 2 : 1;
        int block = m + (flagged ? 1 : 0);
        double[][] basis = new double[stat][block];
        for (int i = 0; i < stat; i++) {
            basis[i][i + (flagged ? 1 : 0)] = 1.0;
        }
        this.model = OutputModel.linear(rounds, block, basis, law.withCanary, law.withoutCanary, flagged ? 0 : -1, null);
    }

    private double[] unit(int axis, double length) {
        double[] v = new double[m];
        v[axis] = length;
        return v;
    }

    /** The faithful simulator of {@code rp} with {@code clients} clients of {@code dimension}-dimensional gradients. */
    static MechanismSimulator of(ParticipationParameters rp, int clients, int dimension, UniformRandomProvider data) {
        FaithfulParticipationSimulator f = new FaithfulParticipationSimulator(rp, clients, dimension, data);
        return MechanismSimulator.of(f.model, f.description(), f::sampler);
    }

    private String description() {
        return String.format(Locale.ROOT, "faithful: %d clients x %d records, dimension %d, join %s, record %s, "
                + "clip, sum + N(0, %s^2 I)%s, %d round(s)", clients, d, m, Checks.format(join), Checks.format(record),
                Checks.format(sigma), flagged ? ", client 1's participation published" : "", rounds);
    }

    private TrialSampler sampler(UniformRandomProvider rng) {
        return new Sampler(rng);
    }

    private final class Sampler implements TrialSampler {
        private final UniformRandomProvider rng;
        private final ZigguratSampler.NormalizedGaussian gauss;

        Sampler(UniformRandomProvider rng) {
            this.rng = rng;
            this.gauss = ZigguratSampler.NormalizedGaussian.of(rng);
        }

        @Override
        public void sample(World world, double[] out, int trials) {
            boolean withCanary = world == World.WITH_CANARY;
            int block = m + (flagged ? 1 : 0);
            for (int r = 0; r < trials * rounds; r++) {
                int base = r * block;
                int sum = base + (flagged ? 1 : 0);
                Arrays.fill(out, base, base + block, 0.0);
                for (int c = 0; c < clients; c++) {
                    boolean joined = join >= 1 || rng.nextDouble() < join;
                    if (c == 0 && flagged) {
                        out[base] = joined ? 1.0 : 0.0;
                    }
                    if (!joined) {
                        continue;
                    }
                    for (int i = 0; i < d; i++) {
                        if (rng.nextDouble() < record) {
                            int g = (c * d + i) * m;
                            for (int j = 0; j < m; j++) {
                                out[sum + j] += gradients[g + j];
                            }
                        }
                    }
                    if (c == 0 && withCanary && rng.nextDouble() < record) {
                        for (int j = 0; j < m; j++) {
                            out[sum + j] += canary[j];
                        }
                    }
                }
                for (int j = 0; j < m; j++) {
                    out[sum + j] += sigma * gauss.sample();
                }
            }
        }
    }
}
