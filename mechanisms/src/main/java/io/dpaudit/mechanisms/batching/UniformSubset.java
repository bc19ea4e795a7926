package io.dpaudit.mechanisms.batching;

import org.apache.commons.rng.UniformRandomProvider;

/** Uniform k-subsets of the steps, shared by the faithful and reduced random-allocation samplers. */
final class UniformSubset {
    private UniformSubset() {
    }

    /**
     * A uniform {@code into.length}-subset of [0, steps) into {@code into}, by Floyd's algorithm: k draws, no
     * allocation (the membership test is a scan of the k entries chosen so far).
     */
    static void draw(UniformRandomProvider rng, int steps, int[] into) {
        int n = 0;
        for (int j = steps - into.length; j < steps; j++) {
            int c = rng.nextInt(j + 1);
            boolean seen = false;
            for (int m = 0; m < n; m++) {
                if (into[m] == c) {
                    seen = true;
                    break;
                }
            }
            into[n++] = seen ? j : c;
        }
    }
}
