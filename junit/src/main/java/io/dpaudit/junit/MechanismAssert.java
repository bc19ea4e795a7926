package io.dpaudit.junit;

import io.dpaudit.attacks.BlackBoxAudit;
import io.dpaudit.core.Checks;
import io.dpaudit.core.audit.AuditResult;
import io.dpaudit.core.audit.Claim;
import io.dpaudit.core.audit.ClaimResult;
import io.dpaudit.core.audit.Verdict;
import io.dpaudit.core.blackbox.BlackBoxMechanism;
import io.dpaudit.core.estimate.DetectionPower;
import io.dpaudit.core.estimate.SelectedTest;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;
import org.opentest4j.AssertionFailedError;

/**
 * An assertion about one mechanism on one neighbouring pair. Immutable: each {@code with...} returns a new assertion.
 *
 * <p><b>False failures.</b> {@link #satisfies} fails only when a one-sided Clopper–Pearson test, certified on trials
 * that did not choose it, shows {@code TPR - e^eps FPR > delta} at the assertion's confidence (default
 * {@value #DEFAULT_CONFIDENCE}). For a mechanism that truly satisfies the claim on this pair, a passing assertion
 * therefore fails with probability at most {@code 1 - confidence} = 0.1% over seeds — whatever the distinguisher
 * learns, whatever the number of trials. With a fixed seed the outcome is reproducible: the same seed and trials give
 * the same verdict on every machine and thread count. {@link #violates} can fail for want of power (too few trials,
 * a weak distinguisher), never because of chance in the other direction. With {@link #failOnContested()} a passing
 * assertion also fails when the ε lower bound at the claim's δ exceeds its ε, a second statement at the same
 * confidence, so the false-failure rate is then up to {@code 2 (1 - confidence)}.
 *
 * <p><b>Fails closed.</b> An audit that could not have refuted the claim proves nothing, so {@link #satisfies} also
 * fails when the verdict is {@code inconclusive}: the test that the audit chose at the claim's ε would not have
 * flagged even a violation ten times the claimed δ with probability 0.9 ({@code DetectionPower}). The failure says how
 * many trials per world would make the same test that sensitive. A test that knowingly accepts an underpowered check
 * opts in with {@link #allowLowPower()}. On success the ε lower bound and the power are logged (logger
 * {@code io.dpaudit.junit}, level INFO).
 *
 * @param <I> the input type
 */
public final class MechanismAssert<I> {
    /** Default confidence of an assertion's verdict. */
    public static final double DEFAULT_CONFIDENCE = 0.999;

    private static final System.Logger LOG = System.getLogger("io.dpaudit.junit");

    private final BlackBoxAudit<I> audit;
    private final boolean allowLowPower;
    private final boolean failOnContested;

    MechanismAssert(BlackBoxMechanism<I> mechanism, I withCanary, I withoutCanary) {
        this(BlackBoxAudit.of(mechanism, withCanary, withoutCanary).confidence(DEFAULT_CONFIDENCE), false, false);
    }

    private MechanismAssert(BlackBoxAudit<I> audit, boolean allowLowPower, boolean failOnContested) {
        this.audit = audit;
        this.allowLowPower = allowLowPower;
        this.failOnContested = failOnContested;
    }

    /** The same options on another audit. */
    private MechanismAssert<I> with(BlackBoxAudit<I> other) {
        return new MechanismAssert<>(other, allowLowPower, failOnContested);
    }

    /**
     * Lets {@link #satisfies} pass an inconclusive audit (one that could not have refuted the claim). Off by default:
     * only for tests that check something else and know the trials are too few.
     */
    public MechanismAssert<I> allowLowPower() {
        return new MechanismAssert<>(audit, true, failOnContested);
    }

    /**
     * Lets {@link #satisfies} fail a contested claim too ({@link ClaimResult#epsilonBoundAboveClaim}: not refuted, but
     * the ε lower bound at the claim's δ exceeds its ε). Off by default, as the two statements together double the
     * error rate: a mechanism that satisfies the claim then fails with probability up to {@code 2 (1 - confidence)}.
     */
    public MechanismAssert<I> failOnContested() {
        return new MechanismAssert<>(audit, allowLowPower, true);
    }

