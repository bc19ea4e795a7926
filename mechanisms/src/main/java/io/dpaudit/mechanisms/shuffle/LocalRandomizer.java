package io.dpaudit.mechanisms.shuffle;

import org.apache.commons.rng.UniformRandomProvider;

/**
 * An {@code eps0}-LDP local randomizer with a finite output alphabet {@code {0, ..., B-1}} (a report of
 * {@code log2 B} bits) and an exactly known output law: {@code P(R(x) = y)} for every input {@code x} and symbol
 * {@code y}. Inputs are vectors of {@link #inputDimension()} doubles (a bit, a category, a clipped gradient).
 *
 * <p>{@code eps0}-LDP means {@code P(R(x) = y) <= e^eps0 P(R(x') = y)} for all inputs and symbols (Kasiviswanathan
 * et al. 2011; seed 001, Definition 1); each implementation is tested for it over its output law. Implementations are
 * immutable; {@link #report} draws from the generator it is given and allocates nothing.
 */
public interface LocalRandomizer {
    /** The name used in scenarios: {@code rr}, {@code krr}, {@code sign}. */
    String name();

    /** The local privacy level {@code eps0 > 0}. */
    double eps0();

    /** The size {@code B} of the output alphabet. */
    int symbols();

    /** Doubles per input. */
    int inputDimension();

    /** The exact output law {@code y -> P(R(x) = y)} for input {@code x[offset, offset + inputDimension())}. */
    double[] law(double[] x, int offset);

    /** One report for input {@code x[offset, offset + inputDimension())}. */
    int report(double[] x, int offset, UniformRandomProvider rng);

    /**
     * The input the target record holds in {@code D}: with {@link #replacement()} it forms the pair whose output laws
     * are furthest apart (their likelihood ratio reaches {@code e^{+-eps0}}).
     */
    double[] target();

    /** The input the target record holds in {@code D'}. */
    double[] replacement();

    /** One line: the mechanism and its parameters. */
    String describe();
}
