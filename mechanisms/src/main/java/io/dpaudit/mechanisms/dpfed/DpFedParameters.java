package io.dpaudit.mechanisms.dpfed;

import io.dpaudit.core.Checks;
import io.dpaudit.core.InvalidInputException;
import io.dpaudit.core.law.GaussianMixture;
import io.dpaudit.core.model.Parameters;
import java.util.Set;

/**
 * Validated parameters of DP-Fed(-LS) and of the fixed-size subsampled Gaussian (seed 003), shared by the simulators
 * and the bounds, with the quantities derived from them: the output scale, the contributions along the canary
 * direction in each world and the law of the sufficient statistic.
 *
 * @param type {@code fixed-size-subsampled-gaussian}, {@code dp-fed} or {@code dp-fed-ls}
 * @param clients K, at least 2
 * @param selected m: the number selected (uniform) or {@code round(tau K)} (Poisson, for the faithful simulator)
 * @param fraction tau: the probability that a given client is selected in a round
 * @param sampling uniform (replace one client) or Poisson (add/remove one client)
 * @param sigma nu, the noise standard deviation on the sum (the paper's sigma is {@code smoothingFactor})
 * @param clip G
 * @param rounds T
 * @param dimension D
 * @param smoothingFactor s of {@code A_s = I + s L} (0: no smoothing)
 * @param canaryShape {@code spike} (e_1) or {@code smooth} (a constant unit vector)
 * @param others what the other clients hold
 */