    /** Trials per world (default 10^6). More trials, more power; the false-failure rate does not change. */
    public MechanismAssert<I> withTrials(long trials) {
        return with(audit.trials(trials));
    }

    /** The root seed (default 0). */
    public MechanismAssert<I> withSeed(long seed) {
        return with(audit.seed(seed));
    }

    /** Worker threads (default: the processors; never changes the verdict). */
    public MechanismAssert<I> withThreads(int threads) {
        return with(audit.threads(threads));
    }

    /** The confidence of the verdict, in (0, 1) (default {@value #DEFAULT_CONFIDENCE}). */
    public MechanismAssert<I> withConfidence(double confidence) {
        return with(audit.confidence(confidence));
    }

    /** Tell the worlds apart by a threshold on {@code statistic} of the output (e.g. a coordinate). */
    public MechanismAssert<I> usingStatistic(ToDoubleFunction<double[]> statistic, String description) {
        return with(audit.statistic(statistic, description));
    }

    /** Tell the worlds apart by a learned classifier (the default), learning from {@code outputs} per world. */
    public MechanismAssert<I> usingLearnedDistinguisher(int outputs) {
        return with(audit.learned(outputs));
    }

    /**
     * Runs both worlds of each trial on the same random numbers ({@code BlackBoxAudit.coupled}): each world keeps its
     * law, and the verdict is certified by the paired bound on the trials where the worlds disagree (or each world's
     * own limits, whichever the held-out trials predict tighter), at the same confidence. Where the two worlds' outputs
     * move together under shared noise, far fewer trials refute a false claim or show the power a true one needs. The
     * mechanism must draw only from the {@code rng} it is given and keep no state between runs (the
     * {@link BlackBoxMechanism} contract); one that breaks it voids the guarantee, coupled or not.
     */
    public MechanismAssert<I> withCoupledTrials() {
        return with(audit.coupled(true));
    }

    /** A name for the mechanism in failure messages. */
    public MechanismAssert<I> describedAs(String description) {
        return with(audit.describedAs(description));
    }

    /**
     * Passes when the audit finds no violation of {@code (epsilon, delta)}-DP on this pair <i>and</i> had the power to
     * find one (verdict {@code consistent}; {@code inconclusive} passes only after {@link #allowLowPower()}). A
     * contested claim ({@link ClaimResult#epsilonBoundAboveClaim}) passes with a warning in the log, or fails after
     * {@link #failOnContested()}.
     *
     * @param epsilon claimed ε, at least 0
     * @param delta claimed δ, in [0, 1) (0 for pure DP)
     * @return the audit, for further checks
     * @throws AssertionFailedError naming the empirical bound, its confidence, the certifying test and the seed; or,
     *     for an underpowered audit, what it could have detected and how many trials would do
     */
    public AuditResult satisfies(double epsilon, double delta) {
        Claim claim = claim(epsilon, delta);
        AuditResult r = audit.run(List.of(claim));
        ClaimResult c = r.claims().get(0);
        if (c.verdict() == Verdict.VIOLATED) {
            throw new AssertionFailedError(String.format(Locale.ROOT, "expected the mechanism to satisfy %s, but "
                    + "the audit refutes it: %s", claim.label(), evidence(r, c)));
        }
        String power = power(c);
        if (c.verdict() == Verdict.INCONCLUSIVE && !allowLowPower) {
            // the audit's trials (selection included) times the factor that resolves it: every count grows alike
            long needed = audit.trials() * c.power().trialsFactorToResolve();
            throw new AssertionFailedError(String.format(Locale.ROOT, "the audit of %s is inconclusive: %s trials per "
                    + "world could not have refuted it (%s), so passing would prove nothing. %s Or, if an "
                    + "underpowered check is intended, use .allowLowPower(). Evidence: %s", claim.label(),
                    audit.trials(), power, needed > 0 ? "About " + needed + " trials per world would let the same test "
                    + "flag a violation of " + number(DetectionPower.INCONCLUSIVE_FACTOR * delta) + " (ten times the "
                    + "claimed delta): use .withTrials(" + needed + ")." : "No number of trials lets this test flag a "
                    + "violation at that epsilon: try another distinguisher.", evidence(r, c)));
        }
        // A contested claim passes (the verdict's test did not refute it and keeps its error rate) but is logged as a
        // warning: the epsilon lower bound, a separate statement at the same confidence, exceeds the claimed epsilon.
        boolean contested = c.epsilonBoundAboveClaim();
        if (contested && failOnContested) {
            throw new AssertionFailedError(String.format(Locale.ROOT, "the audit does not refute %s (%s), but it is "
                    + "contested: epsilon >= %s at delta = %s (%s%% confidence) exceeds the claimed epsilon "
                    + "(failOnContested). Evidence: %s", claim.label(), c.verdict().label(),
                    number(c.epsilonLowerBound().epsilon()), number(delta), number(100 * audit.confidence()),
                    evidence(r, c)));
        }
        LOG.log(contested ? System.Logger.Level.WARNING : System.Logger.Level.INFO, () -> String.format(Locale.ROOT,
                "dp-audit: %s %s%s: epsilon >= %s at delta = %s (%s%% confidence), %s; %s trials per world, seed %d",
                claim.label(), c.verdict().label(), contested ? ", contested (the epsilon lower bound exceeds the "
                + "claimed epsilon; audit again on fresh trials)" : "", number(c.epsilonLowerBound().epsilon()),
                number(delta), number(100 * audit.confidence()), power, audit.trials(), audit.seed()));
        return r;
    }

