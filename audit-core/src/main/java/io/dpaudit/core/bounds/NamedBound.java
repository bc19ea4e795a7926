package io.dpaudit.core.bounds;

/**
 * The part every stated bound shares: its name (how reports and claims refer to it), its source (the statement and
 * where it comes from: paper, theorem, equation) and its {@link BoundKind}. A bound that holds these as given extends
 * this class and implements only its curve ({@link PrivacyBound#delta}, and what it computes better than the
 * defaults).
 */
public abstract class NamedBound implements PrivacyBound {
    private final String name;
    private final String source;
    private final BoundKind kind;

    /**
     * @param name bound name
     * @param source the statement and where it comes from
     * @param kind what the curve is
     */
    protected NamedBound(String name, String source, BoundKind kind) {
        this.name = name;
        this.source = source;
        this.kind = kind;
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final String source() {
        return source;
    }

    @Override
    public final BoundKind kind() {
        return kind;
    }
}
