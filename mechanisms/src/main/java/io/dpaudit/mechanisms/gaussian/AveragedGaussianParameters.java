package io.dpaudit.mechanisms.gaussian;

import io.dpaudit.core.InvalidInputException;
import io.dpaudit.core.model.Parameters;
import java.util.Locale;
import java.util.Set;

/**
 * Validated parameters of {@code poisson-averaged-gaussian}: the Poisson-subsampled Gaussian sum in {@code dimension}
 * coordinates, divided by an expected batch size.
 *
 * @param sum the subsampled Gaussian sum (sampling probability, noise standard deviation, clip, rounds)
 * @param dimension coordinates of each release, {@code d >= 1}
 * @param records records of {@code D'} (the dataset without the canary); {@code D} holds {@code records + 1}
 * @param divisor how the divisor is chosen: per dataset (the bug) or fixed
 */
public record AveragedGaussianParameters(GaussianParameters sum, long dimension, long records, Divisor divisor) {
    /** Type name. */
    public static final String TYPE = "poisson-averaged-gaussian";
    /**
     * Largest dimension. The reduced simulator's cost does not depend on it, but the per-round log-likelihood ratio
     * is a difference of two terms of order {@code d}: at {@code d = 10^6} its rounding error is about 1e-11, inside the
     * 1e-9 per round the exact attack's bracket allows; beyond, it would not be.
     */
    public static final long MAX_DIMENSION = 1_000_000L;
    /** Largest number of records (the divisor {@code floor(q n)} is computed in a double). */
    public static final long MAX_RECORDS = 1L << 50;

    /** How the released sum is normalised. */
    public enum Divisor {
        /**
         * {@code int(len(dataset) * sample_rate)} of the dataset the mechanism runs on: {@code floor(q (n + 1))} in
         * {@code D}, {@code floor(q n)} in {@code D'} (Opacus v1.0–v1.6, {@code PrivacyEngine.make_private}).
         */
        PER_DATASET("per-dataset"),
        /** One public constant, {@code floor(q n)}, in both worlds: post-processing of the subsampled Gaussian. */
        FIXED("fixed");

        private final String text;

        Divisor(String text) {
            this.text = text;
        }

        /** The name used in scenarios. */
        public String text() {
            return text;
        }
    }

    public AveragedGaussianParameters {
        if (dimension < 1 || records < 0) {
            throw new IllegalArgumentException("dimension must be >= 1 and records >= 0");
        }
    }

    /** Parses type {@code poisson-averaged-gaussian}. */
    static AveragedGaussianParameters parse(Parameters p) {
        p.allowOnly(Set.of("type", "q", "sigma", "clip", "rounds", "dimension", "records", "divisor"));
        Parameters sumPart = p.without(Set.of("dimension", "records", "divisor"));
        GaussianParameters sum = GaussianParameters.parseSubsampled(sumPart);
        long dimension = p.wholeNumber("dimension", 1);
        if (dimension > MAX_DIMENSION) {
            throw new InvalidInputException(p.field("dimension"), dimension, "must be <= " + MAX_DIMENSION);
        }
        long records = p.wholeNumber("records", 1);
        if (records > MAX_RECORDS) {
            throw new InvalidInputException(p.field("records"), records, "must be <= 2^50");
        }
        String divisorText = p.text("divisor", Divisor.PER_DATASET.text());
        Divisor divisor = switch (divisorText) {
            case "per-dataset" -> Divisor.PER_DATASET;
            case "fixed" -> Divisor.FIXED;
            default -> throw new InvalidInputException(p.field("divisor"), divisorText, "must be per-dataset or fixed");
        };
        long smallest = floorProduct(records, sum.q());
        if (smallest < 1) {
            throw new InvalidInputException(p.field("records"), records, String.format(Locale.ROOT,
                    "times q (%s) must be at least 1: the expected batch size floor(q n) is the divisor, and 0 divides "
                    + "by zero", io.dpaudit.core.Checks.format(sum.q())));
        }
        return new AveragedGaussianParameters(sum, dimension, records, divisor);
    }

    /**
     * {@code floor(n q)} as Python computes {@code int(n * q)}: the product rounded to a double, then truncated. For
     * example {@code 999 * 0.01 = 9.99 -> 9} and {@code 1000 * 0.01 = 10.0 -> 10}.
     */
    static long floorProduct(long n, double q) {
        return (long) Math.floor(n * q);
    }

    /** The divisor in {@code D} (with the canary). */
    public long divisorWithCanary() {
        return floorProduct(divisor == Divisor.PER_DATASET ? records + 1 : records, sum.q());
    }

    /** The divisor in {@code D'} (without the canary). */
    public long divisorWithoutCanary() {
        return floorProduct(records, sum.q());
    }
}
