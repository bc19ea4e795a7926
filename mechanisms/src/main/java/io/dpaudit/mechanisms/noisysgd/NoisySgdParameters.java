package io.dpaudit.mechanisms.noisysgd;

import io.dpaudit.core.Checks;
import io.dpaudit.core.InvalidInputException;
import io.dpaudit.core.model.Parameters;
import java.util.Locale;
import java.util.Set;

/**
 * Validated parameters of {@code noisy-sgd}.
 *
 * @param loss the per-record loss
 * @param dimension d, the model's dimension, in [2, 256]
 * @param records n, the other records, in [1, 10^5]
 * @param q the Poisson sampling rate of every record and the canary, in (0, 1]
 * @param steps T, in [1, 10^5], with {@code (n + 1) T d <= 10^8} (the work of one run)
 * @param sigma the noise multiplier: each step adds {@code N(0, (sigma C)^2 I_d)}, {@code > 0}
 * @param clip C, the clipping norm of every per-record gradient, {@code > 0}
 * @param learningRate eta, {@code > 0}
 * @param diameter D of the ball (centred at 0) every iterate is projected onto; infinite for no projection
 * @param canary what the canary is
 * @param canaryNorm the input canary's norm (its input is {@code canaryNorm e_1})
 */
record NoisySgdParameters(Loss loss, int dimension, int records, double q, int steps, double sigma, double clip,
        double learningRate, double diameter, Canary canary, double canaryNorm) {
    /** The per-record losses. */
    enum Loss {
        QUADRATIC("quadratic"),
        LOGISTIC("logistic");

        private final String name;

        Loss(String name) {
            this.name = name;
        }

        String label() {
            return name;
        }
    }

    /** The canaries. */
    enum Canary {
        /** A gradient of norm C along e_1 whenever the canary is drawn, whatever the model (a gradient canary). */
        GRADIENT("gradient"),
        /** A record with input {@code canaryNorm e_1} (label canaryNorm, or +1 for the logistic loss). */
        INPUT("input");

        private final String name;

        Canary(String name) {
            this.name = name;
        }

        String label() {
            return name;
        }
    }

    /** Largest work of one run, (n + 1) T d multiply-adds. */
    static final long MAX_WORK = 100_000_000L;

    static NoisySgdParameters parse(Parameters p) {
        p.allowOnly(Set.of("type", "loss", "dimension", "records", "q", "steps", "sigma", "clip", "learningRate",
                "diameter", "canary", "canaryNorm"));
        Loss loss = switch (p.text("loss", "quadratic")) {
            case "quadratic" -> Loss.QUADRATIC;
            case "logistic" -> Loss.LOGISTIC;
            default -> throw new InvalidInputException(p.field("loss"), p.text("loss", ""), "must be quadratic or "
                    + "logistic");
        };
        Canary canary = switch (p.text("canary", "gradient")) {
            case "gradient" -> Canary.GRADIENT;
            case "input" -> Canary.INPUT;
            default -> throw new InvalidInputException(p.field("canary"), p.text("canary", ""), "must be gradient (a "
                    + "constant gradient whenever drawn) or input (a record whose gradient follows the model)");
        };
        long d = p.wholeNumber("dimension", 5, 2);
        if (d > 256) {
            throw new InvalidInputException(p.field("dimension"), d, "must be at most 256");
        }
        long n = p.wholeNumber("records", 50, 1);
        if (n > 100_000) {
            throw new InvalidInputException(p.field("records"), n, "must be at most 100000");
        }
        long t = p.wholeNumber("steps", 100, 1);
        if (t > 100_000) {
            throw new InvalidInputException(p.field("steps"), t, "must be at most 100000");
        }
        if ((n + 1) * t * d > MAX_WORK) {
            throw new InvalidInputException(p.field("steps"), t, String.format(Locale.ROOT, "(records + 1) x steps x "
                    + "dimension = %d multiply-adds per run; at most %d", (n + 1) * t * d, MAX_WORK));
        }
        double q = Checks.samplingProbability(p.field("q"), p.number("q"));
        double sigma = Checks.positive(p.field("sigma"), p.number("sigma"));
        if (sigma > 1e6) {
            throw new InvalidInputException(p.field("sigma"), sigma, "must be at most 1e6");
        }
        double clip = Checks.positive(p.field("clip"), p.number("clip", 1.0));
        double eta = Checks.positive(p.field("learningRate"), p.number("learningRate", 0.1));
        if (clip > 1e6 || eta > 1e3) {
            throw new InvalidInputException(p.field(clip > 1e6 ? "clip" : "learningRate"), clip > 1e6 ? clip : eta,
                    clip > 1e6 ? "must be at most 1e6" : "must be at most 1000");
        }
        double diameter = p.has("diameter") ? Checks.positive(p.field("diameter"), p.number("diameter"))
                : Double.POSITIVE_INFINITY;
        double canaryNorm = Checks.positive(p.field("canaryNorm"), p.number("canaryNorm", 10.0));
        if (canary == Canary.GRADIENT && p.has("canaryNorm")) {
            throw new InvalidInputException(p.field("canaryNorm"), canaryNorm, "applies to canary input");
        }
        return new NoisySgdParameters(loss, (int) d, (int) n, q, (int) t, sigma, clip, eta, diameter, canary,
                canaryNorm);
    }

    /** Whether the model's coordinate along the canary is exactly the last-iterate pair (formula sheet 16.1). */
    boolean linearAlongTheCanary() {
        return canary == Canary.GRADIENT && Double.isInfinite(diameter);
    }

    /**
     * A smoothness constant of every batch's summed gradient: each record's input has norm 1, so its loss along its
     * input is 1-smooth (quadratic) or 1/4-smooth (logistic); the input canary's is {@code s^2} or {@code s^2 / 4}; the
     * gradient canary's (a linear loss) 0. Clipping a per-record gradient to norm C keeps it the gradient of a convex
     * function of {@code theta.x} (its derivative clamped, still non-decreasing) and does not raise its smoothness, so
     * the sum over all records and the canary bounds every batch's.
     */
    double batchSmoothness() {
        double perRecord = loss == Loss.QUADRATIC ? 1.0 : 0.25;
        double canarySmoothness = canary == Canary.GRADIENT ? 0.0
                : loss == Loss.QUADRATIC ? canaryNorm * canaryNorm : canaryNorm * canaryNorm / 4;
        return records * perRecord + canarySmoothness;
    }

    /** Whether every step's gradient map is a contraction: {@code eta <= 2 / beta} ({@link #batchSmoothness}). */
    boolean contractiveSteps() {
        return learningRate * batchSmoothness() <= 2;
    }

    /** One line for descriptions. */
    String describe() {
        return String.format(Locale.ROOT, "noisy SGD, %s loss, d = %d, %d records, q = %s, T = %d, sigma = %s, C = %s, "
                + "eta = %s, %s, %s canary%s; only the final model released", loss.label(), dimension, records,
                Checks.format(q), steps, Checks.format(sigma), Checks.format(clip), Checks.format(learningRate),
                Double.isInfinite(diameter) ? "no projection" : "projection onto the ball of diameter "
                + Checks.format(diameter), canary.label(), canary == Canary.INPUT ? " (norm "
                + Checks.format(canaryNorm) + ")" : "");
    }
}
