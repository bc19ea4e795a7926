package io.dpaudit.core.accounting;

import io.dpaudit.core.bounds.BoundKind;
import io.dpaudit.core.bounds.PrivacyBound;

/**
 * A {@link PrivacyBound} given by an accountant for an event: {@code delta(eps)} and {@code epsilon(delta)} of the
 * accounted guarantee. The (possibly expensive) accounting runs once, on first use.
 */
public final class AccountantBound implements PrivacyBound {
    private final String name;
    private final PrivacyAccountant accountant;
    private final DpEvent event;
    private final Adjacency adjacency;
    private volatile PrivacyAccountant.Guarantee guarantee;

    /**
     * @param name bound name (e.g. {@code pld})
     * @param accountant the accountant
     * @param event what the mechanism does
     * @param adjacency the neighbouring relation
     */
    public AccountantBound(String name, PrivacyAccountant accountant, DpEvent event, Adjacency adjacency) {
        accountant.requireSupported(event, adjacency);
        this.name = name;
        this.accountant = accountant;
        this.event = event;
        this.adjacency = adjacency;
    }

    private PrivacyAccountant.Guarantee guarantee() {
        PrivacyAccountant.Guarantee g = guarantee;
        if (g == null) {
            synchronized (this) {
                g = guarantee;
                if (g == null) {
                    g = accountant.account(event, adjacency);
                    guarantee = g;
                }
            }
        }
        return g;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String source() {
        return guarantee().method() + "; event " + event.describe() + ", " + adjacency.description();
    }

    @Override
    public double delta(double epsilon) {
        return guarantee().delta(epsilon);
    }

    @Override
    public double epsilon(double delta) {
        return guarantee().epsilon(delta);
    }

    @Override
    public BoundKind kind() {
        return guarantee().certified() ? BoundKind.UPPER_BOUND : BoundKind.APPROXIMATION;
    }

    /** The event accounted. */
    public DpEvent event() {
        return event;
    }
}
