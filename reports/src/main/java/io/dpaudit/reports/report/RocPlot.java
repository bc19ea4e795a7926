package io.dpaudit.reports.report;

import io.dpaudit.core.engine.ScoreCounts;
import io.dpaudit.core.engine.World;
import io.dpaudit.core.estimate.ScoreMetrics;
import java.util.Locale;

/**
 * An inline SVG of a score audit's ROC curve on log axes (false-positive rate across, true-positive rate up), where
 * membership inference is judged: at low FPR, which linear axes squeeze into a corner. The curve is the empirical one
 * of the evaluation scores (threshold at each histogram edge: FPR the share of the scores without the canary at or above
 * it, TPR the share of those with it), drawn from the smallest FPR one score can show; the diagonal TPR = FPR is a
 * guess. The certified TPR at each target FPR is a red dot with its interval (both rates at the report's confidence,
 * thresholds chosen on the range part).
 */
final class RocPlot {
    private static final int SIZE = 380;
    private static final int LEFT = 60;
    private static final int TOP = 20;

    private RocPlot() {
    }

    /** The plot, or an empty string when the report has no score metrics or no evaluation counts. */
    static String render(AuditReport r) {
        ScoreMetrics.Result m = r.scoreMetrics();
        ScoreCounts c = r.result().counts() == null ? null : r.result().counts().evaluation();
        if (m == null || c == null) {
            return "";
        }
        long with = c.trials(World.WITH_CANARY);
        long without = c.trials(World.WITHOUT_CANARY);
        int decades = (int) Math.min(6, Math.max(1, Math.ceil(Math.log10(Math.max(with, without)))));
        double floor = Math.pow(10, -decades);
        StringBuilder b = new StringBuilder();
        int width = LEFT + SIZE + 30;
        int height = TOP + SIZE + 50;
        b.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %d %d\" "
                + "width=\"100%%\" style=\"max-width:%dpx\" font-family=\"sans-serif\" font-size=\"12\">%n", width,
                height, width));
        b.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" "
                + "stroke=\"#000\"/>%n", LEFT, TOP, SIZE, SIZE));
        for (int d = 0; d <= decades; d++) {
            double v = Math.pow(10, -d);
            String label = d == 0 ? "1" : "1e-" + d;
            b.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#eee\"/>"
                    + "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>%n", x(v, floor), TOP, x(v, floor),
                    TOP + SIZE, x(v, floor), TOP + SIZE + 16, label));
            b.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#eee\"/>"
                    + "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>%n", LEFT, y(v, floor), LEFT + SIZE,
                    y(v, floor), LEFT - 6, y(v, floor) + 4, label));
        }
        b.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">false-positive rate "
                + "(without the canary, flagged)</text>%n", LEFT + SIZE / 2.0, TOP + SIZE + 36));
        b.append(String.format(Locale.ROOT, "<text x=\"16\" y=\"%.1f\" transform=\"rotate(-90 16 %.1f)\" "
                + "text-anchor=\"middle\">true-positive rate</text>%n", TOP + SIZE / 2.0, TOP + SIZE / 2.0));
        b.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#bbb\" "
                + "stroke-dasharray=\"3 3\"><title>TPR = FPR (a guess)</title></line>%n", x(floor, floor),
                y(floor, floor), x(1, floor), y(1, floor)));
        long[] tpTail = c.upperTail(World.WITH_CANARY);
        long[] fpTail = c.upperTail(World.WITHOUT_CANARY);
        StringBuilder pts = new StringBuilder();
        String last = "";
        for (int k = tpTail.length - 1; k >= 0; k--) {
            double fpr = (double) fpTail[k] / without;
            double tpr = (double) tpTail[k] / with;
            String point = String.format(Locale.ROOT, "%.1f,%.1f ", x(fpr, floor), y(tpr, floor));
            if (fpr >= floor && tpr >= floor && !point.equals(last)) { // one point per pixel position
                pts.append(point);
                last = point;
            }
        }
        b.append("<polyline fill=\"none\" stroke=\"#1f77b4\" stroke-width=\"1.5\" points=\"").append(pts.toString()
                .strip()).append("\"><title>empirical ROC of the evaluation scores</title></polyline>\n");
        for (ScoreMetrics.TprAtFpr t : m.tprAtFpr()) {
            if (!(t.fpr() >= floor && t.tprLower() >= floor)) {
                continue;
            }
            b.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#d62728\""
                    + "/><line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#d62728\"/>"
                    + "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"#d62728\"><title>target FPR %s: TPR %s in "
                    + "[%s, %s], FPR %s in [%s, %s]</title></circle>%n",
                    x(t.fpr(), floor), y(t.tprLower(), floor), x(t.fpr(), floor), y(Math.min(1, t.tprUpper()), floor),
                    x(Math.max(floor, t.fprLower()), floor), y(t.tpr(), floor), x(Math.min(1, t.fprUpper()), floor),
                    y(t.tpr(), floor), x(t.fpr(), floor), y(t.tpr(), floor), Format.g(t.targetFpr()),
                    Format.g(t.tpr()), Format.g(t.tprLower()), Format.g(t.tprUpper()), Format.g(t.fpr()),
                    Format.g(t.fprLower()), Format.g(t.fprUpper())));
        }
        return b.append("</svg>\n").toString();
    }

    private static double x(double fpr, double floor) {
        return LEFT + SIZE * (Math.log10(fpr) - Math.log10(floor)) / -Math.log10(floor);
    }

    private static double y(double tpr, double floor) {
        return TOP + SIZE * (1 - (Math.log10(tpr) - Math.log10(floor)) / -Math.log10(floor));
    }
}
