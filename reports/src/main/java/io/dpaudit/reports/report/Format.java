package io.dpaudit.reports.report;

import java.util.Locale;

/** Number formatting for human-readable reports; locale-independent ({@link Locale#ROOT}). */
public final class Format {
    private Format() {
    }

    /** A mechanism parameter as the user wrote it: whole numbers without a decimal part (10, not 10.00). */
    public static String parameter(double x) {
        if (x == Math.rint(x) && Math.abs(x) < 1e15) {
            return Long.toString((long) x);
        }
        return g(x);
    }

    /** Four significant digits, {@code inf}/{@code nan} for non-finite values. */
    public static String g(double x) {
        if (Double.isNaN(x)) {
            return "nan";
        }
        if (Double.isInfinite(x)) {
            return x > 0 ? "inf" : "-inf";
        }
        if (x == 0) {
            return "0";
        }
        double a = Math.abs(x);
        if (a >= 1e-3 && a < 1e6) {
            return String.format(Locale.ROOT, "%.4g", x);
        }
        return String.format(Locale.ROOT, "%.3e", x);
    }

    /** An axis tick: the shortest plain decimal of a value rounded to 10 significant digits. */
    public static String tick(double x) {
        if (x == 0) {
            return "0";
        }
        return new java.math.BigDecimal(x).round(new java.math.MathContext(10)).stripTrailingZeros().toPlainString();
    }

    /** A count with thousands separators. */
    public static String count(long n) {
        return String.format(Locale.ROOT, "%,d", n);
    }

    /** A rate in millions per second. */
    public static String perSecond(double rate) {
        return String.format(Locale.ROOT, "%.1f M/s", rate / 1e6);
    }

    /** A percentage. */
    public static String percent(double p) {
        return String.format(Locale.ROOT, "%.4g%%", 100 * p);
    }
}
