package io.dpaudit.core.accounting;

import io.dpaudit.core.bounds.PrivacyBound;
import java.util.Optional;

/**
 * Turns an event and an adjacency into a privacy bound. Implementations are stateless and thread-safe; the expensive
 * intermediate results (a composed privacy-loss distribution, an RDP curve) are computed by {@link #account} and held
 * by the bound it returns.
 *
 * <p>Whether an event is supported is decided by the same walk of the event tree that {@link #account} starts with
 * ({@link #requireSupported}), so the two cannot disagree.
 */
public interface PrivacyAccountant {
    /** Short name: {@code rdp}, {@code pld}, {@code gdp}. */
    String name();

    /**
     * Walks {@code event} as {@link #account} does, without computing anything expensive.
     *
     * @throws UnsupportedEventException naming the first sub-event the accountant cannot handle, and why
     */
    void requireSupported(DpEvent event, Adjacency adjacency);

    /** Why the accountant cannot handle {@code event} under {@code adjacency}; empty when it can. */
    default Optional<String> unsupported(DpEvent event, Adjacency adjacency) {
        try {
            requireSupported(event, adjacency);
            return Optional.empty();
        } catch (UnsupportedEventException e) {
            return Optional.of(e.reason());
        }
    }

    /**
     * The guarantee of {@code event} under {@code adjacency}, as a bound named {@code name}: δ(ε) and ε(δ), both
     * rounded to the safe side; its source states the method, the event and the adjacency, and its kind says whether
     * it is certified ({@link io.dpaudit.core.bounds.BoundKind#UPPER_BOUND}) or an approximation.
     *
     * @throws UnsupportedEventException when the event is not supported
     */
    PrivacyBound account(String name, DpEvent event, Adjacency adjacency);
}
