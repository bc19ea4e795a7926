package io.dpaudit.runner.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.function.DoubleUnaryOperator;
import org.junit.jupiter.api.Test;

/** Adaptive sampling of profiles for the plot: the grid is kept, steep parts get the points, the budget holds. */
class ProfileSamplingTest {
    private static List<BoundCurve.Point> grid(DoubleUnaryOperator f, double max, int n) {
        List<BoundCurve.Point> g = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            double e = max * i / (n - 1);
            g.add(new BoundCurve.Point(e, f.applyAsDouble(e)));
        }
        return g;
    }

    @Test
    void steepStartGetsThePointsAndEverySegmentIsShort() {
        // Falls eight decades within the first tenth of the range, then is flat at the floor.
        DoubleUnaryOperator f = e -> Math.exp(-200 * e);
        List<BoundCurve.Point> g = grid(f, 1.0, 41);
        List<BoundCurve.Point> dense = ProfileSampling.refine(f, g, 1.0, 1e-8);
        assertTrue(dense.containsAll(g));
        for (int i = 1; i < dense.size(); i++) {
            assertTrue(dense.get(i).epsilon() > dense.get(i - 1).epsilon(), "ascending");
        }
        long early = dense.stream().filter(p -> p.epsilon() < 0.1).count();
        assertTrue(early >= 40, "points where the curve is steep: " + early);
        // Where the curve is visible, consecutive points are close on the plot. The curve spans the whole height (one
        // plot unit) and more, so the 160 extra points cannot bring every segment under 1/200; splitting the longest
        // first leaves none longer than about twice the length over the points, here under 1/64.
        for (int i = 1; i < dense.size(); i++) {
            BoundCurve.Point a = dense.get(i - 1);
            BoundCurve.Point b = dense.get(i);
            if (a.delta() < 1e-8) {
                break;
            }
            double dy = (Math.log10(a.delta()) - Math.log10(Math.max(1e-8, b.delta()))) / 8;
            assertTrue(Math.hypot(b.epsilon() - a.epsilon(), dy) <= 1.0 / 64, "segment at " + a.epsilon());
        }
        assertTrue(dense.size() - g.size() <= ProfileSampling.MAX_EXTRA_POINTS);
    }

    @Test
    void gentleCurvesEndWithEverySegmentUnderTheTarget() {
        DoubleUnaryOperator f = e -> Math.exp(-3 * e); // 1.3 decades over the range, on a 4-decade plot
        List<BoundCurve.Point> dense = ProfileSampling.refine(f, grid(f, 1.0, 41), 1.0, 1e-4);
        for (int i = 1; i < dense.size(); i++) {
            BoundCurve.Point a = dense.get(i - 1);
            BoundCurve.Point b = dense.get(i);
            double dy = (Math.log10(a.delta()) - Math.log10(b.delta())) / 4;
            assertTrue(Math.hypot(b.epsilon() - a.epsilon(), dy) < 1.0 / ProfileSampling.TARGET_SEGMENTS);
        }
    }

    @Test
    void budgetCapsTheEvaluations() {
        int[] calls = {0};
        DoubleUnaryOperator f = e -> {
            calls[0]++;
            return 0.5 * (1 + Math.sin(300 * e)) + 1e-12; // oscillates: every segment stays long
        };
        List<BoundCurve.Point> g = grid(f, 1.0, 41);
        calls[0] = 0;
        List<BoundCurve.Point> dense = ProfileSampling.refine(f, g, 1.0, 1e-6);
        assertEquals(ProfileSampling.MAX_EXTRA_POINTS, calls[0]);
        assertEquals(g.size() + ProfileSampling.MAX_EXTRA_POINTS, dense.size());
    }

    @Test
    void curvesBelowTheVisibleBandAreNotRefined() {
        DoubleUnaryOperator f = e -> 1e-20;
        List<BoundCurve.Point> g = grid(f, 1.0, 41);
        assertEquals(g, ProfileSampling.refine(f, g, 1.0, 1e-8));
    }
}
