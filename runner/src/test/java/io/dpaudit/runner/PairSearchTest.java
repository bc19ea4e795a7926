package io.dpaudit.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpaudit.core.InvalidInputException;
import io.dpaudit.core.engine.ProgressListener;
import io.dpaudit.runner.scenario.Scenario;
import io.dpaudit.runner.scenario.ScenarioReader;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The pair search: StatDP's patterns, screening seeds, bad input, and a search that finds a leakier pair. */
class PairSearchTest {
    private static final String NOISY_MAX = "{\"mechanism\": {\"type\": \"noisy-max\", \"epsilon\": 0.5, \"noise\": "
            + "\"laplace\", \"output\": \"value\", \"d\": \"1,1,1,1\", \"dPrime\": \"2,1,1,1\"}, \"attack\": "
            + "\"statistic\", \"trials\": 100000, \"seed\": 5, \"deltas\": [1e-3]";

    @Test
    void statDpPatternsOnFourQueries() {
        List<String[]> p = PairSearch.statDpPatterns(4);
        assertEquals(7, p.size());
        assertEquals(List.of("1,1,1,1", "2,1,1,1"), List.of(p.get(0)[1], p.get(0)[2]));
        assertEquals(List.of("1,1,1,1", "0,2,2,2"), List.of(p.get(3)[1], p.get(3)[2]));
        assertEquals(List.of("1,1,1,1", "0,0,2,2"), List.of(p.get(4)[1], p.get(4)[2]));
        assertEquals(List.of("1,1,0,0", "0,0,1,1"), List.of(p.get(6)[1], p.get(6)[2]));
        for (String[] q : p) { // every pattern is a neighbouring pair of sensitivity-1 queries
            String[] a = q[1].split(",");
            String[] b = q[2].split(",");
            for (int i = 0; i < a.length; i++) {
                assertTrue(Math.abs(Integer.parseInt(a[i]) - Integer.parseInt(b[i])) <= 1, q[0]);
            }
        }
    }

    @Test
    void screeningSeedsDifferFromTheRootAndEachOther() {
        java.util.Set<Long> seen = new java.util.HashSet<>();
        seen.add(7L);
        for (int i = 0; i < 100; i++) {
            assertTrue(seen.add(PairSearch.mix(7, i)));
        }
    }

    @Test
    void noSearchWithoutTheKey() {
        Scenario s = ScenarioReader.parse(NOISY_MAX + "}", "t");
        assertNull(PairSearch.run(s, 5, 1, ProgressListener.NONE));
    }

    @Test
    void badSearchesAreRefusedNamingTheField() {
        String[][] bad = {
            {"{\"pattern\": \"statdp\"}", "pairSearch.pattern"},
            {"{\"patterns\": \"dpsniper\"}", "pairSearch.patterns = \"dpsniper\": must be \"statdp\""},
            {"{\"candidates\": [{\"type\": \"laplace\"}]}", "pairSearch.candidates[0].type"},
            {"{\"candidates\": [{}]}", "pairSearch.candidates[0] = {}: must be a non-empty object"},
            {"{\"patterns\": \"statdp\", \"screenTrials\": 10}", "pairSearch.screenTrials = 10"},
            {"{}", "pairSearch = {}: needs candidates or patterns"},
            // A candidate's parameters are checked before any screening, and named where they were written.
            {"{\"candidates\": [{\"epsilon\": 1}, {\"nope\": 1}]}", "pairSearch.candidates[1]: mechanism.nope = 1: "
                    + "unknown parameter"},
            {"{\"candidates\": [{\"epsilon\": -1}]}", "pairSearch.candidates[0]: mechanism.epsilon = -1: must be > 0"},
            {"{\"patterns\": \"statdp\", \"screen\": \"bound\"}", "pairSearch.screen = \"bound\": must be \"attack\""},
            {"{\"patterns\": \"statdp\", \"screen\": \"lower-bound\", \"screenTrials\": 20000}",
                "pairSearch.screenTrials = 20000: applies to screen \"attack\""},
            // noisy max states no proven lower bound: refused when the first candidate is screened
            {"{\"patterns\": \"statdp\", \"screen\": \"lower-bound\"}", "pairSearch.screen = lower-bound: the "
                    + "noisy-max mechanism of mechanism states no proven lower bound"},
        };
        for (String[] b : bad) {
            Scenario s = ScenarioReader.parse(NOISY_MAX + ", \"pairSearch\": " + b[0] + "}", "t");
            InvalidInputException e = assertThrows(InvalidInputException.class,
                    () -> PairSearch.run(s, 5, 1, ProgressListener.NONE));
            assertTrue(e.getMessage().startsWith(b[1]), e.getMessage());
        }
        Scenario gaussian = ScenarioReader.parse("{\"mechanism\": {\"type\": \"gaussian\", \"sigma\": 1}, "
                + "\"pairSearch\": {\"patterns\": \"statdp\"}}", "t");
        InvalidInputException e = assertThrows(InvalidInputException.class,
                () -> PairSearch.run(gaussian, 5, 1, ProgressListener.NONE));
        assertTrue(e.getMessage().contains("applies to mechanisms of two query-answer vectors"), e.getMessage());
    }

