package io.dpaudit.reports.report;

import java.util.Locale;

/**
 * A square plot area whose two axes are both logarithmic, from {@code 10^-decades} to 1 (the ROC curve of score
 * reports, the trade-off plane's corner): coordinates, and the frame, decade grid, axis titles and diagonal they share.
 */
final class LogSquare {
    private final int left;
    private final int top;
    private final int size;
    private final int decades;
    private final double floor;

    LogSquare(int left, int top, int size, int decades) {
        this.left = left;
        this.top = top;
        this.size = size;
        this.decades = decades;
        this.floor = Math.pow(10, -decades);
    }

    /** Decades an axis spans for rates counted on {@code n} trials: the smallest rate one can show, at most 6. */
    static int decadesFor(long n) {
        return (int) Math.min(6, Math.max(1, Math.ceil(Math.log10(Math.max(10, n)))));
    }

    /** The smallest value on the axes, {@code 10^-decades}. */
    double floor() {
        return floor;
    }

    double x(double v) {
        return left + size * (Math.log10(v) - Math.log10(floor)) / -Math.log10(floor);
    }

    double y(double v) {
        return top + size * (1 - (Math.log10(v) - Math.log10(floor)) / -Math.log10(floor));
    }

    /** The opening of an inline SVG of {@code width} by {@code height}, responsive, and a frame of the square. */
    static void open(StringBuilder b, int width, int height, int left, int top, int size) {
        b.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %d %d\" "
                + "width=\"100%%\" style=\"max-width:%dpx\" font-family=\"sans-serif\" font-size=\"12\">%n", width,
                height, width));
        b.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" "
                + "stroke=\"#000\"/>%n", left, top, size, size));
    }

    /** The SVG's opening, the decade grid with its labels, both axis titles and the diagonal (with its tooltip). */
    void open(StringBuilder b, int width, String xTitle, String yTitle, String diagonal) {
        open(b, width, top + size + 50, left, top, size);
        for (int d = 0; d <= decades; d++) {
            double v = Math.pow(10, -d);
            String label = d == 0 ? "1" : "1e-" + d;
            b.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#eee\"/>"
                    + "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>%n", x(v), top, x(v), top + size,
                    x(v), top + size + 16, label));
            b.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#eee\"/>"
                    + "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>%n", left, y(v), left + size, y(v),
                    left - 6, y(v) + 4, label));
        }
        b.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>%n",
                left + size / 2.0, top + size + 36, HtmlReportWriter.escape(xTitle)));
        b.append(String.format(Locale.ROOT, "<text x=\"16\" y=\"%.1f\" transform=\"rotate(-90 16 %.1f)\" "
                + "text-anchor=\"middle\">%s</text>%n", top + size / 2.0, top + size / 2.0,
                HtmlReportWriter.escape(yTitle)));
        b.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#bbb\" "
                + "stroke-dasharray=\"3 3\"><title>%s</title></line>%n", x(floor), y(floor), x(1), y(1),
                HtmlReportWriter.escape(diagonal)));
    }
}
