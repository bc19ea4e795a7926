package io.dpaudit.mechanisms.batching;

import io.dpaudit.core.Checks;
import io.dpaudit.core.InvalidInputException;
import io.dpaudit.core.model.Parameters;
import io.dpaudit.mechanisms.view.CountLaw;
import io.dpaudit.mechanisms.view.LastIteratePair;
import io.dpaudit.mechanisms.view.LastIterateView;
import java.util.Locale;
import java.util.Set;

/**
 * Validated parameters of a batch sampler.
 *
 * @param sampler which sampler
 * @param steps T, the steps (batches) of an epoch, in [1, 100000]
 * @param epochs E, in [1, 10000], with {@code T E <= 10^6} (the output's length)
 * @param sigma the noise standard deviation on a step's sum of unit-norm contributions, {@code > 0}
 * @param k the steps of an epoch a record joins ({@code random-allocation}; 1 for the others)
 * @param persistent whether a shuffle keeps one permutation for every epoch ({@code shuffle: persistent})
 * @param others the shuffle's dataset: every other record's clipped gradient v in [-1, 1] (the canary's is +1; -1 is
 *     Chua et al.'s pair, the default); for a step that holds the canary, with the others' known sum shifted away,
 *     the canary's step shows {@code 1 - v} with the canary and {@code -v} with ⊥. Only the shuffle reads it.
 */
