package io.dpaudit.runner.scores;

import io.dpaudit.core.InvalidInputException;
import java.io.BufferedReader;
import java.io.IOException;

/**
 * One score per line, as text or CSV. The first line may be a header: if it is not a number it names the columns
 * (comma-separated), and the score is the column named by {@code column} (required when there are several, else the
 * only one). Without a header the file must have one column. Each value is a decimal number, or {@code inf},
 * {@code -inf}, {@code Infinity}, {@code -Infinity} (a classifier's log-odds may be infinite); NaN, an empty line, text,
 * or a row with a different number of fields than the header is an error naming the file and the line. A final line
 * break, spaces around fields and Windows line ends are allowed.
 */
final class TextScoreReader implements ScoreReader {
    private final String file;
    private final BufferedReader in;
    private final int columnIndex;
    private final int columns;
    private long lineNumber;
    private String pending;
    private double value;

    TextScoreReader(String file, BufferedReader in, String column) throws IOException {
        this.file = file;
        this.in = in;
        String first = in.readLine();
        lineNumber = 1;
        if (first == null) {
            throw new InvalidInputException(file, "(empty file)", "holds no scores");
        }
        first = strip(first);
        String[] fields = first.split(",", -1);
        if (isNumber(fields[0].strip()) && (fields.length == 1 || column == null)) {
            // No header.
            if (fields.length != 1) {
                throw new InvalidInputException(file + ", line 1", abbreviate(first), "has " + fields.length
                        + " fields; a file "
                        + "without a header must hold one score per line (or give a header and --column)");
            }
            if (column != null) {
                throw new InvalidInputException("--column", column, "the file " + file + " has no header naming "
                        + "columns");
            }
            columns = 1;
            columnIndex = 0;
            pending = first;
        } else {
            columns = fields.length;
            int found = -1;
            for (int i = 0; i < fields.length; i++) {
                String name = unquote(fields[i].strip());
                if (column == null ? fields.length == 1 : name.equals(column)) {
                    found = i;
                }
            }
            if (found < 0) {
                throw new InvalidInputException(column == null ? file + ", line 1" : "--column",
                        column == null ? abbreviate(first) : column, column == null ? "a header with several columns: "
                        + "name the score's column with --column" : "no such column in the header of " + file + " ("
                        + abbreviate(first) + ")");
            }
            columnIndex = found;
            pending = null;
        }
    }

    private static String strip(String line) {
        return line.endsWith("\r") ? line.substring(0, line.length() - 1) : line;
    }

    private static String unquote(String s) {
        return s.length() >= 2 && s.startsWith("\"") && s.endsWith("\"") ? s.substring(1, s.length() - 1) : s;
    }

    private static boolean isNumber(String s) {
        try {
            parse(s);
            return true;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /** A decimal number or an infinity; NaN is rejected by the caller. */
    private static double parse(String s) {
        switch (s) {
            case "inf", "+inf", "Infinity", "+Infinity", "INF" -> {
                return Double.POSITIVE_INFINITY;
            }
            case "-inf", "-Infinity", "-INF" -> {
                return Double.NEGATIVE_INFINITY;
            }
            case "nan", "NaN", "NAN", "-nan" -> {
                return Double.NaN;
            }
            default -> {
                if (!isDecimal(s)) {
                    throw new NumberFormatException(s); // Java's parser would also take "1f", "1d", "0x1p3"
                }
                return Double.parseDouble(s);
            }
        }
    }

    /**
     * Whether {@code s} is a plain decimal number: {@code [+-]digits[.digits][(e|E)[+-]digits]} with at least one
     * digit before the exponent. One pass, no backtracking (a line may be megabytes long).
     */
    static boolean isDecimal(String s) {
        int i = skipSign(s, 0);
        int integer = skipDigits(s, i);
        int end = integer;
        if (end < s.length() && s.charAt(end) == '.') {
            end = skipDigits(s, end + 1);
        }
        if (end - i - (end > integer ? 1 : 0) == 0) {
            return false; // no digit before the exponent
        }
        if (end < s.length() && (s.charAt(end) == 'e' || s.charAt(end) == 'E')) {
            int exponent = skipSign(s, end + 1);
            end = skipDigits(s, exponent);
            if (end == exponent) {
                return false;
            }
        }
        return end == s.length();
    }

    private static int skipSign(String s, int i) {
        return i < s.length() && (s.charAt(i) == '+' || s.charAt(i) == '-') ? i + 1 : i;
    }

    private static int skipDigits(String s, int i) {
        while (i < s.length() && isAsciiDigit(s.charAt(i))) {
            i++;
        }
        return i;
    }

    private static boolean isAsciiDigit(char c) {
        return c >= '0' && c <= '9';
    }

    @Override
    public boolean next() throws IOException {
        String line;
        if (pending != null) {
            line = pending;
            pending = null;
        } else {
            line = in.readLine();
            if (line == null) {
                return false;
            }
            lineNumber++;
            line = strip(line);
        }
        String field;
        if (columns == 1) {
            field = line;
        } else {
            String[] f = line.split(",", -1);
            if (f.length != columns) {
                throw new InvalidInputException(file + ", line " + lineNumber, abbreviate(line), "has " + f.length
                        + " fields, the header " + columns);
            }
            field = f[columnIndex];
        }
        field = unquote(field.strip());
        double v;
        try {
            v = parse(field);
        } catch (NumberFormatException e) {
            throw new InvalidInputException(file + ", line " + lineNumber, field.isEmpty() ? "(empty)"
                    : abbreviate(field), "not a number");
        }
        if (Double.isNaN(v)) {
            throw new InvalidInputException(file + ", line " + lineNumber, abbreviate(field), "NaN is not a score");
        }
        value = v;
        return true;
    }

    /** At most 40 characters, control characters shown as '?', for a one-line message. */
    static String abbreviate(String s) {
        String t = s.length() > 40 ? s.substring(0, 37) + "..." : s;
        StringBuilder b = new StringBuilder(t.length());
        t.codePoints().forEach(cp -> b.appendCodePoint(Character.isISOControl(cp) ? '?' : cp));
        return b.toString();
    }

    @Override
    public double value() {
        return value;
    }

    @Override
    public String position() {
        return "line " + lineNumber;
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
