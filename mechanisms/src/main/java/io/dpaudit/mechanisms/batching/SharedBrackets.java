package io.dpaudit.mechanisms.batching;

import java.lang.ref.SoftReference;
import java.util.HashMap;
import java.util.Map;

/**
 * The PLD brackets ({@link AllocationPld}) built in this process, one per configuration: every mechanism, bound and
 * decomposition that asks for the same {@link BatchingParameters} gets the same bracket, so its lattices are computed
 * once (balls-and-bins at T = 1000, σ = 1: about 9 s of set-up, which an audit, a bound command, the contract tests and
 * the zoo each paid again). The bracket is a pure function of its configuration and builds each part on first use
 * under its own lock, so sharing it changes no number; it is held softly (about 190 MB at T = 1000), so memory
 * pressure drops it rather than exhausting the heap, and the next caller builds it again. A calibration's trial
 * brackets (other σ, used once) are not kept here.
 */
final class SharedBrackets {
    private static final Map<BatchingParameters, SoftReference<AllocationPld>> BUILT = new HashMap<>();

    private SharedBrackets() {
    }

    /** The bracket of {@code b}, built (lazily, as every bracket) unless a live one is held. */
    static AllocationPld of(BatchingParameters b) {
        synchronized (BUILT) {
            SoftReference<AllocationPld> ref = BUILT.get(b);
            AllocationPld found = ref == null ? null : ref.get();
            if (found == null) {
                BUILT.values().removeIf(r -> r.get() == null);
                found = new AllocationPld(b);
                BUILT.put(b, new SoftReference<>(found));
            }
            return found;
        }
    }
}
