package io.dpaudit.reports.report;

import io.dpaudit.runner.analysis.BoundCurve;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpaudit.core.engine.ProgressListener;
import io.dpaudit.runner.ScenarioAudit;
import io.dpaudit.runner.scenario.Scenario;
import io.dpaudit.runner.scenario.ScenarioReader;
import java.util.List;
import org.junit.jupiter.api.Test;
import io.dpaudit.reports.TestReports;

/** The plots' data as CSV, and the delta-epsilon plot's handling of curves that certify nothing or coincide. */
class CsvAndPlotTest {
    private static AuditReport audit() {
        Scenario s = ScenarioReader.parse("{\"name\": \"csv\", \"mechanism\": {\"type\": "
                + "\"poisson-subsampled-gaussian\", \"q\": 0.2, \"sigma\": 1}, \"trials\": 100000, \"seed\": 9, "
                + "\"claims\": [{\"label\": \"a, \\\"b\\\"\", \"epsilon\": 1, \"delta\": 1e-3}]}", "csv");
        return TestReports.run(ScenarioAudit.prepare(s, s.trials(), s.seed(), 1), ProgressListener.NONE);
    }

    @Test
    void csvHoldsEveryPlottedSeries() {
        AuditReport r = audit();
        List<String> curves = CsvDataWriter.curves(r).lines().toList();
        assertEquals("series,kind,epsilon,delta", curves.get(0));
        for (BoundCurve c : r.bounds()) {
            long rows = curves.stream().filter(l -> l.startsWith(CsvDataWriter.field(c.name()) + ",")).count();
            assertEquals(c.plotPoints().size(), rows, c.name());
            assertTrue(c.plotPoints().containsAll(c.points()), "the grid is drawn too");
        }
        assertTrue(curves.contains("\"a, \"\"b\"\"\",claim-consistent,1.0,0.001"), String.join("\n", curves));
        assertTrue(curves.stream().anyMatch(l -> l.startsWith("empirical epsilon lower bound,empirical,")));
        List<String> tradeOff = CsvDataWriter.tradeOff(r).lines().toList();
        assertEquals("series,role,alpha,beta", tradeOff.get(0));
        assertEquals(r.result().tradeOff().points().size(),
                tradeOff.stream().filter(l -> l.startsWith("certified point,point,")).count());
        assertTrue(tradeOff.stream().anyMatch(l -> l.startsWith("lower convex envelope,envelope,0.0,1.0")));
        // Every row has four fields (quoted commas excepted) and parses as numbers.
        for (String l : tradeOff.subList(1, tradeOff.size())) {
            String[] f = l.split(",");
            Double.parseDouble(f[f.length - 1]);
            Double.parseDouble(f[f.length - 2]);
        }
    }

    @Test
    void identicalCurvesAreMarkedAndFlatOnesListed() {
        AuditReport r = audit();
        String svg = SvgPlot.render(r);
        // The exact profile and BBG18's amplification of the exact Gaussian coincide to plotting precision.
        assertTrue(svg.contains("(identical to poisson-subsampled-gaussian-exact)"), svg);
        assertTrue(svg.contains("width=\"100%\""), "responsive");
        assertTrue(SvgPlot.flatCurves(r).isEmpty());
        BoundCurve flat = new BoundCurve("nothing", "test", io.dpaudit.core.bounds.BoundKind.UPPER_BOUND,
                List.of(new BoundCurve.Point(0, 1), new BoundCurve.Point(5, 1)), List.of());
        assertTrue(SvgPlot.certifiesNothing(flat));
        assertTrue(!SvgPlot.certifiesNothing(r.bounds().get(0)));
    }

    /**
     * A claim's circle follows its verdict, so that a claim the audit could not have refuted never looks consistent:
     * at 20 000 trials of the σ = 1 Gaussian (seed 0), ε = 1 at δ = 1e-5 is violated and ε = 3 and 4.4 are
     * inconclusive (checked first); with no δ or ε asked for, no empirical triangle is drawn or listed.
     */
    @Test
    void claimCirclesFollowTheirVerdictAndTheLegendListsOnlyWhatIsDrawn() {
        Scenario s = ScenarioReader.parse("{\"name\": \"markers\", \"mechanism\": {\"type\": \"gaussian\", "
                + "\"sigma\": 1}, \"trials\": 20000, \"seed\": 0, \"deltas\": [], \"epsilons\": [], \"claims\": ["
                + "{\"label\": \"A\", \"epsilon\": 3, \"delta\": 1e-5}, {\"label\": \"B\", \"epsilon\": 1, "
                + "\"delta\": 1e-5}]}", "markers");
        AuditReport r = TestReports.run(ScenarioAudit.prepare(s, s.trials(), s.seed(), 1), ProgressListener.NONE);
        assertEquals(io.dpaudit.core.audit.Verdict.INCONCLUSIVE, r.result().claims().get(0).verdict());
        assertEquals(io.dpaudit.core.audit.Verdict.VIOLATED, r.result().claims().get(1).verdict());
        String svg = SvgPlot.render(r);
        assertTrue(svg.contains("stroke=\"#7f7f7f\" stroke-width=\"2.5\" stroke-dasharray=\"3 2\"><title>A: "
                + "inconclusive"), svg);
        assertTrue(svg.contains("stroke=\"#d62728\" stroke-width=\"2.5\"><title>B: violated"), svg);
        assertTrue(svg.contains(">claim, inconclusive (the audit could not have refuted it)<"), svg);
        assertTrue(!svg.contains("claim, consistent"), "no consistent claim: no such legend entry");
        assertTrue(!svg.contains("empirical ε lower bound") && !svg.contains("empirical δ lower bound"), svg);
        assertTrue(!MarkdownReportWriter.details(r).contains("| ε | δ lower bound | test |"), "no empty table");
    }
}
