package io.dpaudit.reports.report;

import io.dpaudit.runner.text.Format;
import io.dpaudit.core.audit.AuditResult;
import io.dpaudit.core.audit.SequentialRun;
import io.dpaudit.core.audit.Verdict;
import java.util.List;

/**
 * The "Sequential audit" section of a report: each look's trials, confidence and verdicts, and why the audit stopped
 * ({@link SequentialRun}); nothing for an audit of one look.
 */
final class SequentialSection {
    private SequentialSection() {
    }

    /** The section in Markdown, or the empty string for a fixed design. */
    static String markdown(AuditReport r) {
        AuditResult res = r.result();
        SequentialRun seq = res.sequential();
        if (seq == null) {
            return "";
        }
        StringBuilder b = new StringBuilder("## Sequential audit\n\n");
        b.append("Stopped after look ").append(seq.last().look()).append(" at ")
                .append(Format.count(seq.last().trialsPerWorld())).append(" of a budget of ")
                .append(Format.count(seq.maxTrials())).append(" trials per world: ").append(seq.stop().description())
                .append(". Stages of ").append(Format.count(seq.firstStageTrials())).append(", then twice as many "
                        + "each; look k makes its statements at error level α/(k(k+1)), which sum to α over all "
                        + "looks, so every verdict holds at ").append(Format.percent(res.confidence().verdicts()))
                .append(" confidence whatever look decided it. Look 1 chooses its tests on part of stage 1 and "
                        + "certifies them on the rest; look k ≥ 2 chooses on stages 1 to k−1 and certifies on stage "
                        + "k alone. A claim refuted at any look stays refuted.\n\n");
        b.append("| look | trials per world | selection | evaluation | confidence | verdicts | elapsed (s) |\n");
        b.append("|---:|---:|---:|---:|---:|---|---:|\n");
        for (SequentialRun.Look l : seq.looks()) {
            b.append("| ").append(l.look()).append(" | ").append(Format.count(l.trialsPerWorld())).append(" | ")
                    .append(Format.count(l.selectionTrials())).append(" | ").append(Format.count(l.evaluationTrials()))
                    .append(" | ").append(Format.percent(l.confidence())).append(" | ")
                    .append(counts(l.claims(), l.tradeOffClaims())).append(" | ")
                    .append(Format.g(l.elapsedSeconds())).append(" |\n");
        }
        return b.append("\n").toString();
    }

    /** "2 violated, 1 inconclusive" for a look's verdicts. */
    private static String counts(List<Verdict> claims, List<Verdict> tradeOffClaims) {
        StringBuilder b = new StringBuilder();
        for (Verdict v : Verdict.values()) {
            long n = claims.stream().filter(x -> x == v).count() + tradeOffClaims.stream().filter(x -> x == v).count();
            if (n > 0) {
                b.append(b.length() > 0 ? ", " : "").append(n).append(' ').append(v.label());
            }
        }
        return b.toString();
    }
}
