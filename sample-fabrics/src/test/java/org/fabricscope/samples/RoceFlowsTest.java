package org.fabricscope.samples;

import static org.fabricscope.samples.FlowScenariosTest.diagnose;
import static org.fabricscope.samples.FlowScenariosTest.flow;
import static org.fabricscope.samples.FlowScenariosTest.outcomes;
import static org.fabricscope.samples.FlowScenariosTest.step;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The RoCE branches of slow-training and link-errors (issue 25 part B), walked end to end on the
 * {@code roce-lldp} scenarios, and the GID rule on NICs that LLDP placed.
 */
class RoceFlowsTest {
    @TempDir
    Path dir;

    private static List<String> walked(JsonNode flow) {
        List<String> out = new ArrayList<>();
        flow.get("steps").forEach(s -> out.add(s.get("id").asText() + "=" + s.get("answer").asText()));
        return out;
    }

    @Test
    void lossOnTheLosslessClassConcludesBothFlows() throws IOException {
        JsonNode doc = diagnose("roce-lldp/lossy");
        assertEquals(Map.of("slow-training", "concluded roce-packet-loss (roce-lossy)",
                "link-errors", "concluded roce-loss-counters (roce-lossy)"), outcomes(doc));
        JsonNode slow = flow(doc, "slow-training");
        assertTrue(step(slow, "roce", "detail").contains("placed by LLDP"), step(slow, "roce", "detail"));
        assertTrue(walked(slow).containsAll(List.of("roce=yes", "roce-loss=yes")), walked(slow).toString());
        assertEquals(List.of("counters=no", "roce=yes", "roce-loss=yes"), walked(flow(doc, "link-errors")));
    }

    @Test
    void aPauseStormIsFoundAfterLossIsRuledOut() throws IOException {
        JsonNode doc = diagnose("roce-lldp/pause-storm");
        assertEquals(Map.of("slow-training", "concluded roce-pause-storm-found (roce-pause-storm)",
                "link-errors", "concluded roce-pause-storm (roce-pause-storm)"), outcomes(doc));
        assertEquals(List.of("counters=no", "roce=yes", "roce-loss=no", "roce-pause=yes"), walked(flow(doc, "link-errors")));
    }

    @Test
    void ecnInactiveIsAskedBeforePfc() throws IOException {
        JsonNode doc = diagnose("roce-lldp/ecn-inactive");
        assertEquals("concluded roce-ecn-off (roce-ecn-inactive)", outcomes(doc).get("slow-training"));
        List<String> w = walked(flow(doc, "slow-training"));
        assertEquals(List.of("roce=yes", "roce-loss=no", "roce-pause=no", "roce-ecn=yes"), w.subList(w.size() - 4, w.size()));
    }

    @Test
    void pfcOnOneEndOfALinkIsAskedAfterEcn() throws IOException {
        JsonNode doc = diagnose("roce-lldp/pfc-one-end");
        assertEquals("concluded pfc-one-end (roce-pfc-one-end)", outcomes(doc).get("slow-training"));
        List<String> w = walked(flow(doc, "slow-training"));
        assertEquals(List.of("roce-ecn=no", "roce-pfc-ends=yes"), w.subList(w.size() - 2, w.size()), w.toString());
    }

    @Test
    void anMtuMismatchIsAskedBeforeTheManualPfcQuestion() throws IOException {
        JsonNode doc = diagnose("roce-lldp/mtu-mismatch");
        assertEquals("concluded roce-mtu-differs (roce-mtu-mismatch)", outcomes(doc).get("slow-training"));
        List<String> w = walked(flow(doc, "slow-training"));
        assertEquals(List.of("roce-pfc-ends=no", "roce-mtu=yes"), w.subList(w.size() - 2, w.size()), w.toString());
    }

    @Test
    void pfcOffOnThePriorityInUseNamesWhereThePriorityCameFrom() throws IOException {
        JsonNode doc = diagnose("roce-lldp/nccl-tc-default");
        assertEquals("concluded enable-pfc ()", outcomes(doc).get("slow-training"));
        JsonNode slow = flow(doc, "slow-training");
        String pfc = step(slow, "pfc", "detail");
        assertEquals("no", step(slow, "pfc", "answer"));
        assertTrue(pfc.contains("PFC is off on priority 0") && pfc.contains("NCCL_IB_TC unset"), pfc);
        assertEquals("concluded roce-pfc-off (roce-pfc-off)", outcomes(doc).get("link-errors"));
        // without NCCL's settings the priority is assumed, and said to be
        String assumed = step(flow(diagnose("roce-lldp/pfc-off"), "slow-training"), "pfc", "detail");
        assertTrue(assumed.contains("priority 3 assumed"), assumed);
    }

