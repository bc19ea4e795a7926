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
        double d = 0;
        for (PrivacyBound b : parts) {
            d = Math.max(d, b.delta(epsilon));
        }
        return d;
    }

    /** The largest of the parts' lower ends: the maximum of the exact curves is at least each of them. */
    @Override
    public double deltaLowerEnd(double epsilon) {
        double d = 0;
        for (PrivacyBound b : parts) {
            d = Math.max(d, b.deltaLowerEnd(epsilon));
        }
        return d;
    }

    @Override
    public double epsilon(double delta) {
        double e = 0;
        for (PrivacyBound b : parts) {
            e = Math.max(e, b.epsilon(delta));
        }
        return e;
    }
}
