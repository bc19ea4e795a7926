package io.dpaudit.mechanisms.gaussian;

import io.dpaudit.core.law.GaussianMixture;
import io.dpaudit.core.law.StatisticLaw;
import org.apache.commons.math3.special.Gamma;

/**
 * The law of one round's sufficient statistic {@code (y, r)} of the averaged Gaussian sum {@code (K c + Z) / b} in
 * {@code d} coordinates, with {@code ||c|| = C}, {@code Z ~ N(0, sigma^2 I_d)} and {@code K} the canary's inclusion:
 * {@code y} is the release's coordinate along {@code c}, {@code r} the squared norm of the rest. With {@code s =
 * sigma / b} they are independent, {@code y ~ sum_k w_k N(k C / b, s^2)} (a {@link GaussianMixture}) and {@code r ~
 * s^2 chi^2_{d-1}}, whose density is {@code r^{m/2 - 1} e^{-r / (2 s^2)} / ((2 s^2)^{m/2} Gamma(m/2))}, {@code m = d -
 * 1}. With {@code d = 1} there is no rest and {@code r} is 0 in both worlds (the reference measure's atom).
 *
 * <p>The statistic is sufficient: given {@code (y, r)} the direction of the rest is uniform on its sphere in both
 * worlds. The divisor {@code b} differing between the worlds is what the law makes visible: against a law of the same
 * dimension the log ratio's {@code r} part is {@code (m/2) log(s'^2 / s^2) - r (1/(2 s^2) - 1/(2 s'^2))}, exactly 0
 * when the scales agree.
 */
final class AveragedSumLaw implements StatisticLaw {
    private final GaussianMixture along;
    private final double scale;
    private final long rest;
    private final double logNormaliser;

    /**
     * @param along the law of {@code y}, whose standard deviation is the scale {@code s}
     * @param rest {@code m = d - 1}, the dimension of the rest
     */
    AveragedSumLaw(GaussianMixture along, long rest) {
        this.along = along;
        this.scale = along.sd();
        this.rest = rest;
        double k = rest / 2.0;
        this.logNormaliser = rest == 0 ? 0 : k * Math.log(2 * scale * scale) + Gamma.logGamma(k);
    }

    @Override
    public int dimension() {
        return 2;
    }

    /** The scale {@code s = sigma / b}. */
    double scale() {
        return scale;
    }

    @Override
    public double logDensity(double[] x, int offset) {
        double y = along.logDensity(x, offset);
        if (rest == 0) {
            return x[offset + 1] == 0 ? y : Double.NEGATIVE_INFINITY;
        }
        double r = x[offset + 1];
        if (!(r > 0)) {
            return Double.NEGATIVE_INFINITY;
        }
        double k = rest / 2.0;
        return y + (k - 1) * Math.log(r) - r / (2 * scale * scale) - logNormaliser;
    }

    @Override
    public double logRatio(StatisticLaw other, double[] x, int offset) {
        if (!(other instanceof AveragedSumLaw o) || o.rest != rest) {
            return StatisticLaw.super.logRatio(other, x, offset);
        }
        double y = along.logDensity(x, offset) - o.along.logDensity(x, offset);
        if (rest == 0 || scale == o.scale) {
            return y;
        }
        double r = x[offset + 1];
        double k = rest / 2.0;
        return y + 2 * k * (Math.log(o.scale) - Math.log(scale))
                - r * (0.5 / (scale * scale) - 0.5 / (o.scale * o.scale));
    }
}
