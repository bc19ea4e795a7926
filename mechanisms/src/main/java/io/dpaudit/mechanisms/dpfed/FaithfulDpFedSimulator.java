package io.dpaudit.mechanisms.dpfed;

import io.dpaudit.core.Checks;
import io.dpaudit.core.engine.TrialSampler;
import io.dpaudit.core.engine.World;
import io.dpaudit.core.model.MechanismSimulator;
import io.dpaudit.core.model.OutputModel;
import java.util.Arrays;
import java.util.Locale;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;

/**
 * Faithful simulator of DP-Fed(-LS) (seed 003, Algorithm 1, server side): {@code K} clients with explicit
 * {@code D}-dimensional updates; every round the server selects clients (uniformly {@code m} of {@code K} by a
 * partial Fisher–Yates shuffle, or each with probability {@code tau}), clips each selected update to {@code G}, sums
 * them, adds {@code N(0, nu^2 I_D)}, applies {@code A_s^{-1}} (Eq. 2) and scales by {@code c}. An output is the
 * {@code T} released {@code D}-vectors.
 *
 * <p>The dataset: client 0 is the canary's, with raw update {@code 2G u} in {@code D} (clipped to {@code G u}); in
 * {@code D'} it holds {@code -2G u} (uniform: replace-one) or is absent (Poisson). The others hold {@code -2G u}
 * ({@code replacement}) or random vectors orthogonal to {@code span{u, A^{-1} u}} with norms uniform on
 * {@code [0, 3G]} (so some are clipped; zero when {@code D <= 2}). Identical updates share storage. Updates are
 * clipped in every round, as the algorithm does (they do not change between rounds).
 *
 * <p>{@code A_s^{-1}} is applied by {@link LaplacianSmoothing#applyInverseInPlace}, an {@code O(D)} periodic solve
 * equal to Eq. (2)'s FFT up to rounding (LaplacianSmoothingTest compares the two, coordinate by coordinate, and
 * both with a dense solve).
 *
 * <p>Random draws per round: the selection ({@code m} {@code nextInt} or {@code K} {@code nextDouble}, client order),
 * then {@code D} ziggurat normals.
 */
final class FaithfulDpFedSimulator {
    /** Largest dimension the faithful simulator accepts. */
    static final int MAX_DIMENSION = 100_000;
    /** Largest number of stored update coordinates, counting three per stored row for its array (header, pointer). */
    private static final long MAX_STORED = 1L << 25;
    private static final int ROW_OVERHEAD = 3;
    /** Largest output length (rounds x dimension). */
    private static final long MAX_OUTPUT = 1L << 24;

    private final int clients;
    private final int selected;
    private final double tau;
    private final boolean uniform;
    private final double sigma;
    private final double clip;
    private final double scale;
    private final int rounds;
    private final int dimension;
    private final LaplacianSmoothing smoothing;
    /** Distinct raw updates, one array each; {@code updateOf[i]} is client i's row (client 0 per world). */
    private final double[][] updates;
    private final int[] updateOf;
    private final int canaryWith;
    private final int canaryWithout;
    private final OutputModel model;
    private final String description;

    private FaithfulDpFedSimulator(DpFedParameters m, UniformRandomProvider datasetRng) {
        this.clients = m.clients();
        this.selected = m.selected();
        this.tau = m.fraction();
        this.uniform = m.sampling() == DpFedParameters.Sampling.UNIFORM;
        this.sigma = m.sigma();
        this.clip = m.clip();
        this.scale = m.outputScale();
        this.rounds = m.rounds();
        this.dimension = m.dimension();
        if ((long) rounds * dimension > MAX_OUTPUT) {
            throw new io.dpaudit.core.InvalidInputException("mechanism.rounds", rounds, "times dimension "
                    + dimension + " exceeds " + MAX_OUTPUT + " doubles per output for the faithful simulator");
        }
        this.smoothing = new LaplacianSmoothing(dimension, m.smoothingFactor());
        DpFedGeometry g = m.geometry();
        double[] u = g.u;
        boolean orthogonal = m.others() == DpFedParameters.Others.ORTHOGONAL;
        int distinct = orthogonal ? clients + 1 : 3;
        if ((long) distinct * (dimension + ROW_OVERHEAD) > MAX_STORED) {
            throw new io.dpaudit.core.InvalidInputException("mechanism.clients", clients, "times (dimension + "
                    + ROW_OVERHEAD + ") = " + (long) distinct * (dimension + ROW_OVERHEAD) + " exceeds " + MAX_STORED
                    + " stored doubles for the faithful simulator");
        }
        this.updates = new double[distinct][dimension];
        this.updateOf = new int[clients];
        // Row 0: the canary's update in D; row 1: client 0's update in D' (uniform); rows 2..: the others.
        for (int j = 0; j < dimension; j++) {
            updates[0][j] = 2 * clip * u[j];
            updates[1][j] = -2 * clip * u[j];
        }
        this.canaryWith = 0;
        this.canaryWithout = uniform ? 1 : -1;
        if (orthogonal) {
            double[][] span = orthonormalPair(u, g.inverseU);
            for (int i = 1; i < clients; i++) {
                int row = i + 1;
                updateOf[i] = row;
                if (dimension > 2) {
                    randomOrthogonal(datasetRng, span, 3 * clip * datasetRng.nextDouble(), updates[row]);
                }
            }
        } else {
            for (int j = 0; j < dimension; j++) {
                updates[2][j] = -2 * clip * u[j];
            }
            Arrays.fill(updateOf, 2);
        }
        this.model = OutputModel.linear(rounds, dimension, new double[][] {g.v1}, m.statisticLaw(true, scale / g.auNorm),
                m.statisticLaw(false, scale / g.auNorm), -1, u);
        this.description = String.format(Locale.ROOT, "faithful: %s, %d clients with explicit %d-dim updates (%s), "
                + "%s selection%s, clip %s, sum + N(0, %s^2 I), A_s^{-1} (s = %s), x %s, %d round(s)", m.type(),
                clients, dimension, m.others().name().toLowerCase(Locale.ROOT),
                uniform ? "uniform" : "Poisson", uniform ? " of " + selected : " tau=" + Checks.format(tau),
                Checks.format(clip), Checks.format(sigma), Checks.format(m.smoothingFactor()), Checks.format(scale),
                rounds);
    }

