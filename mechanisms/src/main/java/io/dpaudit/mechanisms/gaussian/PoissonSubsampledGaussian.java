package io.dpaudit.mechanisms.gaussian;

import io.dpaudit.core.Checks;
import io.dpaudit.core.InvalidInputException;
import io.dpaudit.core.numerics.SafeRounding;
import io.dpaudit.core.fdp.TradeOffConversions;
import io.dpaudit.core.accounting.Adjacency;
import io.dpaudit.core.accounting.DpEvent;
import io.dpaudit.core.accounting.GdpAccountant;
import io.dpaudit.core.accounting.PldAccountant;
import io.dpaudit.core.accounting.PrivacyAccountant;
import io.dpaudit.core.accounting.RdpAccountant;
import io.dpaudit.core.bounds.BoundFamily;
import io.dpaudit.core.bounds.CalibrationParameter;
import io.dpaudit.core.bounds.GaussianBound;
import io.dpaudit.core.bounds.ParameterCalibration;
import io.dpaudit.core.bounds.PoissonAmplificationBound;
import io.dpaudit.core.bounds.PoissonSubsampledGaussianBound;
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
 * {@code q = 1} (type {@code gaussian}). Its calibration parameter is {@code sigma}.
 */
public final class PoissonSubsampledGaussian implements AuditableMechanism {
    private final Parameters parameters;
    private final GaussianParameters g;

    PoissonSubsampledGaussian(Parameters parameters, GaussianParameters g) {
        this.parameters = parameters;
        this.g = g;
    }

