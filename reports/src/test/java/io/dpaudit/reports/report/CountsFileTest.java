package io.dpaudit.reports.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dpaudit.core.engine.ProgressListener;
import io.dpaudit.core.estimate.EpsilonLowerBound;
import io.dpaudit.core.estimate.SelectedTest;
import io.dpaudit.runner.ScenarioAudit;
import io.dpaudit.runner.scenario.Scenario;
import io.dpaudit.runner.scenario.ScenarioReader;
import org.junit.jupiter.api.Test;
import io.dpaudit.reports.TestReports;

/** counts.json holds the histograms behind the report: the certifying tests recount from it exactly. */
class CountsFileTest {
    private static long[] dense(JsonNode side, int slots) {
        long[] c = new long[slots];
        for (int i = 0; i < side.get("slots").size(); i++) {
            c[side.get("slots").get(i).intValue()] = side.get("counts").get(i).longValue();
        }
        return c;
    }

    private static void recount(String scenario) throws Exception {
        Scenario s = ScenarioReader.parse(scenario, "t");
        AuditReport r = TestReports.run(ScenarioAudit.prepare(s, s.trials(), s.seed(), 2), ProgressListener.NONE);
        JsonNode json = new ObjectMapper().readTree(CountsWriter.write(r));
        assertEquals(CountsWriter.LAYOUT_VERSION, json.get("layoutVersion").intValue());
        JsonNode audit = json.get("audit");
        int bins = audit.get("binning").get("bins").intValue();
        JsonNode eval = audit.get("evaluation");
        long n = eval.get("trials").longValue();
        assertEquals(r.result().evaluationTrials(), n);
        long[] d = dense(eval.get("withCanary"), bins + 2);
        long[] dPrime = dense(eval.get("withoutCanary"), bins + 2);
        for (EpsilonLowerBound e : r.result().epsilonLowerBounds()) {
            SelectedTest t = e.test();
            int k = t.edge();
            long[] flagged = t.direction().flagged() == io.dpaudit.core.engine.World.WITH_CANARY ? d : dPrime;
            long[] other = flagged == d ? dPrime : d;
            assertEquals(t.truePositives(), tail(flagged, k, t.direction().upperTail(), n));
            assertEquals(t.falsePositives(), tail(other, k, t.direction().upperTail(), n));
        }
        boolean estimate = r.result().estimate() != null;
        assertEquals(estimate, json.get("estimate").isObject());
        if (estimate) {
            assertEquals(r.result().estimate().trials(), json.get("estimate").get("counts").get("trials").longValue());
        }
    }

    private static long tail(long[] c, int edge, boolean upper, long n) {
        long up = 0;
        for (int s = edge + 1; s < c.length; s++) {
            up += c[s];
        }
        return upper ? up : n - up;
    }

    @Test
    void continuousScoresRecount() throws Exception {
        recount("{\"mechanism\": {\"type\": \"gaussian\", \"sigma\": 1}, \"trials\": 300000, \"seed\": 4, "
                + "\"deltas\": [1e-3, 1e-4], \"estimate\": {\"method\": \"plain\"}}");
    }

    @Test
    void exactRanksRecount() throws Exception {
        recount("{\"mechanism\": {\"type\": \"shuffled-randomizer\", \"clients\": 100, \"randomizer\": \"rr\", "
                + "\"eps0\": 2}, \"trials\": 300000, \"seed\": 4, \"deltas\": [1e-3]}");
    }
}
