package io.dpaudit.mechanisms.gaussian;

import io.dpaudit.core.Checks;
import io.dpaudit.core.InvalidInputException;
import io.dpaudit.core.model.Parameters;
import io.dpaudit.mechanisms.view.CountLaw;
import io.dpaudit.mechanisms.view.LastIteratePair;
import io.dpaudit.mechanisms.view.LastIterateView;
import java.util.Set;

/**
 * Validated parameters of the (Poisson-subsampled) Gaussian mechanism, shared by its simulators and bounds.
 *
 * @param type {@code gaussian} or {@code poisson-subsampled-gaussian}
 * @param q sampling probability in (0, 1] (1 for {@code gaussian})
 * @param sigma noise standard deviation, {@code > 0} (not the noise multiplier {@code sigma/clip})
 * @param clip clipping norm, the l2 sensitivity of the sum to one record, {@code > 0}
 * @param rounds composed rounds, in {@code [1, 10^6]}
 */
public record GaussianParameters(String type, double q, double sigma, double clip, int rounds) {
    /** Type name of the general mechanism. */
    public static final String SUBSAMPLED_TYPE = "poisson-subsampled-gaussian";
    /** Type name of the plain Gaussian mechanism ({@code q = 1}). */
    public static final String GAUSSIAN_TYPE = "gaussian";
    /** Largest number of rounds. */
    public static final int MAX_ROUNDS = 1_000_000;
    /** Largest noise standard deviation relative to the clip. */
    public static final double MAX_NOISE_TO_CLIP = 1e100;

    public GaussianParameters {
        Checks.samplingProbability("q", q);
        Checks.positive("sigma", sigma);
        Checks.positive("clip", clip);
        Checks.atLeast("rounds", rounds, 1);
    }

    /** Parses type {@code poisson-subsampled-gaussian}. */
    static GaussianParameters parseSubsampled(Parameters p) {
        p.allowOnly(Set.of("type", "q", "sigma", "clip", "rounds", LastIterateView.PARAMETER,
                LastIterateView.CANARY));
        return parse(SUBSAMPLED_TYPE, p, Checks.samplingProbability(p.field("q"), p.number("q")));
    }

    /**
     * The last-iterate pair (formula sheet §16.1): K ~ Binomial(T, q) steps draw the canary, each adding the clipping
     * norm; the summed noise has standard deviation {@code sigma sqrt(T)}, {@code sigma sqrt(T) / clip} in units of
     * one contribution.
     */
    LastIteratePair lastIterate() {
        return new LastIteratePair(CountLaw.binomial(rounds, q), 0, sigma * Math.sqrt(rounds) / clip, clip);
    }

    /** Parses type {@code gaussian}. */
    static GaussianParameters parseGaussian(Parameters p) {
        p.allowOnly(Set.of("type", "sigma", "clip", "rounds"));
        return parse(GAUSSIAN_TYPE, p, 1.0);
    }

    private static GaussianParameters parse(String type, Parameters p, double q) {
        double sigma = Checks.positive(p.field("sigma"), p.number("sigma"));
        double clip = Checks.positive(p.field("clip"), p.number("clip", 1.0));
        if (sigma / clip > MAX_NOISE_TO_CLIP) {
            throw new InvalidInputException(p.field("sigma"), sigma, "must be at most 1e100 times clip (" + clip
                    + "): beyond, squared outputs overflow and the mechanism is (0, 1e-100)-DP anyway");
        }
        long rounds = p.wholeNumber("rounds", 1, 1);
        if (rounds > MAX_ROUNDS) {
            throw new InvalidInputException(p.field("rounds"), rounds, "must be <= " + MAX_ROUNDS);
        }
        return new GaussianParameters(type, q, sigma, clip, (int) rounds);
    }

    /** The same mechanism with another noise standard deviation (for calibration). */
    GaussianParameters withSigma(double s) {
        return new GaussianParameters(type, q, s, clip, rounds);
    }
}
