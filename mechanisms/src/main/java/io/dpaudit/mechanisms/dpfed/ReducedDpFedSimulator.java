package io.dpaudit.mechanisms.dpfed;

import io.dpaudit.core.Checks;
import io.dpaudit.core.engine.TrialSampler;
import io.dpaudit.core.engine.World;
import io.dpaudit.core.model.MechanismSimulator;
import io.dpaudit.core.model.OutputModel;
import io.dpaudit.mechanisms.common.BernoulliProcess;
import java.util.Locale;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;

/**
 * Exact sampler of what matters in a DP-Fed(-LS) release {@code y = c A^{-1} x} ({@link DpFedGeometry}): per round,
 * whether the canary's slot is selected ({@code B ~ Bernoulli(gamma)}, gamma = m/K or tau), the sufficient statistic
 * {@code s = <x, u> = offset + B shift_W + nu Z1}, and, when smoothing separates {@code u} from {@code A u}, the
 * second coordinate. A round's block is {@code (<y, v1>, <y, v2>) = (c s / |A u|, c (s k1 + nu k2 Z2))}, or only the
 * first when {@code u} is an eigenvector of {@code A}.
 *
 * <p>Why this is exact: {@code y} is a linear image of {@code x}, whose only world-dependent part is {@code <x, u>}
 * (the canary's slot contributes along {@code u}, every other client's update is a world-independent constant or
 * orthogonal to {@code span{u, A^{-1} u}}), and the noise orthogonal to {@code u} is independent of {@code <x, u>}.
 * Projections of {@code y} on any vector of {@code span{v1, v2}}, the canary direction {@code u} included, are
 * therefore reproduced in law; the rest of {@code y} does not depend on the world.
 *
 * <p>Draw order per round: selection of the slot (a gap-sampled Bernoulli process), {@code Z1}, then {@code Z2}.
 */
final class ReducedDpFedSimulator {
    private final double gamma;
    private final double offset;
    private final double shiftWith;
    private final double shiftWithout;
    private final double sigma;
    private final double first;
    private final double k1;
    private final double k2;
    private final boolean second;
    private final int rounds;
    private final OutputModel model;
    private final String description;

    private ReducedDpFedSimulator(DpFedParameters m) {
        DpFedGeometry g = m.geometry();
        this.gamma = m.fraction();
        this.offset = m.offset();
        this.shiftWith = m.shiftWithCanary();
        this.shiftWithout = m.shiftWithoutCanary();
        this.sigma = m.sigma();
        double c = m.outputScale();
        this.first = c / g.auNorm;
        this.second = g.hasSecond();
        this.k1 = c * g.k1;
        this.k2 = c * g.k2;
        this.rounds = m.rounds();
        int block = second ? 2 : 1;
        double[][] basis = new double[1][block];
        basis[0][0] = 1.0;
        this.model = OutputModel.linear(rounds, block, basis, m.statisticLaw(true, first), m.statisticLaw(false, first),
                -1, g.canaryInBlock());
        this.description = String.format(Locale.ROOT, "reduced: %s, %s selection of %s of %d clients, %s others, "
                + "nu=%s, G=%s, D=%d, smoothing %s, %s canary, %d round(s); block (<y,v1>%s)", m.type(),
                m.sampling().name().toLowerCase(Locale.ROOT), m.sampling() == DpFedParameters.Sampling.UNIFORM
                        ? String.valueOf(m.selected()) : "tau=" + Checks.format(gamma), m.clients(),
                m.others().name().toLowerCase(Locale.ROOT), Checks.format(sigma), Checks.format(m.clip()),
                m.dimension(), Checks.format(m.smoothingFactor()), m.canaryShape(), rounds, second ? ", <y,v2>" : "");
    }

    /** The simulator of {@code m}. */
    static MechanismSimulator of(DpFedParameters m) {
        ReducedDpFedSimulator s = new ReducedDpFedSimulator(m);
        return MechanismSimulator.of(s.model, s.description, s::sampler);
    }

    private TrialSampler sampler(UniformRandomProvider rng) {
        return new Sampler(rng);
    }

    private final class Sampler implements TrialSampler {
        private final ZigguratSampler.NormalizedGaussian gauss;
        private final BernoulliProcess slot;

        Sampler(UniformRandomProvider rng) {
            this.gauss = ZigguratSampler.NormalizedGaussian.of(rng);
            this.slot = new BernoulliProcess(rng, gamma);
        }

        @Override
        public void sample(World world, double[] out, int trials) {
            double shift = world == World.WITH_CANARY ? shiftWith : shiftWithout;
            int values = trials * rounds;
            int o = 0;
            if (second) {
                for (int i = 0; i < values; i++) {
                    double s = offset + (slot.next() ? shift : 0.0) + sigma * gauss.sample();
                    out[o++] = first * s;
                    out[o++] = k1 * s + k2 * sigma * gauss.sample();
                }
            } else {
                for (int i = 0; i < values; i++) {
                    out[o++] = first * (offset + (slot.next() ? shift : 0.0) + sigma * gauss.sample());
                }
            }
        }
    }
}
