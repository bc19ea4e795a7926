package io.dpaudit.mechanisms.checkin;

/**
 * The expected number of dummy updates per pass (Balle et al., seed 004, Propositions 3.4 and 4.4; formula sheet §8).
 *
 * <ul>
 *   <li>Fixed window (Prop. 3.4): a slot is empty when none of the {@code n} clients checks in there, each doing so
 *       with probability {@code p0/m} independently: {@code E = m (1 - p0/m)^n <= m e^{-p0 n/m}} (the printed-style
 *       bound, from {@code 1 - x <= e^-x}; {@code m e^-c} for {@code p0 = cm/n}).</li>
 *   <li>Sliding windows (Prop. 4.4): each of the {@code n - m + 1} served slots lies in the windows of exactly
 *       {@code m} clients: {@code E = (n - m + 1)(1 - p0/m)^m <= (n - m + 1) e^{-p0}}.</li>
 * </ul>
 * Averaged updates skip empty slots and perform none.
 */
final class DummyUpdates {
    private DummyUpdates() {
    }

    /** The exact expectation. */
    static double expected(CheckInParameters p) {
        if (p.averaged()) {
            return 0.0;
        }
        double covering = p.sliding() ? p.slots() : p.clients();
        return p.releases() * Math.exp(covering * Math.log1p(-p.p0() / p.slots()));
    }

    /** The printed-style bound. */
    static double bound(CheckInParameters p) {
        if (p.averaged()) {
            return 0.0;
        }
        double covering = p.sliding() ? p.slots() : p.clients();
        return p.releases() * Math.exp(-p.p0() * covering / p.slots());
    }

    /** The proposition's name. */
    static String proposition(CheckInParameters p) {
        return p.sliding() ? "Proposition 4.4" : "Proposition 3.4";
    }
}
