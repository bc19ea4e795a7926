package io.dpaudit.mechanisms.noisysgd;

import io.dpaudit.core.accounting.Adjacency;
import io.dpaudit.core.accounting.DpEvent;
import io.dpaudit.core.accounting.PldAccountant;
import io.dpaudit.core.accounting.PrivacyAccountant;
import io.dpaudit.core.accounting.RdpAccountant;
import io.dpaudit.core.blackbox.BlackBoxSampler;
import io.dpaudit.core.blackbox.BlackBoxSimulator;
import io.dpaudit.core.bounds.BoundFamily;
import io.dpaudit.core.bounds.BoundKind;
import io.dpaudit.core.bounds.CalibrationParameter;
import io.dpaudit.core.bounds.PrivacyBound;
import io.dpaudit.core.model.AuditableMechanism;
import io.dpaudit.core.model.MechanismSimulator;
import io.dpaudit.core.model.Parameters;
import io.dpaudit.core.rng.RandomStreams;
import io.dpaudit.mechanisms.view.CountLaw;
import io.dpaudit.mechanisms.view.CountMixtureProfile;
import io.dpaudit.mechanisms.view.LastIteratePair;
import io.dpaudit.mechanisms.view.LastIterateView;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;

/**
 * {@code noisy-sgd}: DP-SGD on a real model ({@link NoisySgd}) with only the final model released. The simulator is the
 * algorithm itself, run as a black box (its output has no stated law in general), so the generic attacks apply: the
 * {@code statistic} attack thresholds the model's first coordinate, the one the canary moves.
 *
 * <p>Bounds: the transcript's accountants ({@code pld}, {@code rdp}: T Poisson-subsampled Gaussian steps of noise
 * {@code sigma C} on a sum of gradients clipped to C, add/remove), which hold for the final model by post-processing;
 * {@code last-iterate-heuristic} (Steinke et al. 2025), the linear pair {@code Binomial(T, q) + N(0, T sigma^2)}
 * against {@code N(0, T sigma^2)}, offered for the final model of any loss (kind approximation); and, where the model's
 * first coordinate is exactly that pair (the gradient canary without projection), {@code last-iterate-exact}; and,
 * where the iterates are projected onto a ball and every step's gradient map is a contraction,
 * {@code amplification-by-iteration} ({@link IterationAmplificationBound}, FMTT18), a certified bound for the final
 * model that stops growing with T.
 */
final class NoisySgdMechanism implements AuditableMechanism {
    /** The type name. */
    static final String TYPE = "noisy-sgd";

    private final Parameters parameters;
    private final NoisySgdParameters p;

    NoisySgdMechanism(Parameters parameters, NoisySgdParameters p) {
        this.parameters = parameters;
        this.p = p;
    }

    /** T steps, each a noisy release the adversary does not see. */
    @Override
    public long roundsPerTrial() {
        return p.steps();
    }

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public Parameters parameters() {
        return parameters;
    }

    @Override
    public String view() {
        return LastIterateView.LAST_ITERATE;
    }

    @Override
    public String adjacency() {
        return "add/remove one record (the canary)";
    }

    /** The algorithm on a dataset drawn from a fixed stream (the same for every run of this configuration). */
    @Override
    public MechanismSimulator reduced() {
        return simulator(RandomStreams.auxiliary(0x5eedL));
    }

    /** The algorithm on a dataset drawn from {@code datasetRng}: the algorithm is already explicit. */
    @Override
    public MechanismSimulator faithful(Parameters options, UniformRandomProvider datasetRng) {
        options.allowOnly(Set.of("kind"));
        return simulator(datasetRng);
    }

    private MechanismSimulator simulator(UniformRandomProvider datasetRng) {
        int n = p.records();
        int d = p.dimension();
        double[] inputs = new double[n * d];
        double[] labels = new double[n];
        ZigguratSampler.NormalizedGaussian gauss = ZigguratSampler.NormalizedGaussian.of(datasetRng);
        double[] truth = new double[d];
        unitOrthogonalToFirst(truth, 0, d, gauss);
        for (int i = 0; i < n; i++) {
            unitOrthogonalToFirst(inputs, i * d, d, gauss);
            double dot = 0;
            for (int j = 0; j < d; j++) {
                dot += truth[j] * inputs[i * d + j];
            }
            labels[i] = p.loss() == NoisySgdParameters.Loss.QUADRATIC ? dot + 0.1 * gauss.sample()
                    : (dot > 0) != (datasetRng.nextDouble() < 0.1) ? 1.0 : -1.0;
        }
        NoisySgd algorithm = new NoisySgd(p, inputs, labels);
        return BlackBoxSimulator.of(new BlackBoxSampler<>(algorithm, Boolean.TRUE, Boolean.FALSE, d, p.describe()));
    }

    /** A uniform unit vector with first coordinate 0, written at {@code out[offset, offset + d)}. */
    private static void unitOrthogonalToFirst(double[] out, int offset, int d, ZigguratSampler.NormalizedGaussian g) {
        double n2 = 0;
        out[offset] = 0;
        for (int j = 1; j < d; j++) {
            out[offset + j] = g.sample();
            n2 += out[offset + j] * out[offset + j];
        }
        double n = Math.sqrt(n2);
        for (int j = 1; j < d; j++) {
            out[offset + j] /= n;
        }
    }