record BatchingParameters(Sampler sampler, int steps, int epochs, double sigma, int k, boolean persistent,
        double others) {
    /** Largest T. */
    static final int MAX_STEPS = 100_000;
    /** Largest E. */
    static final int MAX_EPOCHS = 10_000;
    /** Largest output length T E. */
    static final long MAX_OUTPUT = 1_000_000;
    /** The shuffle's default dataset: every other record's gradient opposite to the canary's (Chua et al. 2024). */
    static final double CHUA_OTHERS = -1.0;

    /** The samplers, by type name. */
    enum Sampler {
        SHUFFLED("shuffled-batches"),
        BALLS_AND_BINS("balls-and-bins"),
        RANDOM_ALLOCATION("random-allocation"),
        DETERMINISTIC("deterministic-batches"),
        POISSON("poisson-batches");

        private final String type;

        Sampler(String type) {
            this.type = type;
        }

        String type() {
            return type;
        }
    }

    BatchingParameters {
        Checks.inRange("steps", steps, 1, MAX_STEPS);
        Checks.inRange("epochs", epochs, 1, MAX_EPOCHS);
        Checks.positive("sigma", sigma);
        Checks.inRange("k", k, 1, steps);
        if (!(others >= -1 && others <= 1)) {
            throw new IllegalArgumentException("others = " + others + ": must be in [-1, 1]");
        }
    }

    /** The sampler with Chua et al.'s dataset for the shuffle ({@code others = -1}). */
    BatchingParameters(Sampler sampler, int steps, int epochs, double sigma, int k, boolean persistent) {
        this(sampler, steps, epochs, sigma, k, persistent, CHUA_OTHERS);
    }

    /** The shift of the canary's step in the world with the canary: {@code 1 - others} (2 for Chua et al.'s pair). */
    double canaryShift() {
        return 1 - others;
    }

    /** The shift of the canary's step in the world with ⊥: {@code -others} (1 for Chua et al.'s pair). */
    double absentShift() {
        return -others;
    }

    /** Parses the parameters of {@code sampler} (and nothing else: unknown keys are refused). */
    static BatchingParameters parse(Sampler sampler, Parameters p) {
        Set<String> allowed = switch (sampler) {
            case SHUFFLED -> Set.of("type", "steps", "epochs", "sigma", "shuffle", "others", LastIterateView.PARAMETER,
                    LastIterateView.CANARY);
            case RANDOM_ALLOCATION -> Set.of("type", "steps", "epochs", "sigma", "k", LastIterateView.PARAMETER,
                    LastIterateView.CANARY);
            default -> Set.of("type", "steps", "epochs", "sigma", LastIterateView.PARAMETER,
                    LastIterateView.CANARY);
        };
        p.allowOnly(allowed);
        long steps = p.wholeNumber("steps", 1);
        if (steps > MAX_STEPS) {
            throw new InvalidInputException(p.field("steps"), steps, "must be <= " + MAX_STEPS);
        }
        long epochs = p.wholeNumber("epochs", 1, 1);
        if (epochs > MAX_EPOCHS) {
            throw new InvalidInputException(p.field("epochs"), epochs, "must be <= " + MAX_EPOCHS);
        }
        if (steps * epochs > MAX_OUTPUT) {
            throw new InvalidInputException(p.field("epochs"), epochs, String.format(Locale.ROOT, "steps x epochs "
                    + "= %d values per output; at most %d", steps * epochs, MAX_OUTPUT));
        }
        double sigma = Checks.positive(p.field("sigma"), p.number("sigma"));
        if (sigma > 1e100) {
            throw new InvalidInputException(p.field("sigma"), sigma, "must be at most 1e100 (the contributions have "
                    + "norm 1)");
        }
        long k = sampler == Sampler.RANDOM_ALLOCATION ? p.wholeNumber("k", 1, 1) : 1;
        if (k > steps) {
            throw new InvalidInputException(p.field("k"), k, "must be at most steps (" + steps + ")");
        }
        if (k > 64) {
            throw new InvalidInputException(p.field("k"), k, "must be at most 64 (the likelihood ratio costs O(T k) "
                    + "per trial)");
        }
        boolean persistent = false;
        double others = CHUA_OTHERS;
        if (sampler == Sampler.SHUFFLED) {
            others = p.number("others", CHUA_OTHERS);
            if (!(others >= -1 && others <= 1)) {
                throw new InvalidInputException(p.field("others"), others, "must be in [-1, 1] (the other records' "
                        + "clipped gradient; the canary's is +1)");
            }
            if (others != CHUA_OTHERS && p.text(LastIterateView.PARAMETER, LastIterateView.TRANSCRIPT)
                    .equals(LastIterateView.LAST_ITERATE)) {
                throw new InvalidInputException(p.field("others"), others, "the last-iterate view is built for "
                        + "others = -1 only");
            }
            String shuffle = p.text("shuffle", "dynamic");
            if (!shuffle.equals("dynamic") && !shuffle.equals("persistent")) {
                throw new InvalidInputException(p.field("shuffle"), shuffle, "must be dynamic (a fresh permutation "
                        + "each epoch) or persistent (the same one)");
            }
            persistent = shuffle.equals("persistent");
        }
        return new BatchingParameters(sampler, (int) steps, (int) epochs, sigma, (int) k, persistent, others);
    }

    /** The same sampler with another sigma (for calibration). */
    BatchingParameters withSigma(double s) {
        return new BatchingParameters(sampler, steps, epochs, s, k, persistent, others);
    }

    /**
     * The last-iterate pair (formula sheet §16.1): the canary's count K of steps over E epochs — Binomial(T E, 1/T)
     * for Poisson batches, k E for the samplers with fixed participation — and, for the shuffle's lower-bound pair, the
     * other world's E (its other records shift both worlds by one per epoch); noise {@code sigma sqrt(T E)}.
     */
    LastIteratePair lastIterate() {
        int e = epochs;
        CountLaw with = switch (sampler) {
            case POISSON -> CountLaw.binomial(steps * e, 1.0 / steps);
            case SHUFFLED -> CountLaw.point(2 * e);
            default -> CountLaw.point(k * e);
        };
        return new LastIteratePair(with, sampler == Sampler.SHUFFLED ? e : 0, sigma * Math.sqrt((double) steps * e),
                1.0);
    }

    /** One line for descriptions. */
    String describe() {
        return String.format(Locale.ROOT, "%s, T = %d steps, %d epoch(s), sigma = %s%s%s%s", sampler.type(), steps,
                epochs, Checks.format(sigma), sampler == Sampler.RANDOM_ALLOCATION ? ", k = " + k : "",
                sampler == Sampler.SHUFFLED ? (persistent ? ", persistent shuffle" : ", dynamic shuffle") : "",
                others != CHUA_OTHERS ? ", the other records' gradient " + Checks.format(others) : "");
    }
}
