package io.dpaudit.mechanisms.onerun;

import io.dpaudit.core.Checks;
import io.dpaudit.core.InvalidInputException;
import io.dpaudit.core.accounting.Adjacency;
import io.dpaudit.core.accounting.DpEvent;
import io.dpaudit.core.accounting.PldAccountant;

/**
 * A one-run audit of DP-SGD in the white-box setting of Steinke, Nasr &amp; Jagielski (NeurIPS 2023, Section 5, "Dirac
 * canaries"): {@code canaries} = m canary records, each included in the training data independently with probability
 * 1/2; {@code steps} = T steps of DP-SGD, each record in each step's batch independently with probability {@code q}
 * (Poisson subsampling); each batch's per-record gradients clipped to norm {@code clip} = C and summed, plus
 * {@code N(0, sigma^2 I)} noise ({@code sigma} is the noise's standard deviation on the sum, as for the
 * {@code poisson-subsampled-gaussian} mechanism type, whose accountant gives each canary's true (ε, δ)). Canary
 * {@code i}'s gradient points along its own coordinate {@code e_i}, and its score is the trained parameter vector's
 * coordinate {@code i} divided by C: the sum of the T noisy updates seen along the canary's direction.
 *
 * <p>The score's exact law, by independence of the coordinates: {@code b_i K_i + (sigma / C) sqrt(T) Z_i} with
 * {@code b_i} the canary's coin, {@code K_i ~ Binomial(T, q)} the steps whose batch held it and {@code Z_i ~ N(0, 1)}
 * (the other records' gradients live in other coordinates: the worst case for the audit's power is not assumed —
 * records whose gradients overlap a canary's direction would only add noise to its score).
 *
 * @param canaries m, at least 2
 * @param steps T, at least 1
 * @param q each record's inclusion probability per step, in (0, 1]
 * @param sigma the noise's standard deviation on each step's sum, positive
 * @param clip the clipping norm C, positive
 */
public record OneRunDpSgd(int canaries, int steps, double q, double sigma, double clip) {
    /** Most canaries in one simulated run. */
    public static final int MAX_CANARIES = 10_000_000;
    /** Most steps. */
    public static final int MAX_STEPS = 1_000_000;

    /** Checks every field; an {@link InvalidInputException} names the first bad one. */
    public OneRunDpSgd {
        Checks.inRange("canaries", canaries, 2, MAX_CANARIES);
        Checks.inRange("steps", steps, 1, MAX_STEPS);
        Checks.samplingProbability("q", q);
        Checks.positive("sigma", sigma);
        Checks.positive("clip", clip);
        if (sigma / clip < 1e-6 || sigma / clip > 1e6) {
            throw new InvalidInputException("sigma", sigma, "must be within a factor 1e6 of clip " + clip
                    + " (noise multiplier sigma/clip in [1e-6, 1e6])");
        }
    }

    /**
     * What one canary goes through, for an accountant: T steps of the Poisson-sampled Gaussian, add/remove adjacency
     * (its coin adds it to or removes it from the training data).
     */
    public DpEvent event() {
        return new DpEvent.SelfComposed(new DpEvent.PoissonSampled(q, new DpEvent.Gaussian(sigma, clip)), steps);
    }

    /** One canary's true ε at {@code delta}: the PLD accountant on {@link #event()}, add/remove, rounded up. */
    public double trueEpsilon(double delta) {
        return new PldAccountant().account("pld", event(), Adjacency.ADD_REMOVE).epsilon(delta);
    }

    /** The scores' noise standard deviation, {@code (sigma / C) sqrt(T)}. */
    public double scoreNoise() {
        return sigma / clip * Math.sqrt(steps);
    }
}
