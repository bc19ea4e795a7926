package io.dpaudit.core.estimate.tradeoff;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpaudit.core.fdp.GaussianTradeOff;
import java.util.List;
import org.junit.jupiter.api.Test;

class CertifiedTradeOffTest {
    /** Formula sheet §5.6: alpha = 0.01, beta = 0.5, delta = 1e-5. */
    @Test
    void boundsFromOnePointMatchTheFormulaSheet() {
        CertifiedTradeOff c = new CertifiedTradeOff("t", 0.95, List.of(new CertifiedTradeOff.Point(0.01, 0.5, "x")));
        assertEquals(3.9120030052281436, c.epsilonLowerBound(1e-5), 1e-9);
        assertEquals(2.3263478740408408, c.gdpMuLowerBound(), 1e-9);
        assertTrue(c.gdpMuLowerBound() <= 2.3263478740408408, "rounded down");
    }

    @Test
    void theEnvelopeIsTheLowerConvexHullWithTheTrivialAnchors() {
        CertifiedTradeOff c = new CertifiedTradeOff("t", 0.95, List.of(
                new CertifiedTradeOff.Point(0.1, 0.5, "a"), new CertifiedTradeOff.Point(0.2, 0.45, "above"),
                new CertifiedTradeOff.Point(0.3, 0.2, "b"), new CertifiedTradeOff.Point(0.3, 0.25, "same alpha"),
                new CertifiedTradeOff.Point(0.9, 0.05, "c")));
        List<CertifiedTradeOff.Point> hull = c.envelope();
        assertEquals(List.of("trivial", "a", "b", "trivial"), hull.stream().map(CertifiedTradeOff.Point::test)
                .toList(), hull.toString());
    }

    @Test
    void aPointBelowTheClaimRefutesIt() {
        CertifiedTradeOff c = new CertifiedTradeOff("t", 0.95, List.of(new CertifiedTradeOff.Point(0.05, 0.4, "x")));
        // G_1(0.05) = 0.7405 > 0.4: mu = 1 is refuted; G_3(0.05) = 0.0877 < 0.4: mu = 3 is not.
        CertifiedTradeOff.Refutation r = c.refute(new GaussianTradeOff(1));
        assertNotNull(r);
        assertEquals(0.740488977158556 - 0.4, r.margin(), 1e-12);
        assertNull(c.refute(new GaussianTradeOff(3)));
        // The reverse pair: (alpha, beta) = (0.4, 0.05) read as a test of D' against D.
        CertifiedTradeOff rev = new CertifiedTradeOff("t", 0.95, List.of(new CertifiedTradeOff.Point(0.4, 0.05, "y")));
        assertTrue(rev.refute(new GaussianTradeOff(1)).reversePair());
    }
}
