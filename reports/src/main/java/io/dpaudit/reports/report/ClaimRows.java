package io.dpaudit.reports.report;

import io.dpaudit.runner.text.Format;
import io.dpaudit.core.audit.AuditResult;
import io.dpaudit.core.audit.ClaimResult;
import io.dpaudit.core.audit.EstimateVerdict;
import io.dpaudit.core.audit.TradeOffClaimResult;
import io.dpaudit.core.audit.Verdict;
import io.dpaudit.core.estimate.tradeoff.CertifiedTradeOff;
import io.dpaudit.core.engine.World;
import java.util.ArrayList;
import java.util.List;

/**
 * Every claim of an audit, (ε, δ) and f-DP together, as the rows of the one claims table that the console, the
 * Markdown and HTML reports and the index show first: what was claimed, the verdict, the evidence that decided it, and
 * what the audit could have detected.
 */
public final class ClaimRows {
    private ClaimRows() {
    }

    /**
     * One claim.
     *
     * @param label the claim's label, whole
     * @param kind {@code (ε, δ)}, {@code GDP μ} or {@code trade-off}
     * @param claimed what is claimed, e.g. {@code ε = 0.2, δ = 1e-05}
     * @param verdict the verdict
     * @param evidence the certifying evidence: the empirical δ lower bound at the claim's ε (and the ε lower bound at
     *     its δ; the estimate's intervals and the largest proven lower bound's δ there when the audit has them), or the
     *     certified point below the claimed curve, or the certified μ lower bound
     * @param detectable the smallest violation, on the event its test uses, that the audit would have flagged with
     *     probability 0.9 ("none" when it could have flagged none)
     * @param tightness ε_lb / ε, or μ_lb / μ for a GDP claim; empty when not defined
     * @param source where the claim comes from
     * @param epsilonBoundAboveClaim an (ε, δ) claim not found violated whose ε lower bound at its δ exceeds its ε
     *     ({@link ClaimResult#epsilonBoundAboveClaim}): contested, and said so beside the verdict
     * @param estimate the two-sided estimate's verdict on an (ε, δ) claim ({@link EstimateVerdict}), null without an
     *     estimate and for f-DP claims
     * @param decidedBy the sources of evidence that refuted (violated) or powered (consistent) the claim, e.g.
     *     {@code "white-box"} or {@code "black-box and white-box"}; empty for an inconclusive claim, and for an f-DP
     *     claim (whose only source is the attack's certified curve)
     */
    public record Row(String label, String kind, String claimed, Verdict verdict, String evidence, String detectable,
            String tightness, String source, boolean epsilonBoundAboveClaim, EstimateVerdict estimate,
            String decidedBy) {

        /** The estimate's verdict as the tables print it: empty without one, bold when it finds the claim violated. */
        public String estimateText(boolean markdown) {
            if (estimate == null) {
                return "";
            }
            return estimate == EstimateVerdict.VIOLATED && markdown ? "**violated**" : estimate.label();
        }

        /** The verdict as the tables print it: its label, the evidence that decided it, and the contest if any. */
        public String verdictText() {
            String v = verdict == Verdict.VIOLATED ? "VIOLATED" : verdict.label();
            if (!decidedBy.isEmpty()) {
                v += " (" + decidedBy + ")";
            }
            return epsilonBoundAboveClaim ? v + " " + CONTESTED : v;
        }
    }

    /** What the tables print beside the verdict of a claim whose ε lower bound exceeds its ε. */
    public static final String CONTESTED = "(contested: ε bound above the claim)";

    /** The legend's sentence for {@link #CONTESTED}, for reports that have such a claim. */
    public static String contestedLegend(double confidence) {
        return "*Contested*: the verdict's sources did not refute the claim, but the ε lower bound at the claim's δ "
                + "exceeds the claimed ε. That bound is a second statement at " + Format.percent(confidence)
                + " confidence of its own, from a test chosen for ε and certified on the same trials, so it does "
                + "refute the claim at that confidence. The claim is therefore not called consistent: it is "
                + "inconclusive, and never violated by that statement alone, so the verdicts keep the false-alarm rate "
                + "stated above. Audit the claim again on fresh trials (another seed, or more trials) to settle it.";
    }

