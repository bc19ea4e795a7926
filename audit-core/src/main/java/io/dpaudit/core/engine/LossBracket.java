package io.dpaudit.core.engine;

/**
 * How a scorer's score brackets the exact privacy loss {@code L(y) = log p_D(y) - log p_D'(y)} of the output
 * {@code y} it was computed from: for every output, {@code lower(s(y)) <= L(y) <= upper(s(y))}, with both functions
 * non-decreasing in the score (and defined at {@code +-inf}, where {@code -inf} and {@code +inf} are always valid
 * answers). A histogram slot of scores {@code [a, b)} then holds only outputs with {@code L in [lower(a), upper(b)]},
 * which is what a privacy-loss estimate from binned counts needs to stay rigorous.
 */
public interface LossBracket {
    /** A value at most {@code L(y)} for every output {@code y} with score {@code score} (non-decreasing). */
    double lower(double score);

    /** A value at least {@code L(y)} for every output {@code y} with score {@code score} (non-decreasing). */
    double upper(double score);

    /** One-line description of the bracket's width, for reports. */
    String description();

    /**
     * The score is {@code L} up to an error of at most {@code absolute + relative |s|}: an interpolation or lattice
     * error ({@code absolute}) and floating-point rounding ({@code relative}, below 1).
     */
    static LossBracket within(double absolute, double relative) {
        if (!(absolute >= 0) || !(relative >= 0 && relative < 1)) {
            throw new IllegalArgumentException("bad loss bracket: absolute " + absolute + ", relative " + relative);
        }
        return new LossBracket() {
            @Override
            public double lower(double score) {
                return score - absolute - relative * Math.abs(score);
            }

            @Override
            public double upper(double score) {
                return score + absolute + relative * Math.abs(score);
            }

            @Override
            public String description() {
                return String.format(java.util.Locale.ROOT, "score = L within %.1e + %.0e |L|", absolute, relative);
            }
        };
    }
}
