package io.dpaudit.core.bounds;

import java.util.List;

/**
 * The pointwise maximum of several profiles: {@code delta(eps) = max_i delta_i(eps)}, {@code epsilon(delta) =
 * max_i epsilon_i(delta)} — for instance the exact profiles of several candidate worst-case datasets, of which the
 * mechanism's guarantee must cover the largest.
 *
 * @param name the name reports use
 * @param source what is maximised
 * @param kind what the maximum is
 * @param parts the profiles, at least one
 */
public record MaximumBound(String name, String source, BoundKind kind, List<PrivacyBound> parts)
        implements PrivacyBound {
    public MaximumBound {
        if (parts.isEmpty()) {
            throw new IllegalArgumentException("a maximum of nothing");
        }
        parts = List.copyOf(parts);
    }

    @Override
    public double delta(double epsilon) {
        return largest(b -> b.delta(epsilon));
    }

    /** The largest of the parts' lower ends: the maximum of the exact curves is at least each of them. */
    @Override
    public double deltaLowerEnd(double epsilon) {
        return largest(b -> b.deltaLowerEnd(epsilon));
    }

    @Override
    public double epsilon(double delta) {
        return largest(b -> b.epsilon(delta));
    }

    private double largest(java.util.function.ToDoubleFunction<PrivacyBound> value) {
        double m = 0;
        for (PrivacyBound b : parts) {
            m = Math.max(m, value.applyAsDouble(b));
        }
        return m;
    }
}