    /**
     * The rows of {@code report}'s claims: its (ε, δ) claims, then its f-DP claims, each in the scenario's order. What
     * would resolve an inconclusive claim is counted in the report's own unit: trials per world for a simulated audit,
     * scores for score files (per file, or each file's when their lengths differ).
     */
    public static List<Row> of(AuditReport report) {
        AuditResult result = report.result();
        boolean scores = isScoreFile(report);
        List<Row> rows = new ArrayList<>();
        for (ClaimResult c : result.claims()) {
            String evidence = "δ ≥ " + Format.g(c.deltaLowerBound().delta()) + " at ε = "
                    + Format.g(c.claim().epsilon()) + "; ε ≥ " + Format.g(c.epsilonLowerBound().epsilon())
                    + " at δ = " + Format.g(c.claim().delta());
            if (c.deltaLowerBound().paired() != null) { // coupled trials: which form certified each bound
                evidence += " (coupled trials: δ by the " + c.deltaLowerBound().certification().label() + " form, ε by "
                        + "the " + c.epsilonLowerBound().certification().label() + " form)";
            }
            if (c.estimate() != null) { // both sources: say which number is whose
                evidence = "black-box: " + evidence + "; white-box: δ in " + interval(c.estimate().deltaAtClaim()
                        .lower(), c.estimate().deltaAtClaim().upper()) + " at ε = " + Format.g(c.claim().epsilon())
                        + ", ε in " + interval(c.estimate().requiredEpsilon().lower(),
                                c.estimate().requiredEpsilon().upper()) + " at δ = " + Format.g(c.claim().delta());
            }
            if (c.analytic() != null) { // a proven lower bound of the mechanism at the claim's ε
                evidence += "; analytic: δ ≥ " + Format.g(c.analytic().delta()) + " at ε = "
                        + Format.g(c.claim().epsilon()) + " (" + c.analytic().bound() + ", proven)";
            }
            if (result.sequential() != null) {
                int look = result.sequential().claimLooks().get(rows.size());
                evidence = lookPrefix(result, look) + evidence;
            }
            String detectable = detectable(c) + toResolve(c, result, scores);
            rows.add(new Row(c.claim().label(), "(ε, δ)", "ε = " + Format.g(c.claim().epsilon()) + ", δ = "
                    + Format.g(c.claim().delta()), c.verdict(), evidence, detectable, defined(c.tightness()),
                    c.claim().source(), c.epsilonBoundAboveClaim(), c.estimate() == null ? null
                            : c.estimate().verdict(), sources(c.decidedBy())));
        }
        for (TradeOffClaimResult c : result.tradeOffClaims()) {
            boolean gdp = !Double.isNaN(c.claim().gdpMu());
            String evidence;
            if (c.refutation() != null) {
                CertifiedTradeOff.Point p = c.refutation().point();
                boolean rev = c.refutation().reversePair();
                double x = rev ? p.beta() : p.alpha();
                double claimedBeta = rev ? c.claim().reverse().beta(x) : c.claim().f().beta(x);
                evidence = "certified (α, β) = (" + Format.g(x) + ", " + Format.g(rev ? p.alpha() : p.beta()) + ")"
                        + (rev ? " of T(M(D'), M(D))" : "") + " below the claimed " + Format.g(claimedBeta)
                        + "; μ ≥ " + Format.g(c.gdpMuLowerBound());
            } else {
                evidence = "μ ≥ " + Format.g(c.gdpMuLowerBound()) + " (certified GDP lower bound)";
            }
            if (result.sequential() != null) {
                int look = result.sequential().tradeOffClaimLooks().get(rows.size() - result.claims().size());
                evidence = lookPrefix(result, look) + evidence;
            }
            double mu = c.power().mu();
            String detectable = Double.isNaN(mu) ? "not computed" : Double.isFinite(mu) ? "μ ≥ " + Format.g(mu)
                    + " (gap " + Format.g(c.power().muGap()) + ")" : "none";
            String claimed = gdp ? "μ = " + Format.g(c.claim().gdpMu())
                    : c.claim().orderedPair() ? "T(M(D), M(D')) ≥ f, T(M(D'), M(D)) ≥ f⁻¹ (one ordered pair)"
                    : "f-DP: both orders ≥ f";
            rows.add(new Row(c.claim().label(), gdp ? "GDP μ" : "trade-off", claimed, c.verdict(), evidence, detectable,
                    gdp ? defined(c.tightness()) : "", c.claim().source(), false, null, ""));
        }
        return rows;
    }

    /** How many rows have verdict {@code v}. */
    public static int count(List<Row> rows, Verdict v) {
        int n = 0;
        for (Row r : rows) {
            n += r.verdict() == v ? 1 : 0;
        }
        return n;
    }

