package io.dpaudit.runner.text;

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

    /** A curve's ε at a δ: as {@link #g}, and "not computed" for NaN (a curve that could not answer there). */
    public static String epsilonAt(double epsilon) {
        return Double.isNaN(epsilon) ? "not computed" : g(epsilon);
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

    /**
     * A rate per second with three significant digits in the unit that suits it: {@code 12.3 M/s}, {@code 45.6 k/s},
     * {@code 789/s} (slow mechanisms such as T = 1000-step batch samplers run thousands, not millions, per second).
     */
    public static String perSecond(double rate) {
        String[] m = magnitudeParts(rate);
        if (m[0].equals("n/a")) {
            return "n/a";
        }
        return m[0] + (m[1].isEmpty() ? "" : " " + m[1]) + "/s";
    }

    /**
     * A count of things per second with three significant digits and an SI prefix: {@code 12.3 M trials/s},
     * {@code 291 k trials/s}, {@code 789 trials/s}.
     */
    public static String perSecond(double rate, String things) {
        String[] m = magnitudeParts(rate);
        if (m[0].equals("n/a")) {
            return "n/a " + things + "/s";
        }
        return m[0] + " " + (m[1].isEmpty() ? "" : m[1] + " ") + things + "/s";
    }

    /** {number, SI prefix} of a non-negative number to three significant digits; {"n/a", ""} when not one. */
    private static String[] magnitudeParts(double x) {
        if (!(x >= 0) || Double.isInfinite(x)) {
            return new String[] {"n/a", ""};
        }
        double rounded = x > 0 ? new java.math.BigDecimal(x).round(new java.math.MathContext(3)).doubleValue() : 0;
        if (rounded >= 1e6) {
            return new String[] {String.format(Locale.ROOT, "%.3g", rounded / 1e6), "M"};
        }
        if (rounded >= 1e3) {
            return new String[] {String.format(Locale.ROOT, "%.3g", rounded / 1e3), "k"};
        }
        return new String[] {String.format(Locale.ROOT, "%.3g", rounded), ""};
    }

    /** A percentage to four digits; a level below 1 that four digits would round to 100% gets as many as show it. */
    public static String percent(double p) {
        String four = String.format(Locale.ROOT, "%.4g%%", 100 * p);
        if (p < 1 && p > 0.99 && four.startsWith("100")) {
            // A level within 5e-7 of 1 would print as 100%: give the digits that show it is not, rounded down.
            int decimals = (int) Math.ceil(-Math.log10(1 - p)) - 1;
            return new java.math.BigDecimal(p).movePointRight(2).setScale(decimals, java.math.RoundingMode.DOWN)
                    .stripTrailingZeros().toPlainString() + "%";
        }
        return four;
    }
}
