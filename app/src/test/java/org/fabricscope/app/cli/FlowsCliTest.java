package org.fabricscope.app.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** {@code fabricscope flows}, and the flows of {@code diagnose}: user folders, bad files, answers, the text lines. */
class FlowsCliTest {
    static final List<String> BUILT_IN = List.of("nccl-timeout", "job-crashed", "insufficient-resources", "no-rdma-device",
            "slow-training", "link-errors", "roce-gid-index");
    static final String MY_FLOW = """
            {"id": "my-check", "title": "My check", "entry": {"findings": ["link-down"]},
             "steps": [{"id": "down", "question": "Link down?", "ask": {"fact": "finding-present", "id": "link-down"},
                        "yes": "fix", "no": "fine"}],
             "conclusions": [{"id": "fix", "finding": "link-down", "text": "{{answer:down}}", "remedies": ["replug it"]},
                             {"id": "fine", "text": "fine", "remedies": ["nothing"]}]}
            """;

    @TempDir
    Path dir;
    Path fabric;
    Path log;

    @BeforeEach
    void copy() throws IOException {
        fabric = copy("two-tier.ibnetdiscover.txt");
        log = copy("two-host.nccl.log");
    }

    private Path copy(String name) throws IOException {
        Path p = dir.resolve(name);
        try (InputStream in = FlowsCliTest.class.getResourceAsStream("/fabrics/" + name)) {
            Files.copy(in, p);
        }
        return p;
    }

    private Path copyQuietly(String name) {
        try {
            return copy(name);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void flowsListsTheBuiltInFlows() throws IOException {
        CliTest.Run r = CliTest.run("flows", "--json");
        assertEquals(0, r.status(), r.err());
        JsonNode j = new ObjectMapper().readTree(r.out());
        List<String> ids = new ArrayList<>();
        j.forEach(f -> ids.add(f.get("id").asText()));
        assertEquals(BUILT_IN, ids);
        JsonNode t = j.get(0);
        assertEquals("builtin:nccl-timeout.json", t.get("source").asText());
        assertEquals("nccl-timeout", t.get("entry").get("findings").get(0).asText());
        // an earlier failure first, then settings that differ between the ranks, then the network
        assertEquals("first-failure", t.get("steps").get(0).get("id").asText());
        assertEquals("settings-differ", t.get("steps").get(1).get("id").asText());
        assertEquals("network", t.get("steps").get(2).get("id").asText());
        assertEquals("rank-failed", j.get(1).get("entry").get("facts").get(0).get("fact").asText());
        CliTest.Run text = CliTest.run("flows");
        assertTrue(text.out().contains("roce-gid-index           RoCE: which GID index NCCL must use"), text.out());
        assertTrue(text.out().contains("entry: findings nccl-timeout"), text.out());
    }

    @Test
    void flowsFactsListsTheFactRegistry() throws IOException {
        JsonNode j = new ObjectMapper().readTree(CliTest.run("flows", "--facts", "--json").out());
        List<String> names = new ArrayList<>();
        j.forEach(f -> names.add(f.get("name").asText()));
        assertTrue(names.containsAll(List.of("finding-present", "transport-used", "resource-requested", "allocatable-has",
                "env-set", "nccl-version-at-least")), names.toString());
        assertTrue(CliTest.run("flows", "--facts").out().contains("version (required version): e.g. 2.19"));
    }

    @Test
    void aFlowsFolderAddsAFlowAndABadFileIsReportedWithItsField() throws IOException {
        Path flows = Files.createDirectory(dir.resolve("flows"));
        Files.writeString(flows.resolve("mine.json"), MY_FLOW);
        CliTest.Run ok = CliTest.run("flows", "--flows", flows.toString());
        assertEquals(0, ok.status(), ok.err());
        assertTrue(ok.out().contains("my-check") && ok.out().contains(flows.resolve("mine.json").toString()), ok.out());

        Files.writeString(flows.resolve("typo.json"), MY_FLOW.replace("my-check", "typo").replace("\"fix\", \"no\"", "\"fx\", \"no\""));
        CliTest.Run bad = CliTest.run("flows", "--flows", flows.toString());
        assertEquals(1, bad.status(), "a flow file with errors fails the listing");
        assertTrue(bad.out().contains("my-check"), "the other flows still load");
        assertTrue(bad.err().contains("fabricscope: flow file error: " + flows.resolve("typo.json")
                + ": /steps/0/yes: no step or conclusion 'fx'"), bad.err());

        CliTest.Run diag = CliTest.run("diagnose", "--json", "--flows", flows.toString(), fabric.toString());
        assertEquals(0, diag.status(), "diagnose goes on with the good flows");
        assertTrue(diag.err().contains("typo.json: /steps/0/yes"), diag.err());
        JsonNode doc = new ObjectMapper().readTree(diag.out());
        List<String> ids = new ArrayList<>();
        doc.get("flows").forEach(f -> ids.add(f.get("id").asText()));
        assertEquals(8, ids.size(), ids.toString());
        assertTrue(ids.contains("my-check"));
        List<String> keys = new ArrayList<>();
        doc.fieldNames().forEachRemaining(keys::add);
        assertEquals(List.of("findings", "diagnostics", "flows"), keys);
    }

    @Test
    void aFlowsOptionThatIsNoFolderFails() {
        CliTest.Run r = CliTest.run("flows", "--flows", dir.resolve("nope").toString());
        assertEquals(1, r.status());
        assertTrue(r.err().contains("not a folder"), r.err());
    }

    @Test
    void answersMustNameAFlowStepAndSayYesOrNo() {
        CliTest.Run r = CliTest.run("diagnose", "--answer", "roce-gid-index/nope=yes", fabric.toString());
        assertEquals(2, r.status());
        assertTrue(r.err().contains("--answer roce-gid-index/nope: no such flow step"), r.err());
        CliTest.Run m = CliTest.run("diagnose", "--answer", "roce-gid-index/gid-matches=maybe", fabric.toString());
        assertEquals(2, m.status());
        assertTrue(m.err().contains("answer yes or no"), m.err());
    }

    @Test
    void plainDiagnoseEndsWithOneLinePerApplicableFlow() {
        CliTest.Run r = CliTest.run("diagnose", fabric.toString(), log.toString());
        assertEquals(0, r.status(), r.err());
        String out = r.out();
        int at = out.indexOf("Troubleshooting flows");
        assertTrue(at > 0, out);
        for (String line : out.substring(at).split("\n")) {
            if (line.startsWith("  ")) {
                assertTrue(line.matches("  (concluded|needs-input) +[a-z0-9-]+ +\\S.*"), line);
            }
        }
        CliTest.Run none = CliTest.run("diagnose", copyQuietly("gpu-01.topo.xml").toString());
        assertTrue(none.out().contains("Troubleshooting flows: none applies."), none.out());
    }
}