    @Override
    public List<BoundFamily> boundFamilies() {
        List<BoundFamily> list = new ArrayList<>();
        list.add(accountantFamily("pld", new PldAccountant()));
        list.add(accountantFamily("rdp", new RdpAccountant()));
        list.add(new BoundFamily(LastIterateView.HEURISTIC, LastIterateView.heuristic(pair(p.sigma())).source(),
                CalibrationParameter.SIGMA, p.sigma(), s -> LastIterateView.heuristic(pair(s))));
        if (amplificationByIterationApplies()) {
            list.add(new BoundFamily(IterationAmplificationBound.NAME, amplificationByIteration(p.sigma()).source(),
                    CalibrationParameter.SIGMA, p.sigma(), this::amplificationByIteration));
        }
        return list;
    }

    @Override
    public List<PrivacyBound> otherBounds() {
        if (!p.linearAlongTheCanary()) {
            return List.of();
        }
        LastIteratePair pair = pair(p.sigma());
        return List.of(new CountMixtureProfile(LastIterateView.EXACT, BoundKind.PAIR_PROFILE, "exact profile of the "
                + "model's first coordinate over eta C: " + pair.describe() + " (the records' inputs are orthogonal to "
                + "the gradient canary's direction and nothing is projected; formula sheet 16.1)",
                pair.withCanary(), pair.withoutCanary(), pair.noise()));
    }

    @Override
    public String referenceBound() {
        return p.linearAlongTheCanary() ? LastIterateView.EXACT : "none";
    }

    @Override
    public List<String> notes() {
        List<String> notes = new ArrayList<>();
        notes.add("Only the final model is released; the simulator runs the algorithm itself (a black box to the "
                + "attacks). pld and rdp are the transcript's accountants, which hold for the final model by "
                + "post-processing; last-iterate-heuristic is Steinke et al.'s heuristic, proven for no loss class.");
        if (Double.isFinite(p.diameter()) && !p.contractiveSteps()) {
            notes.add(String.format(Locale.ROOT, "amplification-by-iteration is not offered: eta = %s exceeds 2 / beta "
                    + "= %s (beta = %s bounds the smoothness of a batch of every record and the canary), so a step's "
                    + "gradient map need not be a contraction.", io.dpaudit.core.Checks.format(p.learningRate()),
                    io.dpaudit.core.Checks.format(2 / p.batchSmoothness()),
                    io.dpaudit.core.Checks.format(p.batchSmoothness())));
        }
        if (!p.linearAlongTheCanary()) {
            notes.add(String.format(Locale.ROOT, "The model is not linear along the canary (%s): no exact curve of "
                    + "the pair is known, and the audit's lower bounds are what it shows.", p.canary()
                    == NoisySgdParameters.Canary.INPUT ? "an input canary whose gradient follows the model"
                    : "the projection couples the coordinates"));
        }
        return notes;
    }

    /** Projected steps whose gradient maps are contractions: the hypotheses of {@link IterationAmplificationBound}. */
    private boolean amplificationByIterationApplies() {
        return Double.isFinite(p.diameter()) && p.contractiveSteps();
    }

    private IterationAmplificationBound amplificationByIteration(double sigma) {
        String conditions = String.format(Locale.ROOT, "%s loss on unit-norm inputs, %s canary: every batch's summed "
                + "clipped gradient is %s-smooth and convex, eta = %s <= 2 / %s", p.loss().label(), p.canary().label(),
                io.dpaudit.core.Checks.format(p.batchSmoothness()), io.dpaudit.core.Checks.format(p.learningRate()),
                io.dpaudit.core.Checks.format(p.batchSmoothness()));
        return new IterationAmplificationBound(sigma, p.steps(), p.diameter() / (p.learningRate() * p.clip()),
                conditions);
    }

    /** The linear pair at noise multiplier {@code s}, in units of C. */
    private LastIteratePair pair(double s) {
        return new LastIteratePair(CountLaw.binomial(p.steps(), p.q()), 0, s * Math.sqrt(p.steps()), p.clip());
    }

    private BoundFamily accountantFamily(String name, PrivacyAccountant accountant) {
        String event = String.format(Locale.ROOT, "%s of PoissonSampled(q=%s, Gaussian(sigma C, clip=%s)) x %d, "
                + "add/remove; holds for the final model by post-processing", name,
                io.dpaudit.core.Checks.format(p.q()), io.dpaudit.core.Checks.format(p.clip()), p.steps());
        return new BoundFamily(name, event, CalibrationParameter.SIGMA, p.sigma(), s -> accountant.account(name,
                new DpEvent.SelfComposed(p.q() < 1 ? new DpEvent.PoissonSampled(p.q(), new DpEvent.Gaussian(s * p.clip(),
                        p.clip())) : new DpEvent.Gaussian(s * p.clip(), p.clip()), p.steps()), Adjacency.ADD_REMOVE));
    }
}
