package io.dpaudit.mechanisms.view;

import io.dpaudit.core.numerics.Normal;
import org.apache.commons.math3.distribution.AbstractRealDistribution;

/** {@code sum_k p_k N(k, s^2)} for one-sample Kolmogorov–Smirnov tests: only its distribution function is defined. */
public final class CountMixtureDistribution extends AbstractRealDistribution {
    private static final long serialVersionUID = 1L;
    private final transient CountLaw law;
    private final double s;

    public CountMixtureDistribution(CountLaw law, double s) {
        super(null);
        this.law = law;
        this.s = s;
    }

    @Override
    public double cumulativeProbability(double t) {
        double c = 0;
        for (int k = 0; k < law.pmf().length; k++) {
            c += law.pmf()[k] * Normal.cdf((t - law.min() - k) / s);
        }
        return c;
    }

    @Override
    public double density(double t) {
        throw new UnsupportedOperationException();
    }

    @Override
    public double getNumericalMean() {
        throw new UnsupportedOperationException();
    }

    @Override
    public double getNumericalVariance() {
        throw new UnsupportedOperationException();
    }

    @Override
    public double getSupportLowerBound() {
        return Double.NEGATIVE_INFINITY;
    }

    @Override
    public double getSupportUpperBound() {
        return Double.POSITIVE_INFINITY;
    }

    @Override
    public boolean isSupportLowerBoundInclusive() {
        return false;
    }

    @Override
    public boolean isSupportUpperBoundInclusive() {
        return false;
    }

    @Override
    public boolean isSupportConnected() {
        return true;
    }
}
