package io.dpaudit.junit;

import io.dpaudit.attacks.BlackBoxAudit;
import io.dpaudit.core.Checks;
import io.dpaudit.core.audit.AuditResult;
import io.dpaudit.core.audit.Claim;
import io.dpaudit.core.audit.ClaimResult;
import io.dpaudit.core.audit.Stopping;
import io.dpaudit.core.audit.Verdict;
import io.dpaudit.core.blackbox.BlackBoxMechanism;
import io.dpaudit.core.estimate.SelectedTest;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;
import org.opentest4j.AssertionFailedError;

/**
 * An assertion about one mechanism on one neighbouring pair. Immutable: each {@code with...} returns a new assertion.
 *
 * <p><b>False failures.</b> {@link #satisfies} fails on a verdict of {@code violated} only when a one-sided
 * Clopper–Pearson test, certified on trials that did not choose it, shows {@code TPR - e^eps FPR > delta} at the
 * assertion's confidence (default {@value #DEFAULT_CONFIDENCE}); and it fails on a contested claim, whose ε lower bound
 * at its δ (a second statement at the same confidence) exceeds its ε. For a mechanism that truly satisfies the claim on
 * this pair, a well-powered assertion therefore fails with probability at most {@code 2 (1 - confidence)} = 0.2% over
 * seeds — whatever the distinguisher learns, whatever the number of trials. With a fixed seed the outcome is
 * reproducible: the same seed and trials give the same verdict on every machine and thread count. {@link #violates}
 * can fail for want of power (too few trials, a weak distinguisher), never because of chance in the other direction.
 *
 * <p><b>Sequential by default.</b> The audit runs in stages of 1,000, 2,000, 4,000, ... trials per world and judges the
 * claim after each, stopping as soon as it is violated or powered-consistent, up to a budget of 10^6 trials per world
 * ({@link #withTrials} sets it): a broken mechanism fails after a few thousand trials, a correct one passes once the
 * audit has the power to see a violation. Look {@code k} before the last makes its statements at error level
 * {@code alpha / (2 k (k + 1))} and the last at {@code alpha / 2} ({@code alpha = 1 - confidence}; {@code StageSchedule}),
 * which sum to less than {@code alpha} over all looks, so the false-failure rate below holds whatever look decides. {@link #withFixedDesign()} runs every trial first and judges once.
 *
 * <p><b>Fails closed.</b> An audit that could not have refuted the claim proves nothing, so {@link #satisfies} also
 * fails when the verdict is {@code inconclusive}: the audit would not have refuted, with probability 0.9, a Laplace
 * (or, for δ &gt; 0, Gaussian) mechanism with 1.5 times the claimed ε at its δ ({@code EpsilonPower}). The failure
 * says how many trials per world would. A test that knowingly accepts an underpowered check opts in with
 * {@link #allowLowPower()}. On success the ε lower bound and the power in ε are logged (logger
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

    MechanismAssert(BlackBoxMechanism<I> mechanism, I withCanary, I withoutCanary) {
        this(BlackBoxAudit.of(mechanism, withCanary, withoutCanary).confidence(DEFAULT_CONFIDENCE)
                .stopping(Stopping.SEQUENTIAL), false);
    }

    private MechanismAssert(BlackBoxAudit<I> audit, boolean allowLowPower) {
        this.audit = audit;
        this.allowLowPower = allowLowPower;
    }

    /** The same options on another audit. */
    private MechanismAssert<I> with(BlackBoxAudit<I> other) {
        return new MechanismAssert<>(other, allowLowPower);
    }

    /**
     * Lets {@link #satisfies} pass an audit that is inconclusive for want of power (one that could not have refuted
     * the claim). Off by default: only for tests that check something else and know the trials are too few. A
     * contested claim still fails: its evidence speaks against the claim, whatever the power.
     */
    public MechanismAssert<I> allowLowPower() {
        return new MechanismAssert<>(audit, true);
    }

    /**
     * Trials per world (default 10^6): the budget of the sequential audit, or all the trials of a fixed design. More
     * trials, more power; the false-failure rate does not change.
     */
    public MechanismAssert<I> withTrials(long trials) {
        return with(audit.trials(trials));
    }

    /**
     * Runs every trial, then judges once (no stages): the design before sequential audits, for a test that wants its
     * numbers from exactly {@link #withTrials} trials.
     */
    public MechanismAssert<I> withFixedDesign() {
        return with(audit.stopping(Stopping.FIXED));
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
     * Passes when the audit finds no violation of {@code (epsilon, delta)}-DP on this pair, nothing certified contests
     * it, <i>and</i> it had the power to find one (verdict {@code consistent}; an underpowered {@code inconclusive}
     * passes only after {@link #allowLowPower()}).
     *
     * @param epsilon claimed ε, at least 0
     * @param delta claimed δ, in [0, 1) (0 for pure DP)
     * @return the audit, for further checks
     * @throws AssertionFailedError naming the evidence, its confidence, the certifying test and the seed; or, for an
     *     underpowered audit, what it could have detected and how many trials would do
     */
    public AuditResult satisfies(double epsilon, double delta) {
        Claim claim = claim(epsilon, delta);
        AuditResult r = audit.run(List.of(claim));
        ClaimResult c = r.claims().get(0);
        if (c.verdict() == Verdict.VIOLATED) {
            throw new AssertionFailedError(wrap(String.format(Locale.ROOT, "expected the mechanism to satisfy %s,%n"
                    + "but the audit refutes it: empirical delta >= %s at epsilon = %s (%s%% confidence).%n%s",
                    claim.label(), number(c.deltaLowerBound().delta()), number(epsilon),
                    number(100 * audit.confidence()), evidence(r, c))));
        }
        String power = power(c);
        boolean contested = c.epsilonBoundAboveClaim();
        if (contested) {
            throw new AssertionFailedError(wrap(String.format(Locale.ROOT, "the audit does not refute %s, but contests "
                    + "it:%nepsilon >= %s at delta = %s (%s%% confidence, a second statement on the same trials) exceeds "
                    + "the claimed epsilon.%nAudit it again on fresh trials (another seed, or more trials) to settle "
                    + "it.%n%s", claim.label(), number(c.epsilonLowerBound().epsilon()), number(delta),
                    number(100 * audit.confidence()), evidence(r, c))));
        }
        if (c.verdict() == Verdict.INCONCLUSIVE && !allowLowPower) {
            // the audit's trials (selection included) times the factor that resolves it: every count grows alike
            long needed = audit.trials() * c.power().trialsFactorToResolve();
            throw new AssertionFailedError(wrap(String.format(Locale.ROOT, "the audit of %s is inconclusive:%n"
                    + "%d trials per world could not have refuted it (%s),%nso passing would prove nothing.%n%s%n"
                    + "Or, if an underpowered check is intended, use .allowLowPower().%n%s", claim.label(),
                    audit.trials(), power, needed > 0 ? "About " + needed + " trials per world would let it refute a "
                    + "mechanism with 1.5 times the claimed epsilon: use .withTrials(" + needed + ")."
                    : "No number of trials lets this test do it: try another distinguisher.", evidence(r, c))));
        }
        LOG.log(System.Logger.Level.INFO, () -> String.format(Locale.ROOT,
                "dp-audit: %s %s: epsilon >= %s at delta = %s (%s%% confidence), %s; %s trials per world%s, seed %d",
                claim.label(), c.verdict().label(), number(c.epsilonLowerBound().epsilon()), number(delta),
                number(100 * audit.confidence()), power, r.settings().trialsPerWorld(), r.sequential() == null ? ""
                        : " (sequential, look " + r.sequential().last().look() + " of a budget of " + audit.trials()
                                + ")", audit.seed()));
        return r;
    }

    /** What the audit could have refuted, in ε first. */
    private static String power(ClaimResult c) {
        double d = c.power().delta();
        double e = c.power().epsilon();
        String inDelta = Double.isFinite(d) ? "its test would have flagged a delta >= " + number(d) + " at epsilon = "
                + number(c.claim().epsilon()) : "its test could not have flagged any delta at epsilon = "
                + number(c.claim().epsilon());
        if (c.claim().epsilon() == 0 || !Double.isFinite(e)) {
            return inDelta + " with probability " + number(c.power().probability());
        }
        return "it would have refuted a Laplace" + (c.claim().delta() > 0 ? " or Gaussian" : "") + " mechanism with "
                + "epsilon >= " + number(e) + " at delta = " + number(c.claim().delta()) + " with probability "
                + number(c.power().probability()) + "; " + inDelta;
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
            throw new AssertionFailedError(wrap(String.format(Locale.ROOT, "expected the audit to refute %s,%nbut it "
                    + "found no violation (%s).%nMore trials (.withTrials) or another distinguisher may find it.%n%s",
                    claim.label(), c.verdict().label(), evidence(r, c))));
        }
        return r;
    }

    private static Claim claim(double epsilon, double delta) {
        Checks.nonNegative("epsilon", epsilon);
        Checks.deltaOrZero("delta", delta);
        return new Claim(String.format(Locale.ROOT, "(%s, %s)-DP", number(epsilon), number(delta)), epsilon, delta,
                "stated");
    }

    /** The widest line of a failure message; longer lines are broken at spaces, continued with an indent. */
    static final int LINE = 100;

    /** {@code message} with every line broken at spaces to at most {@value #LINE} characters where it can be. */
    static String wrap(String message) {
        StringBuilder out = new StringBuilder();
        for (String line : message.split("\\R", -1)) {
            if (out.length() > 0) {
                out.append('\n');
            }
            int width = 0;
            for (String word : line.split(" ")) {
                if (width > 0 && width + 1 + word.length() > LINE) {
                    out.append("\n  ");
                    width = 2;
                } else if (width > 0) {
                    out.append(' ');
                    width++;
                }
                out.append(word);
                width += word.length();
            }
        }
        return out.toString();
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
        String run = r.sequential() == null ? audit.trials() + " trials per world"
                : String.format(Locale.ROOT, "sequential: look %d of the audit, after %d of a budget of %d trials per "
                        + "world (the look's statements at %s%% each)", r.sequential().claimLooks().get(0),
                        r.sequential().looks().get(r.sequential().claimLooks().get(0) - 1).trialsPerWorld(),
                        audit.trials(), number(100 * r.sequential().looks().get(r.sequential().claimLooks().get(0)
                                - 1).confidence()));
        return String.format(Locale.ROOT, "Evidence: empirical delta >= %s at epsilon = %s and epsilon >= %s at "
                + "delta = %s, at %s%% confidence.%nCertifying test: %s at threshold %s, %d of %d trials flagged in "
                + "the flagged world (rate >= %s), %d of %d in the other (rate <= %s).%nDistinguisher: %s.%n%s, seed "
                + "%d (reproduce with .withSeed(%d).withTrials(%d)).",
                number(c.deltaLowerBound().delta()), number(c.claim().epsilon()),
                number(c.epsilonLowerBound().epsilon()), number(c.claim().delta()), number(100 * audit.confidence()),
                t.direction().describe(), number(t.threshold()), t.truePositives(), t.trials(),
                number(t.truePositiveRateLower()), t.falsePositives(), t.otherTrials(),
                number(t.falsePositiveRateUpper()), r.attack(), run, audit.seed(), audit.seed(), audit.trials());
    }
}
