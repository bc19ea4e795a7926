package io.dpaudit.runner.analysis;

import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.function.DoubleUnaryOperator;

/**
 * Dense, adaptive sampling of a privacy profile δ(ε) for drawing on a log-δ axis.
 *
 * <p>A profile on an evenly spaced ε grid is jagged where it is steep: a curve that falls from 10^-4 to 10^-8 within
 * the first twentieth of the ε range gets two grid points there. Starting from the grid, the segment that is longest
 * in plot coordinates (ε as a fraction of the range, log10 δ as a fraction of the visible decades, δ clamped to the
 * visible band) is split at its midpoint, repeatedly, until every segment is shorter than 1/{@value #TARGET_SEGMENTS} of
 * the plot or {@value #MAX_EXTRA_POINTS} points have been added. Each split costs one evaluation of δ(ε), so a curve
 * costs at most that many evaluations beyond its grid; segments that lie entirely below the visible band are never
 * split.
 */
public final class ProfileSampling {
    /** At most this many evaluations are added to a curve. */
    public static final int MAX_EXTRA_POINTS = 160;
    /** Segments shorter than 1/this of the plot (in its normalised coordinates) are not split. */
    public static final int TARGET_SEGMENTS = 150;

    private ProfileSampling() {
    }

    /**
     * Refines a sampled profile.
     *
     * @param delta the profile, δ as a function of ε
     * @param grid {@code (ε, δ(ε))} ascending in ε, at least two points
     * @param epsilonRange the plot's ε range (its width)
     * @param deltaFloor the smallest δ drawn (in (0, 1))
     * @return the grid's points and the added ones, ascending in ε
     */
    public static List<BoundCurve.Point> refine(DoubleUnaryOperator delta, List<BoundCurve.Point> grid,
            double epsilonRange, double deltaFloor) {
        if (grid.size() < 2 || !(epsilonRange > 0) || !(deltaFloor > 0 && deltaFloor < 1)) {
            return List.copyOf(grid);
        }
        double decades = -Math.log10(deltaFloor);
        List<Node> nodes = new ArrayList<>();
        for (BoundCurve.Point p : grid) {
            nodes.add(new Node(p.epsilon(), p.delta()));
        }
        PriorityQueue<Segment> queue = new PriorityQueue<>((a, b) -> Double.compare(b.length, a.length));
        for (int i = 0; i + 1 < nodes.size(); i++) {
            offer(queue, nodes.get(i), nodes.get(i + 1), epsilonRange, deltaFloor, decades);
        }
        List<Node> added = new ArrayList<>();
        while (added.size() < MAX_EXTRA_POINTS && !queue.isEmpty()) {
            Segment s = queue.poll();
            if (s.length < 1.0 / TARGET_SEGMENTS) {
                break;
            }
            double mid = 0.5 * (s.left.epsilon + s.right.epsilon);
            if (!(mid > s.left.epsilon && mid < s.right.epsilon)) {
                continue; // no double between them
            }
            Node m = new Node(mid, delta.applyAsDouble(mid));
            added.add(m);
            offer(queue, s.left, m, epsilonRange, deltaFloor, decades);
            offer(queue, m, s.right, epsilonRange, deltaFloor, decades);
        }
        nodes.addAll(added);
        nodes.sort((a, b) -> Double.compare(a.epsilon, b.epsilon));
        List<BoundCurve.Point> out = new ArrayList<>(nodes.size());
        for (Node n : nodes) {
            out.add(new BoundCurve.Point(n.epsilon, n.delta));
        }
        return out;
    }

    private static void offer(PriorityQueue<Segment> queue, Node a, Node b, double range, double floor,
            double decades) {
        if (!(a.delta >= floor) && !(b.delta >= floor)) {
            return; // below the visible band at both ends: the profile is non-increasing, nothing to draw there
        }
        double dx = (b.epsilon - a.epsilon) / range;
        double dy = (visible(a.delta, floor) - visible(b.delta, floor)) / decades;
        queue.add(new Segment(a, b, Math.hypot(dx, dy)));
    }

    private static double visible(double delta, double floor) {
        return Math.log10(Math.min(1.0, Math.max(floor, Double.isNaN(delta) ? 1.0 : delta)));
    }

    private record Node(double epsilon, double delta) {
    }

    private record Segment(Node left, Node right, double length) {
    }
}
