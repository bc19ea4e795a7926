package io.dpaudit.core.accounting;

import java.util.Optional;

/**
 * Turns an event and an adjacency into (ε, δ) guarantees. Implementations are stateless and thread-safe; expensive
 * intermediate results (a composed privacy-loss distribution, an RDP curve) are captured by {@link #account}.
 */
public interface PrivacyAccountant {
    /** Short name: {@code rdp}, {@code pld}, {@code gdp-clt}. */
    String name();

    /**
     * Why the accountant cannot handle {@code event} under {@code adjacency}, naming the unsupported sub-event; empty
     * when it can.
     */
    Optional<String> unsupported(DpEvent event, Adjacency adjacency);

    /**
     * Prepares the guarantees of {@code event} under {@code adjacency}.
     *
     * @throws UnsupportedEventException when {@link #unsupported} is not empty
     */
    Guarantee account(DpEvent event, Adjacency adjacency);

    /** The guarantees of one accounted event: δ(ε) and ε(δ), both rounded to the safe side. */
    interface Guarantee {
        /** δ(ε) for {@code epsilon >= 0}, in {@code [0, 1]}. */
        double delta(double epsilon);

        /** The smallest ε ≥ 0 with {@code delta(ε) <= delta}; {@code +inf} when none is finite. */
        double epsilon(double delta);

        /** How the numbers were obtained (method, parameters such as the discretisation). */
        String method();

        /** Whether the guarantee is a certified upper bound (false for asymptotic approximations). */
        default boolean certified() {
            return true;
        }
    }

    /** Throws {@link UnsupportedEventException} unless the event is supported. */
    default void requireSupported(DpEvent event, Adjacency adjacency) {
        Optional<String> why = unsupported(event, adjacency);
        if (why.isPresent()) {
            throw new UnsupportedEventException(name(), event, why.get());
        }
    }
}