    /** An orthonormal basis of {@code span{u, w}} (one vector if they are parallel). */
    private static double[][] orthonormalPair(double[] u, double[] w) {
        double c = DpFedGeometry.dot(u, w);
        double[] r = new double[u.length];
        for (int i = 0; i < u.length; i++) {
            r[i] = w[i] - c * u[i];
        }
        double n = DpFedGeometry.norm(r);
        if (n < 1e-9 * DpFedGeometry.norm(w)) {
            return new double[][] {u};
        }
        for (int i = 0; i < r.length; i++) {
            r[i] /= n;
        }
        return new double[][] {u, r};
    }

    /** A random vector of norm {@code length} orthogonal to the rows of {@code span}, written to {@code out}. */
    private static void randomOrthogonal(UniformRandomProvider rng, double[][] span, double length, double[] out) {
        int d = span[0].length;
        ZigguratSampler.NormalizedGaussian gauss = ZigguratSampler.NormalizedGaussian.of(rng);
        double[] v = new double[d];
        double n;
        do {
            for (int j = 0; j < d; j++) {
                v[j] = gauss.sample();
            }
            for (int pass = 0; pass < 2; pass++) { // twice, for orthogonality to machine precision
                for (double[] b : span) {
                    double c = DpFedGeometry.dot(v, b);
                    for (int j = 0; j < d; j++) {
                        v[j] -= c * b[j];
                    }
                }
            }
            n = DpFedGeometry.norm(v);
        } while (n == 0);
        for (int j = 0; j < d; j++) {
            out[j] = v[j] * (length / n);
        }
    }

    /** The simulator of {@code m}. */
    static MechanismSimulator of(DpFedParameters m, UniformRandomProvider datasetRng) {
        FaithfulDpFedSimulator s = new FaithfulDpFedSimulator(m, datasetRng);
        return MechanismSimulator.of(s.model, s.description, s::sampler);
    }

    private TrialSampler sampler(UniformRandomProvider rng) {
        return new Sampler(rng);
    }

    private final class Sampler implements TrialSampler {
        private final UniformRandomProvider rng;
        private final ZigguratSampler.NormalizedGaussian gauss;
        private final int[] order;
        private final double[] factor;
        private final LaplacianSmoothing.Workspace workspace;
        /** The round's sum of clipped updates (a scratch vector at offset 0, so that the sum loop vectorises). */
        private final double[] sum;

        Sampler(UniformRandomProvider rng) {
            this.rng = rng;
            this.gauss = ZigguratSampler.NormalizedGaussian.of(rng);
            this.order = new int[clients];
            for (int i = 0; i < clients; i++) {
                order[i] = i;
            }
            this.factor = clipFactors();
            this.workspace = smoothing.newWorkspace();
            this.sum = new double[dimension];
        }

        /** Per stored row, the clipping factor {@code min(1, G / |update|)}. */
        private double[] clipFactors() {
            int rows = updates.length;
            double[] f = new double[rows];
            for (int r = 0; r < rows; r++) {
                double s = 0;
                for (int j = 0; j < dimension; j++) {
                    double x = updates[r][j];
                    s += x * x;
                }
                double norm = Math.sqrt(s);
                f[r] = norm > clip ? clip / norm : 1.0;
            }
            return f;
        }

        @Override
        public void sample(World world, double[] out, int trials) {
            int canaryRow = world == World.WITH_CANARY ? canaryWith : canaryWithout;
            int d = dimension;
            for (int block = 0; block < trials * rounds; block++) {
                int base = block * d;
                double[] acc = sum;
                Arrays.fill(acc, 0.0);
                if (uniform) {
                    for (int i = 0; i < selected; i++) { // partial Fisher-Yates: order[0..m) is a uniform m-subset
                        int j = i + rng.nextInt(clients - i);
                        int t = order[i];
                        order[i] = order[j];
                        order[j] = t;
                        add(order[i] == 0 ? canaryRow : updateOf[order[i]], acc);
                    }
                } else {
                    for (int i = 0; i < clients; i++) {
                        if (rng.nextDouble() < tau) {
                            int row = i == 0 ? canaryRow : updateOf[i];
                            if (row >= 0) {
                                add(row, acc);
                            }
                        }
                    }
                }
                for (int j = 0; j < d; j++) {
                    out[base + j] = acc[j] + sigma * gauss.sample();
                }
            }
            // A_s^{-1} and the scaling c of every round of the batch (the draws above are not affected by it).
            smoothing.applyInverseInPlace(out, 0, trials * rounds, scale, workspace);
        }

        /** Adds the clipped update of stored row {@code row} to {@code acc}. */
        private void add(int row, double[] acc) {
            axpy(factor[row], updates[row], acc);
        }
    }

    /** {@code y += f x} over the whole of both (same index in both, so that it vectorises). */
    private static void axpy(double f, double[] x, double[] y) {
        for (int j = 0; j < y.length; j++) {
            y[j] += f * x[j];
        }
    }
}
