package io.dpaudit.core.accounting;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.dpaudit.core.bounds.GaussianBound;
import org.junit.jupiter.api.Test;

/**
 * One-point profile queries ({@code deltas} with one ε, served from saved states of the scan) give exactly — bit for
 * bit — what the scan from the top gives, including across the scan's rescaling of its exponential weights (a PLD of
 * 8·10^5 entries at h = 1e-3 rescales every 4·10^5) and at ε below, at and above the grid's losses.
 */
class PrivacyLossPmfScanTest {
    @Test
    void onePointQueriesEqualTheScanBitForBit() {
        for (double mu : new double[] {1.0, 20.0}) {
            double reach = mu * mu / 2 + 10 * mu;
            PrivacyLossPmf pmf = PrivacyLossPmf.connectTheDots(e -> GaussianBound.exactDelta(e, mu), -reach, reach,
                    1e-3);
            java.util.List<Double> eps = new java.util.ArrayList<>(java.util.List.of(-2 * reach, -reach, 0.0,
                    pmf.loss(0), pmf.loss(1), pmf.loss(63), pmf.loss(64), pmf.loss(65), reach, 2 * reach));
            java.util.SplittableRandom rng = new java.util.SplittableRandom(7);
            for (int i = 0; i < 300; i++) {
                eps.add(-reach + 2 * reach * rng.nextDouble());
            }
            for (double e : eps) {
                // two points: the array path scans from the top (nothing above Double.MAX_VALUE), then down to e
                double scanned = pmf.deltas(new double[] {e, Double.MAX_VALUE})[0];
                double resumed = pmf.deltas(new double[] {e})[0];
                assertEquals(Double.doubleToLongBits(scanned), Double.doubleToLongBits(resumed),
                        "mu " + mu + ", eps " + e + ": " + scanned + " vs " + resumed);
            }
        }
    }
}
