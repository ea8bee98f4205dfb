package org.fabricscope.app.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

class CliTest {
    @TempDir
    Path dir;
    Path fabric;
    Path counters;

    record Run(int status, String out, String err) {
    }

    @BeforeEach
    void copyFabric() throws IOException {
        fabric = copy("two-tier.ibnetdiscover.txt");
        counters = copy("leaf-01.perfquery.txt");
    }

    private Path copy(String name) throws IOException {
        Path p = dir.resolve(name);
        try (InputStream in = CliTest.class.getResourceAsStream("/fabrics/" + name)) {
            Files.copy(in, p);
        }
        return p;
    }

    static Run run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = FabricScopeCommand.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void exportJsonPlacesRanksAndTheirFabricPath() throws IOException {
        Path log = copy("two-host.nccl.log");
        Run r = run("export", "-f", "json", fabric.toString(), log.toString());
        assertEquals(0, r.status(), r.err());
        JsonNode j = new ObjectMapper().readTree(r.out());
        assertEquals(2, j.get("ranks").size());
        JsonNode r0 = j.get("ranks").get(0);
        assertEquals(0, r0.get("rank").asInt());
        assertEquals("gpu-01", r0.get("host").asText());
        assertEquals("gpu-01", r0.get("logHost").asText());
        JsonNode pair = j.get("rankPairs").get(0);
        assertEquals("NET/IB", pair.get("transport").asText());
        assertEquals(4, pair.get("channelLines").asInt(), "channel 0 both ways, printed by the sender and the receiver");
        // gpu-01 and gpu-03 hang off different leaves: HCA, leaf, spine, leaf, HCA
        assertEquals(5, pair.get("path").size(), pair.toString());
        assertEquals(r0.get("hca").asText(), pair.get("path").get(0).asText());
        assertTrue(pair.get("cables").size() >= 4, "both spines are equal-cost: " + pair.get("cables"));
    }

    @Test
    void summaryJsonHasTheContractFields() throws IOException {
        Run r = run("summary", "--json", fabric.toString(), counters.toString());
        assertEquals(0, r.status(), r.err());
        JsonNode j = new ObjectMapper().readTree(r.out());
        assertEquals(4, j.get("switches").asInt());
        assertEquals(2, j.get("switchTiers").get("leaf").asInt());
        assertEquals(2, j.get("switchTiers").get("spine").asInt());
        assertEquals(0, j.get("switchTiers").get("core").asInt());
        assertEquals(0, j.get("switchTiers").get("other").asInt());
        assertEquals(4, j.get("cas").asInt());
        assertEquals(4, j.get("hostCas").asInt());
        assertEquals(4, j.get("hosts").asInt());
        assertEquals(8, j.get("cables").asInt());
        assertEquals(7, j.get("cablesBySpeed").get("4xHDR").asInt());
        assertEquals(1, j.get("cablesBySpeed").get("1xHDR").asInt());
        assertEquals(1, j.get("cablesDegraded").asInt());
        assertEquals(1, j.get("portsWithErrors").asInt());
        assertTrue(j.get("diagnostics").isArray());
    }

    @Test
    void diagnoseJsonListsFindingsMostSevereFirst() throws IOException {
        Run r = run("diagnose", "--json", fabric.toString(), counters.toString());
        assertEquals(0, r.status(), r.err());
        JsonNode findings = new ObjectMapper().readTree(r.out()).get("findings");
        List<String> ids = new ArrayList<>();
        findings.forEach(f -> ids.add(f.get("id").asText()));
        assertTrue(ids.contains("link-errors"), ids.toString());
        assertTrue(ids.contains("link-degraded"), ids.toString());
        String previous = "error";
        for (JsonNode f : findings) {
            String sev = f.get("severity").asText();
            assertTrue(List.of("error", "warning", "info").indexOf(sev) >= List.of("error", "warning", "info")
                    .indexOf(previous), "order: " + findings);
            previous = sev;
            assertFalse(f.get("remedies").isEmpty(), "every finding says what to do");
        }
        JsonNode errors = findings.get(ids.indexOf("link-errors"));
        assertTrue(errors.get("subjects").get(0).asText().startsWith("leaf-01 port 1"), errors.toString());
        assertEquals(counters.toString(), errors.get("evidence").get(0).get("source").asText());
        assertEquals(1, errors.get("evidence").get(0).get("line").asInt());
    }

