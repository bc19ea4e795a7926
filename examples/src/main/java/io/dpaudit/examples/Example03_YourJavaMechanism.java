package io.dpaudit.examples;

import io.dpaudit.attacks.BlackBoxAudit;
import io.dpaudit.core.audit.AuditResult;
import io.dpaudit.core.audit.Claim;
import io.dpaudit.core.blackbox.BlackBoxMechanism;
import java.util.List;
import java.util.Locale;

/**
 * Audit a mechanism written in Java as a black box: dp-audit calls it millions of times on the two neighbouring
 * inputs, with a random source it provides (so that the audit is reproducible), and a distinguisher learns to tell the
 * outputs apart. Here a counting query with Laplace noise whose scale was set to epsilon instead of 1/epsilon — the
 * bug of StatDP's {@code histogram_eps} — is audited against its claim of epsilon = 0.5. In a test suite, the same
 * check is one line of {@code DpAssert} (module {@code dp-audit-junit}; see {@code ExamplesTest}).
 */
public final class Example03_YourJavaMechanism {
    private Example03_YourJavaMechanism() {
    }

    /** The buggy mechanism: count + Laplace(scale epsilon) with epsilon = 0.5, so it is 2-DP, not 0.5-DP. */
    public static final BlackBoxMechanism<Integer> BUGGY_COUNT = (count, rng) -> {
        double u = rng.nextDouble() - 0.5;
        return new double[] {count - 0.5 * Math.signum(u) * Math.log1p(-2 * Math.abs(u))};
    };

    /** Audits the claim (0.5, 0) on the neighbouring counts 1 and 0. */
    public static AuditResult run(long trials) {
        return BlackBoxAudit.of(BUGGY_COUNT, 1, 0).trials(trials).seed(3).threads(2)
                .run(List.of(new Claim("0.5-DP", 0.5, 0.0, "stated")));
    }

    /** Runs the example and prints what it found. */
    public static void main(String[] args) {
        AuditResult r = run(2_000_000L);
        System.out.printf(Locale.ROOT, "claim 0.5-DP: %s; pure-DP epsilon >= %.4g (attack: %s)%n",
                r.claims().get(0).verdict().label(), r.claims().get(0).epsilonLowerBound().epsilon(), r.attack());
    }
}
