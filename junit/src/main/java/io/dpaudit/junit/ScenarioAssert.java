package io.dpaudit.junit;

import io.dpaudit.core.audit.AuditResult;
import io.dpaudit.core.audit.ClaimResult;
import io.dpaudit.core.audit.TradeOffClaimResult;
import io.dpaudit.core.audit.Verdict;
import io.dpaudit.core.engine.ProgressListener;
import io.dpaudit.runner.ScenarioAudit;
import io.dpaudit.runner.scenario.Scenario;
import io.dpaudit.runner.scenario.ScenarioOverrides;
import io.dpaudit.runner.scenario.ScenarioReader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.opentest4j.AssertionFailedError;

/**
 * An assertion about a scenario file: its claims audited exactly as {@code dp-audit run} audits them (the runner's
 * preparation and engine), at the test's trial count and seed. {@link #holdsItsClaims} fails when a claim is violated
 * — the same error rate as the scenario's confidence per claim — or contested, or, failing closed, when one is
 * inconclusive (unless {@link #allowLowPower}). Immutable.
 */
public final class ScenarioAssert {
    private final Path scenario;
    private final long trials;
    private final Long seed;
    private final int threads;
    private final boolean allowLowPower;

    ScenarioAssert(Path scenario) {
        this(scenario, 0, null, Runtime.getRuntime().availableProcessors(), false);
    }

    private ScenarioAssert(Path scenario, long trials, Long seed, int threads, boolean allowLowPower) {
        this.scenario = scenario;
        this.trials = trials;
        this.seed = seed;
        this.threads = threads;
        this.allowLowPower = allowLowPower;
    }

    /** Trials per world (default: the scenario's). */
    public ScenarioAssert withTrials(long n) {
        return new ScenarioAssert(scenario, n, seed, threads, allowLowPower);
    }

    /** The root seed (default: the scenario's). */
    public ScenarioAssert withSeed(long s) {
        return new ScenarioAssert(scenario, trials, s, threads, allowLowPower);
    }

    /** Worker threads (never changes a number). */
    public ScenarioAssert withThreads(int k) {
        return new ScenarioAssert(scenario, trials, seed, k, allowLowPower);
    }

    /** Lets an inconclusive claim pass (off by default: an underpowered audit proves nothing). */
    public ScenarioAssert allowLowPower() {
        return new ScenarioAssert(scenario, trials, seed, threads, true);
    }

    /**
     * Passes when no claim of the scenario is violated — by the attack's bounds or, when the scenario asks for it, the
     * white-box estimate — none is contested ({@link ClaimResult#epsilonBoundAboveClaim}), and none is inconclusive for
     * want of power (unless allowed).
     *
     * @return the audit, for further checks
     * @throws AssertionFailedError listing every claim that failed, one per line, with its evidence and power
     */
    public AuditResult holdsItsClaims() {
        ScenarioOverrides overrides = new ScenarioOverrides(trials > 0 ? trials : null, seed, false, false, null);
        Scenario s = overrides.apply(ScenarioReader.read(scenario));
        AuditResult r = ScenarioAudit.audit(ScenarioAudit.prepare(s, s.trials(), overrides.seed(s), threads),
                ProgressListener.NONE);
        List<String> failed = new ArrayList<>();
        for (ClaimResult c : r.claims()) {
            boolean contested = c.epsilonBoundAboveClaim();
            if (fails(c.verdict()) || contested) {
                failed.add(String.format(Locale.ROOT, "%s (epsilon %s, delta %s): %s%s, empirical delta >= %s at its "
                        + "epsilon, would refute epsilon >= %s at its delta (delta >= %s at its epsilon)",
                        c.claim().label(), MechanismAssert.number(c.claim().epsilon()),
                        MechanismAssert.number(c.claim().delta()), c.verdict().label(), (c.decidedBy().isEmpty() ? ""
                                : " by " + String.join(" and ", c.decidedBy().stream().map(e -> e.label()).toList())
                                        + " evidence") + (contested ? ", contested: epsilon >= "
                                        + MechanismAssert.number(c.epsilonLowerBound().epsilon()) + " at its delta"
                                        : ""),
                        MechanismAssert.number(c.deltaLowerBound().delta()), MechanismAssert.number(c.power().epsilon()),
                        MechanismAssert.number(c.power().delta())));
            }
        }
        for (TradeOffClaimResult c : r.tradeOffClaims()) {
            if (fails(c.verdict())) {
                failed.add(String.format(Locale.ROOT, "%s (f-DP): %s, certified mu >= %s, would detect mu >= %s",
                        c.claim().label(), c.verdict().label(), MechanismAssert.number(c.gdpMuLowerBound()),
                        MechanismAssert.number(c.power().mu())));
            }
        }
        if (!failed.isEmpty()) {
            throw new AssertionFailedError(MechanismAssert.wrap(String.format(Locale.ROOT, "scenario %s, %d trials per "
                    + "world, seed %d:%n%s", scenario, s.trials(), overrides.seed(s), String.join(String.format("%n"),
                    failed))));
        }
        return r;
    }

    private boolean fails(Verdict v) {
        return v == Verdict.VIOLATED || (v == Verdict.INCONCLUSIVE && !allowLowPower);
    }
}
