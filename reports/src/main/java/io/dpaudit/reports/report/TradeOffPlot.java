package io.dpaudit.reports.report;

import io.dpaudit.runner.text.Format;
import io.dpaudit.runner.analysis.TradeOffCurve;
import io.dpaudit.core.audit.TradeOffClaimResult;
import io.dpaudit.core.audit.Verdict;
import io.dpaudit.core.estimate.tradeoff.CertifiedTradeOff;
import java.util.List;
import java.util.Locale;

/**
 * An inline SVG of the trade-off plane (type I error α across, type II error β up, both from 0 to 1): the trivial
 * curve {@code 1 - α} (grey), the report's trade-off curves (claimed f's, the exact curve of the simulated pair, the
 * GDP curve at the certified lower bound; a curve identical to one drawn before it is dashed sparsely and labelled
 * "identical to …"), the certified points on or below the diagonal (small dots; at most 1000 drawn; a point above it is
 * a test worse than guessing, whose complement is the point below), their lower convex envelope (black), the point
 * that certifies the GDP lower bound (grey square), and each point that refutes a claim (red circle). The true curve of
 * the simulated pair lies on or below every certified point.
 */
final class TradeOffPlot {
    private static final int SIZE = 420;
    private static final int LEFT = 60;
    private static final int TOP = 20;
    private static final int LEGEND = 360;
    private static final String[] COLORS = {"#d62728", "#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"};

    private TradeOffPlot() {
    }

    private static double x(double alpha) {
        return LEFT + SIZE * alpha;
    }

    private static double y(double beta) {
        return TOP + SIZE * (1 - beta);
    }

