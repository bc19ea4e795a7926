package io.dpaudit.core.numerics;

/**
 * The permutation that sorts an array of doubles, computed on primitive arrays (a bottom-up merge sort of indices:
 * stable, {@code O(n log n)} comparisons, two {@code int[]} of scratch, no boxing). NaN keys are not allowed.
 */
public final class IndexSort {
    private IndexSort() {
    }

    /** Indices of {@code keys} in decreasing order of their key (ties in index order). */
    public static int[] descending(double[] keys) {
        int n = keys.length;
        int[] a = new int[n];
        int[] b = new int[n];
        for (int i = 0; i < n; i++) {
            if (Double.isNaN(keys[i])) {
                throw new IllegalArgumentException("NaN key at " + i);
            }
            a[i] = i;
        }
        for (int width = 1; width < n; width *= 2) {
            for (int lo = 0; lo < n; lo += 2 * width) {
                int mid = Math.min(lo + width, n);
                int hi = Math.min(lo + 2 * width, n);
                int i = lo;
                int j = mid;
                int o = lo;
                while (i < mid && j < hi) {
                    b[o++] = keys[a[j]] > keys[a[i]] ? a[j++] : a[i++];
                }
                while (i < mid) {
                    b[o++] = a[i++];
                }
                while (j < hi) {
                    b[o++] = a[j++];
                }
            }
            int[] t = a;
            a = b;
            b = t;
        }
        return a;
    }
}