public record DpFedParameters(String type, int clients, int selected, double fraction, Sampling sampling,
        double sigma, double clip, int rounds, int dimension, double smoothingFactor, String canaryShape,
        Others others) {
    /** Fixed-size subsampled Gaussian (the sum, uniform selection). */
    public static final String SUBSAMPLED_TYPE = "fixed-size-subsampled-gaussian";
    /** DP-Fed: average of clipped updates plus noise, no smoothing. */
    public static final String DP_FED_TYPE = "dp-fed";
    /** DP-Fed-LS: DP-Fed followed by Laplacian smoothing. */
    public static final String DP_FED_LS_TYPE = "dp-fed-ls";
    /** Largest dimension of the reduced simulator's geometry (computed once). */
    static final int MAX_DIMENSION = 1 << 20;

    /** How clients are selected. */
    public enum Sampling {
        UNIFORM, POISSON
    }

    /** What the other clients hold. */
    public enum Others {
        REPLACEMENT, ORTHOGONAL
    }

    private static final Set<String> COMMON = Set.of("type", "clients", "selected", "fraction", "sampling", "sigma",
            "clip", "rounds", "dimension", "canary", "others");

    /** Parses {@code type}'s parameters. */
    static DpFedParameters parseType(String type, Parameters p) {
        if (type.equals(DP_FED_LS_TYPE)) {
            java.util.Set<String> allowed = new java.util.HashSet<>(COMMON);
            allowed.add("smoothing");
            p.allowOnly(allowed);
        } else {
            p.allowOnly(COMMON);
        }
        return parse(type, p);
    }

    static DpFedParameters parse(String type, Parameters p) {
        long k = p.wholeNumber("clients", 2);
        if (k > 100_000_000L) {
            throw new InvalidInputException(p.field("clients"), k, "must be <= 100000000");
        }
        String samplingText = p.text("sampling", "uniform");
        Sampling sampling = switch (samplingText) {
            case "uniform" -> Sampling.UNIFORM;
            case "poisson" -> Sampling.POISSON;
            default -> throw new InvalidInputException(p.field("sampling"), samplingText,
                    "must be uniform or poisson");
        };
        if (type.equals(SUBSAMPLED_TYPE) && sampling != Sampling.UNIFORM) {
            throw new InvalidInputException(p.field("sampling"), samplingText, "must be uniform for " + SUBSAMPLED_TYPE
                    + " (use poisson-subsampled-gaussian, or dp-fed with sampling = poisson)");
        }
        if (p.has("selected") == p.has("fraction")) {
            throw new InvalidInputException(p.field("selected"), p.has("selected") ? p.number("selected") : "missing",
                    "give exactly one of selected (m) and fraction (tau = m/K)");
        }
        double fraction;
        long m;
        if (p.has("selected")) {
            m = p.wholeNumber("selected", 1);
            if (m > k) {
                throw new InvalidInputException(p.field("selected"), m, "must be <= clients (" + k + ")");
            }
            fraction = (double) m / k;
        } else {
            fraction = Checks.samplingProbability(p.field("fraction"), p.number("fraction"));
            double exact = fraction * k;
            m = Math.round(exact);
            if (sampling == Sampling.UNIFORM && (Math.abs(exact - m) > 1e-9 * Math.max(1, exact) || m < 1)) {
                throw new InvalidInputException(p.field("fraction"), fraction, "times clients = " + Checks.format(exact)
                        + " must be a whole number >= 1 for uniform selection of a fixed number of clients");
            }
        }
        double sigma = Checks.positive(p.field("sigma"), p.number("sigma"));
        double clip = Checks.positive(p.field("clip"), p.number("clip", 1.0));
        long rounds = p.wholeNumber("rounds", 1, 1);
        if (rounds > 100_000) {
            throw new InvalidInputException(p.field("rounds"), rounds, "must be <= 100000");
        }
        long dimension = p.wholeNumber("dimension", 16, 1);
        if (dimension > MAX_DIMENSION) {
            throw new InvalidInputException(p.field("dimension"), dimension, "must be <= " + MAX_DIMENSION);
        }
        double smoothing = 0.0;
        if (type.equals(DP_FED_LS_TYPE)) {
            smoothing = Checks.positive(p.field("smoothing"), p.number("smoothing", 1.0));
        }
        String canary = p.text("canary", "spike");
        if (!canary.equals("spike") && !canary.equals("smooth")) {
            throw new InvalidInputException(p.field("canary"), canary, "must be spike or smooth");
        }
        String othersText = p.text("others", sampling == Sampling.UNIFORM ? "replacement" : "orthogonal");
        Others others = switch (othersText) {
            case "replacement" -> Others.REPLACEMENT;
            case "orthogonal" -> Others.ORTHOGONAL;
            default -> throw new InvalidInputException(p.field("others"), othersText,
                    "must be replacement or orthogonal");
        };
        if (others == Others.REPLACEMENT && sampling == Sampling.POISSON) {
            throw new InvalidInputException(p.field("others"), othersText, "must be orthogonal for Poisson selection "
                    + "(add/remove adjacency has no replacing update)");
        }
        return new DpFedParameters(type, (int) k, (int) m, fraction, sampling, sigma, clip, (int) rounds,
                (int) dimension, smoothing, canary, others);
    }

    /** The same configuration with another noise level nu (for calibration). */
    DpFedParameters withSigma(double nu) {
        return new DpFedParameters(type, clients, selected, fraction, sampling, nu, clip, rounds, dimension,
                smoothingFactor, canaryShape, others);
    }

    /** The output scale {@code c}: 1 for the plain sum, {@code 1/m} (expected m for Poisson) for DP-Fed(-LS). */
    double outputScale() {
        return type.equals(SUBSAMPLED_TYPE) ? 1.0 : 1.0 / (fraction * clients);
    }

    /** The canary direction and the directions derived from it (computed on each call: keep it). */
    DpFedGeometry geometry() {
        return new DpFedGeometry(new LaplacianSmoothing(dimension, smoothingFactor),
                DpFedGeometry.canary(canaryShape, dimension));
    }

    /** Contribution of the other selected clients along {@code u} (a constant): {@code -mG} for replacement. */
    double offset() {
        return others == Others.REPLACEMENT ? -selected * clip : 0.0;
    }

    /** Extra contribution along {@code u} when the canary's slot is selected, in {@code D}. */
    double shiftWithCanary() {
        return switch (sampling) {
            case UNIFORM -> others == Others.REPLACEMENT ? 2 * clip : clip;
            case POISSON -> clip;
        };
    }

    /** Extra contribution along {@code u} when the canary's slot is selected, in {@code D'}. */
    double shiftWithoutCanary() {
        return sampling == Sampling.UNIFORM && others == Others.ORTHOGONAL ? -clip : 0.0;
    }

    /**
     * The law of {@code <x, u>}, scaled by {@code scale}: a two-component mixture (selected or not) with noise
     * {@code nu}, in {@code D} ({@code withCanary}) or {@code D'}.
     */
    GaussianMixture statisticLaw(boolean withCanary, double scale) {
        double shift = withCanary ? shiftWithCanary() : shiftWithoutCanary();
        double base = offset();
        if (shift == 0.0) {
            return GaussianMixture.single(scale * base, scale * sigma);
        }
        return GaussianMixture.twoPoint(fraction, scale * base, scale * (base + shift), scale * sigma);
    }
}
