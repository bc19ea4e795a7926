package io.dpaudit.reports.report;

import io.dpaudit.runner.text.Format;
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
        LogSquare plot = new LogSquare(LEFT, TOP, SIZE, LogSquare.decadesFor(Math.max(with, without)));
        double floor = plot.floor();
        StringBuilder b = new StringBuilder();
        plot.open(b, LEFT + SIZE + 30, "false-positive rate (without the canary, flagged)", "true-positive rate",
                "TPR = FPR (a guess)");
        long[] tpTail = c.upperTail(World.WITH_CANARY);
        long[] fpTail = c.upperTail(World.WITHOUT_CANARY);
        StringBuilder pts = new StringBuilder();
        String last = "";
        for (int k = tpTail.length - 1; k >= 0; k--) {
            double fpr = (double) fpTail[k] / without;
            double tpr = (double) tpTail[k] / with;
            String point = String.format(Locale.ROOT, "%.1f,%.1f ", plot.x(fpr), plot.y(tpr));
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
                    plot.x(t.fpr()), plot.y(t.tprLower()), plot.x(t.fpr()), plot.y(Math.min(1, t.tprUpper())),
                    plot.x(Math.max(floor, t.fprLower())), plot.y(t.tpr()), plot.x(Math.min(1, t.fprUpper())),
                    plot.y(t.tpr()), plot.x(t.fpr()), plot.y(t.tpr()), Format.g(t.targetFpr()),
                    Format.g(t.tpr()), Format.g(t.tprLower()), Format.g(t.tprUpper()), Format.g(t.fpr()),
                    Format.g(t.fprLower()), Format.g(t.fprUpper())));
        }
        return b.append("</svg>\n").toString();
    }
}
