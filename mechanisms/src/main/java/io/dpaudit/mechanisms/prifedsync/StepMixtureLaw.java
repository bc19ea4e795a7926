package io.dpaudit.mechanisms.prifedsync;

import io.dpaudit.core.law.StatisticLaw;
import io.dpaudit.core.numerics.LogSpace;

/**
 * The law of the {@code K} released step sums of client j along the canary, given that the round reaches the
 * adversary: independent across steps (each batch is drawn afresh), each {@code (1 - gamma) N(0, s^2) + gamma N(mean,
 * s^2)} — the target record (or its replacement) is in the batch with probability {@code gamma = B/n} and then
 * shifts the step sum, less the other records' known gradients, by {@code mean} ({@link PriFedSyncParameters#meanWith}
 * or {@link PriFedSyncParameters#meanWithout} times C); {@code s} is the noise standard deviation.
 *
 * <p>Against a law of the same kind (same {@code K}, {@code gamma} and {@code s}, another mean) the log-likelihood
 * ratio of a step is {@code log((1 - gamma) + gamma e^{c1}) - log((1 - gamma) + gamma e^{c0})} with
 * {@code c = (x mean - mean^2 / 2) / s^2}: the common factor {@code e^{-x^2 / (2 s^2)}} cancels. {@link #logRatio}
 * computes it from one quotient a step (two {@code exp}; one when a mean is 0, as in the default pair
 * {@code aligned-others}, or when the means are opposite, as in {@code symmetric}) and one
 * {@code log} of their product, falling back to log space where an exponent is large enough that a quotient could
 * overflow or underflow. This is the likelihood-ratio attack's hot loop (50 rounds of 10 steps a trial in seed 002's
 * {@code clt-large-KR}), and the cancelled form is also the more accurate one: the difference of the two densities
 * loses the ulps of {@code x^2 / (2 s^2)}.
 */
final class StepMixtureLaw implements StatisticLaw {
    private static final double LOG_SQRT_2PI = 0.5 * Math.log(2 * Math.PI);
    private final int steps;
    /**
     * Beyond this |c| a step is taken in log space. Within it, as {@code (1 - gamma) + gamma = 1} puts one weight at
     * 1/2 or more, each factor lies in [e^-300 / 2, 1 + e^300] and their quotient stays a normal double.
     */
    private static final double DIRECT_EXPONENT_LIMIT = 300.0;
    /**
     * The same for {@link #opposite}, which holds both {@code mean^2 / (2 s^2)} and {@code |x mean| / s^2} to it:
     * each factor then lies in [e^-300 / 2, 1 + e^150] and their quotient stays a normal double.
     */
    private static final double OPPOSITE_EXPONENT_LIMIT = 150.0;
    /**
     * The steps' quotients are multiplied and their product's log taken once it leaves [1e-40, 1e40] (and at the
     * end): as each quotient lies in [1e-262, 1e262], the product stays a normal double, and one {@code log} serves
     * several steps. K quotients carry a relative error of about 3K ulps, so the log's absolute error stays near
     * 1e-14 a round.
     */
    private static final double PRODUCT_MIN = 1e-40;
    private static final double PRODUCT_MAX = 1e40;
    private final double gamma;
    private final double logKeep;
    private final double logInclude;
    private final double mean;
    private final double sd;

    static StepMixtureLaw withCanary(PriFedSyncParameters p) {
        return new StepMixtureLaw(p.localSteps(), p.gamma(), p.meanWith() * p.clip(), p.noiseScale() * p.clip());
    }

    static StepMixtureLaw withoutCanary(PriFedSyncParameters p) {
        return new StepMixtureLaw(p.localSteps(), p.gamma(), p.meanWithout() * p.clip(), p.noiseScale() * p.clip());
    }

    StepMixtureLaw(int steps, double gamma, double mean, double sd) {
        this.steps = steps;
        this.gamma = gamma;
        this.logKeep = Math.log1p(-gamma);
        this.logInclude = Math.log(gamma);
        this.mean = mean;
        this.sd = sd;
    }

