package io.dpaudit.mechanisms.batching;

import io.dpaudit.core.numerics.SafeRounding;
import java.util.function.DoubleUnaryOperator;

/**
 * The supremum over a threshold C of a max test's lower bound {@code gap(C)}, for {@link ShuffleMaxTestBound} and
 * {@link AllocationMaxTestBound}: 4000 evenly spaced points of {@code [lo, hi]}, then 60 golden-section steps around the
 * best, the largest value seen kept, rounded down and floored at 0. Any C gives a valid lower bound, so the search only
 * tightens it.
 */
final class ThresholdSearch {
    private static final int POINTS = 4000;
    private static final int GOLDEN_STEPS = 60;

    private ThresholdSearch() {
    }

    static double supremum(DoubleUnaryOperator gap, double lo, double hi) {
        double best = Double.NEGATIVE_INFINITY;
        int arg = 0;
        for (int i = 0; i <= POINTS; i++) {
            double v = gap.applyAsDouble(lo + (hi - lo) * i / POINTS);
            if (v > best) {
                best = v;
                arg = i;
            }
        }
        double a = lo + (hi - lo) * Math.max(0, arg - 1) / POINTS;
        double b = lo + (hi - lo) * Math.min(POINTS, arg + 1) / POINTS;
        double g = (Math.sqrt(5) - 1) / 2;
        for (int it = 0; it < GOLDEN_STEPS; it++) {
            double c = b - g * (b - a);
            double d = a + g * (b - a);
            double vc = gap.applyAsDouble(c);
            double vd = gap.applyAsDouble(d);
            best = Math.max(best, Math.max(vc, vd));
            if (vc > vd) {
                b = d;
            } else {
                a = c;
            }
        }
        return Math.max(0, SafeRounding.down(best));
    }
}
