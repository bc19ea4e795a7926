package io.dpaudit.reports.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code run} on a directory (one folder per scenario and an index), {@code compare}, and the trials warning. */
class IndexAndCompareTest {
    @TempDir
    Path dir;

    private Path scenario(Path in, String name, double claimEpsilon) throws Exception {
        Files.createDirectories(in);
        Path file = in.resolve(name + ".json");
        Files.writeString(file, "{\"mechanism\": {\"type\": \"gaussian\", \"sigma\": 1}, \"trials\": 200000, "
                + "\"seed\": 3, \"deltas\": [1e-3], \"claims\": [{\"label\": \"c\", \"epsilon\": " + claimEpsilon
                + ", \"delta\": 1e-3}, {\"bound\": \"gaussian-exact\", \"delta\": 1e-3}]}");
        return file;
    }

    @Test
    void directoryGivesOneFolderEachAndAnIndex() throws Exception {
        Path in = dir.resolve("in");
        scenario(in, "a-correct", 3.0);
        scenario(in, "b-wrong", 0.5);
        Path out = dir.resolve("out");
        CliRunner.Result r = CliRunner.run("run", in.toString(), "--quiet", "--out", out.toString());
        assertEquals(3, r.exit(), r.err());
        for (String f : new String[] {"a-correct", "b-wrong"}) {
            assertTrue(Files.exists(out.resolve(f).resolve("report.json")), f);
            assertTrue(Files.exists(out.resolve(f).resolve("report.html")), f);
        }
        String md = Files.readString(out.resolve("index.md"));
        assertTrue(md.contains("VIOLATED: b-wrong: c (black-box). 2 scenarios, 4 claims: 1 violated"), md);
        assertTrue(md.contains("| b-wrong | c | (ε, δ) | ε = 0.5000, δ = 0.001000 | **VIOLATED (black-box)** |"), md);
        String csv = Files.readString(out.resolve("index.csv"));
        assertTrue(csv.startsWith("scenario,folder,claim,kind,epsilon,delta,gdpMu,verdict,"), csv);
        assertTrue(csv.contains("b-wrong,b-wrong,c,epsilon-delta,0.5,0.001,,violated,"), csv);
        JsonNode index = new com.fasterxml.jackson.databind.ObjectMapper().readTree(out.resolve("index.json")
                .toFile());
        assertEquals(4, index.get("claims").asInt());
        assertEquals(1, index.get("violated").asInt());
        assertEquals(4, index.get("rows").size());
        assertEquals("b-wrong/report.json", index.get("rows").get(2).get("report").asText());
        for (JsonNode row : index.get("rows")) { // a factor of trials for inconclusive claims, null for the others
            JsonNode factor = row.get("trialsFactorToResolve");
            assertTrue(row.get("verdict").asText().equals("inconclusive") ? factor.isIntegralNumber()
                    && factor.asLong() >= 0 : factor.isNull(), row.toString());
        }
        assertTrue(md.contains("[a-correct](a-correct/report.html)"), md);
        String html = Files.readString(out.resolve("index.html"));
        assertTrue(html.contains("class=\"banner violated\""), html);
        assertTrue(html.contains("<a href=\"b-wrong/report.html\">"), html);
        // One table, the verdict first in each row and the row coloured by it, the violated claims first.
        int violatedRow = html.indexOf("<tr class=\"violated\"><td><strong>VIOLATED");
        assertTrue(violatedRow > 0 && violatedRow == html.indexOf("<tr class=\""), html);
        assertTrue(r.out().contains("Index: "), r.out());

        // Two files named explicitly, all consistent: exit 0.
        Path out2 = dir.resolve("out2");
        assertEquals(0, CliRunner.run("run", in.resolve("a-correct.json").toString(),
                in.resolve("a-correct.json").toString(), "--quiet", "--out", out2.toString()).exit());
        assertTrue(Files.exists(out2.resolve("a-correct-2").resolve("report.json")), "same name twice: a suffix");
    }

