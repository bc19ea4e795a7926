package io.dpaudit.core.accounting;

import io.dpaudit.core.bounds.BoundKind;
import io.dpaudit.core.bounds.PrivacyBound;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * The Rényi-DP accountant: computes the RDP curve of an event on a grid of orders, adds curves under composition, and
 * converts to (ε, δ) with the better of two conversions ({@link RdpConversion}).
 *
 * <p>Supported events:
 * <ul>
 *   <li>{@code Gaussian}: {@code r(alpha) = alpha mu^2 / 2}, {@code mu = sensitivity(adjacency) / sigma} — the
 *       replace-one sensitivity is twice the add/remove one;</li>
 *   <li>{@code PoissonSampled(Gaussian)} under add/remove: {@link SubsampledGaussianRdp} (MTZ19);</li>
 *   <li>{@code SampledWithoutReplacement(Gaussian)} under replace-one: {@link WithoutReplacementRdp} (WBK19 Theorems 9
 *       and 27, the smaller per order)
 *       with the base Gaussian's replace-one RDP;</li>
 *   <li>{@code SelfComposed} and {@code Composed} of supported events.</li>
 * </ul>
 */
public final class RdpAccountant implements PrivacyAccountant {
    /** Accountant name. */
    public static final String NAME = "rdp";

    /** Default orders: 1.1 to 10.9 in steps of 0.1, 11 to 63, 128, 256, 512, 1024 (dp_accounting's defaults). */
    private static final double[] DEFAULT_ORDERS = defaultOrders();

    private final double[] orders;
    private final boolean theorem27;

    /** An accountant on the default orders. */
    public RdpAccountant() {
        this(DEFAULT_ORDERS);
    }

    /** An accountant on the given orders (all {@code > 1}). */
    public RdpAccountant(double[] orders) {
        this(orders, true);
    }

    /**
     * An accountant on the given orders that uses, for the Gaussian sampled without replacement, WBK19's Theorem 9
     * alone ({@code theorem27 = false}: how older accountants, autodp's among them, computed it — for recomputing a
     * paper's numbers) or also the Gaussian-specific Theorem 27 (the default).
     */
    public RdpAccountant(double[] orders, boolean theorem27) {
        this.theorem27 = theorem27;
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
    public void requireSupported(DpEvent event, Adjacency adjacency) {
        compile(event, adjacency);
    }

    /** The RDP curve of {@code event} on this accountant's orders. */
    public double[] curve(DpEvent event, Adjacency adjacency) {
        return compile(event, adjacency).get();
    }

    /**
     * Walks the event tree once, checking every node, and returns the computation of its curve (not yet run): the
     * same walk decides support ({@link #requireSupported}) and computes ({@link #curve}).
     */
    private Supplier<double[]> compile(DpEvent event, Adjacency adjacency) {
        if (event instanceof DpEvent.Gaussian g) {
            double mu = g.mu(adjacency);
            return () -> {
                double[] r = new double[orders.length];
                for (int i = 0; i < orders.length; i++) {
                    r[i] = orders[i] * mu * mu / 2;
                }
                return r;
            };
        }
        if (event instanceof DpEvent.PoissonSampled p) {
            if (adjacency != Adjacency.ADD_REMOVE) {
                throw unsupported(event, "Poisson sampling is accounted under add/remove adjacency only, not "
                        + adjacency.description());
            }
            if (!(p.event() instanceof DpEvent.Gaussian g)) {
                throw unsupported(event, "only a Gaussian can be Poisson-sampled, not " + p.event().describe());
            }
            double mu = g.mu(adjacency);
            return () -> {
                double[] r = new double[orders.length];
                for (int i = 0; i < orders.length; i++) {
                    r[i] = SubsampledGaussianRdp.rdp(p.q(), mu, orders[i]);
                }
                return r;
            };
        }
        if (event instanceof DpEvent.SampledWithoutReplacement w) {
            if (adjacency != Adjacency.REPLACE_ONE) {
                throw unsupported(event, "sampling without replacement is accounted under replace-one adjacency "
                        + "only, not " + adjacency.description());
            }
            if (!(w.event() instanceof DpEvent.Gaussian g)) {
                throw unsupported(event, "only a Gaussian can be sampled without replacement, not "
                        + w.event().describe());
            }
            double mu = g.mu(adjacency);
            return () -> {
                double[] r = new double[orders.length];
                for (int i = 0; i < orders.length; i++) {
                    r[i] = theorem27 ? WithoutReplacementRdp.gaussian(w.fraction(), mu, orders[i])
                            : WithoutReplacementRdp.rdp(w.fraction(), j -> j * mu * mu / 2, false, 0.0, orders[i]);
                }
                return r;
            };
        }
        if (event instanceof DpEvent.Profiled) {
            throw unsupported(event, "a round known only through its (epsilon, delta) profile has no RDP curve; "
                    + "use pld");
        }
        if (event instanceof DpEvent.SelfComposed s) {
            Supplier<double[]> inner = compile(s.event(), adjacency);
            return () -> {
                double[] r = inner.get();
                for (int i = 0; i < orders.length; i++) {
                    r[i] = r[i] * s.count();
                }
                return r;
            };
        }
        if (event instanceof DpEvent.Composed c) {
            List<Supplier<double[]>> parts = new ArrayList<>();
            for (DpEvent e : c.events()) {
                parts.add(compile(e, adjacency));
            }
            return () -> {
                double[] r = new double[orders.length];
                for (Supplier<double[]> part : parts) {
                    double[] inner = part.get();
                    for (int i = 0; i < orders.length; i++) {
                        r[i] += inner[i];
                    }
                }
                return r;
            };
        }
        throw unsupported(event, "no RDP curve for this event");
    }

    private UnsupportedEventException unsupported(DpEvent event, String reason) {
        return new UnsupportedEventException(NAME, event, reason);
    }

    @Override
    public PrivacyBound account(String name, DpEvent event, Adjacency adjacency) {
        double[] curve = curve(event, adjacency);
        double[] o = orders;
        String method = String.format(Locale.ROOT, "RDP accountant (MTZ19 for Poisson sampling, WBK19 Thms 9 and 27 without "
                + "replacement; %d orders in [%s, %s]; best of Mironov 2017 and the improved conversion)",
                o.length, o[0], o[o.length - 1]);
        return AccountedBound.of(name, method, event, adjacency, BoundKind.UPPER_BOUND,
                epsilon -> RdpConversion.delta(o, curve, epsilon).value(),
                delta -> RdpConversion.epsilon(o, curve, delta).value());
    }

    /** The orders, a copy. */
    public double[] orders() {
        return Arrays.copyOf(orders, orders.length);
    }
}
