package io.dpaudit.runner;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpaudit.core.InvalidInputException;
import io.dpaudit.runner.scenario.Scenario;
import io.dpaudit.runner.scenario.ScenarioReader;
import org.junit.jupiter.api.Test;

/**
 * Which estimator {@code estimate.method} gets: the dependent-round batch samplers' own importance sampler
 * (balls-and-bins, random allocation, the shuffle's pair) where a scenario asks for it, never by {@code auto}; a refusal
 * that names the field for a mechanism that has none (seed 000's aligned adversary).
 */
class ImportanceMethodTest {
    private static Scenario scenario(String mechanism, String estimate) {
        return ScenarioReader.parse("{\"mechanism\": " + mechanism + ", \"trials\": 2000, \"deltas\": [1e-10], "
                + "\"estimate\": " + estimate + "}", "test");
    }

    @Test
    void ballsAndBinsHasItsOwnSamplerWhenAskedFor() {
        String bnb = "{\"type\": \"balls-and-bins\", \"steps\": 100, \"sigma\": 0.5}";
        ScenarioTrials.Prepared asked = ScenarioTrials.prepare(scenario(bnb, "{\"method\": \"importance\"}"), 2000, 1);
        assertNotNull(asked.profileEstimation());
        assertNull(asked.lossScorer());
        ScenarioTrials.Prepared auto = ScenarioTrials.prepare(scenario(bnb, "true"), 2000, 1);
        assertNull(auto.profileEstimation(), "auto picks only the generic sampler");
        assertNotNull(auto.lossScorer());
    }

    @Test
    void theOtherDependentSamplersHaveTheirOwnToo() {
        for (String m : new String[] {"{\"type\": \"shuffled-batches\", \"steps\": 100, \"sigma\": 0.5}",
            "{\"type\": \"shuffled-batches\", \"steps\": 100, \"sigma\": 0.5, \"epochs\": 2, \"shuffle\": "
                + "\"persistent\"}",
            "{\"type\": \"random-allocation\", \"steps\": 100, \"sigma\": 0.5, \"k\": 2}"}) {
            ScenarioTrials.Prepared asked = ScenarioTrials.prepare(scenario(m, "{\"method\": \"importance\"}"), 2000,
                    1);
            assertNotNull(asked.profileEstimation(), m);
        }
    }

    @Test
    void aMechanismWithoutOneIsRefusedByName() {
        String aligned = "{\"type\": \"random-participation\", \"p\": 0.5, \"q\": 0.5, \"d\": 2, \"sigma\": 1, "
                + "\"adversary\": \"aligned\"}";
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> ScenarioTrials.prepare(
                scenario(aligned, "{\"method\": \"importance\"}"), 2000, 1));
        assertTrue(e.getMessage().contains("estimate.method"), e.getMessage());
    }
}
