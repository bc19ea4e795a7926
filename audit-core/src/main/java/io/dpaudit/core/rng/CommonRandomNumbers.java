package io.dpaudit.core.rng;

import java.util.Arrays;
import java.util.Objects;
import org.apache.commons.rng.UniformRandomProvider;

/**
 * One trial's random numbers, given to both worlds: common random numbers for a coupled trial. {@link #record()}
 * starts a trial; every {@code nextLong()} then draws from the shard's stream and keeps the value on a tape.
 * {@link #replay()} rewinds: the same values are returned again, in order, and once the tape is used up fresh values
 * are drawn from the stream (not recorded). The next {@link #record()} starts after every value either run drew, so
 * the trials use disjoint segments of the stream and are independent of one another.
 *
 * <p>Every other method of {@link UniformRandomProvider} is derived from {@code nextLong()} by the interface's default
 * methods (commons-rng 1.5 and later), so a run that draws in the same way in both worlds sees the same numbers. Each
 * world alone sees a plain sequence of fresh values of the stream: its output has exactly the law of an uncoupled run.
 * Only the joint law of the two outputs of a trial changes, which is what a paired bound
 * ({@code io.dpaudit.core.estimate.PairedEpsilonBound}) exploits.
 *
 * <p>Not thread-safe: one per shard. No allocation once the tape has grown to the longest run.
 */
public final class CommonRandomNumbers implements UniformRandomProvider {
    private final UniformRandomProvider stream;
    private long[] tape = new long[64];
    private int recorded;
    private int position;
    private boolean replaying;

    /** Common random numbers drawn from {@code stream}. */
    public CommonRandomNumbers(UniformRandomProvider stream) {
        this.stream = Objects.requireNonNull(stream, "stream");
    }

    /** Starts a trial: the values drawn from now on are fresh and recorded. */
    public void record() {
        recorded = 0;
        position = 0;
        replaying = false;
    }

    /** Rewinds to the start of the trial: the recorded values are returned again, then fresh ones. */
    public void replay() {
        position = 0;
        replaying = true;
    }

    /** Values recorded in the current trial. */
    public int recorded() {
        return recorded;
    }

    @Override
    public long nextLong() {
        if (replaying) {
            return position < recorded ? tape[position++] : stream.nextLong();
        }
        long v = stream.nextLong();
        if (recorded == tape.length) {
            tape = Arrays.copyOf(tape, 2 * tape.length);
        }
        tape[recorded++] = v;
        return v;
    }
}