    /** Direct construction of {@code poisson-subsampled-gaussian} (for tests and the demo). */
    public static PoissonSubsampledGaussian of(double q, double sigma, double clip, int rounds) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("q", q);
        m.put("sigma", sigma);
        m.put("clip", clip);
        m.put("rounds", (double) rounds);
        Parameters p = new Parameters("mechanism.", m);
        return new PoissonSubsampledGaussian(p, GaussianParameters.parseSubsampled(p));
    }

    /** T rounds of sampling and noise. */
    @Override
    public long roundsPerTrial() {
        return g.rounds();
    }

    @Override
    public String type() {
        return g.type();
    }

    @Override
    public Parameters parameters() {
        return parameters;
    }

    /** The validated parameters. */
    public GaussianParameters gaussianParameters() {
        return g;
    }

    @Override
    public String adjacency() {
        return "add/remove one record";
    }

    @Override
    public MechanismSimulator reduced() {
        return ReducedPoissonGaussianSimulator.of(g);
    }

    /** Largest vector dimension of the faithful simulator. */
    static final int MAX_FAITHFUL_DIMENSION = 4096;

    @Override
    public MechanismSimulator faithful(Parameters options, UniformRandomProvider datasetRng) {
        options.allowOnly(Set.of("kind", "records", "dimension"));
        long recordCount = options.wholeNumber("records", 16, 0);
        long dim = options.wholeNumber("dimension", 4, 1);
        if (dim > MAX_FAITHFUL_DIMENSION) {
            throw new io.dpaudit.core.InvalidInputException(options.field("dimension"), dim, "must be <= "
                    + MAX_FAITHFUL_DIMENSION + " (the faithful simulator holds every record's vector)");
        }
        // The dataset holds records x dimension doubles; refuse before allocating what cannot fit in half the heap.
        double bytes = 8.0 * recordCount * dim;
        double budget = Runtime.getRuntime().maxMemory() / 2.0;
        if (recordCount > Integer.MAX_VALUE || bytes > budget) {
            throw new io.dpaudit.core.InvalidInputException(options.field("records"), recordCount, String.format(
                    java.util.Locale.ROOT, "times dimension (%d) needs %.0f MB for the dataset, more than half the "
                    + "heap (%.0f MB); use fewer records, the reduced simulator, or a larger -Xmx", dim, bytes / 1e6,
                    budget / 1e6));
        }
        int records = (int) recordCount;
        int dimension = (int) dim;
        GradientDataset data = GradientDataset.worstCase(records, dimension, g.clip(), datasetRng);
        return FaithfulPoissonGaussianSimulator.of(data, g);
    }

    /**
     * What the mechanism does as an event: {@code rounds} rounds of a Gaussian of noise {@code sigma} on a sum clipped
     * to {@code clip}, Poisson-sampled with probability {@code q} (when {@code q < 1}); add/remove adjacency.
     */
    public DpEvent event(double noiseSigma) {
        DpEvent e = new DpEvent.Gaussian(noiseSigma, g.clip());
        return new DpEvent.SelfComposed(g.q() < 1 ? new DpEvent.PoissonSampled(g.q(), e) : e, g.rounds());
    }

    /**
     * The applicable bounds, as functions of sigma. For {@code q = 1}: the exact Gaussian profile (any number of
     * rounds) and the RDP accountant. For {@code q < 1}: in one round the exact profile and BBG18's amplification
     * theorem; in any number of rounds the PLD and RDP accountants and the Poisson CLT of Gaussian DP (an
     * approximation, labelled as such).
     */
    @Override
    public List<BoundFamily> boundFamilies() {
        double q = g.q();
        double clip = g.clip();
        int rounds = g.rounds();
        double sigma = g.sigma();
        CalibrationParameter p = CalibrationParameter.SIGMA;
        List<BoundFamily> list = new ArrayList<>();
        if (q == 1.0) {
            GaussianBound here = GaussianBound.of(sigma, clip, rounds);
            list.add(new BoundFamily(here.name(), here.source(), p, sigma, s -> GaussianBound.of(s, clip, rounds)));
        } else if (rounds == 1) {
            PoissonSubsampledGaussianBound exact = new PoissonSubsampledGaussianBound(q, clip / sigma);
            list.add(new BoundFamily(exact.name(), exact.source(), p, sigma,
                    s -> new PoissonSubsampledGaussianBound(q, clip / s)));
            PoissonAmplificationBound bbg = new PoissonAmplificationBound(q, GaussianBound.of(sigma, clip, 1));
            list.add(new BoundFamily(bbg.name(), bbg.source(), p, sigma,
                    s -> new PoissonAmplificationBound(q, GaussianBound.of(s, clip, 1))));
        }
        if (q < 1.0) {
            // Calibrated from where the same accountant on a ten times coarser grid puts sigma (agreeing with it to
            // about 1e-4 relative, at a tenth of the cost): a handful of fine evaluations instead of some twenty.
            BoundFamily pld = accountantFamily("pld", new PldAccountant());
            BoundFamily coarse = accountantFamily("pld", new PldAccountant(30 * PldAccountant.DEFAULT_H));
            // The search starts at the central limit's closed-form sigma. From T = 1000 on, where that is within a few
            // percent and the coarse grid saves nothing (at T = 1e6 one evaluation costs 1.8 s on either grid: the
            // composed loss range, not h, sets its size), the accountant is searched from it directly; below, the
            // coarse guide is searched from it first.
            list.add(new BoundFamily(pld.name(), pld.source(), p, sigma, pld.at(), (eps, delta) -> {
                double hint = cltHint(q, clip, rounds, eps, delta);
                return rounds >= 1000 && Double.isFinite(hint)
                        ? ParameterCalibration.fromHint(p, pld.at(), hint, eps, delta)
                        : ParameterCalibration.guided(p, pld.at(), coarse.at(), hint, eps, delta);
            }));
        }
        list.add(accountantFamily("rdp", new RdpAccountant()));
        if (q < 1.0) {
            BoundFamily clt = accountantFamily("gdp-clt", new GdpAccountant());
            list.add(new BoundFamily(clt.name(), clt.source(), p, sigma, clt.at(), (eps, delta) ->
                    cltSigma(q, clip, rounds, eps, delta)));
        }
        return list;
    }

    /**
     * The central-limit approximation calibrated in closed form: the largest {@code mu} whose {@code G_mu} meets
     * {@code (eps, delta)} ({@link TradeOffConversions#muFor}, rounded down), then {@code mu = q sqrt(T (e^{C^2 /
     * sigma^2} - 1))} solved for {@code sigma = C / sqrt(log1p(mu^2 / (q^2 T)))}, rounded up (more noise: the safe
     * side). Microseconds at any T and ε, where searching sigma through the accountant took minutes at T = 5e5.
     */
    static double cltSigma(double q, double clip, int rounds, double eps, double delta) {
        double mu;
        try {
            mu = TradeOffConversions.muFor(eps, delta);
        } catch (IllegalArgumentException e) {
            throw new InvalidInputException("--epsilon", eps, "no GDP mu in [1e-8, 1e4] meets it at delta = "
                    + Checks.format(delta));
        }
        double ratio = mu / q;
        double s = clip / Math.sqrt(Math.log1p(ratio * ratio / rounds));
        CalibrationParameter p = CalibrationParameter.SIGMA;
        if (!(s >= p.min() && s <= p.max())) {
            throw new InvalidInputException("sigma", s, "the central-limit calibration leaves the parameter's range ["
                    + Checks.format(p.min()) + ", " + Checks.format(p.max()) + "]");
        }
        return SafeRounding.up(s);
    }

    /** {@link #cltSigma} where it is defined, else NaN: only where a calibration's search starts. */
    static double cltHint(double q, double clip, int rounds, double eps, double delta) {
        try {
            return cltSigma(q, clip, rounds, eps, delta);
        } catch (InvalidInputException e) {
            return Double.NaN;
        }
    }

    private BoundFamily accountantFamily(String name, PrivacyAccountant accountant) {
        String event = String.format(Locale.ROOT, "%s of %sGaussian(sigma, clip=%s)%s x %d, add/remove", name,
                g.q() < 1 ? "PoissonSampled(q=" + Checks.format(g.q()) + ", " : "", Checks.format(g.clip()),
                g.q() < 1 ? ")" : "", g.rounds());
        return new BoundFamily(name, event, CalibrationParameter.SIGMA, g.sigma(),
                s -> accountant.account(name, event(s), Adjacency.ADD_REMOVE));
    }
}
