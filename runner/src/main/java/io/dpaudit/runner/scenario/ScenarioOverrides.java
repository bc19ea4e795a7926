package io.dpaudit.runner.scenario;

import io.dpaudit.core.Checks;
import io.dpaudit.core.InvalidInputException;
import io.dpaudit.core.audit.Stopping;

/**
 * What a caller overrides in a scenario it audits (the command line's {@code --trials}, {@code --seed},
 * {@code --estimate}, {@code --until-resolved}, {@code --max-trials}), applied once: the scenario's own values are the
 * defaults.
 *
 * @param trials trials per world, or null for the scenario's
 * @param seed the root seed, or null for the scenario's
 * @param estimate whether to add the two-sided privacy-loss estimate (a scenario that asks for it keeps it)
 * @param untilResolved whether to audit sequentially (a scenario whose stopping rule is sequential stays so)
 * @param maxTrials the budget of trials per world of a sequential audit, or null
 */
public record ScenarioOverrides(Long trials, Long seed, boolean estimate, boolean untilResolved, Long maxTrials) {
    /** No override: every value is the scenario's. */
    public static final ScenarioOverrides NONE = new ScenarioOverrides(null, null, false, false, null);

    public ScenarioOverrides {
        if (trials != null) {
            Checks.trials("--trials", trials);
        }
        if (maxTrials != null) {
            Checks.trials("--max-trials", maxTrials);
        }
    }

    /**
     * The scenario with these overrides: the estimate if asked for, and its trials and stopping rule —
     * {@code untilResolved} makes it sequential (the default first stage), and a sequential audit's budget is
     * {@code maxTrials}, else {@code trials}, else the scenario's trials.
     *
     * @throws InvalidInputException for a budget given to a fixed design, or two budgets that differ
     */
    public Scenario apply(Scenario read) {
        Scenario s = estimate ? read.withEstimate() : read;
        boolean sequential = untilResolved || s.stopping().sequential();
        if (maxTrials != null && !sequential) {
            throw new InvalidInputException("--max-trials", maxTrials, "applies to a sequential audit (--until-resolved, "
                    + "or a scenario whose stopping rule is sequential)");
        }
        if (maxTrials != null && trials != null && !maxTrials.equals(trials)) {
            throw new InvalidInputException("--trials", trials, "conflicts with --max-trials " + maxTrials
                    + " (a sequential audit's budget; give one of them)");
        }
        long budget = maxTrials != null ? maxTrials : trials != null ? trials : s.trials();
        Stopping rule = s.stopping().sequential() ? s.stopping() : sequential ? Stopping.SEQUENTIAL : Stopping.FIXED;
        return s.withStopping(rule, budget);
    }

    /** The root seed: the override, else the scenario's. */
    public long seed(Scenario s) {
        return seed != null ? seed : s.seed();
    }
}
