package io.dpaudit.mechanisms.zoo;

import org.apache.commons.rng.UniformRandomProvider;

/**
 * Laplace and exponential noise by inversion of one uniform in the open interval (0, 1), so that no draw is infinite.
 * One {@code nextLong()} per draw.
 */
final class Noise {
    private Noise() {
    }

    /** Uniform on (0, 1): the 53-bit grid shifted by half a step. */
    static double openUniform(UniformRandomProvider rng) {
        return ((rng.nextLong() >>> 11) + 0.5) * 0x1.0p-53;
    }

    /** Laplace(0, scale): density {@code exp(-|x|/scale) / (2 scale)}. */
    static double laplace(UniformRandomProvider rng, double scale) {
        double u = openUniform(rng);
        return u < 0.5 ? scale * Math.log(2 * u) : -scale * Math.log(2 * (1 - u));
    }

    /** Exponential with mean {@code scale}. */
    static double exponential(UniformRandomProvider rng, double scale) {
        return -scale * Math.log(openUniform(rng));
    }
}
