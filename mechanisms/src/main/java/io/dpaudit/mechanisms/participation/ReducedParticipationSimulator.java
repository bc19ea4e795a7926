package io.dpaudit.mechanisms.participation;

import io.dpaudit.core.Checks;
import io.dpaudit.core.engine.TrialSampler;
import io.dpaudit.core.engine.World;
import io.dpaudit.core.model.MechanismSimulator;
import io.dpaudit.core.model.OutputModel;
import io.dpaudit.mechanisms.common.BernoulliProcess;
import io.dpaudit.core.law.BinomialTable;
import java.util.Locale;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;

/**
 * Exact sampler of the per-round sufficient statistic of random participation for a named adversary configuration
 * ({@link ParticipationLaw}): the client's participation {@code B ~ Bernoulli(j)}; if it takes part, the number of
 * its other records sampled {@code K ~ Binomial(d, r)} (inversion on an exact table; not drawn for the zero
 * configuration) and, in {@code D}, the canary's inclusion {@code B' ~ Bernoulli(r)}; then one ziggurat normal per
 * coordinate. Weak client sampling writes B first (the revealed flag). Draw order per round: participation, K, B',
 * normals.
 */
final class ReducedParticipationSimulator {
    private final Adversary adversary;
    private final double join;
    private final double record;
    private final boolean flagged;
    private final BinomialTable others;
    private final double sigma;
    private final double clip;
    private final int rounds;

    private ReducedParticipationSimulator(ParticipationParameters rp) {
        this.adversary = rp.adversary();
        this.join = rp.samplingJoinProbability();
        this.record = rp.samplingRecordProbability();
        this.flagged = rp.revealed();
        this.sigma = rp.sigma();
        this.clip = rp.clip();
        this.rounds = rp.rounds();
        this.others = new BinomialTable(rp.d(), record);
    }

    /** The reduced simulator of {@code rp}'s adversary configuration. */
    static MechanismSimulator of(ParticipationParameters rp) {
        ReducedParticipationSimulator r = new ReducedParticipationSimulator(rp);
        ParticipationLaw law = rp.law(rp.adversary());
        int stat = r.adversary == Adversary.ORTHOGONAL ? 2 : 1;
        int block = stat + (r.flagged ? 1 : 0);
        double[][] basis = new double[stat][block];
        for (int i = 0; i < stat; i++) {
            basis[i][i + (r.flagged ? 1 : 0)] = 1.0;
        }
        OutputModel model = OutputModel.linear(r.rounds, block, basis, law.withCanary, law.withoutCanary,
                r.flagged ? 0 : -1, null);
        String description = String.format(Locale.ROOT, "reduced: %s, %s configuration, %s%s, d=%d, sigma=%s, C=%s, "
                + "%d round(s)", rp.variant().label(), r.adversary.label(), r.join < 1 ? "join "
                + Checks.format(r.join) + ", " : "", "record " + Checks.format(r.record), rp.d(),
                Checks.format(r.sigma), Checks.format(r.clip), r.rounds);
        return MechanismSimulator.of(model, description, r::sampler);
    }

    private TrialSampler sampler(UniformRandomProvider rng) {
        return new Sampler(rng);
    }

    private final class Sampler implements TrialSampler {
        private final UniformRandomProvider rng;
        private final ZigguratSampler.NormalizedGaussian gauss;
        private final BernoulliProcess joins;

        Sampler(UniformRandomProvider rng) {
            this.rng = rng;
            this.gauss = ZigguratSampler.NormalizedGaussian.of(rng);
            this.joins = new BernoulliProcess(rng, join);
        }

        @Override
        public void sample(World world, double[] out, int trials) {
            boolean withCanary = world == World.WITH_CANARY;
            int values = trials * rounds;
            int o = 0;
            for (int i = 0; i < values; i++) {
                boolean joined = joins.next();
                int k = 0;
                boolean canary = false;
                if (joined) {
                    if (adversary != Adversary.ZERO) {
                        k = others.sample(rng);
                    }
                    canary = withCanary && rng.nextDouble() < record;
                }
                if (flagged) {
                    out[o++] = joined ? 1.0 : 0.0;
                }
                switch (adversary) {
                    case ALIGNED -> out[o++] = (k + (canary ? 1 : 0)) * clip + sigma * gauss.sample();
                    case ORTHOGONAL -> {
                        out[o++] = (canary ? clip : 0.0) + sigma * gauss.sample();
                        out[o++] = k * clip + sigma * gauss.sample();
                    }
                    case ZERO -> out[o++] = (canary ? clip : 0.0) + sigma * gauss.sample();
                }
            }
        }
    }
}