    private static String power(ClaimResult c) {
        double d = c.power().delta();
        return Double.isFinite(d) ? "its test would have flagged a delta >= " + number(d) + " at epsilon = "
                + number(c.claim().epsilon()) + " on the event it tests with probability "
                + number(c.power().probability())
                : "it could not have flagged any delta at epsilon = " + number(c.claim().epsilon());
    }

    /**
     * Passes only when the audit refutes {@code (epsilon, delta)}-DP on this pair: for tests that pin a known bug.
     *
     * @return the audit, for further checks
     * @throws AssertionFailedError when no violation is found, with the bounds the audit reached
     */
    public AuditResult violates(double epsilon, double delta) {
        Claim claim = claim(epsilon, delta);
        AuditResult r = audit.run(List.of(claim));
        ClaimResult c = r.claims().get(0);
        if (c.verdict() != Verdict.VIOLATED) {
            throw new AssertionFailedError(String.format(Locale.ROOT, "expected the audit to refute %s, but it found "
                    + "no violation: %s. More trials (.withTrials) or another distinguisher may find it.",
                    claim.label(), evidence(r, c)));
        }
        return r;
    }

    private static Claim claim(double epsilon, double delta) {
        Checks.nonNegative("epsilon", epsilon);
        Checks.deltaOrZero("delta", delta);
        return new Claim(String.format(Locale.ROOT, "(%s, %s)-DP", number(epsilon), number(delta)), epsilon, delta,
                "stated");
    }

    /** A number for a message: integers as such, others with six significant digits ("1e-06", "0.759184"). */
    static String number(double v) {
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return Long.toString((long) v);
        }
        String s = String.format(Locale.ROOT, "%.6g", v);
        if (s.contains("e")) {
            String[] parts = s.split("e");
            return parts[0].replaceAll("\\.?0+$", "") + "e" + parts[1];
        }
        return s.contains(".") ? s.replaceAll("\\.?0+$", "") : s;
    }

    /** The numbers behind a verdict, one paragraph. */
    private String evidence(AuditResult r, ClaimResult c) {
        SelectedTest t = c.deltaLowerBound().test();
        return String.format(Locale.ROOT, "empirical delta >= %s at epsilon = %s and epsilon >= %s at delta = %s, each "
                + "at %s%% confidence; certifying test: %s at threshold %s, %d of %d trials flagged in the flagged "
                + "world (rate >= %s), %d of %d in the other (rate <= %s); distinguisher: %s; %s trials per world, "
                + "seed %d (reproduce with .withSeed(%d).withTrials(%d))",
                number(c.deltaLowerBound().delta()), number(c.claim().epsilon()),
                number(c.epsilonLowerBound().epsilon()), number(c.claim().delta()), number(100 * audit.confidence()),
                t.direction().describe(), number(t.threshold()), t.truePositives(), t.trials(),
                number(t.truePositiveRateLower()), t.falsePositives(), t.otherTrials(),
                number(t.falsePositiveRateUpper()), r.attack(), audit.trials(), audit.seed(), audit.seed(),
                audit.trials());
    }
}
