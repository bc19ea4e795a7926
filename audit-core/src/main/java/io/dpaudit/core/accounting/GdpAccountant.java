package io.dpaudit.core.accounting;

import io.dpaudit.core.bounds.GaussianBound;
import io.dpaudit.core.fdp.CentralLimitMu;
import java.util.Locale;
import java.util.Optional;

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
 * A guarantee that uses a CLT is {@linkplain Guarantee#certified() not certified}: it is an approximation, and its
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
    public Optional<String> unsupported(DpEvent event, Adjacency adjacency) {
        try {
            mu(event, adjacency);
            return Optional.empty();
        } catch (UnsupportedOperationException e) {
            return Optional.of(e.getMessage());
        }
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
                    throw new UnsupportedOperationException("Poisson sampling is accounted under add/remove only");
                }
                double m = CentralLimitMu.poisson(p.q(), 1 / g.mu(a), s.count());
                return new Mu(m * m, p.q() == 1.0);
            }
            if (s.event() instanceof DpEvent.SampledWithoutReplacement w && w.event() instanceof DpEvent.Gaussian g) {
                if (a != Adjacency.REPLACE_ONE) {
                    throw new UnsupportedOperationException("sampling without replacement is replace-one only");
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
        throw new UnsupportedOperationException("no Gaussian-DP form for " + e.describe());
    }

    @Override
    public Guarantee account(DpEvent event, Adjacency adjacency) {
        requireSupported(event, adjacency);
        Mu m = mu(event, adjacency);
        double mu = Math.sqrt(m.squared);
        GaussianBound g = new GaussianBound(Math.max(mu, Double.MIN_NORMAL));
        return new Guarantee() {
            @Override
            public double delta(double epsilon) {
                return g.delta(epsilon);
            }

            @Override
            public double epsilon(double delta) {
                return g.epsilon(delta);
            }

            @Override
            public String method() {
                return m.exact
                        ? String.format(Locale.ROOT, "Gaussian DP, exact: mu = %.6g (Dong, Roth & Su 2019)", mu)
                        : String.format(Locale.ROOT, "Gaussian DP by the central limit theorem: mu = %.6g (Bu, Dong, "
                                + "Long & Su 2020; Dong, Roth & Su 2019) - an APPROXIMATION, not an upper bound", mu);
            }

            @Override
            public boolean certified() {
                return m.exact;
            }
        };
    }
}
