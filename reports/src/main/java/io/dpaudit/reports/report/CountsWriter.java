package io.dpaudit.reports.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dpaudit.core.audit.AuditResult;
import io.dpaudit.core.engine.HistogramBinning;
import io.dpaudit.core.engine.ScoreCounts;
import io.dpaudit.core.engine.World;
import io.dpaudit.runner.json.JsonNumbers;

/**
 * Writes {@code counts.json}: every histogram an audit counted, so that every number of the report can be
 * recomputed offline (see {@code examples/recompute.py}). Layout ({@value #LAYOUT_VERSION}):
 * <pre>
 * {layoutVersion, slotRule,
 *  audit:    {binning, selection: {trials, withCanary, withoutCanary} | null, evaluation: {...}},
 *  estimate: {binning, lossBracket, counts: {trials, withCanary, withoutCanary}} | null}
 * binning = {lo, hi, bins, exact, values (exact binnings only: the score value of each rank)}
 * withCanary / withoutCanary = {slots: [...], counts: [...]}   (non-zero slots only, ascending)
 * </pre>
 */
public final class CountsWriter {
    /** Version of this file's layout. */
    public static final int LAYOUT_VERSION = 1;
    static final String SLOT_RULE = "slot 0 holds scores below lo; slot k in [1, bins] holds [lo + (k-1) w, lo + k w) "
            + "with w = (hi - lo) / bins; slot bins + 1 holds scores at or above hi. For an exact binning, slot r + 1 "
            + "holds rank r, whose score value is values[r]. A threshold test 'score at or above edge k' counts "
            + "slots k + 1 .. bins + 1.";
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private CountsWriter() {
    }

    /** The counts as JSON text (one line per array), ending with a newline. */
    public static String write(AuditReport r) {
        AuditResult.Counts c = r.result().counts();
        ObjectNode root = MAPPER.createObjectNode();
        root.put("layoutVersion", LAYOUT_VERSION);
        root.put("slotRule", SLOT_RULE);
        if (c == null) {
            root.putNull("audit");
            root.putNull("estimate");
        } else {
            ObjectNode audit = root.putObject("audit");
            audit.set("binning", binning(c.evaluation().binning()));
            if (c.selection() == null) {
                audit.putNull("selection");
            } else {
                audit.set("selection", counts(c.selection()));
            }
            audit.set("evaluation", counts(c.evaluation()));
            if (c.estimate() == null) {
                root.putNull("estimate");
            } else {
                ObjectNode e = root.putObject("estimate");
                e.set("binning", binning(c.estimate().binning()));
                e.put("lossBracket", r.result().estimate().bracket());
                e.set("counts", counts(c.estimate()));
            }
        }
        try {
            return MAPPER.writeValueAsString(root) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static ObjectNode binning(HistogramBinning b) {
        ObjectNode o = MAPPER.createObjectNode();
        o.set("lo", JsonNumbers.encode(b.lo()));
        o.set("hi", JsonNumbers.encode(b.hi()));
        o.put("bins", b.bins());
        o.put("exact", b.exact());
        if (b.exact()) {
            ArrayNode v = o.putArray("values");
            for (int k = 0; k <= b.bins(); k++) {
                v.add(JsonNumbers.encode(b.edge(k)));
            }
        }
        return o;
    }

    private static ObjectNode counts(ScoreCounts c) {
        ObjectNode o = MAPPER.createObjectNode();
        if (c.balanced()) {
            o.put("trials", c.trials());
        } else {
            o.putNull("trials"); // external scores: the worlds' own "trials" differ
        }
        for (World w : World.values()) {
            ObjectNode side = o.putObject(w == World.WITH_CANARY ? "withCanary" : "withoutCanary");
            side.put("trials", c.trials(w));
            ArrayNode slots = side.putArray("slots");
            ArrayNode counts = side.putArray("counts");
            for (int s = 0; s < c.binning().slots(); s++) {
                long n = c.count(w, s);
                if (n != 0) {
                    slots.add(s);
                    counts.add(n);
                }
            }
        }
        return o;
    }
}