    @Override
    public int dimension() {
        return steps;
    }

    @Override
    public double logDensity(double[] x, int offset) {
        double inv = 1.0 / sd;
        double total = -steps * (Math.log(sd) + LOG_SQRT_2PI);
        for (int k = 0; k < steps; k++) {
            double a = x[offset + k] * inv;
            double b = (x[offset + k] - mean) * inv;
            total += mean == 0.0 ? -0.5 * a * a : LogSpace.add(logKeep - 0.5 * a * a, logInclude - 0.5 * b * b);
        }
        return total;
    }

    /**
     * {@code log p(x) - log q(x)} against another step-mixture law {@code q} of the same {@code K}, {@code gamma} and
     * {@code s} by the cancelled form of the class comment; any other law by the default difference of densities.
     */
    @Override
    public double logRatio(StatisticLaw other, double[] x, int offset) {
        if (!(other instanceof StepMixtureLaw q) || q.steps != steps || q.gamma != gamma || q.sd != sd) {
            return StatisticLaw.super.logRatio(other, x, offset);
        }
        double inverseVariance = 1.0 / (sd * sd);
        double keep = 1.0 - gamma;
        double halfSquare = 0.5 * mean * mean * inverseVariance;
        if (q.mean == -mean && mean != 0.0 && halfSquare <= OPPOSITE_EXPONENT_LIMIT) {
            return opposite(x, offset, inverseVariance, keep, halfSquare);
        }
        double total = 0.0;
        double product = 1.0;
        for (int k = 0; k < steps; k++) {
            double v = x[offset + k];
            double cp = (v * mean - 0.5 * mean * mean) * inverseVariance;
            double cq = (v * q.mean - 0.5 * q.mean * q.mean) * inverseVariance;
            if (Math.abs(cp) <= DIRECT_EXPONENT_LIMIT && Math.abs(cq) <= DIRECT_EXPONENT_LIMIT) {
                double numerator = mean == 0.0 ? 1.0 : keep + gamma * Math.exp(cp);
                double denominator = q.mean == 0.0 ? 1.0 : keep + gamma * Math.exp(cq);
                product *= numerator / denominator;
                if (!(product >= PRODUCT_MIN && product <= PRODUCT_MAX)) {
                    total += Math.log(product);
                    product = 1.0;
                }
            } else {
                total += mixtureLog(mean, cp) - mixtureLog(q.mean, cq);
            }
        }
        return total + Math.log(product);
    }

    /**
     * The ratio against the opposite mean (pair {@code symmetric}: {@code +C} against {@code -C}) with one
     * {@code exp} a step: {@code e^{cp} = u w} and {@code e^{cq} = w / u} with {@code u = e^{x mean / s^2}} and
     * {@code w = e^{-mean^2 / (2 s^2)}}.
     */
    private double opposite(double[] x, int offset, double inverseVariance, double keep, double halfSquare) {
        double weighted = gamma * Math.exp(-halfSquare);
        double slope = mean * inverseVariance;
        double total = 0.0;
        double product = 1.0;
        for (int k = 0; k < steps; k++) {
            double linear = x[offset + k] * slope;
            if (Math.abs(linear) <= OPPOSITE_EXPONENT_LIMIT) {
                double u = Math.exp(linear);
                product *= (keep + weighted * u) / (keep + weighted / u);
                if (!(product >= PRODUCT_MIN && product <= PRODUCT_MAX)) {
                    total += Math.log(product);
                    product = 1.0;
                }
            } else {
                total += mixtureLog(mean, linear - halfSquare) - mixtureLog(-mean, -linear - halfSquare);
            }
        }
        return total + Math.log(product);
    }

    /** {@code log((1 - gamma) + gamma e^c)} in log space; 0 for a zero mean (no mixture). */
    private double mixtureLog(double m, double c) {
        return m == 0.0 ? 0.0 : LogSpace.add(logKeep, logInclude + c);
    }
}
