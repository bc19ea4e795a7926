package io.dpaudit.mechanisms;

import io.dpaudit.core.Checks;
import io.dpaudit.core.InvalidInputException;
import io.dpaudit.core.accounting.AccountantBound;
import io.dpaudit.core.accounting.Adjacency;
import io.dpaudit.core.accounting.DpEvent;
import io.dpaudit.core.accounting.GdpAccountant;
import io.dpaudit.core.accounting.PldAccountant;
import io.dpaudit.core.accounting.PrivacyAccountant;
import io.dpaudit.core.accounting.RdpAccountant;
import io.dpaudit.core.bounds.BoundFamily;
import io.dpaudit.core.bounds.GaussianBound;
import io.dpaudit.core.bounds.PoissonAmplificationBound;
import io.dpaudit.core.bounds.PoissonSubsampledGaussianBound;
import io.dpaudit.core.bounds.PrivacyBound;
import io.dpaudit.core.model.AuditableMechanism;
import io.dpaudit.core.model.MechanismSimulator;
import io.dpaudit.core.model.Parameters;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.commons.rng.UniformRandomProvider;

/**
 * The Poisson-subsampled Gaussian mechanism (DP-SGD's step; the CS baseline of Hasircioğlu &amp; Gündüz and the
 * building block of every seed): each record is included independently with probability {@code q}, contributes its
 * gradient clipped to l2 norm {@code clip}, and the sum is released with {@code N(0, sigma^2 I)} noise; {@code rounds}
 * rounds compose with fresh sampling and noise. Adjacency: add/remove one record. The plain Gaussian mechanism is
 * {@code q = 1} (type {@code gaussian}).
 *
 * <p>Parameters ({@code sigma} is the noise standard deviation, not the noise multiplier {@code sigma/clip}):
 * {@code q in (0, 1]} (default 1 for {@code gaussian}), {@code sigma > 0}, {@code clip > 0} (default 1),
 * {@code rounds >= 1} (default 1).
 */
public final class PoissonSubsampledGaussian implements AuditableMechanism {
    /** Type name of the general mechanism. */
    public static final String TYPE = "poisson-subsampled-gaussian";
    /** Type name of the plain Gaussian mechanism ({@code q = 1}). */
    public static final String GAUSSIAN_TYPE = "gaussian";

    private final String type;
    private final Parameters parameters;
    private final double q;
    private final double sigma;
    private final double clip;
    private final int rounds;

    private PoissonSubsampledGaussian(String type, Parameters parameters, double q, double sigma, double clip,
            int rounds) {
        this.type = type;
        this.parameters = parameters;
        this.q = q;
        this.sigma = sigma;
        this.clip = clip;
        this.rounds = rounds;
    }

    /** Parses and validates the parameters of type {@code poisson-subsampled-gaussian}. */
    public static PoissonSubsampledGaussian parse(Parameters p) {
        p.allowOnly(Set.of("type", "q", "sigma", "clip", "rounds"));
        double q = Checks.samplingProbability(p.field("q"), p.number("q"));
        return build(TYPE, p, q);
    }

    /** Parses and validates the parameters of type {@code gaussian}. */
    public static PoissonSubsampledGaussian parseGaussian(Parameters p) {
        p.allowOnly(Set.of("type", "sigma", "clip", "rounds"));
        return build(GAUSSIAN_TYPE, p, 1.0);
    }

    private static PoissonSubsampledGaussian build(String type, Parameters p, double q) {
        double sigma = Checks.positive(p.field("sigma"), p.number("sigma"));
        double clip = Checks.positive(p.field("clip"), p.number("clip", 1.0));
        long rounds = p.wholeNumber("rounds", 1, 1);
        if (rounds > 1_000_000) {
            throw new InvalidInputException(p.field("rounds"), rounds, "must be <= 1000000");
        }
        return new PoissonSubsampledGaussian(type, p, q, sigma, clip, (int) rounds);
    }

