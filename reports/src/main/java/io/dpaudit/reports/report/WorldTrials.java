package io.dpaudit.reports.report;

import io.dpaudit.runner.text.Format;
import io.dpaudit.core.audit.AuditResult;
import io.dpaudit.core.engine.ScoreCounts;
import io.dpaudit.core.engine.World;

/**
 * The trials an audit counted in each world, for the console and the reports: one number per world when the worlds
 * are balanced (every simulated audit), both numbers when they are not (two score files of different lengths, whose
 * {@code trialsPerWorld} in report.json is the first file's).
 */
public final class WorldTrials {
    private WorldTrials() {
    }

    /** Whether the audit's counts hold a different number of trials in each world. */
    public static boolean unbalanced(AuditResult res) {
        AuditResult.Counts c = res.counts();
        return c != null && c.evaluation() != null && !c.evaluation().balanced();
    }

    /**
     * "N per world", or "N with the canary and M without" (the selection and evaluation parts together) when the
     * worlds differ.
     */
    public static String text(AuditResult res) {
        if (!unbalanced(res)) {
            return Format.count(res.settings().trialsPerWorld()) + " per world";
        }
        return Format.count(counted(res, World.WITH_CANARY)) + " with the canary and "
                + Format.count(counted(res, World.WITHOUT_CANARY)) + " without";
    }

    /** Selection and evaluation trials of one world. */
    public static long counted(AuditResult res, World world) {
        ScoreCounts selection = res.counts().selection();
        return res.counts().evaluation().trials(world) + (selection == null ? 0 : selection.trials(world));
    }
}
