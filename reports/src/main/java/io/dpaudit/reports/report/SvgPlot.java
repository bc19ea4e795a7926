package io.dpaudit.reports.report;

import io.dpaudit.runner.text.Format;
import io.dpaudit.runner.analysis.BoundCurve;
import io.dpaudit.core.audit.AuditResult;
import io.dpaudit.core.audit.ClaimResult;
import io.dpaudit.core.audit.Verdict;
import io.dpaudit.core.estimate.DeltaLowerBound;
import io.dpaudit.core.estimate.EpsilonLowerBound;
import io.dpaudit.core.estimate.profile.PrivacyLossEstimate;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;

/**
 * An inline SVG plot of δ against ε (δ on a log scale): analytic bounds as curves, empirical ε lower bounds as
 * right-pointing triangles at their δ (the true profile lies to their right), empirical δ lower bounds as
 * up-pointing triangles at their ε (the true profile lies above), claims as circles ({@link ClaimMarker}: red
 * violated, orange contested, green consistent, grey dashed inconclusive). Points with δ = 0 cannot be drawn on a log
 * scale and are listed in the tables only.
 */
final class SvgPlot {
    private static final int WIDTH = 860;
    private static final int HEIGHT = 460;
    private static final int LEFT = 70;
    private static final int RIGHT = 330;
    private static final int TOP = 20;
    private static final int BOTTOM = 50;
    /** Characters of a legend line (the legend column is {@value #RIGHT} pixels wide, at 12 px type). */
    private static final int LEGEND_CHARS = 46;
    private static final String[] COLORS = {"#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#e377c2",
        "#17becf", "#bcbd22"};

    private final double epsMax;
    private final double logDeltaMin;

    private SvgPlot(double epsMax, double logDeltaMin) {
        this.epsMax = epsMax;
        this.logDeltaMin = logDeltaMin;
    }

    static String render(AuditReport r) {
        AuditResult res = r.result();
        double epsMax = 0;
        double deltaMin = 1;
        for (EpsilonLowerBound e : res.epsilonLowerBounds()) {
            epsMax = Math.max(epsMax, 1.1 * e.epsilon());
            if (e.delta() > 0) {
                deltaMin = Math.min(deltaMin, e.delta());
            }
        }
        for (DeltaLowerBound d : res.deltaLowerBounds()) {
            epsMax = Math.max(epsMax, 1.1 * d.epsilon());
            if (d.delta() > 0) {
                deltaMin = Math.min(deltaMin, d.delta());
            }
        }
        for (ClaimResult c : res.claims()) {
            epsMax = Math.max(epsMax, 1.1 * c.claim().epsilon());
            if (c.claim().delta() > 0) {
                deltaMin = Math.min(deltaMin, c.claim().delta());
            }
        }
        double logMin = Math.max(-16, Math.floor(Math.log10(deltaMin)) - 2);
        // The ε axis ends a little after the last drawn curve leaves the plot through its floor (or at its last
        // point), not at the end of the range the curves were evaluated on: no empty right half.
        double floor = Math.pow(10, logMin);
        for (BoundCurve c : r.bounds()) {
            if (certifiesNothing(c)) {
                continue;
            }
            double exit = c.points().get(c.points().size() - 1).epsilon();
            for (BoundCurve.Point p : c.plotPoints()) {
                if (!(p.delta() >= floor)) {
                    exit = p.epsilon();
                    break;
                }
            }
            epsMax = Math.max(epsMax, Math.min(1.05 * exit, c.points().get(c.points().size() - 1).epsilon()));
        }
        if (!(epsMax > 0)) {
            epsMax = 1;
        }
        SvgPlot p = new SvgPlot(epsMax, logMin);
        return p.draw(r);
    }

    private double x(double eps) {
        return LEFT + (WIDTH - LEFT - RIGHT) * eps / epsMax;
    }

    private double y(double delta) {
        double l = Math.max(logDeltaMin, Math.log10(delta));
        return TOP + (HEIGHT - TOP - BOTTOM) * (0 - l) / (0 - logDeltaMin);
    }

