package io.dpaudit.mechanisms.view;

import io.dpaudit.core.model.AuditableMechanism;
import io.dpaudit.core.model.Parameters;

/**
 * What the last-iterate views ({@link LastIterateView}, {@link CraftedCanaryView}) take from the transcript mechanism
 * they watch unchanged: its type, parameters, adjacency and the T E steps it runs; their view is the final model.
 */
abstract class FinalModelView implements AuditableMechanism {
    /** The mechanism whose every release the transcript view sees. */
    protected final AuditableMechanism transcript;

    FinalModelView(AuditableMechanism transcript) {
        this.transcript = transcript;
    }

    @Override
    public String type() {
        return transcript.type();
    }

    @Override
    public Parameters parameters() {
        return transcript.parameters();
    }

    @Override
    public String view() {
        return LastIterateView.LAST_ITERATE;
    }

    @Override
    public String adjacency() {
        return transcript.adjacency();
    }

    /** The T E steps still run; only what they leave in the final model is seen. */
    @Override
    public long roundsPerTrial() {
        return transcript.roundsPerTrial();
    }
}
