package io.dpaudit.reports.cli;

import io.dpaudit.runner.scenario.ScenarioOverrides;
import picocli.CommandLine.Option;

/** The options of {@code dp-audit run} that override a scenario's values ({@link ScenarioOverrides}) or the threads. */
final class AuditOptions {
    @Option(names = "--trials", paramLabel = "N", description = "trials per world (overrides the scenario's)")
    String trialsText;
    @Option(names = "--seed", paramLabel = "S", description = "root seed (overrides the scenario's)")
    String seedText;
    @Option(names = "--threads", paramLabel = "K", description = "worker threads; never changes a number "
            + "(default: the processors)")
    String threadsText;
    @Option(names = "--estimate", description = "add the two-sided privacy-loss estimate: N more trials per world of "
            + "the exact log-likelihood ratio, giving intervals for the simulated pair's true delta(eps) and "
            + "eps(delta), and a verdict per claim (violated, tight, loose or inconclusive)")
    boolean estimate;
    @Option(names = "--until-resolved", description = "audit sequentially: stages of 1000, 2000, 4000, ... trials per "
            + "world, every claim judged after each with the error level shared between the looks, stopping as soon "
            + "as every claim is violated or powered-consistent, or when the budget is spent (--max-trials, else the "
            + "scenario's trials)")
    boolean untilResolved;
    @Option(names = "--max-trials", paramLabel = "N", description = "the budget of trials per world of a sequential "
            + "audit (--until-resolved, or a scenario whose stopping rule is sequential)")
    String maxTrialsText;

    /** The overrides, validated. */
    ScenarioOverrides overrides() {
        return new ScenarioOverrides(
                trialsText != null ? OptionValues.wholeNumber("--trials", trialsText) : null,
                seedText != null ? OptionValues.wholeNumber("--seed", seedText) : null, estimate, untilResolved,
                maxTrialsText != null ? OptionValues.wholeNumber("--max-trials", maxTrialsText) : null);
    }

    /** The worker threads, validated. */
    int threads() {
        return OptionValues.threads(threadsText);
    }

    /** The options a resumed run must repeat to continue with the same trials and seed. */
    String resumeOptions(ScenarioOverrides o, long trials, long seed) {
        return (o.trials() != null ? " --trials " + trials : "") + (untilResolved ? " --until-resolved" : "")
                + (o.maxTrials() != null ? " --max-trials " + trials : "") + (o.seed() != null ? " --seed " + seed : "");
    }
}