    @Test
    void oneBadScenarioStopsEverythingBeforeAnyWork() throws Exception {
        Path in = dir.resolve("in");
        scenario(in, "a", 3.0);
        Files.writeString(in.resolve("b.json"), "{\"mechanism\": {\"type\": \"gaussian\", \"sigma\": -1}}");
        Path out = dir.resolve("out");
        CliRunner.Result r = CliRunner.run("run", in.toString(), "--quiet", "--out", out.toString());
        assertEquals(2, r.exit());
        assertTrue(r.err().contains("b.json: ") && r.err().contains("sigma"), r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertFalse(Files.exists(out));
    }

    @Test
    void compareReportsClaimChanges() throws Exception {
        Path in = dir.resolve("in");
        Path good = scenario(in, "x", 3.0);
        Path a = dir.resolve("a");
        Path b = dir.resolve("b");
        CliRunner.run("run", good.toString(), "--quiet", "--out", a.toString());
        Files.writeString(good, Files.readString(good).replace("\"epsilon\": 3.0", "\"epsilon\": 0.5"));
        CliRunner.run("run", good.toString(), "--quiet", "--out", b.toString());
        CliRunner.Result r = CliRunner.run("compare", a.resolve("report.json").toString(),
                b.resolve("report.json").toString());
        assertEquals(3, r.exit(), r.out() + r.err());
        assertTrue(r.out().contains("! c: verdict consistent -> VIOLATED"), r.out());
        assertTrue(r.out().contains("= gaussian-exact: verdict consistent"), r.out());
        assertTrue(r.out().contains("1 claim(s) newly violated in B"), r.out());
        CliRunner.Result back = CliRunner.run("compare", b.resolve("report.json").toString(),
                a.resolve("report.json").toString());
        assertEquals(0, back.exit());
        assertTrue(back.out().contains("* c: verdict violated -> CONSISTENT"), back.out());
        CliRunner.Result bad = CliRunner.run("compare", a.resolve("report.md").toString(),
                b.resolve("report.json").toString());
        assertEquals(2, bad.exit());
        assertEquals(2, CliRunner.run("compare", a.resolve("report.json").toString()).exit());
        // A claim that becomes contested (its ε lower bound above its ε, verdict unchanged) is named, not a regression.
        com.fasterxml.jackson.databind.ObjectMapper mapper = new com.fasterxml.jackson.databind.ObjectMapper();
        JsonNode contested = mapper.readTree(a.resolve("report.json").toFile());
        for (JsonNode c : contested.get("claims")) {
            assertTrue(c.has("epsilonBoundAboveClaim"), "field written");
            ((com.fasterxml.jackson.databind.node.ObjectNode) c).put("epsilonBoundAboveClaim", true);
        }
        Path marked = dir.resolve("contested.json");
        mapper.writeValue(marked.toFile(), contested);
        CliRunner.Result now = CliRunner.run("compare", a.resolve("report.json").toString(), marked.toString());
        assertEquals(0, now.exit(), now.out() + now.err());
        assertTrue(now.out().contains("= c: verdict consistent") && now.out().contains(", now contested"), now.out());
        CliRunner.Result gone = CliRunner.run("compare", marked.toString(), a.resolve("report.json").toString());
        assertTrue(gone.out().contains(", no longer contested"), gone.out());
        // A claim in one report only is printed as the matched ones are (4 significant digits, not 17).
        JsonNode renamed = mapper.readTree(a.resolve("report.json").toFile());
        for (JsonNode c : renamed.get("claims")) {
            ((com.fasterxml.jackson.databind.node.ObjectNode) c).put("label", "renamed " + c.get("label").asText());
            ((com.fasterxml.jackson.databind.node.ObjectNode) c).put("epsilon", 0.123456789012);
        }
        Path other = dir.resolve("renamed.json");
        mapper.writeValue(other.toFile(), renamed);
        CliRunner.Result only = CliRunner.run("compare", a.resolve("report.json").toString(), other.toString());
        assertTrue(only.out().contains("+ renamed c: only in B, verdict consistent, epsilon 0.1235, delta "),
                only.out());
        assertTrue(only.out().contains("(scenario x, dp-audit"), only.out());
    }

    @Test
    void warnsWhenTheTrialsCannotResolveTheSmallestDelta() throws Exception {
        Path f = scenario(dir.resolve("in"), "w", 3.0);
        CliRunner.Result r = CliRunner.run("run", f.toString(), "--trials", "5000", "--out",
                dir.resolve("o").toString());
        assertTrue(r.err().contains("warning: Too few trials to resolve delta = 0.001000: 5,000 per world"), r.err());
        assertTrue(r.err().contains("about 100,000 trials per world"), r.err());
        CliRunner.Result enough = CliRunner.run("run", f.toString(), "--out", dir.resolve("p").toString());
        assertFalse(enough.err().contains("warning"), enough.err());
    }
}
