package io.dpaudit.mechanisms.checkin;

import java.util.ArrayList;
import java.util.List;

/**
 * A neighbouring pair of datasets of the fixed-window protocol with binary inputs: the target holds 1 in {@code D}
 * and 0 in {@code D'}; of the other {@code n - 1} clients, {@code highOthers} hold 1 and the rest 0; the dummy record
 * holds 1 or 0. With binary randomized response every dataset is one of these (clients are exchangeable), and
 * relabelling 0 and 1 maps {@code (h, dummy)} to {@code (n - 1 - h, not dummy)} with the worlds swapped, which a
 * two-directional curve does not distinguish.
 *
 * @param name {@code canonical}, {@code helper}, {@code opposite} or a description of an exhaustive-search member
 * @param highOthers the number of other clients holding 1
 * @param dummyHigh whether the dummy holds 1
 */
record CheckInDataset(String name, int highOthers, boolean dummyHigh) {
    /** Every other client and the dummy hold 0. */
    static final CheckInDataset CANONICAL = new CheckInDataset("canonical", 0, false);
    /** One other client holds the target's value. */
    static final CheckInDataset HELPER = new CheckInDataset("helper", 1, false);
    /** The dummy holds the target's value. */
    static final CheckInDataset OPPOSITE = new CheckInDataset("opposite", 0, true);

    /** Whether this is the canonical pair (every other client and the dummy hold 0), whose law has a closed form. */
    boolean canonical() {
        return highOthers == 0 && !dummyHigh;
    }

    /** The named dataset. */
    static CheckInDataset named(String name) {
        return switch (name) {
            case "canonical" -> CANONICAL;
            case "helper" -> HELPER;
            case "opposite" -> OPPOSITE;
            default -> throw new IllegalArgumentException("not a single dataset: " + name);
        };
    }

    /** Every dataset of {@code n} clients up to relabelling: {@code h = 0..n-1} others holding 1, dummy 0 or 1. */
    static List<CheckInDataset> all(int n) {
        List<CheckInDataset> list = new ArrayList<>();
        for (int h = 0; h < n; h++) {
            for (boolean d : new boolean[] {false, true}) {
                // (h, d) and (n - 1 - h, !d) are mirror images: keep the one with the smaller (h, d).
                int mh = n - 1 - h;
                boolean keep = h < mh || (h == mh && !d);
                if (keep) {
                    list.add(new CheckInDataset(describe(h, d), h, d));
                }
            }
        }
        return list;
    }

    private static String describe(int h, boolean d) {
        if (h == 0) {
            return d ? "opposite" : "canonical";
        }
        if (h == 1 && !d) {
            return "helper";
        }
        return h + " other(s) hold 1, dummy " + (d ? "1" : "0");
    }
}
