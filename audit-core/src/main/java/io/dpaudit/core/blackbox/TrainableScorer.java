package io.dpaudit.core.blackbox;

import io.dpaudit.core.engine.ProgressListener;
import io.dpaudit.core.engine.Scorer;
import io.dpaudit.core.engine.TrialSamplerFactory;
import org.apache.commons.rng.UniformRandomProvider;

/**
 * An attack that learns its score from samples of both worlds before the audit (a learned distinguisher). The samples
 * come from a stream of their own ({@link io.dpaudit.core.rng.RandomStreams#training}), so they are independent of the
 * trials that select and certify the test: the audit's guarantee holds whatever is learned.
 */
public interface TrainableScorer {
    /**
     * Draws {@code trials} outputs per world from {@code sampler}, every draw from {@code rng}, and fits the score.
     *
     * @param progress told of the phase ("training")
     * @return the learned scorer: immutable, thread-safe, allocation-free per trial
     */
    Scorer train(TrialSamplerFactory sampler, int trials, UniformRandomProvider rng, ProgressListener progress);

    /**
     * The scorer to train for an audit of {@code trialsPerWorld} trials per world: a learner may scale with the audit's
     * budget what it learns from beyond the held training sample (the default ignores it). A function of its argument
     * alone, so that every engine trains the same scorer.
     */
    default TrainableScorer forAuditOf(long trialsPerWorld) {
        return this;
    }

    /** One line for reports, before training. */
    String description();
}