    private String draw(AuditReport r) {
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %d %d\" "
                + "width=\"100%%\" style=\"max-width:%dpx\" font-family=\"sans-serif\" font-size=\"12\">%n", WIDTH,
                HEIGHT, WIDTH));
        b.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" "
                + "stroke=\"#444\"/>%n", LEFT, TOP, WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM));
        for (int e = (int) Math.ceil(logDeltaMin); e <= 0; e++) {
            double yy = y(Math.pow(10, e));
            b.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>"
                    + "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">1e%d</text>%n", LEFT, yy, WIDTH - RIGHT, yy,
                    LEFT - 6, yy + 4, e));
        }
        double step = niceStep(epsMax / 5);
        for (int i = 0; i * step <= epsMax * (1 + 1e-9); i++) {
            double eps = i * step;
            b.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>%n",
                    x(eps), HEIGHT - BOTTOM + 16, Format.tick(eps)));
        }
        b.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">ε</text>%n",
                x(epsMax / 2), HEIGHT - 12));
        b.append(String.format(Locale.ROOT, "<text x=\"16\" y=\"%.1f\" transform=\"rotate(-90 16 %.1f)\" "
                + "text-anchor=\"middle\">δ</text>%n", (double) (HEIGHT - BOTTOM + TOP) / 2,
                (double) (HEIGHT - BOTTOM + TOP) / 2));
        int legend = 0;
        if (r.result().estimate() != null) {
            b.append(band(r));
            legend = legendEntry(b, legend, "<rect x=\"0\" y=\"-6\" width=\"18\" height=\"12\" fill=\"#999\" "
                    + "fill-opacity=\"0.35\"/>", (EstimateTables.pairFromBelow(r) ? "lower-bound pair's curve"
                    : "true curve") + " (estimate, " + Format.percent(r.result().estimate().confidence()) + ")");
        }
        List<BoundCurve> bounds = r.bounds();
        java.util.Map<String, String> drawn = new java.util.HashMap<>(); // polyline points -> first curve's name
        int colour = 0;
        for (int i = 0; i < bounds.size(); i++) {
            BoundCurve c = bounds.get(i);
            if (certifiesNothing(c)) {
                continue; // listed under the plot instead (see flatCurves)
            }
            String color = COLORS[colour++ % COLORS.length];
            StringBuilder pts = new StringBuilder();
            double floor = Math.pow(10, logDeltaMin);
            for (BoundCurve.Point p : c.plotPoints()) {
                if (p.epsilon() > epsMax) {
                    break;
                }
                if (!(p.delta() >= floor)) {
                    break; // the profile decreases: once below the axis it stays there
                }
                pts.append(String.format(Locale.ROOT, "%.1f,%.1f ", x(p.epsilon()), y(p.delta())));
            }
            String dash = switch (c.kind()) {
                case UPPER_BOUND -> "";
                case PAIR_PROFILE -> " stroke-dasharray=\"2 3\"";
                default -> " stroke-dasharray=\"7 4\"";
            };
            String label = c.name() + (c.certified() ? "" : " [" + shortKind(c) + "]");
            String same = drawn.putIfAbsent(pts.toString(), c.name());
            if (same != null && pts.length() > 0) {
                // Drawn on top of an identical curve: a sparse dash lets both show, and the legend says so.
                dash = " stroke-dasharray=\"3 9\"";
                label = label + " (identical to " + same + ")";
            }
            b.append(String.format(Locale.ROOT, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\"%s "
                    + "points=\"%s\"><title>%s</title></polyline>%n", color, dash, pts.toString().trim(),
                    HtmlReportWriter.escape(label)));
            legend = legendEntry(b, legend, "<line x1=\"0\" y1=\"0\" x2=\"18\" y2=\"0\" stroke=\"" + color
                    + "\" stroke-width=\"2\"" + dash + "/>", label);
        }
        AuditResult res = r.result();
        boolean epsilonDrawn = false;
        for (EpsilonLowerBound e : res.epsilonLowerBounds()) {
            if (e.epsilon() > 0) {
                epsilonDrawn = true;
                b.append(triangleRight(x(e.epsilon()), y(e.delta()), "#000",
                        "empirical ε ≥ " + Format.g(e.epsilon()) + " at δ = " + Format.g(e.delta())));
            }
        }
        boolean deltaDrawn = false;
        for (DeltaLowerBound d : res.deltaLowerBounds()) {
            if (d.delta() > 0) {
                deltaDrawn = true;
                b.append(triangleUp(x(d.epsilon()), y(d.delta()), "#000",
                        "empirical δ ≥ " + Format.g(d.delta()) + " at ε = " + Format.g(d.epsilon())));
            }
        }
        if (epsilonDrawn) {
            legend = legendEntry(b, legend, "<path d=\"M4,-6 L14,0 L4,6 Z\" fill=\"#000\"/>",
                    "empirical ε lower bound");
        }
        if (deltaDrawn) {
            legend = legendEntry(b, legend, "<path d=\"M3,5 L9,-6 L15,5 Z\" fill=\"#000\"/>",
                    "empirical δ lower bound");
        }
        EnumSet<ClaimMarker> shown = EnumSet.noneOf(ClaimMarker.class);
        for (ClaimResult c : res.claims()) {
            ClaimMarker m = ClaimMarker.of(c);
            shown.add(m);
            b.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"6\" %s><title>%s</title>"
                    + "</circle>%n", x(c.claim().epsilon()), y(c.claim().delta()), m.style,
                    HtmlReportWriter.escape(c.claim().label() + ": " + m.label)));
        }
        for (ClaimMarker m : shown) {
            legend = legendEntry(b, legend, "<circle cx=\"9\" cy=\"0\" r=\"5\" " + m.style + "/>", "claim, " + m.label);
        }
        b.append("</svg>\n");
        return b.toString();
    }

    /**
     * How a claim is drawn: by its verdict, and apart when contested, so that a circle never looks consistent when
     * the audit could not have refuted the claim (inconclusive: grey, dashed) or when its ε lower bound exceeds it.
     */
    enum ClaimMarker {
        VIOLATED("violated", "#d62728", ""),
        CONTESTED("contested (its ε lower bound exceeds it)", "#ff7f0e", ""),
        CONSISTENT("consistent", "#2ca02c", ""),
        INCONCLUSIVE("inconclusive (the audit could not have refuted it)", "#7f7f7f", " stroke-dasharray=\"3 2\"");

        final String label;
        final String style;

        ClaimMarker(String label, String color, String dash) {
            this.label = label;
            this.style = "fill=\"none\" stroke=\"" + color + "\" stroke-width=\"2.5\"" + dash;
        }

        static ClaimMarker of(ClaimResult c) {
            if (c.verdict() == Verdict.VIOLATED) {
                return VIOLATED;
            }
            if (c.epsilonBoundAboveClaim()) {
                return CONTESTED;
            }
            return c.verdict() == Verdict.INCONCLUSIVE ? INCONCLUSIVE : CONSISTENT;
        }
    }

    /**
     * The two-sided estimate as a grey band: the upper ends from left to right, then the lower ends back (a lower end
     * of 0 sits on the axis floor).
     */
    private String band(AuditReport r) {
        List<PrivacyLossEstimate.DeltaInterval> pts = new java.util.ArrayList<>();
        for (PrivacyLossEstimate.DeltaInterval d : EstimateTables.shownPoints(r)) {
            if (d.epsilon() <= epsMax) {
                pts.add(d);
            }
        }
        StringBuilder poly = new StringBuilder();
        for (PrivacyLossEstimate.DeltaInterval d : pts) {
            poly.append(String.format(Locale.ROOT, "%.1f,%.1f ", x(d.epsilon()), y(d.upper())));
        }
        for (int i = pts.size() - 1; i >= 0; i--) {
            PrivacyLossEstimate.DeltaInterval d = pts.get(i);
            poly.append(String.format(Locale.ROOT, "%.1f,%.1f ", x(d.epsilon()), y(Math.max(d.lower(), 1e-300))));
        }
        return String.format(Locale.ROOT, "<polygon fill=\"#999\" fill-opacity=\"0.35\" stroke=\"none\" "
                + "points=\"%s\"><title>%s</title></polygon>%n", poly.toString().trim(),
                "true curve of the simulated pair: two-sided estimate");
    }

    /** A curve that is δ = 1 at every plotted point: it certifies nothing there. */
    static boolean certifiesNothing(BoundCurve c) {
        return c.points().stream().allMatch(p -> !(p.delta() < 1 - 1e-12));
    }

    /**
     * What the logarithmic δ axis cannot show where it is, for a line under the plot: the analytic bounds that reach
     * δ = 0 (a pure-DP bound, from the first ε where it is 0: its curve ends above the axis's floor), and the empirical
     * ε lower bounds and claims at δ = 0, which are drawn on the bottom edge. Empty when there is none.
     */
    static String zeroDelta(AuditReport r) {
        List<String> reach = new java.util.ArrayList<>();
        for (BoundCurve c : r.bounds()) {
            for (BoundCurve.Point p : c.points()) {
                if (p.delta() == 0) {
                    reach.add(c.name() + " from ε = " + Format.g(p.epsilon()));
                    break;
                }
            }
        }
        List<String> edge = new java.util.ArrayList<>();
        for (EpsilonLowerBound e : r.result().epsilonLowerBounds()) {
            if (!(e.delta() > 0)) {
                edge.add("the empirical ε ≥ " + Format.g(e.epsilon()));
            }
        }
        for (ClaimResult c : r.result().claims()) {
            if (!(c.claim().delta() > 0)) {
                edge.add("claim " + c.claim().label() + " (ε = " + Format.g(c.claim().epsilon()) + ")");
            }
        }
        String out = reach.isEmpty() ? "" : "Bounds that reach δ = 0, where the logarithmic axis ends: "
                + String.join("; ", reach) + ".";
        if (!edge.isEmpty()) {
            out += (out.isEmpty() ? "" : " ") + "At δ = 0, drawn on the bottom edge: " + String.join("; ", edge) + ".";
        }
        return out;
    }

    /** Names of the curves not drawn because they certify nothing (for a line under the plot). */
    static List<String> flatCurves(AuditReport r) {
        return r.bounds().stream().filter(SvgPlot::certifiesNothing).map(BoundCurve::name).toList();
    }

    private static String shortKind(BoundCurve c) {
        return switch (c.kind()) {
            case APPROXIMATION -> "approximation";
            case PAIR_PROFILE -> "exact, one pair";
            case KNOWN_WRONG -> "known wrong";
            case RECONSTRUCTED -> "reconstructed";
            case CANDIDATE -> "candidate";
            case LOWER_BOUND -> "lower bound";
            default -> "";
        };
    }

    /** The smallest of 1, 2, 2.5, 5 times a power of ten that is at least {@code raw}. */
    static double niceStep(double raw) {
        double p = Math.pow(10, Math.floor(Math.log10(raw)));
        for (double m : new double[] {1, 2, 2.5, 5, 10}) {
            if (m * p >= raw * (1 - 1e-12)) {
                return m * p;
            }
        }
        return 10 * p;
    }

    /**
     * Adds a legend entry; a label longer than a line is wrapped onto a second one (and cut there if still too long).
     * Returns the next free legend row.
     */
    private int legendEntry(StringBuilder b, int index, String symbol, String label) {
        double yy = TOP + 10 + 20 * index;
        String first = label;
        String second = null;
        if (label.length() > LEGEND_CHARS) {
            int cut = label.lastIndexOf(' ', LEGEND_CHARS);
            cut = cut > LEGEND_CHARS / 2 ? cut : LEGEND_CHARS;
            first = label.substring(0, cut).strip();
            second = label.substring(cut).strip();
            if (second.length() > LEGEND_CHARS) {
                second = second.substring(0, LEGEND_CHARS - 1) + "…";
            }
        }
        b.append(String.format(Locale.ROOT, "<g transform=\"translate(%d,%.1f)\">%s<text x=\"24\" y=\"4\">%s%s"
                + "<title>%s</title></text></g>%n", WIDTH - RIGHT + 12, yy, symbol, HtmlReportWriter.escape(first),
                second == null ? "" : "<tspan x=\"24\" dy=\"15\">" + HtmlReportWriter.escape(second) + "</tspan>",
                HtmlReportWriter.escape(label)));
        return index + (second == null ? 1 : 2);
    }

    private static String triangleRight(double cx, double cy, String color, String title) {
        return String.format(Locale.ROOT, "<path d=\"M%.1f,%.1f L%.1f,%.1f L%.1f,%.1f Z\" fill=\"%s\"><title>%s"
                + "</title></path>%n", cx - 5, cy - 6, cx + 5, cy, cx - 5, cy + 6, color, HtmlReportWriter.escape(title));
    }

    private static String triangleUp(double cx, double cy, String color, String title) {
        return String.format(Locale.ROOT, "<path d=\"M%.1f,%.1f L%.1f,%.1f L%.1f,%.1f Z\" fill=\"%s\"><title>%s"
                + "</title></path>%n", cx - 6, cy + 5, cx, cy - 6, cx + 6, cy + 5, color, HtmlReportWriter.escape(title));
    }
}