    /** Direct construction (for tests and the demo). */
    public static PoissonSubsampledGaussian of(double q, double sigma, double clip, int rounds) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("q", q);
        m.put("sigma", sigma);
        m.put("clip", clip);
        m.put("rounds", (double) rounds);
        return parse(new Parameters("mechanism.", m));
    }

    @Override
    public String type() {
        return type;
    }

    @Override
    public Parameters parameters() {
        return parameters;
    }

    @Override
    public String adjacency() {
        return "add/remove one record";
    }

    /** Sampling probability. */
    public double q() {
        return q;
    }

    @Override
    public double sigma() {
        return sigma;
    }

    /** Clipping norm (l2 sensitivity of the sum to one record). */
    public double clip() {
        return clip;
    }

    /** Number of composed rounds. */
    public int rounds() {
        return rounds;
    }

    @Override
    public MechanismSimulator reduced() {
        return new ReducedPoissonGaussianSimulator(q, sigma, clip, rounds);
    }

    @Override
    public MechanismSimulator faithful(Parameters options, UniformRandomProvider datasetRng) {
        options.allowOnly(Set.of("kind", "records", "dimension"));
        int records = (int) Math.min(Integer.MAX_VALUE, options.wholeNumber("records", 16, 0));
        int dimension = (int) Math.min(4096, options.wholeNumber("dimension", 4, 1));
        GradientDataset data = GradientDataset.worstCase(records, dimension, clip, datasetRng);
        return new FaithfulPoissonGaussianSimulator(data, q, sigma, clip, rounds);
    }

    /**
     * What the mechanism does as an event: {@code rounds} rounds of a Gaussian of noise {@code sigma} on a sum clipped
     * to {@code clip}, Poisson-sampled with probability {@code q} (when {@code q < 1}); add/remove adjacency.
     */
    public DpEvent event(double noiseSigma) {
        DpEvent g = new DpEvent.Gaussian(noiseSigma, clip);
        return new DpEvent.SelfComposed(q < 1 ? new DpEvent.PoissonSampled(q, g) : g, rounds);
    }

    private volatile List<PrivacyBound> bounds;

    @Override
    public List<PrivacyBound> bounds() {
        List<PrivacyBound> b = bounds;
        if (b == null) {
            b = boundFamilies().stream().map(f -> f.atSigma().apply(sigma)).toList();
            bounds = b;
        }
        return b;
    }

    /**
     * The applicable bounds, as functions of sigma. For {@code q = 1}: the exact Gaussian profile (any number of
     * rounds) and the RDP accountant. For {@code q < 1}: in one round the exact profile and BBG18's amplification
     * theorem; in any number of rounds the PLD and RDP accountants and the Poisson CLT of Gaussian DP (an
     * approximation, labelled as such).
     */
    @Override
    public List<BoundFamily> boundFamilies() {
        List<BoundFamily> list = new ArrayList<>();
        if (q == 1.0) {
            GaussianBound g = GaussianBound.of(sigma, clip, rounds);
            list.add(new BoundFamily(g.name(), g.source(), s -> GaussianBound.of(s, clip, rounds)));
        } else if (rounds == 1) {
            PoissonSubsampledGaussianBound exact = new PoissonSubsampledGaussianBound(q, clip / sigma);
            list.add(new BoundFamily(exact.name(), exact.source(),
                    s -> new PoissonSubsampledGaussianBound(q, clip / s)));
            PoissonAmplificationBound bbg = new PoissonAmplificationBound(q, GaussianBound.of(sigma, clip, 1));
            list.add(new BoundFamily(bbg.name(), bbg.source(),
                    s -> new PoissonAmplificationBound(q, GaussianBound.of(s, clip, 1))));
        }
        if (q < 1.0) {
            list.add(accountantFamily("pld", new PldAccountant()));
        }
        list.add(accountantFamily("rdp", new RdpAccountant()));
        if (q < 1.0) {
            list.add(accountantFamily("gdp-clt", new GdpAccountant()));
        }
        return list;
    }

    private BoundFamily accountantFamily(String name, PrivacyAccountant accountant) {
        String event = String.format(Locale.ROOT, "%s of %sGaussian(sigma, clip=%s)%s x %d, add/remove", name,
                q < 1 ? "PoissonSampled(q=" + Checks.format(q) + ", " : "", Checks.format(clip), q < 1 ? ")" : "",
                rounds);
        return new BoundFamily(name, event, s -> new AccountantBound(name, accountant, event(s), Adjacency.ADD_REMOVE));
    }
}
