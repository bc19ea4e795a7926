package io.dpaudit.core.audit;

import io.dpaudit.core.bounds.AccountingLimitException;
import io.dpaudit.core.bounds.BoundKind;
import io.dpaudit.core.bounds.PrivacyBound;
import java.util.ArrayList;
import java.util.List;

/**
 * The analytic evidence on one (ε, δ) claim: the largest of the mechanism's proven lower bounds on its worst-case
 * δ at the claim's ε ({@link BoundKind#LOWER_BOUND}, each rounded down by its own computation), and which bound gave
 * it. A mechanism satisfies the claim only if its δ(ε) is at most the claimed δ, and δ(ε) is at least every proven
 * lower bound, so {@code delta > claim δ} refutes the claim with certainty ({@link Evidence#ANALYTIC}).
 *
 * @param bound the name of the bound that gave the largest δ
 * @param delta its δ at the claim's ε
 */
public record ClaimAnalytic(String bound, double delta) {

    /** Whether this evidence refutes {@code claim}: the proven lower bound on δ at its ε exceeds its δ. */
    public boolean refutes(Claim claim) {
        return delta > claim.delta();
    }

    /**
     * The analytic evidence on each claim, in order: null for a claim where no bound of kind {@code lower-bound}
     * among {@code bounds} gives a positive δ (a bound that cannot be computed at the claim's ε says nothing there).
     */
    public static List<ClaimAnalytic> of(List<Claim> claims, List<PrivacyBound> bounds) {
        List<ClaimAnalytic> out = new ArrayList<>();
        for (Claim c : claims) {
            ClaimAnalytic best = null;
            for (PrivacyBound b : bounds) {
                if (b.kind() != BoundKind.LOWER_BOUND) {
                    continue;
                }
                double d;
                try {
                    d = b.delta(c.epsilon());
                } catch (AccountingLimitException e) {
                    continue;
                }
                if (d > 0 && (best == null || d > best.delta())) {
                    best = new ClaimAnalytic(b.name(), d);
                }
            }
            out.add(best);
        }
        return out;
    }
}
