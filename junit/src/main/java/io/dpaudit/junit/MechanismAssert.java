package io.dpaudit.junit;

import io.dpaudit.attacks.BlackBoxAudit;
import io.dpaudit.core.Checks;
import io.dpaudit.core.audit.AuditResult;
import io.dpaudit.core.audit.Claim;
import io.dpaudit.core.audit.ClaimResult;
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
 * <p><b>False failures.</b> {@link #satisfies} fails only when a one-sided Clopper–Pearson test, certified on trials
 * that did not choose it, shows {@code TPR - e^eps FPR > delta} at the assertion's confidence (default
 * {@value #DEFAULT_CONFIDENCE}). For a mechanism that truly satisfies the claim on this pair, a passing assertion
 * therefore fails with probability at most {@code 1 - confidence} = 0.1% over seeds — whatever the distinguisher
 * learns, whatever the number of trials. With a fixed seed the outcome is reproducible: the same seed and trials give
 * the same verdict on every machine and thread count. {@link #violates} can fail for want of power (too few trials,
 * a weak distinguisher), never because of chance in the other direction.
 *
 * @param <I> the input type
 */
public final class MechanismAssert<I> {
    /** Default confidence of an assertion's verdict. */
    public static final double DEFAULT_CONFIDENCE = 0.999;

    private final BlackBoxAudit<I> audit;

    MechanismAssert(BlackBoxMechanism<I> mechanism, I withCanary, I withoutCanary) {
        this(BlackBoxAudit.of(mechanism, withCanary, withoutCanary).confidence(DEFAULT_CONFIDENCE));
    }

    private MechanismAssert(BlackBoxAudit<I> audit) {
        this.audit = audit;
    }

    /** Trials per world (default 10^6). More trials, more power; the false-failure rate does not change. */
    public MechanismAssert<I> withTrials(long trials) {
        return new MechanismAssert<>(audit.trials(trials));
    }

    /** The root seed (default 0). */
    public MechanismAssert<I> withSeed(long seed) {
        return new MechanismAssert<>(audit.seed(seed));
    }

    /** Worker threads (default: the processors; never changes the verdict). */
    public MechanismAssert<I> withThreads(int threads) {
        return new MechanismAssert<>(audit.threads(threads));
    }

    /** The confidence of the verdict, in (0, 1) (default {@value #DEFAULT_CONFIDENCE}). */
    public MechanismAssert<I> withConfidence(double confidence) {
        return new MechanismAssert<>(audit.confidence(confidence));
    }

    /** Tell the worlds apart by a threshold on {@code statistic} of the output (e.g. a coordinate). */
    public MechanismAssert<I> usingStatistic(ToDoubleFunction<double[]> statistic, String description) {
        return new MechanismAssert<>(audit.statistic(statistic, description));
    }

    /** Tell the worlds apart by a learned classifier (the default), learning from {@code outputs} per world. */
    public MechanismAssert<I> usingLearnedDistinguisher(int outputs) {
        return new MechanismAssert<>(audit.learned(outputs));
    }

    /** A name for the mechanism in failure messages. */
    public MechanismAssert<I> describedAs(String description) {
        return new MechanismAssert<>(audit.describedAs(description));
    }

    /**
     * Passes unless the audit refutes {@code (epsilon, delta)}-DP on this pair.
     *
     * @param epsilon claimed ε, at least 0
     * @param delta claimed δ, in [0, 1) (0 for pure DP)
     * @return the audit, for further checks
     * @throws AssertionFailedError naming the empirical bound, its confidence, the certifying test and the seed
     */
    public AuditResult satisfies(double epsilon, double delta) {
        Claim claim = claim(epsilon, delta);
        AuditResult r = audit.run(List.of(claim));
        ClaimResult c = r.claims().get(0);
        if (c.verdict() == Verdict.VIOLATED) {
            throw new AssertionFailedError(String.format(Locale.ROOT, "expected the mechanism to satisfy %s, but "
                    + "the audit refutes it: %s", claim.label(), evidence(r, c)));
        }
        return r;
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
