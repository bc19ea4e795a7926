package io.dpaudit.core.numerics;

import static io.dpaudit.core.testing.ReferenceData.assertRelative;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.dpaudit.core.testing.ReferenceData;
import org.junit.jupiter.api.Test;

class NormalTest {
    private static final JsonNode REF = ReferenceData.load("numerics_reference.json");

    /** commons-math3's erfc, underneath, is accurate to about 1.2e-13 relative in the far tail. */
    @Test
    void cdfAndLogCdfMatchMpmathIncludingFarTails() {
        for (JsonNode row : REF.get("normal")) {
            double x = row.get("x").doubleValue();
            double cdf = row.get("cdf").doubleValue();
            assertRelative(row.get("logCdf").doubleValue(), Normal.logCdf(x), 1e-13, "logCdf(" + x + ")");
            if (cdf > 1e-300) {
                assertRelative(cdf, Normal.cdf(x), 3e-13, "cdf(" + x + ")");
                assertRelative(cdf, Normal.sf(-x), 3e-13, "sf(" + (-x) + ")");
            }
        }
    }

    @Test
    void logCdfIsContinuousAcrossTheAsymptoticSwitch() {
        double below = Normal.logCdf(Math.nextDown(-20.0));
        double above = Normal.logCdf(Math.nextUp(-20.0));
        assertEquals(above, below, 1e-12 * Math.abs(above));
    }

    /**
     * Mills' ratio: {@code Phi(x)/phi(x) = 1/|x| (1 - 1/x^2 + ...)}, so at {@code x = -1e13} its log is
     * {@code -ln(1e13) = -29.933606208922594} to 1e-26, where {@code logCdf(x) - logPdf(x)} would be the difference
     * of two numbers near -5e25. Elsewhere it is that difference, and it is continuous across -20.
     */
    @Test
    void logCdfOverPdfKeepsItsPrecisionWhereBothTermsAreHuge() {
        assertEquals(-29.933606208922594, Normal.logCdfOverPdf(-1e13), 1e-14);
        assertEquals(Normal.logCdf(-30) - Normal.logPdf(-30), Normal.logCdfOverPdf(-30), 1e-12);
        assertEquals(Normal.logCdf(1.5) - Normal.logPdf(1.5), Normal.logCdfOverPdf(1.5), 0);
        double below = Normal.logCdfOverPdf(Math.nextDown(-20.0));
        double above = Normal.logCdfOverPdf(-20.0);
        assertEquals(above, below, 1e-13);
    }

    @Test
    void quantileMatchesMpmathDownToTinyProbabilities() {
        for (JsonNode row : REF.get("quantile")) {
            double p = row.get("p").doubleValue();
            double x = row.get("x").doubleValue();
            if (Math.abs(x) < 1e-30) { // the median: mpmath's bisection stops at about -1e-51
                assertEquals(0.0, Normal.quantile(p));
                continue;
            }
            assertRelative(x, Normal.quantile(p), 2e-14, "quantile(" + p + ")");
        }
        assertEquals(Double.NEGATIVE_INFINITY, Normal.quantile(0));
        assertEquals(Double.POSITIVE_INFINITY, Normal.quantile(1));
        assertTrue(Double.isNaN(Normal.quantile(-0.1)));
        assertTrue(Double.isNaN(Normal.quantile(Double.NaN)));
    }

    @Test
    void inverseSurvivalNeverFormsOneMinusA() {
        // isf(1e-20) would be +inf if 1 - 1e-20 were formed first.
        assertRelative(9.262340089798407, Normal.inverseSurvival(1e-20), 1e-14, "isf(1e-20)");
    }
}
