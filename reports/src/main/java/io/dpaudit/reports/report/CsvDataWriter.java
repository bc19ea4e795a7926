package io.dpaudit.reports.report;

import io.dpaudit.runner.analysis.ProfileSampling;
import io.dpaudit.runner.analysis.TradeOffCurve;
import io.dpaudit.runner.analysis.BoundCurve;
import io.dpaudit.core.audit.ClaimResult;
import io.dpaudit.core.estimate.tradeoff.CertifiedTradeOff;
import io.dpaudit.core.estimate.DeltaLowerBound;
import io.dpaudit.core.estimate.EpsilonLowerBound;
import java.util.Locale;

/**
 * The data behind the two plots as CSV (RFC 4180: comma-separated, double quotes around fields that need them,
 * numbers as Java writes doubles, locale-independent), so that a user can redraw them, e.g. with pandas and
 * matplotlib:
 *
 * <ul>
 *   <li>{@code curves.csv}: {@code series,kind,epsilon,delta} — each analytic bound's curve as drawn (the ε grid of
 *       report.json plus the points {@link ProfileSampling} adds where the curve is steep; kind: its bound kind),
 *       the empirical epsilon and delta lower bounds, and the claims (kind: their verdict);</li>
 *   <li>{@code tradeoff.csv}: {@code series,role,alpha,beta} — the trade-off curves drawn (claims, exact curve,
 *       G at the certified mu), the certified points and their lower convex envelope.</li>
 * </ul>
 */
public final class CsvDataWriter {
    private CsvDataWriter() {
    }

    /** {@code curves.csv}. */
    public static String curves(AuditReport r) {
        StringBuilder b = new StringBuilder("series,kind,epsilon,delta\n");
        for (BoundCurve c : r.bounds()) {
            String kind = c.kind().name().toLowerCase(Locale.ROOT).replace('_', '-');
            for (BoundCurve.Point p : c.plotPoints()) {
                row(b, c.name(), kind, p.epsilon(), p.delta());
            }
        }
        for (EpsilonLowerBound e : r.result().epsilonLowerBounds()) {
            row(b, "empirical epsilon lower bound", "empirical", e.epsilon(), e.delta());
        }
        for (DeltaLowerBound d : r.result().deltaLowerBounds()) {
            row(b, "empirical delta lower bound", "empirical", d.epsilon(), d.delta());
        }
        for (ClaimResult c : r.result().claims()) {
            row(b, c.claim().label(), "claim-" + c.verdict().label(), c.claim().epsilon(), c.claim().delta());
        }
        return b.toString();
    }

    /** {@code tradeoff.csv}. */
    public static String tradeOff(AuditReport r) {
        StringBuilder b = new StringBuilder("series,role,alpha,beta\n");
        for (TradeOffCurve c : r.tradeOffCurves()) {
            for (int i = 0; i < c.alpha().size(); i++) {
                row(b, c.name(), c.role(), c.alpha().get(i), c.beta().get(i));
            }
        }
        CertifiedTradeOff t = r.result().tradeOff();
        if (t != null) {
            for (CertifiedTradeOff.Point p : t.points()) {
                row(b, "certified point", "point", p.alpha(), p.beta());
            }
            for (CertifiedTradeOff.Point p : t.envelope()) {
                row(b, "lower convex envelope", "envelope", p.alpha(), p.beta());
            }
        }
        return b.toString();
    }

    private static void row(StringBuilder b, String series, String kind, double x, double y) {
        b.append(field(series)).append(',').append(field(kind)).append(',').append(number(x)).append(',')
                .append(number(y)).append('\n');
    }

    private static String number(double x) {
        return Double.isNaN(x) ? "nan" : Double.isInfinite(x) ? (x > 0 ? "inf" : "-inf") : Double.toString(x);
    }

    /** A CSV field, quoted when it holds a comma, a quote or a line break. */
    static String field(String s) {
        if (s.indexOf(',') < 0 && s.indexOf('"') < 0 && s.indexOf('\n') < 0 && s.indexOf('\r') < 0) {
            return s;
        }
        return '"' + s.replace("\"", "\"\"") + '"';
    }
}
