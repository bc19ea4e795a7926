package io.dpaudit.core.numerics;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.ToDoubleFunction;
import org.junit.jupiter.api.Test;

/**
 * commons-math3 against commons-numbers on the special functions dp-audit's statistics rest on, measured against
 * 25-digit references ({@code numerics/special-functions.csv}, written by
 * {@code scripts/special-function-references.py} with mpmath at 60 digits): erfc (normal tails), log Γ (RDP
 * accountants, binomial tables) and the regularized incomplete beta I_x(a, b) and its complement in the
 * Clopper–Pearson regimes (a = k or k + 1 successes of n = 10^6 .. 10^10 trials). Prints the largest relative
 * error of each library per function and regime, and asserts that the implementation production uses is the more
 * accurate one within a factor that floating-point noise allows, and within a stated bound.
 */
class SpecialFunctionAccuracyTest {
    private static final BigDecimal SMALLEST = new BigDecimal(Double.MIN_NORMAL);
    private static final BigDecimal BETA_FLOOR = new BigDecimal("1e-15");

    private record Ref(String function, double a, double b, double x, BigDecimal value) {
    }

    private static List<Ref> references() throws Exception {
        List<Ref> out = new ArrayList<>();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(SpecialFunctionAccuracyTest.class
                .getResourceAsStream("/numerics/special-functions.csv"), StandardCharsets.UTF_8))) {
            r.readLine();
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                String[] f = line.split(",");
                out.add(new Ref(f[0], f[1].isEmpty() ? Double.NaN : Double.parseDouble(f[1]),
                        f[2].isEmpty() ? Double.NaN : Double.parseDouble(f[2]), Double.parseDouble(f[3]),
                        new BigDecimal(f[4])));
            }
        }
        return out;
    }

    /** |computed - reference| / |reference|, in BigDecimal so that the reference's digits beyond a double count. */
    private static double relativeError(double computed, BigDecimal reference) {
        if (!Double.isFinite(computed)) {
            return Double.POSITIVE_INFINITY;
        }
        if (reference.signum() == 0) {
            return Math.abs(computed);
        }
        return new BigDecimal(computed).subtract(reference).abs()
                .divide(reference.abs(), MathContext.DECIMAL64).doubleValue();
    }

    /** Largest relative error per regime (function, and for the beta the trial count n = a + b - 1). */
    private static Map<String, Double> worst(List<Ref> refs, String function, ToDoubleFunction<Ref> f) {
        Map<String, Double> m = new TreeMap<>();
        for (Ref r : refs) {
            if (!r.function().equals(function) || r.value().abs().compareTo(SMALLEST) < 0) {
                continue; // below the normal doubles: 0 is the right double answer, not a measurable error
            }
            if (r.function().startsWith("regBeta") && r.value().compareTo(BETA_FLOOR) < 0) {
                continue; // Clopper-Pearson solves I = a for error levels a >= 1e-15; deeper tails are not used
            }
            String regime = Double.isNaN(r.a()) ? function
                    : String.format(Locale.ROOT, "%s n=%.0e", function, r.a() + r.b() - 1);
            m.merge(regime, relativeError(f.applyAsDouble(r), r.value()), Math::max);
        }
        return m;
    }

    private static void report(String function, Map<String, Double> math3, Map<String, Double> numbers) {
        for (String k : math3.keySet()) {
            System.out.printf(Locale.ROOT, "[special functions] %-28s commons-math3 %.2e   commons-numbers %.2e%n", k,
                    math3.get(k), numbers.get(k));
        }
    }

    private static double max(Map<String, Double> m) {
        return m.values().stream().mapToDouble(Double::doubleValue).max().orElse(0);
    }

    @Test
    void measureBothLibraries() throws Exception {
        List<Ref> refs = references();
        Map<String, Double> erfc3 = worst(refs, "erfc", r -> org.apache.commons.math3.special.Erf.erfc(r.x()));
        Map<String, Double> erfcN = worst(refs, "erfc", r -> org.apache.commons.numbers.gamma.Erfc.value(r.x()));
        Map<String, Double> lg3 = worst(refs, "logGamma", r -> org.apache.commons.math3.special.Gamma.logGamma(r.x()));
        Map<String, Double> lgN = worst(refs, "logGamma", r -> org.apache.commons.numbers.gamma.LogGamma.value(r.x()));
        Map<String, Double> b3 = worst(refs, "regBeta", r -> org.apache.commons.math3.special.Beta.regularizedBeta(
                r.x(), r.a(), r.b(), 1e-15, Integer.MAX_VALUE));
        Map<String, Double> bN = worst(refs, "regBeta", r -> org.apache.commons.numbers.gamma.RegularizedBeta.value(
                r.x(), r.a(), r.b()));
        Map<String, Double> c3 = worst(refs, "regBetaComplement", r -> 1 - org.apache.commons.math3.special.Beta
                .regularizedBeta(r.x(), r.a(), r.b(), 1e-15, Integer.MAX_VALUE));
        Map<String, Double> cN = worst(refs, "regBetaComplement", r -> org.apache.commons.numbers.gamma
                .RegularizedBeta.complement(r.x(), r.a(), r.b()));
        report("erfc", erfc3, erfcN);
        report("logGamma", lg3, lgN);
        report("regBeta", b3, bN);
        report("regBetaComplement", c3, cN);
        assertTrue(!erfc3.isEmpty() && !b3.isEmpty() && !c3.isEmpty() && !lg3.isEmpty());
        // Production's choices (measured 2026-11: erfc 3.0e-16 numbers vs 2.9e-14 math3; log-gamma 9e-17 vs
        // 1.5e-16, both at rounding level, math3 kept; the regularized beta: neither better across regimes —
        // worst 1.1e-8 (math3) and 4.2e-8 (numbers) at n = 1e9, 3.4e-8 and 2.9e-11 at 1e10 — math3 kept, and
        // Clopper-Pearson sums the binomial tail term by term where it matters).
        assertTrue(max(erfcN) <= 1e-15 && max(erfcN) <= max(erfc3), "erfc: commons-numbers, production's choice");
        Map<String, Double> normal = worst(refs, "erfc", r -> 2 * Normal.sf(r.x() * Math.sqrt(2)));
        assertTrue(max(normal) <= 1e-15, "Normal.sf through erfc: " + max(normal));
        assertTrue(max(lg3) <= 1e-15, "log-gamma (commons-math3): " + max(lg3));
        assertTrue(max(b3) <= 1e-7 && max(c3) <= 1e-6, "regularized beta (commons-math3): " + max(b3) + ", "
                + max(c3));
    }
}
