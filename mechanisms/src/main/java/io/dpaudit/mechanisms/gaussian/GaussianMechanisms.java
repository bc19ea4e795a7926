package io.dpaudit.mechanisms.gaussian;

import io.dpaudit.core.model.MechanismType;
import io.dpaudit.mechanisms.view.LastIterateView;
import java.util.List;
import java.util.Map;

/** The Gaussian mechanism family's entries in the catalog. */
public final class GaussianMechanisms {
    private GaussianMechanisms() {
    }

    /** {@code gaussian}, {@code poisson-subsampled-gaussian} and {@code poisson-averaged-gaussian}. */
    public static List<MechanismType> types() {
        return List.of(
                new MechanismType(GaussianParameters.GAUSSIAN_TYPE,
                        "Gaussian mechanism: clipped sum + N(0, sigma^2 I), add/remove one record",
                        "sigma > 0 (noise std), clip > 0 (default 1), rounds >= 1 (default 1)",
                        p -> new PoissonSubsampledGaussian(p, GaussianParameters.parseGaussian(p)),
                        Map.of("sigma", 1.0)),
                new MechanismType(GaussianParameters.SUBSAMPLED_TYPE,
                        "Poisson-subsampled Gaussian (DP-SGD step): each record kept w.p. q, clipped sum + noise",
                        "q in (0, 1], sigma > 0 (noise std), clip > 0 (default 1), rounds >= 1 (default 1), "
                        + "view = transcript | last-iterate (transcript)",
                        p -> {
                            GaussianParameters g = GaussianParameters.parseSubsampled(p);
                            return LastIterateView.of(p, new PoissonSubsampledGaussian(p, g),
                                    s -> g.withSigma(s).lastIterate(), g.sigma());
                        }, Map.of("sigma", 1.0)),
                new MechanismType(AveragedGaussianParameters.TYPE,
                        "Poisson-subsampled Gaussian sum divided by the expected batch size int(q |D|) (Opacus)",
                        "q in (0, 1], sigma > 0 (noise std), clip > 0 (default 1), rounds >= 1 (default 1), "
                        + "dimension >= 1, records n >= 1 with n q >= 1, divisor per-dataset (default) or fixed",
                        PoissonAveragedGaussian::parse, Map.of("sigma", 1.0)));
    }
}
