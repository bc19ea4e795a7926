package io.dpaudit.runner.analysis;

/**
 * For a claim the two-sided estimate finds loose: the value of the mechanism's calibration parameter at which a
 * bound that the estimate finds tight at the claim's δ just meets the claim — the noise the claim actually needs.
 *
 * @param claim the claim's label
 * @param bound the bound used (tight at the claim's δ: its ε lies inside the estimate's interval)
 * @param parameter the calibration parameter ({@code sigma}, {@code eps0}, ...)
 * @param current the mechanism's value
 * @param needed the calibrated value meeting the claim under {@code bound}
 */
public record NoiseSaving(String claim, String bound, String parameter, double current, double needed) {
    /** {@code 1 - needed / current}: the share of the noise standard deviation the claim does not need. */
    public double saving() {
        return 1 - needed / current;
    }
}