    @Test
    void pfcOnThePriorityNcclUsesLetsTheFlowAskForCounterSamples() throws IOException {
        // nccl-tc-106 raises no finding, so slow-training does not apply: a user flow asks the same facts
        Files.writeString(dir.resolve("roce-check.json"), """
                {"id": "roce-check", "title": "RoCE PFC and counters", "description": "test flow",
                 "sources": ["RoceFlowsTest"], "entry": {"facts": [{"fact": "roce-fabric"}]},
                 "steps": [
                  {"id": "pfc", "question": "PFC on the priority in use?", "ask": {"fact": "pfc-enabled"}, "yes": "sampled", "no": "off"},
                  {"id": "sampled", "question": "Counters sampled twice?", "ask": {"fact": "roce-counters-sampled"}, "yes": "fine", "otherwise": "sample"}],
                 "conclusions": [
                  {"id": "off", "text": "{{answer:pfc}} ({{roce-priority}})", "remedies": ["r"]},
                  {"id": "fine", "text": "fine", "remedies": ["r"]},
                  {"id": "sample", "text": "{{answer:sampled}}", "remedies": ["r"]}]}
                """);
        java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
        org.fabricscope.app.cli.FabricScopeCommand.run(new String[] {"flows", "--flows", dir.toString()},
                new java.io.PrintStream(new java.io.ByteArrayOutputStream()), new java.io.PrintStream(err, true));
        assertEquals("", err.toString(), "the test flow loads");
        JsonNode doc106 = diagnose("roce-lldp/nccl-tc-106", "--flows", dir.toString());
        assertTrue(doc106.toString().contains("roce-check"), doc106.get("diagnostics").toString());
        JsonNode flow = flow(doc106, "roce-check");
        assertEquals("yes", step(flow, "pfc", "answer"));
        String d = step(flow, "pfc", "detail");
        assertTrue(d.contains("PFC is on the RoCE priority of 4 NICs read") && d.contains("NCCL_IB_TC=106")
                && d.contains("DSCP 26, priority 3 by the dscp2prio table"), d);
        assertEquals("no", step(flow, "sampled", "answer"));
        assertEquals("sample", flow.get("conclusion").get("id").asText());
        JsonNode off = flow(diagnose("roce-lldp/nccl-tc-default", "--flows", dir.toString()), "roce-check");
        assertEquals("off", off.get("conclusion").get("id").asText());
        assertTrue(off.get("conclusion").get("text").asText().endsWith("(0)"), off.get("conclusion").toString());
    }

    @Test
    void anInfinibandFabricSkipsTheRoceBranch() throws IOException {
        JsonNode le = flow(diagnose("sim-ibstat/port-down"), "link-errors");
        assertEquals("no", step(le, "roce", "answer"));
        assertTrue(step(le, "roce", "detail").contains("InfiniBand"), step(le, "roce", "detail"));
    }

    @Test
    void gidIndexDriftBetweenLldpHostsIsFound() throws IOException {
        JsonNode gid = flow(diagnose("roce-lldp/gid-drift"), "roce-gid-index");
        assertTrue(step(gid, "gid-matches", "detail").contains("gpu-node-02 mlx5_0 port 1 the RoCE v2 GID of 192.168.10.2 is index 5, "
                + "but NCCL_IB_GID_INDEX=3"), step(gid, "gid-matches", "detail"));
        assertEquals("no", step(gid, "gid-same", "answer"));
        assertEquals("gid-index-differs", gid.get("conclusion").get("id").asText());
    }

    @Test
    void aRoceV1GidIsNamedAsSuch() throws IOException {
        JsonNode gid = flow(diagnose("roce-lldp/gid-v1"), "roce-gid-index");
        String d = step(gid, "gid-matches", "detail");
        assertTrue(d.contains("NCCL_IB_GID_INDEX=2 there (192.168.10.1 RoCE v1, which is not routed between IP subnets"), d);
        assertEquals("use-gid-index", gid.get("conclusion").get("id").asText());
    }
}
