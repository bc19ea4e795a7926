package io.dpaudit.junit;

import io.dpaudit.core.audit.AuditResult;
import io.dpaudit.core.audit.ClaimResult;
import io.dpaudit.core.audit.EstimateVerdict;
import io.dpaudit.core.audit.TradeOffClaimResult;
import io.dpaudit.core.audit.Verdict;
import io.dpaudit.core.engine.ProgressListener;
import io.dpaudit.runner.ScenarioAudit;
import io.dpaudit.runner.scenario.Scenario;
import io.dpaudit.runner.scenario.ScenarioReader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.opentest4j.AssertionFailedError;

/**
 * An assertion about a scenario file: its claims audited exactly as {@code dp-audit run} audits them (the runner's
 * preparation and engine), at the test's trial count and seed. {@link #holdsItsClaims} fails when a claim is violated
 * — the same error rate as the scenario's confidence per claim — or, failing closed, when one is inconclusive (unless
 * {@link #allowLowPower}). Immutable.
 */
public final class ScenarioAssert {
    private static final System.Logger LOG = System.getLogger("io.dpaudit.junit");

    private final Path scenario;
    private final long trials;
    private final Long seed;
    private final int threads;
    private final boolean allowLowPower;
    private final boolean failOnContested;

    ScenarioAssert(Path scenario) {
        this(scenario, 0, null, Runtime.getRuntime().availableProcessors(), false, false);
    }

    private ScenarioAssert(Path scenario, long trials, Long seed, int threads, boolean allowLowPower,
            boolean failOnContested) {
        this.scenario = scenario;
        this.trials = trials;
        this.seed = seed;
        this.threads = threads;
        this.allowLowPower = allowLowPower;
        this.failOnContested = failOnContested;
    }

    /** Trials per world (default: the scenario's). */
    public ScenarioAssert withTrials(long n) {
        return new ScenarioAssert(scenario, n, seed, threads, allowLowPower, failOnContested);
    }

    /** The root seed (default: the scenario's). */
    public ScenarioAssert withSeed(long s) {
        return new ScenarioAssert(scenario, trials, s, threads, allowLowPower, failOnContested);
    }

    /** Worker threads (never changes a number). */
    public ScenarioAssert withThreads(int k) {
        return new ScenarioAssert(scenario, trials, seed, k, allowLowPower, failOnContested);
    }

    /** Lets an inconclusive claim pass (off by default: an underpowered audit proves nothing). */
    public ScenarioAssert allowLowPower() {
        return new ScenarioAssert(scenario, trials, seed, threads, true, failOnContested);
    }

    /**
     * Fails a contested claim too ({@link ClaimResult#epsilonBoundAboveClaim}: not violated, but its ε lower bound at
     * its δ exceeds its ε). Off by default, as the two statements together double the error rate: a true claim then
     * fails with probability up to twice one minus the scenario's confidence, not once.
     */
    public ScenarioAssert failOnContested() {
        return new ScenarioAssert(scenario, trials, seed, threads, allowLowPower, true);
    }

    /**
     * Passes when no claim of the scenario is violated and none is inconclusive (unless allowed); a contested claim
     * ({@link ClaimResult#epsilonBoundAboveClaim}) passes with a warning in the log, or fails after
     * {@link #failOnContested()}. When the scenario asks for the two-sided estimate, a claim the estimate refutes but
     * the audit's test did not passes with a warning in the log.
     *
     * @return the audit, for further checks
     * @throws AssertionFailedError listing every claim that failed, with its evidence and power
     */
    public AuditResult holdsItsClaims() {
        Scenario s = ScenarioReader.read(scenario);
        long n = trials > 0 ? trials : s.trials();
        long root = seed != null ? seed : s.seed();
        AuditResult r = ScenarioAudit.audit(ScenarioAudit.prepare(s, n, root, threads), ProgressListener.NONE);
        List<String> failed = new ArrayList<>();
        for (ClaimResult c : r.claims()) {
            if (fails(c.verdict())) {
                failed.add(String.format(Locale.ROOT, "%s (epsilon %s, delta %s): %s, empirical delta >= %s at its "
                        + "epsilon, would detect delta >= %s", c.claim().label(), MechanismAssert.number(
                                c.claim().epsilon()), MechanismAssert.number(c.claim().delta()), c.verdict().label(),
                        MechanismAssert.number(c.deltaLowerBound().delta()), MechanismAssert.number(c.power().delta())));
            } else if (failOnContested && c.epsilonBoundAboveClaim()) {
                failed.add(String.format(Locale.ROOT, "%s (epsilon %s, delta %s): %s but contested, epsilon >= %s at "
                        + "its delta (failOnContested)", c.claim().label(), MechanismAssert.number(c.claim().epsilon()),
                        MechanismAssert.number(c.claim().delta()), c.verdict().label(),
                        MechanismAssert.number(c.epsilonLowerBound().epsilon())));
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
            throw new AssertionFailedError(String.format(Locale.ROOT, "scenario %s, %d trials per world, seed %d: %s",
                    scenario, n, root, String.join("; ", failed)));
        }
        for (ClaimResult c : r.claims()) {
            if (c.estimate() != null && c.estimate().verdict() == EstimateVerdict.VIOLATED) {
                // the scenario asked for the estimate: a claim it refutes passes on the audit's verdict, not silently
                LOG.log(System.Logger.Level.WARNING, () -> String.format(Locale.ROOT, "dp-audit: scenario %s, claim "
                        + "%s: the two-sided estimate refutes it (the pair needs epsilon in [%s, %s] at its delta; the "
                        + "estimate relies on the simulator's exact likelihood ratio), while the audit's test did not",
                        scenario, c.claim().label(), MechanismAssert.number(c.estimate().requiredEpsilon().lower()),
                        MechanismAssert.number(c.estimate().requiredEpsilon().upper())));
            }
            if (c.epsilonBoundAboveClaim()) { // passes (its verdict holds at its error rate), but not silently
                LOG.log(System.Logger.Level.WARNING, () -> String.format(Locale.ROOT, "dp-audit: scenario %s, claim %s "
                        + "is contested: epsilon >= %s at its delta exceeds the claimed %s (a separate statement at "
                        + "the same confidence); audit it again on fresh trials", scenario, c.claim().label(),
                        MechanismAssert.number(c.epsilonLowerBound().epsilon()),
                        MechanismAssert.number(c.claim().epsilon())));
            }
        }
        return r;
    }

    private boolean fails(Verdict v) {
        return v == Verdict.VIOLATED || (v == Verdict.INCONCLUSIVE && !allowLowPower);
    }
}
