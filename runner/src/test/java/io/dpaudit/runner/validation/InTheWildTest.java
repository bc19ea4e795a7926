package io.dpaudit.runner.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.dpaudit.core.audit.ClaimResult;
import io.dpaudit.core.audit.Verdict;
import io.dpaudit.runner.analysis.AuditOutcome;
import java.io.File;
import java.util.Arrays;
import java.util.Locale;
import java.util.Objects;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The accounting bugs public DP libraries shipped ({@code scenarios/in-the-wild/}), each a pair: {@code NAME.json}, the
 * mechanism as the library ran it with the claim its accountant printed, must be VIOLATED; {@code NAME-fixed.json},
 * the fix, must be CONSISTENT (not violated, and powered: not inconclusive). At their shipped trials and seeds (the whole
 * folder runs in about 45 s on 2 cores), so the outcome is deterministic; for a random seed a fix is flagged with
 * probability at most 5% (its confidence), and the bugs are refuted by the margins printed.
 */
@Tag("statistical")
class InTheWildTest {
    /**
     * Not a bug/fix pair: an accountant's printed values at δ = 1.1e-18 against the true curve, judged by the
     * importance-sampled estimate (40 s even at 500 samples per target), whose verdicts and intervals
     * {@link PinnedScenarioNumbersTest} pins; the certified PLD bracket it relies on is tested in
     * {@code PldAccountantTest}.
     */
    private static final String ACCOUNTANT_CHECK = "prv-accountant-tiny-delta.json";

    @Test
    void everyBugIsViolatedAndEveryFixConsistent() {
        String[] files = Objects.requireNonNull(new File("../scenarios/in-the-wild").list((d, n) -> n.endsWith(".json")));
        Arrays.sort(files);
        assertEquals(15, files.length, "seven bugs, each with its fix, and the PRV accountant's tiny-delta check: "
                + Arrays.toString(files));
        for (String f : files) {
            if (f.equals(ACCOUNTANT_CHECK)) {
                continue;
            }
            boolean fixed = f.endsWith("-fixed.json");
            if (!fixed) {
                assertEquals(true, Arrays.asList(files).contains(f.replace(".json", "-fixed.json")), f + " has a fix");
            }
            AuditOutcome r = ShippedScenarios.audit("in-the-wild", f);
            for (ClaimResult c : r.result().claims()) {
                System.out.printf(Locale.ROOT, "[in the wild] %-46s %-12s claim %.4g at %.0e, epsilon >= %.4g, would "
                        + "detect %.4g%n", f, c.verdict().label(), c.claim().epsilon(), c.claim().delta(),
                        c.epsilonLowerBound().epsilon(), c.power().epsilon());
                assertEquals(fixed ? Verdict.CONSISTENT : Verdict.VIOLATED, c.verdict(), f + ": " + c.claim().label());
            }
        }
    }
}
