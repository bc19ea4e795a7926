package io.dpaudit.runner.analysis;

import io.dpaudit.core.audit.AuditResult;
import io.dpaudit.core.audit.TradeOffClaim;
import io.dpaudit.core.bounds.PrivacyBound;
import io.dpaudit.core.fdp.BoundTradeOff;
import io.dpaudit.core.fdp.GaussianTradeOff;
import io.dpaudit.core.fdp.TradeOffFunction;
import io.dpaudit.runner.ScenarioAudit.Prepared;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The curves of an audit's trade-off plane, sampled on {@link TradeOffCurve#GRID}. */
public final class TradeOffCurves {
    /**
     * The curves of the trade-off plane: each f-DP claim's {@code f}, the exact curve of the simulated pair (when the
     * mechanism names one), and {@code G_mu} at the certified GDP lower bound.
     */
    static List<TradeOffCurve> of(Prepared p, AuditResult result) {
        List<TradeOffCurve> out = new ArrayList<>();
        for (TradeOffClaim c : p.tradeOffClaims()) {
            out.add(sample(c.label(), "claim", c.f()));
        }
        PrivacyBound reference = LoosenessAnalysis.reference(p);
        if (reference != null) {
            out.add(sample(reference.name(), "exact", BoundTradeOff.forDrawing(reference)));
        }
        out.addAll(certifiedMuCurve(result));
        return out;
    }

    /** {@code G_mu} at the certified GDP lower bound, when it is positive (for the trade-off plane). */
    public static List<TradeOffCurve> certifiedMuCurve(AuditResult result) {
        double mu = result.tradeOff().gdpMuLowerBound();
        if (mu > 0) {
            return List.of(sample(String.format(Locale.ROOT, "G_mu at the certified mu >= %.4g", mu),
                    "gdp-lower-bound", new GaussianTradeOff(mu)));
        }
        return List.of();
    }

    private static TradeOffCurve sample(String name, String role, TradeOffFunction f) {
        List<Double> beta = new ArrayList<>();
        for (double a : TradeOffCurve.GRID) {
            beta.add(f.beta(a));
        }
        return new TradeOffCurve(name, role, TradeOffCurve.GRID, beta);
    }

    private TradeOffCurves() {
    }
}