    @Test
    void summaryCountsTheHostLayerAndDetailsEachHost() throws IOException {
        Path topo = copy("gpu-01.topo.xml");
        Run plain = run("summary", "--json", fabric.toString());
        JsonNode p = new ObjectMapper().readTree(plain.out());
        assertEquals(0, p.get("gpus").asInt());
        assertTrue(p.get("hostDetails") == null, "hostDetails only with --detail");
        Run r = run("summary", "--json", "--detail", fabric.toString(), topo.toString());
        assertEquals(0, r.status(), r.err());
        JsonNode j = new ObjectMapper().readTree(r.out());
        assertEquals(1, j.get("gpus").asInt());
        assertEquals(1, j.get("nics").asInt());
        assertEquals(1, j.get("nets").asInt());
        assertEquals(0, j.get("nvlinks").asInt());
        JsonNode h = j.get("hostDetails").get(0);
        assertEquals("gpu-01", h.get("name").asText());
        assertEquals(1, h.get("netsJoined").asInt());
    }

    @Test
    void thresholdsFileRaisesTheLimit() throws IOException {
        Path t = dir.resolve("error_thresholds");
        Files.writeString(t, "# local limits\nSymbolErrorCounter=5000\n");
        Run r = run("summary", "--json", "--thresholds", t.toString(), fabric.toString(), counters.toString());
        assertEquals(0, new ObjectMapper().readTree(r.out()).get("portsWithErrors").asInt());
    }

    @Test
    void badThresholdLinesAreReportedWithTheirLine() throws IOException {
        Path t = dir.resolve("thresholds.txt");
        Files.writeString(t, "SymbolErrorCounter=20\nLinkDownedCounter=lots\n");
        Run r = run("diagnose", "--json", "--thresholds", t.toString(), fabric.toString(), counters.toString());
        assertEquals(0, r.status(), r.err());
        JsonNode d = new ObjectMapper().readTree(r.out()).get("diagnostics");
        assertEquals(1, d.size(), d.toString());
        assertEquals(t.toString(), d.get(0).get("source").asText());
        assertEquals(2, d.get(0).get("line").asInt());
        assertEquals("warning", d.get(0).get("severity").asText());
    }

    @Test
    void unreadableInputExitsNonZeroWithOneLine() throws IOException {
        Run missing = run("summary", dir.resolve("nope.txt").toString());
        assertEquals(1, missing.status());
        assertEquals(1, missing.err().strip().lines().count(), missing.err());
        assertTrue(missing.err().contains("nope.txt"), missing.err());

        Path junk = dir.resolve("junk.txt");
        Files.writeString(junk, "hello\nworld\n");
        Run wrong = run("diagnose", junk.toString());
        assertEquals(1, wrong.status());
        assertTrue(wrong.err().contains("not a format FabricScope reads"), wrong.err());
    }

    @Test
    void warningsStillExitZero() throws IOException {
        Path bad = dir.resolve("partial.txt");
        Files.writeString(bad, Files.readString(fabric) + "\n[9]\tgarbage here\n");
        Run r = run("summary", "--json", bad.toString());
        assertEquals(0, r.status(), r.err());
        JsonNode d = new ObjectMapper().readTree(r.out()).get("diagnostics");
        assertEquals(1, d.size());
        assertEquals(bad.toString(), d.get(0).get("source").asText());
        assertTrue(d.get(0).get("line").asInt() > 60);
    }

    @Test
    void versionAndUsage() {
        Run v = run("--version");
        assertEquals(0, v.status());
        assertTrue(v.out().startsWith("fabricscope "), v.out());
        assertTrue(FabricScopeCommand.versionOnly(new String[] {"--version"}));
        // answered without picocli: the same as picocli prints for the option, for both spellings
        java.io.StringWriter viaPicocli = new java.io.StringWriter();
        picocli.CommandLine cl = FabricScopeCommand.commandLine("--debug", "--version");
        cl.setOut(new java.io.PrintWriter(viaPicocli, true));
        assertEquals(0, cl.execute("--debug", "--version"));
        assertEquals(viaPicocli.toString(), v.out());
        assertEquals(v.out(), run("-V").out());
        assertEquals(v.out(), run("--debug", "--version").out(), "with another option, through picocli: the same lines");
        assertEquals(2, run().status());
        assertEquals(2, run("summary").status(), "a path is required");
    }

    @Test
    void exportWritesGraphmlDotAndJson() throws IOException {
        Run g = run("export", fabric.toString());
        assertEquals(0, g.status(), g.err());
        assertTrue(g.out().contains("<graphml"), g.out());
        assertEquals(8, g.out().split("<edge ").length - 1);
        Run d = run("export", "-f", "dot", fabric.toString());
        assertTrue(d.out().contains("\"S-0000000000001001\" -- \"S-0000000000002001\""), d.out());
        Path out = dir.resolve("fabric.json");
        assertEquals(0, run("export", "-f", "json", "-o", out.toString(), fabric.toString()).status());
        JsonNode j = new ObjectMapper().readTree(out.toFile());
        assertEquals(8, j.get("nodes").size());
        assertEquals(8, j.get("cables").size());
    }
}
