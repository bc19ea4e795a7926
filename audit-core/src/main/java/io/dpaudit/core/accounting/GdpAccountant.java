package io.dpaudit.core.accounting;

import io.dpaudit.core.bounds.GaussianBound;
import io.dpaudit.core.fdp.CentralLimitMu;
import io.dpaudit.core.bounds.BoundKind;
import io.dpaudit.core.bounds.PrivacyBound;
import java.util.Locale;

/**
 * The Gaussian-DP accountant: every supported event maps to a μ, compositions add μ² (Dong, Roth &amp; Su 2019), and
 * (ε, δ) follow from the μ-GDP profile ({@link GaussianBound}).
 *
 * <ul>
 *   <li>{@code Gaussian}: exact, {@code mu = sensitivity / sigma};</li>
 *   <li>{@code SelfComposed(PoissonSampled(q, Gaussian), T)}: the Poisson CLT {@link CentralLimitMu#poisson};</li>
 *   <li>{@code SelfComposed(SampledWithoutReplacement(m, n, Gaussian), T)} under replace-one: the uniform CLT
 *       {@link CentralLimitMu#uniform}.</li>
 * </ul>
 * A bound that uses a CLT is of kind {@link BoundKind#APPROXIMATION}, not certified: it is an approximation, and its
 * name and method say so.
 */
public final class GdpAccountant implements PrivacyAccountant {
    /** Accountant name. */
    public static final String NAME = "gdp";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void requireSupported(DpEvent event, Adjacency adjacency) {
        mu(event, adjacency);
    }

    /** μ and whether it is exact. */
    private record Mu(double squared, boolean exact) {
        Mu plus(Mu o) {
            return new Mu(squared + o.squared, exact && o.exact);
        }
    }

    private static Mu mu(DpEvent e, Adjacency a) {
        if (e instanceof DpEvent.Gaussian g) {
            double m = g.mu(a);
            return new Mu(m * m, true);
        }
        if (e instanceof DpEvent.SelfComposed s) {
            if (s.event() instanceof DpEvent.PoissonSampled p && p.event() instanceof DpEvent.Gaussian g) {
                if (a != Adjacency.ADD_REMOVE) {
                    throw new UnsupportedEventException(NAME, e, "Poisson sampling is accounted under add/remove only");
                }
                double m = CentralLimitMu.poisson(p.q(), 1 / g.mu(a), s.count());
                return new Mu(m * m, p.q() == 1.0);
            }
            if (s.event() instanceof DpEvent.SampledWithoutReplacement w && w.event() instanceof DpEvent.Gaussian g) {
                if (a != Adjacency.REPLACE_ONE) {
                    throw new UnsupportedEventException(NAME, e, "sampling without replacement is replace-one only");
                }
                double m = CentralLimitMu.uniform(w.fraction(), 1 / g.mu(a), s.count());
                return new Mu(m * m, false);
            }
            Mu inner = mu(s.event(), a);
            return new Mu(inner.squared * s.count(), inner.exact);
        }
        if (e instanceof DpEvent.PoissonSampled p) {
            return mu(new DpEvent.SelfComposed(p, 1), a);
        }
        if (e instanceof DpEvent.SampledWithoutReplacement w) {
            return mu(new DpEvent.SelfComposed(w, 1), a);
        }
        if (e instanceof DpEvent.Composed c) {
            Mu total = new Mu(0, true);
            for (DpEvent x : c.events()) {
                total = total.plus(mu(x, a));
            }
            return total;
        }
        throw new UnsupportedEventException(NAME, e, "no Gaussian-DP form for " + e.describe());
    }

    @Override
    public PrivacyBound account(String name, DpEvent event, Adjacency adjacency) {
        Mu m = mu(event, adjacency);
        double mu = Math.sqrt(m.squared);
        // mu overflows (the central-limit formula's e^{1/sigma^2} at tiny sigma): G_mu at the largest double is the
        // trivial curve, delta = 1 at every finite eps, which is what G_inf says.
        GaussianBound g = new GaussianBound(Math.min(Math.max(mu, Double.MIN_NORMAL), Double.MAX_VALUE));
        String method = m.exact
                ? String.format(Locale.ROOT, "Gaussian DP, exact: mu = %.6g (Dong, Roth & Su 2019)", mu)
                : String.format(Locale.ROOT, "Gaussian DP by the central limit theorem: mu = %.6g (Bu, Dong, "
                        + "Long & Su 2020; Dong, Roth & Su 2019) - an APPROXIMATION, not an upper bound", mu);
        return AccountedBound.of(name, method, event, adjacency,
                m.exact ? BoundKind.UPPER_BOUND : BoundKind.APPROXIMATION, g::delta, g::epsilon).withGdpMu(g.mu());
    }
}
