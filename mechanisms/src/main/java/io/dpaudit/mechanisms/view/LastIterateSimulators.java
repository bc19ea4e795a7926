package io.dpaudit.mechanisms.view;

import io.dpaudit.core.engine.TrialSampler;
import io.dpaudit.core.engine.World;
import io.dpaudit.core.law.GaussianMixture;
import io.dpaudit.core.model.MechanismSimulator;
import io.dpaudit.core.model.OutputModel;
import io.dpaudit.core.model.RoundStatistic;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;

/** The simulators of the last-iterate view: one value per trial, the summed releases projected on the canary. */
final class LastIterateSimulators {
    private LastIterateSimulators() {
    }

    /** The law of the view's value: {@code sum_k p_k N(k, s^2)} with the canary, {@code N(K', s^2)} without. */
    static OutputModel model(LastIteratePair p) {
        CountLaw law = p.withCanary();
        double[][] means = new double[law.pmf().length][1];
        for (int i = 0; i < means.length; i++) {
            means[i][0] = law.min() + i;
        }
        GaussianMixture with = new GaussianMixture(law.pmf(), means, p.noise());
        return OutputModel.ofStatistic(1, with, GaussianMixture.single(p.withoutCanary(), p.noise()));
    }

    /**
     * The reduced sampler of the value: K drawn by inversion of its table (one {@code nextDouble()}, none when K is one
     * count), then one ziggurat normal.
     */
    static MechanismSimulator reduced(LastIteratePair p) {
        return MechanismSimulator.of(model(p), "reduced last iterate: " + p.describe(), rng -> new Reduced(rng, p));
    }

    /**
     * The faithful view: the transcript's own (faithful) simulator runs every step, and the trial's value is the sum
     * over its rounds of the per-round statistic's coordinates (each step's release projected on the canary, the
     * other records' known contribution added back), divided by one step's contribution.
     */
    static MechanismSimulator summed(MechanismSimulator transcript, LastIteratePair p) {
        OutputModel t = transcript.outputModel();
        return MechanismSimulator.of(model(p), "faithful last iterate: the sum of every release of " + transcript
                .description(), rng -> new Summed(transcript.create(rng), t, p.scale()));
    }

    private static final class Reduced implements TrialSampler {
        private final UniformRandomProvider rng;
        private final ZigguratSampler.NormalizedGaussian gauss;
        private final CountLaw law;
        private final int without;
        private final double noise;

        Reduced(UniformRandomProvider rng, LastIteratePair p) {
            this.rng = rng;
            this.gauss = ZigguratSampler.NormalizedGaussian.of(rng);
            this.law = p.withCanary();
            this.without = p.withoutCanary();
            this.noise = p.noise();
        }

        @Override
        public void sample(World world, double[] out, int trials) {
            boolean with = world == World.WITH_CANARY;
            for (int i = 0; i < trials; i++) {
                double k = with ? law.sample(rng) : without;
                out[i] = k + noise * gauss.sample();
            }
        }
    }

    private static final class Summed implements TrialSampler {
        private final TrialSampler transcript;
        private final RoundStatistic statistic;
        private final int rounds;
        private final int roundDimension;
        private final double scale;
        private final double[] scratch;
        private final double[] stat;

        Summed(TrialSampler transcript, OutputModel model, double scale) {
            this.transcript = transcript;
            this.statistic = model.statistic();
            this.rounds = model.rounds();
            this.roundDimension = model.roundDimension();
            this.scale = scale;
            this.scratch = new double[model.outputLength()];
            this.stat = new double[statistic.dimension()];
        }

        @Override
        public void sample(World world, double[] out, int trials) {
            for (int i = 0; i < trials; i++) {
                transcript.sample(world, scratch, 1);
                double sum = 0;
                for (int r = 0; r < rounds; r++) {
                    statistic.extract(scratch, r * roundDimension, stat);
                    for (double v : stat) {
                        sum += v;
                    }
                }
                out[i] = sum / scale;
            }
        }
    }
}
