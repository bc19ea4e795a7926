package io.dpaudit.core.accounting;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/**
 * The Rényi-DP accountant: computes the RDP curve of an event on a grid of orders, adds curves under composition, and
 * converts to (ε, δ) with the better of two conversions ({@link RdpConversion}).
 *
 * <p>Supported events:
 * <ul>
 *   <li>{@code Gaussian}: {@code r(alpha) = alpha mu^2 / 2}, {@code mu = sensitivity(adjacency) / sigma} — the
 *       replace-one sensitivity is twice the add/remove one;</li>
 *   <li>{@code PoissonSampled(Gaussian)} under add/remove: {@link SubsampledGaussianRdp} (MTZ19);</li>
 *   <li>{@code SampledWithoutReplacement(Gaussian)} under replace-one: {@link WithoutReplacementRdp} (WBK19 Thm 9)
 *       with the base Gaussian's replace-one RDP;</li>
 *   <li>{@code SelfComposed} and {@code Composed} of supported events.</li>
 * </ul>
 */
public final class RdpAccountant implements PrivacyAccountant {
    /** Accountant name. */
    public static final String NAME = "rdp";

    /** Default orders: 1.1 to 10.9 in steps of 0.1, 11 to 63, 128, 256, 512, 1024 (dp_accounting's defaults). */
    public static final double[] DEFAULT_ORDERS = defaultOrders();

    private final double[] orders;

    /** An accountant on the default orders. */
    public RdpAccountant() {
        this(DEFAULT_ORDERS);
    }

    /** An accountant on the given orders (all {@code > 1}). */
    public RdpAccountant(double[] orders) {
        for (double a : orders) {
            if (!(a > 1) || !Double.isFinite(a)) {
                throw new IllegalArgumentException("RDP orders must be finite and > 1: " + a);
            }
        }
        this.orders = orders.clone();
    }

    private static double[] defaultOrders() {
        double[] o = new double[99 + 53 + 4];
        int i = 0;
        for (int k = 11; k <= 109; k++) {
            o[i++] = k / 10.0;
        }
        for (int k = 11; k <= 63; k++) {
            o[i++] = k;
        }
        for (int k : new int[] {128, 256, 512, 1024}) {
            o[i++] = k;
        }
        return o;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Optional<String> unsupported(DpEvent event, Adjacency adjacency) {
        if (event instanceof DpEvent.Gaussian) {
            return Optional.empty();
        }
        if (event instanceof DpEvent.PoissonSampled p) {
            if (adjacency != Adjacency.ADD_REMOVE) {
                return Optional.of("Poisson sampling is accounted under add/remove adjacency only, not "
                        + adjacency.description());
            }
            return p.event() instanceof DpEvent.Gaussian ? Optional.empty()
                    : Optional.of("only a Gaussian can be Poisson-sampled, not " + p.event().describe());
        }
        if (event instanceof DpEvent.SampledWithoutReplacement w) {
            if (adjacency != Adjacency.REPLACE_ONE) {
                return Optional.of("sampling without replacement is accounted under replace-one adjacency only, not "
                        + adjacency.description());
            }
            return w.event() instanceof DpEvent.Gaussian ? Optional.empty()
                    : Optional.of("only a Gaussian can be sampled without replacement, not " + w.event().describe());
        }
        if (event instanceof DpEvent.Profiled) {
            return Optional.of("a round known only through its (epsilon, delta) profile has no RDP curve; use pld");
        }
        if (event instanceof DpEvent.SelfComposed s) {
            return unsupported(s.event(), adjacency);
        }
        DpEvent.Composed c = (DpEvent.Composed) event;
        for (DpEvent e : c.events()) {
            Optional<String> why = unsupported(e, adjacency);
            if (why.isPresent()) {
                return why;
            }
        }
        return Optional.empty();
    }

    /** The RDP curve of {@code event} on this accountant's orders. */
    public double[] curve(DpEvent event, Adjacency adjacency) {
        requireSupported(event, adjacency);
        return curveOf(event, adjacency);
    }

    private double[] curveOf(DpEvent event, Adjacency adjacency) {
        double[] r = new double[orders.length];
        if (event instanceof DpEvent.Gaussian g) {
            double mu = g.mu(adjacency);
            for (int i = 0; i < orders.length; i++) {
                r[i] = orders[i] * mu * mu / 2;
            }
        } else if (event instanceof DpEvent.PoissonSampled p) {
            double mu = ((DpEvent.Gaussian) p.event()).mu(adjacency);
            for (int i = 0; i < orders.length; i++) {
                r[i] = SubsampledGaussianRdp.rdp(p.q(), mu, orders[i]);
            }
        } else if (event instanceof DpEvent.SampledWithoutReplacement w) {
            double mu = ((DpEvent.Gaussian) w.event()).mu(adjacency);
            for (int i = 0; i < orders.length; i++) {
                r[i] = WithoutReplacementRdp.rdp(w.fraction(), j -> j * mu * mu / 2, false, 0.0, orders[i]);
            }
        } else if (event instanceof DpEvent.SelfComposed s) {
            double[] inner = curveOf(s.event(), adjacency);
            for (int i = 0; i < orders.length; i++) {
                r[i] = inner[i] * s.count();
            }
        } else {
            for (DpEvent e : ((DpEvent.Composed) event).events()) {
                double[] inner = curveOf(e, adjacency);
                for (int i = 0; i < orders.length; i++) {
                    r[i] += inner[i];
                }
            }
        }
        return r;
    }

    @Override
    public Guarantee account(DpEvent event, Adjacency adjacency) {
        double[] curve = curve(event, adjacency);
        double[] o = orders;
        return new Guarantee() {
            @Override
            public double delta(double epsilon) {
                return RdpConversion.delta(o, curve, epsilon).value();
            }

            @Override
            public double epsilon(double delta) {
                return RdpConversion.epsilon(o, curve, delta).value();
            }

            @Override
            public String method() {
                return String.format(Locale.ROOT, "RDP accountant (MTZ19 for Poisson sampling, WBK19 Thm 9 without "
                        + "replacement; %d orders in [%s, %s]; best of Mironov 2017 and the improved conversion)",
                        o.length, o[0], o[o.length - 1]);
            }
        };
    }

    /** The orders, a copy. */
    public double[] orders() {
        return Arrays.copyOf(orders, orders.length);
    }
}
