package io.dpaudit.core.audit;

import java.util.Arrays;

/**
 * The stages of an audit's counted trials, the look after each, what each look chooses its tests on and certifies
 * them on, and the error level each look spends.
 *
 * <p><b>Stages.</b> A fixed design ({@link Stopping#FIXED}) has one stage of all {@code N} trials per world and one look
 * at error level {@code alpha = 1 - confidence}. A sequential design's stage {@code k = 1, 2, ...} has
 * {@code n_1 2^(k-1)} trials per world while the total stays within {@code N} (the budget); the trials left over form
 * one last stage, or join the one before when they are fewer than {@code n_1}. So the budget is spent exactly, and a
 * look comes after about twice the trials of the one before. A budget of at most {@code n_1} is one stage.
 *
 * <p><b>Selection and certification.</b> With held-out selection (fraction {@code f}), look 1 splits stage 1 as a fixed
 * design splits its trials; look {@code k >= 2} chooses its tests on stages {@code 1..j} and certifies them on stages
 * {@code j+1..k}, where {@code j} ({@link #selectionStages}) puts the share of the trials so far that choose nearest to
 * {@code f}: {@code f = 0.1} chooses on about an eighth and certifies on the rest, as a fixed design would. At every
 * look the certifying trials were drawn independently of everything that chose the test.
 *
 * <p><b>Error levels.</b> With {@code K} looks at most (the budget fixes them), look {@code k < K} makes its statements
 * at {@code alpha_k = alpha / (2 k (k + 1))} and the last look at {@code alpha_K = alpha / 2}. Since
 * {@code 1 / (k (k + 1)) = 1 / k - 1 / (k + 1)}, the first {@code K - 1} levels sum to {@code (alpha / 2)(1 - 1/K)},
 * and all {@code K} to less than {@code alpha}. Let {@code A_k} be the event that look {@code k} refutes a true claim.
 * Look {@code k}'s statements are certified on trials independent of its selection, so {@code P(A_k) <= alpha_k}
 * whether or not look {@code k} is reached; stopping early only takes fewer looks. Hence {@code P(some look refutes a
 * true claim) <= sum_k alpha_k < alpha}: the verdicts of the whole audit, whatever stopped it, hold at the stated
 * confidence (alpha spending by the union bound, a Bonferroni correction over a schedule of looks fixed in advance; see
 * Lan and DeMets 1983 for spending functions, which this simplest one needs no model of the statistic for). Half the
 * level goes to the last look, so an audit that runs to its budget keeps most of a fixed design's power; the early
 * looks, with a small level each, catch violations with a wide margin after a few thousand trials. A single look (a
 * budget within the first stage) is at {@code alpha}.
 */
public final class StageSchedule {
    private final boolean sequential;
    private final long[] stages;
    private final double alpha;

    private StageSchedule(boolean sequential, long[] stages, double alpha) {
        this.sequential = sequential;
        this.stages = stages;
        this.alpha = alpha;
    }

    /**
     * The schedule of {@code stopping} for a budget of {@code trials} per world at {@code confidence}; a budget no
     * larger than the first stage is one stage (and one look, at {@code alpha}).
     */
    public static StageSchedule of(Stopping stopping, long trials, double confidence) {
        double alpha = 1 - confidence;
        if (!stopping.sequential()) {
            return new StageSchedule(false, new long[] {trials}, alpha);
        }
        long first = Math.min(stopping.firstStageTrials(), trials);
        long[] sizes = new long[64];
        int count = 0;
        long total = 0;
        long size = first;
        while (size <= trials - total) {
            sizes[count++] = size;
            total += size;
            if (size > Long.MAX_VALUE / 2) {
                break;
            }
            size *= 2;
        }
        long left = trials - total;
        if (left >= first) {
            sizes[count++] = left;
        } else if (left > 0) {
            sizes[count - 1] += left;
        }
        return new StageSchedule(true, Arrays.copyOf(sizes, count), alpha);
    }

    /** Whether there is a look after every stage (sequential) or one look after all trials. */
    public boolean sequential() {
        return sequential;
    }

    /** The number of stages, and of looks. */
    public int looks() {
        return stages.length;
    }

    /** Trials per world of stage {@code look} (from 1). */
    public long stageTrials(int look) {
        return stages[look - 1];
    }

    /** Trials per world of stages 1 to {@code look}. */
    public long trialsThrough(int look) {
        long t = 0;
        for (int k = 0; k < look; k++) {
            t += stages[k];
        }
        return t;
    }

    /**
     * The error level look {@code look} spends: {@code alpha} for one look; else {@code alpha / (2 k (k + 1))} before
     * the last and {@code alpha / 2} at the last.
     */
    public double errorLevel(int look) {
        if (stages.length == 1) {
            return alpha;
        }
        return look == stages.length ? alpha / 2 : alpha / (2.0 * look * (look + 1));
    }

    /**
     * The stages {@code 1..j} on which look {@code look >= 2} chooses its tests with held-out fraction
     * {@code fraction} (it certifies them on stages {@code j+1..look}): the {@code j} in {@code [1, look - 1]} whose
     * trials are nearest to {@code fraction} of the trials so far (the smaller on a tie).
     */
    public int selectionStages(int look, double fraction) {
        double target = fraction * trialsThrough(look);
        int best = 1;
        for (int j = 2; j < look; j++) {
            if (Math.abs(trialsThrough(j) - target) < Math.abs(trialsThrough(best) - target)) {
                best = j;
            }
        }
        return best;
    }

    /** The confidence of look {@code look}'s statements, {@code 1 - errorLevel(look)}. */
    public double confidence(int look) {
        return 1 - errorLevel(look);
    }
}
