package io.dpaudit.mechanisms.batching;

import io.dpaudit.core.model.MechanismType;
import io.dpaudit.mechanisms.batching.BatchingParameters.Sampler;
import io.dpaudit.mechanisms.view.LastIterateView;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The batch samplers' entries in the catalog. */
public final class BatchingMechanisms {
    private static final String COMMON = "steps T >= 1 (<= 100000), epochs E (1), sigma > 0 (noise std on a step's sum "
            + "of unit-norm contributions)";

    private BatchingMechanisms() {
    }

    /** {@code shuffled-batches}, {@code balls-and-bins}, {@code random-allocation}, {@code deterministic-batches}, {@code poisson-batches}. */
    public static List<MechanismType> types() {
        List<MechanismType> out = new ArrayList<>();
        for (Sampler s : Sampler.values()) {
            String summary = switch (s) {
                case SHUFFLED -> "DP-SGD with shuffled batches: a permutation per epoch cut into T equal batches; one "
                        + "noisy sum per step; zero-out one record";
                case BALLS_AND_BINS -> "DP-SGD with balls-and-bins batches: each record in one uniform step per epoch";
                case RANDOM_ALLOCATION -> "DP-SGD with random allocation: each record in k uniform distinct steps per "
                        + "epoch";
                case DETERMINISTIC -> "DP-SGD with fixed batches (no amplification)";
                case POISSON -> "DP-SGD with Poisson batches: each record in each step with probability 1/T (the "
                        + "reference accounting)";
            };
            String params = COMMON + switch (s) {
                case SHUFFLED -> ", shuffle = dynamic | persistent (dynamic), others = the other records' clipped "
                        + "gradient in [-1, 1] (-1: Chua et al.'s dataset)";
                case RANDOM_ALLOCATION -> ", k in [1, min(T, 64)] (1)";
                default -> "";
            } + ", view = transcript | last-iterate (transcript); faithful: records (4T)";
            out.add(new MechanismType(s.type(), summary, params, p -> {
                BatchingParameters b = BatchingParameters.parse(s, p);
                return LastIterateView.of(p, new BatchSampling(p, b), x -> b.withSigma(x).lastIterate(), b.sigma());
            }, Map.of("sigma", 1.0)));
        }
        return out;
    }
}
