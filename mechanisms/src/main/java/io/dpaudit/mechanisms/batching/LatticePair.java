package io.dpaudit.mechanisms.batching;

import io.dpaudit.core.numerics.Interruption;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.function.Supplier;

/**
 * Two lattices computed at once, the second on a thread of its own, where the heap holds both at once
 * ({@value #PARALLEL_HEAP} bytes and over): each depends only on its own inputs, so the numbers are the same whether they
 * are made one after the other or side by side. An interrupt of the caller stops both ({@link Interruption}).
 */
final class LatticePair {
    /** Least maximum heap for making two lattices side by side (two 2^23-point powers take about 1.5 GB at once). */
    static final long PARALLEL_HEAP = 4L << 30;

    private LatticePair() {
    }

    /** Whether this JVM's heap allows making two lattices side by side. */
    static boolean sideBySide() {
        return Runtime.getRuntime().maxMemory() >= PARALLEL_HEAP;
    }

    /** {@code first} and {@code second}'s lattices, side by side where {@link #sideBySide} allows. */
    static ConvexOrderLattice[] of(Supplier<ConvexOrderLattice> first, Supplier<ConvexOrderLattice> second) {
        if (!sideBySide()) {
            return new ConvexOrderLattice[] {first.get(), second.get()};
        }
        FutureTask<ConvexOrderLattice> task = new FutureTask<>(second::get);
        Thread thread = new Thread(task, "dp-audit convex-order lattice");
        thread.setDaemon(true);
        thread.start();
        ConvexOrderLattice made;
        try {
            made = first.get();
        } catch (RuntimeException | Error e) {
            thread.interrupt();
            throw e;
        }
        try {
            return new ConvexOrderLattice[] {made, task.get()};
        } catch (InterruptedException e) {
            thread.interrupt();
            Thread.currentThread().interrupt();
            throw new Interruption.Interrupted("computing the balls-and-bins convex-order lattices");
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException r) {
                throw r;
            }
            if (cause instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException(cause);
        }
    }
}
