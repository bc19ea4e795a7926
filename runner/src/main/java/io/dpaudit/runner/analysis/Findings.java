package io.dpaudit.runner.analysis;

import java.util.List;

/**
 * What the analysis of an audit found beside its counts and verdicts, as plain values: the analytic bounds' curves,
 * how loose each bound and claim is against the exact curve of the simulated pair, the curves of the trade-off plane,
 * the noise a loose claim could save, and the notes a reader should see.
 *
 * @param curves each analytic bound's δ(ε) curve and its ε at the scenario's δs
 * @param looseness each bound, claim and empirical lower bound against the exact curve, or null when the mechanism
 *     names none
 * @param tradeOffCurves the claimed f's, the exact pair's curve and {@code G_mu} at the certified GDP lower bound
 * @param noiseSavings for claims the two-sided estimate finds loose, the noise that would meet them (may be empty)
 * @param notes remarks in the order a reader should see them
 */
public record Findings(List<BoundCurve> curves, Looseness looseness, List<TradeOffCurve> tradeOffCurves,
        List<NoiseSaving> noiseSavings, List<String> notes) {

    public Findings {
        curves = List.copyOf(curves);
        tradeOffCurves = List.copyOf(tradeOffCurves);
        noiseSavings = List.copyOf(noiseSavings);
        notes = List.copyOf(notes);
    }
}