    static String render(AuditReport r) {
        CertifiedTradeOff t = r.result().tradeOff();
        StringBuilder b = new StringBuilder();
        int width = LEFT + SIZE + 30 + LEGEND;
        int height = TOP + SIZE + 50;
        LogSquare.open(b, width, height, LEFT, TOP, SIZE);
        for (int i = 0; i <= 10; i += 2) {
            double v = i / 10.0;
            b.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#eee\"/>"
                    + "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>%n", x(v), TOP, x(v), TOP + SIZE,
                    x(v), TOP + SIZE + 16, String.format(Locale.ROOT, "%.1f", v)));
            b.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#eee\"/>"
                    + "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>%n", LEFT, y(v), LEFT + SIZE, y(v),
                    LEFT - 6, y(v) + 4, String.format(Locale.ROOT, "%.1f", v)));
        }
        b.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">α (type I error on "
                + "M(D))</text>%n", x(0.5), TOP + SIZE + 36));
        b.append(String.format(Locale.ROOT, "<text x=\"16\" y=\"%.1f\" transform=\"rotate(-90 16 %.1f)\" "
                + "text-anchor=\"middle\">β (type II error)</text>%n", y(0.5), y(0.5)));
        b.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#bbb\" "
                + "stroke-dasharray=\"3 3\"><title>1 - α (no privacy loss)</title></line>%n", x(0), y(1), x(1),
                y(0)));
        int legend = 0;
        int color = 0;
        java.util.Map<String, String> drawn = new java.util.HashMap<>(); // polyline points -> first curve's label
        for (TradeOffCurve c : r.tradeOffCurves()) {
            String col = c.role().equals("gdp-lower-bound") ? "#555" : COLORS[color++ % COLORS.length];
            String dash = switch (c.role()) {
                case "exact" -> " stroke-dasharray=\"2 3\"";
                case "gdp-lower-bound" -> " stroke-dasharray=\"8 4\"";
                default -> "";
            };
            StringBuilder pts = new StringBuilder();
            for (int i = 0; i < c.alpha().size(); i++) {
                pts.append(String.format(Locale.ROOT, "%.1f,%.1f ", x(c.alpha().get(i)), y(c.beta().get(i))));
            }
            String label = c.name() + " [" + c.role() + "]";
            String same = drawn.putIfAbsent(pts.toString(), c.name());
            if (same != null) {
                // Drawn on top of an identical curve: a sparse dash lets both show, and the legend says so.
                dash = " stroke-dasharray=\"3 9\"";
                label = label + " (identical to " + same + ")";
            }
            b.append(String.format(Locale.ROOT, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\"%s "
                    + "points=\"%s\"><title>%s</title></polyline>%n", col, dash, pts.toString().trim(),
                    HtmlReportWriter.escape(label)));
            legend = entry(b, legend, "<line x1=\"0\" y1=\"0\" x2=\"18\" y2=\"0\" stroke=\"" + col
                    + "\" stroke-width=\"2\"" + dash + "/>", label);
        }
        List<CertifiedTradeOff.Point> points = t.points().size() <= 1000 ? t.points() : t.envelope();
        for (CertifiedTradeOff.Point p : points) {
            if (p.alpha() + p.beta() > 1) {
                continue; // above the diagonal: a test worse than guessing, its complement is drawn below it
            }
            b.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"1.8\" fill=\"#999\"/>%n",
                    x(p.alpha()), y(p.beta())));
        }
        StringBuilder env = new StringBuilder();
        for (CertifiedTradeOff.Point p : t.envelope()) {
            env.append(String.format(Locale.ROOT, "%.1f,%.1f ", x(p.alpha()), y(p.beta())));
        }
        b.append(String.format(Locale.ROOT, "<polyline fill=\"none\" stroke=\"#000\" stroke-width=\"1.5\" "
                + "points=\"%s\"><title>lower convex envelope of the certified points</title></polyline>%n",
                env.toString().trim()));
        legend = entry(b, legend, "<circle cx=\"9\" cy=\"0\" r=\"2\" fill=\"#999\"/><line x1=\"0\" y1=\"4\" x2=\"18\" "
                + "y2=\"4\" stroke=\"#000\" stroke-width=\"1.5\"/>", "certified points and their envelope");
        CertifiedTradeOff.Point mu = t.gdpMuPoint();
        if (mu != null) {
            String text = "certifies μ ≥ " + Format.g(t.gdpMuLowerBound()) + " at (" + Format.g(mu.alpha()) + ", "
                    + Format.g(mu.beta()) + ")";
            b.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%.1f\" width=\"9\" height=\"9\" fill=\"none\" "
                    + "stroke=\"#555\" stroke-width=\"2\"><title>%s</title></rect>%n", x(mu.alpha()) - 4.5,
                    y(mu.beta()) - 4.5, HtmlReportWriter.escape(text)));
            legend = entry(b, legend, "<rect x=\"4.5\" y=\"-4.5\" width=\"9\" height=\"9\" fill=\"none\" "
                    + "stroke=\"#555\" stroke-width=\"2\"/>", "the point that " + text);
        }
        for (TradeOffClaimResult c : r.result().tradeOffClaims()) {
            if (c.verdict() == Verdict.VIOLATED && c.refutation() != null) {
                CertifiedTradeOff.Point p = c.refutation().point();
                boolean rev = c.refutation().reversePair();
                double a = rev ? p.beta() : p.alpha();
                double bb = rev ? p.alpha() : p.beta();
                b.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"6\" fill=\"none\" "
                        + "stroke=\"#d62728\" stroke-width=\"2.5\"><title>%s</title></circle>%n", x(a), y(bb),
                        HtmlReportWriter.escape("refutes " + c.claim().label() + ": (" + Format.g(a) + ", "
                                + Format.g(bb) + ")" + (rev ? " of T(M(D'), M(D)), below the claimed "
                                + Format.g(c.claim().reverse().beta(a)) : " below f = "
                                + Format.g(c.claim().f().beta(a))))));
            }
        }
        if (r.result().tradeOffClaims().stream().anyMatch(c -> c.verdict() == Verdict.VIOLATED)) {
            entry(b, legend, "<circle cx=\"9\" cy=\"0\" r=\"5\" fill=\"none\" stroke=\"#d62728\" "
                    + "stroke-width=\"2.5\"/>", "certified point below a claimed f");
        }
        b.append("</svg>\n");
        return b.toString();
    }

    /**
     * The corner where violations live, on log axes: the type I error α across and the power 1 − β up, both from the
     * smallest rate the evaluation trials can show (at most 10^-6) to 1 — the region that the linear plane squeezes
     * into its top-left corner. The same curves in the same colours, the certified envelope (black), the guess
     * 1 − β = α (grey) and the refuting points (red). Empty without certified points.
     */
    static String renderCorner(AuditReport r) {
        CertifiedTradeOff t = r.result().tradeOff();
        if (t.envelope().isEmpty()) {
            return "";
        }
        long n = r.result().evaluationTrials() > 0 ? r.result().evaluationTrials() : r.result().settings()
                .trialsPerWorld();
        LogSquare plot = new LogSquare(LEFT, TOP, SIZE, LogSquare.decadesFor(n));
        double floor = plot.floor();
        StringBuilder b = new StringBuilder();
        plot.open(b, LEFT + SIZE + 30 + LEGEND, "α (type I error, log)", "1 − β (power, log)",
                "1 - β = α (no privacy loss)");
        int legend = 0;
        int color = 0;
        for (TradeOffCurve c : r.tradeOffCurves()) {
            String col = c.role().equals("gdp-lower-bound") ? "#555" : COLORS[color++ % COLORS.length];
            b.append("<polyline fill=\"none\" stroke=\"").append(col).append("\" stroke-width=\"2\" points=\"")
                    .append(logPoints(c.alpha(), c.beta(), plot)).append("\"><title>")
                    .append(HtmlReportWriter.escape(c.name() + " [" + c.role() + "]")).append("</title></polyline>\n");
            legend = entry(b, legend, "<line x1=\"0\" y1=\"0\" x2=\"18\" y2=\"0\" stroke=\"" + col
                    + "\" stroke-width=\"2\"/>", c.name() + " [" + c.role() + "]");
        }
        List<Double> ea = new java.util.ArrayList<>();
        List<Double> eb = new java.util.ArrayList<>();
        for (CertifiedTradeOff.Point p : t.envelope()) {
            ea.add(p.alpha());
            eb.add(p.beta());
        }
        b.append("<polyline fill=\"none\" stroke=\"#000\" stroke-width=\"1.5\" points=\"")
                .append(logPoints(ea, eb, plot)).append("\"><title>lower convex envelope of the certified points"
                        + "</title></polyline>\n");
        entry(b, legend, "<line x1=\"0\" y1=\"0\" x2=\"18\" y2=\"0\" stroke=\"#000\" "
                + "stroke-width=\"1.5\"/>", "certified envelope"); // the last legend entry
        for (TradeOffClaimResult c : r.result().tradeOffClaims()) {
            if (c.verdict() == Verdict.VIOLATED && c.refutation() != null) {
                CertifiedTradeOff.Point p = c.refutation().point();
                boolean rev = c.refutation().reversePair();
                double a = rev ? p.beta() : p.alpha();
                double power = 1 - (rev ? p.alpha() : p.beta());
                if (a >= floor && power >= floor) {
                    b.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"6\" fill=\"none\" "
                            + "stroke=\"#d62728\" stroke-width=\"2.5\"><title>%s</title></circle>%n",
                            plot.x(a), plot.y(power), HtmlReportWriter.escape("refutes "
                                    + c.claim().label())));
                }
            }
        }
        b.append("</svg>\n");
        return b.toString();
    }

    /** Polyline points of (α, 1 − β) on the log axes, those below the floor left out. */
    private static String logPoints(List<Double> alpha, List<Double> beta, LogSquare plot) {
        StringBuilder pts = new StringBuilder();
        for (int i = 0; i < alpha.size(); i++) {
            double a = alpha.get(i);
            double power = 1 - beta.get(i);
            if (a >= plot.floor() && power >= plot.floor()) {
                pts.append(String.format(Locale.ROOT, "%.1f,%.1f ", plot.x(a), plot.y(power)));
            }
        }
        return pts.toString().trim();
    }

    private static int entry(StringBuilder b, int k, String glyph, String label) {
        b.append(String.format(Locale.ROOT, "<g transform=\"translate(%d,%d)\">%s<text x=\"24\" y=\"4\">%s</text></g>"
                + "%n", LEFT + SIZE + 30, TOP + 10 + 20 * k, glyph, HtmlReportWriter.escape(label)));
        return k + 1;
    }
}
