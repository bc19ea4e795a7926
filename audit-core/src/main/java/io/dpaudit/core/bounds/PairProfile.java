package io.dpaudit.core.bounds;

/**
 * The exact privacy profile of one neighbouring pair {@code (P, Q)}, direction by direction, so that compositions can
 * treat the two directions separately (they compose into different privacy-loss distributions).
 */
public interface PairProfile extends PrivacyBound {
    /** {@code H_{e^eps}(P || Q)} for {@code eps >= 0}, {@code P} with the record. */
    double remove(double epsilon);

    /** {@code H_{e^eps}(Q || P)} for {@code eps >= 0}. */
    double add(double epsilon);

    @Override
    default BoundKind kind() {
        return BoundKind.PAIR_PROFILE;
    }

    /**
     * The vertices {@code {alpha_k}, {beta_k}} of this pair's exact trade-off curve {@code T(P, Q)} (type I error on
     * {@code P}, the law with the record), ascending in {@code alpha}, when it is piecewise linear (discrete laws); null
     * when the implementation does not know it in closed form.
     */
    default double[][] tradeOffVertices() {
        return null;
    }
}
