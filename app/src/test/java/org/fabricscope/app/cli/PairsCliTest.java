package org.fabricscope.app.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * {@code fabricscope pairs} on the pairwise sample: a matrix per test with the slow node named, the same as
 * JSON, and the report's section; inputs without pairwise tests say so.
 */
class PairsCliTest {
    static final Path SAMPLE = Path.of("..", "sample-fabrics", "pairwise");

    static List<String> inputs() {
        assumeTrue(Files.isDirectory(SAMPLE), "run from the app module of the repository");
        List<String> in = new ArrayList<>();
        for (int i = 1; i <= 5; i++) {
            in.add(SAMPLE.resolve("gpu-node-0" + i).resolve("ibstat.txt").toString());
        }
        in.add(SAMPLE.resolve("perftest").toString());
        in.add(SAMPLE.resolve("nccl-tests").toString());
        return in;
    }

    private static CliTest.Run run(String... first) {
        List<String> args = new ArrayList<>(List.of(first));
        args.addAll(inputs());
        return CliTest.run(args.toArray(String[]::new));
    }

    @Test
    void textMatrixPerTestWithTheSlowNode() {
        CliTest.Run r = run("pairs");
        assertEquals(0, r.status(), r.err());
        String out = r.out();
        assertTrue(out.startsWith("ib_write_bw (perftest-bw, Gb/s)\n5 nodes, 10 pairs: the highest BW average over each run's sizes"
                + " (Gb/s, higher is better); pairs told by LIDs in the hosts' ibstat (10)\n"), out);
        String row = out.lines().filter(l -> l.startsWith("gpu-node-03 ")).findFirst().orElseThrow();
        assertEquals(List.of("gpu-node-03", "196.3", "196.2", "—", "195.9", "196.3"), List.of(row.strip().split("\\s+")), row);
        assertTrue(out.contains("gpu-node-03 is slow in all 4 of its pairs: 50% of the median of the 6 pairs without it (392 Gb/s)"), out);
        assertTrue(out.contains("all_reduce_perf (nccl-tests-busbw, GB/s)\n4 nodes, 6 pairs"), out);
        assertTrue(out.contains("gpu-node-03 is slow in all 3 of its pairs"), out);
        assertFalse(out.contains("Runs on no known pair"), out);
    }

    @Test
    void jsonForScripts() throws Exception {
        CliTest.Run r = run("pairs", "--json");
        assertEquals(0, r.status(), r.err());
        JsonNode j = new ObjectMapper().readTree(r.out());
        JsonNode bw = j.get("matrices").get(0);
        assertEquals("ib_write_bw", bw.get("test").asText());
        assertEquals("perftest-bw", bw.get("kind").asText());
        assertEquals("Gb/s", bw.get("unit").asText());
        assertEquals(5, bw.get("nodes").size());
        assertEquals(10, bw.get("cells").size());
        JsonNode cell = bw.get("cells").get(1);
        assertEquals("gpu-node-01", cell.get("a").asText());
        assertEquals("gpu-node-03", cell.get("b").asText());
        assertEquals("host-lid", cell.get("how").asText());
        assertTrue(cell.get("fractionOfBest").asDouble() < 0.51);
        assertTrue(cell.get("evidence").get(0).get("line").asInt() > 20, "the result line first: " + cell);
        assertEquals(196.3, cell.get("value").asDouble(), 0.05);
        assertEquals("gpu-node-03", bw.get("verdict").get("slowNodes").get(0).get("node").asText());
        assertEquals(0, j.get("unplaced").size());
    }

    @Test
    void withoutPairwiseTestsItSaysSo() throws Exception {
        Path rail = Path.of("..", "sample-fabrics", "rail-2su-hdr", "ibnetdiscover.txt");
        assumeTrue(Files.exists(rail));
        CliTest.Run r = CliTest.run("pairs", rail.toString());
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().startsWith("No pair measured: "), r.out());
    }

    @Test
    void theMarkdownReportHasTheMatrix() {
        CliTest.Run r = run("diagnose", "--markdown");
        assertEquals(0, r.status(), r.err());
        String md = r.out();
        int at = md.indexOf("## Pairwise tests\n\n### ib_write_bw (perftest-bw, Gb/s)\n\n");
        assertTrue(at > 0, md);
        assertTrue(md.indexOf("## Troubleshooting flows") > at, "before the flows");
        assertTrue(md.contains("| **gpu-node-03** | 196.3 (50%) | 196.2 (50%) | — | 195.9 (50%) | 196.3 (50%) |"), md);
        assertTrue(md.contains("- gpu-node-03 is slow in all 4 of its pairs"), md);
    }

    @Test
    void theHtmlReportColoursEachCell() {
        CliTest.Run r = run("diagnose", "--html");
        assertEquals(0, r.status(), r.err());
        String html = r.out();
        assertTrue(html.contains("<h2>Pairwise tests</h2>"), html);
        assertTrue(html.contains("<table class=\"pairs\">"));
        assertTrue(html.contains("title=\"gpu-node-01 - gpu-node-03: 196.3 Gb/s (BW average at"), html);
    }
}
