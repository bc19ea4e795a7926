package io.dpaudit.mechanisms;

import io.dpaudit.core.bounds.BoundKind;
import io.dpaudit.core.bounds.PrivacyBound;
import java.util.function.Supplier;

/**
 * A bound computed by another (typically an accountant) but presented under its own name, source and kind: for
 * example the PLD of an exact pair, which is a {@link BoundKind#PAIR_PROFILE}, not a certified upper bound.
 *
 * @param name the name reports use
 * @param kind what the curve is
 * @param values the bound whose {@code delta} and {@code epsilon} are reported
 * @param describe what it is and where it comes from, built on demand (an accountant's source runs the accounting)
 */
record LabelledBound(String name, BoundKind kind, PrivacyBound values, Supplier<String> describe)
        implements PrivacyBound {
    @Override
    public String source() {
        return describe.get();
    }

    @Override
    public double delta(double epsilon) {
        return values.delta(epsilon);
    }

    @Override
    public double epsilon(double delta) {
        return values.epsilon(delta);
    }
}