    /**
     * One sentence that counts the verdicts of {@code report}'s claims and names the violated ones, e.g. {@code "2 of 5
     * claims VIOLATED: a, b; 2 consistent; 1 inconclusive (the audit could not have refuted it: more trials needed)"};
     * a score-file audit asks for more scores instead.
     */
    public static String summary(AuditReport report) {
        return summary(of(report), unit(report));
    }

    /**
     * What more of would resolve an inconclusive claim of {@code report}: {@code "scores"} for score files, else
     * {@code "trials"}.
     */
    public static String unit(AuditReport report) {
        return isScoreFile(report) ? "scores" : "trials";
    }

    /** Whether {@code report} audits score files, whose unit is the score rather than the trial. */
    private static boolean isScoreFile(AuditReport report) {
        return report.mechanism() != null
                && io.dpaudit.runner.scores.ExternalScores.TYPE.equals(report.mechanism().type());
    }

    /**
     * {@link #summary(AuditReport)} of {@code rows}, where more {@code unit} would resolve an inconclusive claim. When a
     * claim is violated the sentence opens with the violated claims' names (and the evidence that refuted each), so
     * that nothing a reader sees first can be taken for a pass.
     */
    static String summary(List<Row> rows, String unit) {
        if (rows.isEmpty()) {
            return "No claims audited";
        }
        int v = count(rows, Verdict.VIOLATED);
        int i = count(rows, Verdict.INCONCLUSIVE);
        int c = count(rows, Verdict.CONSISTENT);
        StringBuilder b = new StringBuilder();
        if (v > 0) {
            boolean first = true;
            for (Row r : rows) {
                if (r.verdict() == Verdict.VIOLATED) {
                    b.append(first ? "" : ", ").append(r.label());
                    if (!r.decidedBy().isEmpty()) {
                        b.append(" (").append(r.decidedBy()).append(")");
                    }
                    first = false;
                }
            }
            b.append(": VIOLATED (").append(v).append(" of ").append(rows.size())
                    .append(rows.size() == 1 ? " claim)" : " claims)");
        } else {
            b.append(rows.size() == 1 ? "The claim is not violated" : "None of the " + rows.size()
                    + " claims is violated");
        }
        if (c > 0) {
            b.append("; ").append(c).append(" consistent");
        }
        if (i > 0) {
            b.append("; ").append(i).append(" inconclusive (the audit could not have refuted ")
                    .append(i == 1 ? "it" : "them").append(": more ").append(unit).append(" needed)");
        }
        int contested = contested(rows);
        if (contested > 0) {
            b.append("; ").append(contested).append(" contested, the ε lower bound above the claimed ε (");
            boolean first = true;
            for (Row r : rows) {
                if (r.epsilonBoundAboveClaim()) {
                    b.append(first ? "" : ", ").append(r.label());
                    first = false;
                }
            }
            b.append(")");
        }
        return b.toString();
    }

    /**
     * The two-sided estimate's own verdicts in one sentence (they are part of the claims' verdicts already: this counts
     * what the white-box evidence says on its own); empty when the audit has no estimate or no (ε, δ) claim.
     */
    public static String estimateSentence(AuditResult result, boolean pairFromBelow) {
        if (result.estimate() == null || result.claims().isEmpty()) {
            return "";
        }
        int tight = 0;
        int loose = 0;
        int refuted = 0;
        int unclear = 0;
        for (ClaimResult c : result.claims()) {
            switch (c.estimate().verdict()) {
                case TIGHT -> tight++;
                case LOOSE -> loose++;
                case VIOLATED -> refuted++;
                case INCONCLUSIVE -> unclear++;
            }
        }
        return "White-box estimate alone (" + Format.percent(result.estimate().confidence()) + " simultaneous, relies "
                + "on the exact likelihood ratio): " + refuted + " violated, " + tight + " tight, " + loose + " loose"
                + (unclear > 0 ? ", " + unclear + " inconclusive (interval too wide to judge"
                + (pairFromBelow ? ", or above the interval of a lower-bound pair" : "") + ")" : "");
    }

    /**
     * The confidence the verdicts are stated at, and how it is shared between the sources when the audit has two:
     * {@code "95.00% confidence each"}, or {@code "95.00% confidence each: the attack's bounds and the white-box
     * estimate at 97.50% each (union bound)"}.
     */
    public static String confidenceText(AuditResult result) {
        io.dpaudit.core.audit.ConfidenceSplit s = result.confidence();
        String text = Format.percent(s.verdicts()) + " confidence each";
        if (s.isSequential()) {
            text += " over all " + result.sequential().looks().size() + " look(s) of the sequential audit";
        }
        return s.isShared() ? text + ": the attack's bounds and the white-box estimate at " + Format.percent(
                s.blackBox()) + " each" + (s.isSequential() ? " at the last look" : "") + " (union bound)" : text;
    }

