package io.dpaudit.mechanisms.dpfed;

import io.dpaudit.core.Checks;
import io.dpaudit.core.accounting.Adjacency;
import io.dpaudit.core.accounting.DpEvent;
import io.dpaudit.core.accounting.RdpAccountant;
import io.dpaudit.core.bounds.BoundKind;
import io.dpaudit.core.bounds.PrivacyBound;
import io.dpaudit.core.numerics.SafeRounding;
import java.util.Locale;

/**
 * An RDP curve converted the way most papers of 2019–2020 did: on a fixed list of orders, by Mironov's (2017)
 * {@code eps = rho(alpha) + log(1/delta)/(alpha - 1)} only, without the improved conversion. It exists to recompute a
 * paper's reported epsilon exactly as the paper computed it, so that a report can say where the paper's number comes
 * from; {@link RdpAccountant}'s own bound is never larger.
 */
final class ClassicRdpBound implements PrivacyBound {
    /** TensorFlow Privacy's orders of 2019: 1.1 to 10.9 in steps of 0.1, then 12 to 63. */
    static final double[] TF_PRIVACY_ORDERS = tfPrivacyOrders();
    /** Integer orders 2 to 256 (autodp's and WBK19's code for sampling without replacement). */
    static final double[] INTEGER_ORDERS = integerOrders();

    private final String name;
    private final String note;
    private final BoundKind kind;
    private final double[] orders;
    private final double[] curve;
    private final String event;

    ClassicRdpBound(String name, String note, BoundKind kind, double[] orders, DpEvent event, Adjacency adjacency) {
        this.name = name;
        this.note = note;
        this.kind = kind;
        this.orders = orders.clone();
        // Theorem 9 alone for sampling without replacement: how the paper's accountant (autodp) computed it.
        this.curve = new RdpAccountant(orders, false).curve(event, adjacency);
        this.event = event.describe() + ", " + adjacency.description();
    }

    private static double[] tfPrivacyOrders() {
        double[] o = new double[99 + 52];
        int i = 0;
        for (int k = 1; k <= 99; k++) {
            o[i++] = 1 + k / 10.0;
        }
        for (int k = 12; k <= 63; k++) {
            o[i++] = k;
        }
        return o;
    }

    private static double[] integerOrders() {
        double[] o = new double[255];
        for (int i = 0; i < o.length; i++) {
            o[i] = i + 2;
        }
        return o;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String source() {
        return String.format(Locale.ROOT, "RDP of %s on %d orders in [%s, %s], Mironov 2017 conversion only%s", event,
                orders.length, Checks.format(orders[0]), Checks.format(orders[orders.length - 1]), note);
    }

    @Override
    public BoundKind kind() {
        return kind;
    }

    @Override
    public double epsilon(double delta) {
        Checks.delta("delta", delta);
        double best = Double.POSITIVE_INFINITY;
        for (int i = 0; i < orders.length; i++) {
            best = Math.min(best, curve[i] + Math.log(1 / delta) / (orders[i] - 1));
        }
        return SafeRounding.up(Math.max(0.0, best));
    }

    @Override
    public double delta(double epsilon) {
        double best = 0.0;
        for (int i = 0; i < orders.length; i++) {
            best = Math.min(best, (orders[i] - 1) * (curve[i] - epsilon));
        }
        return SafeRounding.upProbability(Math.exp(best));
    }
}
