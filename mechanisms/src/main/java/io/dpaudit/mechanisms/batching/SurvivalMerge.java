package io.dpaudit.mechanisms.batching;

import io.dpaudit.core.accounting.DpEvent;

/** Pointwise minimum (upper ends) or maximum (lower ends) of survival functions on {@link AllocationPld}'s loss grid. */
final class SurvivalMerge {
    private final boolean upper;
    private double[] survival;

    SurvivalMerge(boolean upper) {
        this.upper = upper;
    }

    /** The merged survival function (null before the first rung). */
    double[] survival() {
        return survival;
    }

    void add(double[] s) {
        if (survival == null) {
            survival = s;
            return;
        }
        for (int i = 0; i < s.length; i++) {
            survival[i] = upper ? Math.min(survival[i], s[i]) : Math.max(survival[i], s[i]);
        }
    }

    /** The merged law as losses and masses, the grid starting at {@code iLo}. */
    DpEvent.LossMasses losses(long iLo) {
        if (survival == null) {
            return new DpEvent.LossMasses(new double[0], new double[0], 0.0);
        }
        int g = survival.length - 1;
        double[] mass = new double[g];
        for (int i = 0; i < g; i++) {
            mass[i] = Math.max(0, survival[i] - survival[i + 1]);
        }
        return lossMasses(mass, survival[g], iLo, AllocationPld.LOSS_GRID);
    }

    /** The non-zero masses of {@code mass} (grid {@code h} from index {@code iLo}) and {@code infinity} at +inf. */
    static DpEvent.LossMasses lossMasses(double[] mass, double infinity, long iLo, double h) {
        int count = 0;
        for (double m : mass) {
            if (m > 0) {
                count++;
            }
        }
        double[] l = new double[count];
        double[] m = new double[count];
        int o = 0;
        for (int i = 0; i < mass.length; i++) {
            if (mass[i] > 0) {
                l[o] = (iLo + i) * h;
                m[o++] = mass[i];
            }
        }
        return new DpEvent.LossMasses(l, m, infinity);
    }
}