    /**
     * Shuffled batches, T = 1000, sigma = 1, stated with the other records' gradient at 0 (balls-and-bins' pair):
     * screened by the proven lower bounds at delta = 1e-6, the search must choose Chua et al.'s dataset (others = -1,
     * the max test's 3.724) over -0.5 and +1, and report each candidate's bound (no trials, so no seed matters).
     */
    @Test
    void screenedByProvenLowerBoundsItFindsChuaEtAlsDataset() {
        Scenario s = ScenarioReader.parse("{\"mechanism\": {\"type\": \"shuffled-batches\", \"steps\": 1000, "
                + "\"sigma\": 1, \"others\": 0}, \"trials\": 10000, \"deltas\": [1e-6], \"pairSearch\": "
                + "{\"screen\": \"lower-bound\", \"candidates\": [{\"others\": -0.5}, {\"others\": -1}, "
                + "{\"others\": 1}]}}", "t");
        PairSearch.Result r = PairSearch.run(s, 5, 1, ProgressListener.NONE);
        assertEquals("lower-bound", r.screen());
        assertEquals(0, r.screenTrials());
        assertEquals(2, r.chosen(), r.toString());
        assertEquals(3.724, r.audited().screenEpsilon(), 5e-4, r.toString());
        double atZero = r.candidates().get(0).screenEpsilon();
        assertEquals(0.1235, atZero, 5e-4, r.toString()); // balls-and-bins' max test
        assertTrue(r.candidates().get(1).screenEpsilon() > atZero, r.toString());
        assertEquals(atZero, r.candidates().get(3).screenEpsilon(), 1e-9, r.toString()); // the mirror
        assertEquals(-1.0, PairSearch.chosen(s, r).mechanism().values().get("others"));
    }

    /**
     * Noisy max returning the value, stated with StatDP's "one above" pair: moving every query by one moves the max by
     * one, so "all above" (or "one below rest above") is leakier, and the search (fixed seed 5) must leave the stated
     * pair for one of them, with a larger screened bound.
     */
    @Test
    void findsALeakierPairThanTheStatedOne() {
        Scenario s = ScenarioReader.parse(NOISY_MAX + ", \"pairSearch\": {\"patterns\": \"statdp\", "
                + "\"screenTrials\": 20000}}", "t");
        PairSearch.Result r = PairSearch.run(s, 5, 2, ProgressListener.NONE);
        assertEquals(8, r.candidates().size());
        assertNotEquals(0, r.chosen(), r.toString());
        assertTrue(r.audited().screenEpsilon() > r.candidates().get(0).screenEpsilon(), r.toString());
        Scenario chosen = PairSearch.chosen(s, r);
        assertEquals(r.audited().overrides().get("dPrime"), chosen.mechanism().values().get("dPrime"));
    }
}
