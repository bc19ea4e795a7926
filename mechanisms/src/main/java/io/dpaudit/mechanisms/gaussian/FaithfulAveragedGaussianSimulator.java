package io.dpaudit.mechanisms.gaussian;

import io.dpaudit.core.Checks;
import io.dpaudit.core.engine.TrialSampler;
import io.dpaudit.core.engine.World;
import io.dpaudit.core.model.MechanismSimulator;
import io.dpaudit.core.model.OutputModel;
import io.dpaudit.core.model.RoundStatistic;
import io.dpaudit.mechanisms.common.Clipping;
import java.util.Locale;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;

/**
 * Faithful simulator of {@code poisson-averaged-gaussian}, step by step as Opacus runs it: an explicit dataset of
 * {@code n} records (plus the canary in {@code D}) with {@code d}-dimensional gradients; per round each record is
 * included with probability {@code q}, the clipped gradients of the included records are summed, {@code N(0, sigma^2
 * I_d)} noise is added, and the result is divided by the expected batch size {@code b = int(|dataset| q)} of the
 * dataset the round runs on ({@code n + 1} records in {@code D}, {@code n} in {@code D'}), or by {@code int(n q)} in
 * both when the divisor is fixed. An output is the {@code rounds x d} releases.
 *
 * <p>The other records' gradients are zero: one valid pair of neighbours (all a violation needs), and one on which the
 * statistic {@code (y, r)} of {@link AveragedSumLaw} is exactly sufficient, so the likelihood-ratio attack is exact on
 * this pair. The canary's gradient is {@code 2 clip e_1}, clipped to
 * {@code clip e_1}. Random draws per round: one {@code nextDouble()} per record in record order, then in {@code D} one
 * for the canary, then {@code d} ziggurat normals.
 */
final class FaithfulAveragedGaussianSimulator {
    /** Largest {@code records x dimension} the explicit dataset may hold. */
    static final long MAX_CELLS = 1L << 26;

    private final int records;
    private final int dimension;
    private final double[] clippedRecords;
    private final double[] clippedCanary;
    private final double q;
    private final double sigma;
    private final int rounds;
    private final double bWith;
    private final double bWithout;
    private final OutputModel model;

    private FaithfulAveragedGaussianSimulator(AveragedGaussianParameters a) {
        GaussianParameters g = a.sum();
        this.q = g.q();
        this.sigma = g.sigma();
        this.rounds = g.rounds();
        this.records = (int) a.records();
        this.dimension = (int) a.dimension();
        this.clippedRecords = new double[records * dimension];
        double[] canary = new double[dimension];
        canary[0] = 2 * g.clip();
        this.clippedCanary = Clipping.clip(canary, g.clip());
        this.bWith = a.divisorWithCanary();
        this.bWithout = a.divisorWithoutCanary();
        AveragedSumLaw[] laws = ReducedAveragedGaussianSimulator.laws(a);
        double[] direction = new double[dimension];
        direction[0] = 1.0;
        this.model = new OutputModel(rounds, new AlongAndRest(dimension), laws[0], laws[1], direction);
    }

    /** The faithful simulator of {@code a}; refuses an explicit dataset above {@link #MAX_CELLS} doubles. */
    static MechanismSimulator of(AveragedGaussianParameters a) {
        if ((double) a.records() * a.dimension() > MAX_CELLS) {
            throw new IllegalArgumentException("records x dimension = " + a.records() * a.dimension() + " exceeds "
                    + MAX_CELLS + ": use the reduced simulator");
        }
        FaithfulAveragedGaussianSimulator f = new FaithfulAveragedGaussianSimulator(a);
        return MechanismSimulator.of(f.model, f.description(), f::sampler);
    }

    private TrialSampler sampler(UniformRandomProvider rng) {
        return new Sampler(rng);
    }

    private String description() {
        return String.format(Locale.ROOT, "faithful: %d records + canary, dimension %d, Poisson(%s) sampling, clip, "
                + "(sum + N(0, %s^2 I)) / b with b = %d in D and %d in D', %d round(s)", records, dimension,
                Checks.format(q), Checks.format(sigma), (long) bWith, (long) bWithout, rounds);
    }

    /** {@code y} = the first coordinate (the canary's direction), {@code r} = the squared norm of the others. */
    static final class AlongAndRest implements RoundStatistic {
        private final int dimension;

        AlongAndRest(int dimension) {
            this.dimension = dimension;
        }

        @Override
        public int dimension() {
            return 2;
        }

        @Override
        public int roundDimension() {
            return dimension;
        }

        @Override
        public boolean extract(double[] block, int offset, double[] into) {
            double r = 0;
            for (int j = 1; j < dimension; j++) {
                double v = block[offset + j];
                r += v * v;
            }
            into[0] = block[offset];
            into[1] = r;
            return true;
        }
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
            double divisor = withCanary ? bWith : bWithout;
            int m = dimension;
            for (int block = 0; block < trials * rounds; block++) {
                int base = block * m;
                FaithfulPoissonGaussianSimulator.sampledSum(rng, q, clippedRecords, records,
                        withCanary ? clippedCanary : null, out, base, m);
                for (int j = 0; j < m; j++) {
                    out[base + j] = (out[base + j] + sigma * gauss.sample()) / divisor;
                }
            }
        }
    }
}