    /** How many rows are contested ({@link Row#epsilonBoundAboveClaim}). */
    public static int contested(List<Row> rows) {
        int n = 0;
        for (Row r : rows) {
            n += r.epsilonBoundAboveClaim() ? 1 : 0;
        }
        return n;
    }

    /**
     * For an inconclusive claim, what would resolve it: the factor of trials at which a test with the same rates would
     * detect ten times the claimed δ (a pure-DP claim: any violation), with the trials per world that makes (for score
     * files: the scores per file, or in each file when the two differ), or that none up to 10^13 per world would.
     */
    /** "look 2 of 5 (3,000 trials per world): " for a claim judged at that look of a sequential audit. */
    private static String lookPrefix(AuditResult result, int look) {
        io.dpaudit.core.audit.SequentialRun seq = result.sequential();
        return "look " + look + " of " + seq.looks().size() + " (" + Format.count(seq.looks().get(look - 1)
                .trialsPerWorld()) + " trials per world): ";
    }

    private static String toResolve(ClaimResult c, AuditResult result, boolean scores) {
        long factor = c.power().trialsFactorToResolve();
        if (factor < 0) {
            return "";
        }
        String size = c.claim().epsilon() > 0 ? "1.5× the claimed ε" : c.claim().delta() > 0 ? "10× the claimed δ"
                : "a violation";
        String unit = scores ? "scores" : "trials";
        String each = scores ? " per file" : " per world";
        if (factor == 0) {
            return "; this test would not detect " + size + " with any number of " + unit + " up to 10^13" + each
                    + " (more " + unit + " can let the audit choose a test further in the tail; so can another attack)";
        }
        String times = factor < 1_000_000 ? Long.toString(factor) : "2^" + Long.numberOfTrailingZeros(factor);
        long with = result.selectionTrials() + result.evaluationTrials();
        long without = with;
        if (WorldTrials.unbalanced(result)) {
            with = WorldTrials.counted(result, World.WITH_CANARY);
            without = WorldTrials.counted(result, World.WITHOUT_CANARY);
        }
        String counted = with == without ? Format.g((double) factor * with) + each
                : Format.g((double) factor * with) + " with the canary and " + Format.g((double) factor * without)
                        + " without";
        return "; " + times + "× the " + unit + " (" + counted + ") would let this test detect " + size;
    }

    /**
     * What the verdict's test could have detected: {@code power.epsilon} at the claim's δ (the claim's own unit), with
     * the detectable δ at its ε beside it; for a claim of ε = 0 the δ alone.
     */
    private static String detectable(ClaimResult c) {
        double d = c.power().delta();
        if (!Double.isFinite(d)) {
            return "none";
        }
        String inDelta = "δ ≥ " + Format.g(d) + " at ε = " + Format.g(c.claim().epsilon());
        if (c.deltaLowerBound().paired() != null) {
            // coupled trials: the power is stated for the form that certified the verdict's δ bound
            inDelta += " (by the " + c.deltaLowerBound().certification().label() + " form)";
        }
        if (c.claim().epsilon() == 0) {
            return inDelta;
        }
        double e = c.power().epsilon();
        return (Double.isFinite(e) ? "ε ≥ " + Format.g(e) + " at δ = " + Format.g(c.claim().delta())
                : "no ε at δ = " + Format.g(c.claim().delta())) + "; " + inDelta;
    }

    /** The sources as the tables name them: {@code "black-box"}, {@code "white-box"}, or both joined by "and". */
    static String sources(java.util.Set<io.dpaudit.core.audit.Evidence> decidedBy) {
        List<String> names = new ArrayList<>();
        for (io.dpaudit.core.audit.Evidence e : decidedBy) {
            names.add(e.label());
        }
        return String.join(" and ", names);
    }

    /** An interval as the tables print it, {@code [a, b]} with an infinite end written {@code inf}. */
    private static String interval(double lower, double upper) {
        return "[" + Format.g(lower) + ", " + (Double.isFinite(upper) ? Format.g(upper) : "inf") + "]";
    }

    /** A ratio as reports print it, empty where it is not defined (0/0: a claim of ε = 0 with no ε certified). */
    private static String defined(double ratio) {
        return Double.isNaN(ratio) ? "" : Format.g(ratio);
    }
}
