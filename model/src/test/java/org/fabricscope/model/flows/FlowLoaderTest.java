package org.fabricscope.model.flows;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/** Flow files: the built-ins load clean; each kind of mistake is an error naming the file, the field and why. */
class FlowLoaderTest {
    static final String SOURCE = "flows/mine.json";

    /** A valid flow; tests break one part of it. */
    static final String VALID = """
            {
              "id": "my-flow",
              "title": "My flow",
              "entry": {"findings": ["tcp-fallback"]},
              "steps": [
                {"id": "sockets", "question": "Over sockets?", "ask": {"fact": "transport-used", "transport": "NET/Socket"},
                 "yes": "ifname", "no": "fine", "unknown": "fine"},
                {"id": "ifname", "question": "NCCL_SOCKET_IFNAME set on {{pod}}?", "ask": {"fact": "env-set", "name": "NCCL_SOCKET_IFNAME"},
                 "yes": "check", "no": "set-it"},
                {"id": "check", "kind": "manual", "question": "Does ip addr show net1?", "ask": {"fact": "pfc-enabled"},
                 "command": "kubectl exec {{pod}} -- ip addr show net1", "yes": "fine", "no": "set-it"}
              ],
              "conclusions": [
                {"id": "set-it", "finding": "tcp-fallback", "text": "{{answer:sockets}}", "remedies": ["export NCCL_SOCKET_IFNAME=net1"]},
                {"id": "fine", "text": "Nothing to do.", "remedies": ["none"]}
              ]
            }
            """;

    static FlowLoader.Loaded load(String json) {
        return FlowLoader.standard().load(SOURCE, json.getBytes(StandardCharsets.UTF_8));
    }

    /** Loads a broken flow and checks it has exactly one error, at this pointer, whose message contains this text. */
    static FlowError error(String json, String pointer, String contains) {
        FlowLoader.Loaded l = load(json);
        assertNull(l.flow(), "a flow with errors is not loaded");
        assertEquals(1, l.errors().size(), "errors: " + l.errors());
        FlowError e = l.errors().get(0);
        assertEquals(SOURCE, e.source());
        assertEquals(pointer, e.pointer(), e.toString());
        assertTrue(e.message().contains(contains), e.toString());
        assertTrue(e.toString().startsWith(SOURCE + ": " + pointer), e.toString());
        return e;
    }

    @Test
    void validFlowLoads() {
        FlowLoader.Loaded l = load(VALID);
        assertEquals(List.of(), l.errors());
        Flow f = l.flow();
        assertEquals("my-flow", f.id());
        assertEquals("sockets", f.first().id());
        assertEquals(Flow.Kind.MANUAL, f.step("check").kind());
        assertEquals("ifname", f.step("sockets").next(Verdict.YES));
        assertNull(f.step("check").next(Verdict.UNKNOWN), "a manual step waits");
        assertEquals("NET/Socket", f.step("sockets").ask().string("transport"));
        assertEquals(SOURCE, f.source());
    }

    @Test
    void builtInFlowsLoadWithoutErrorsAndKeepTheirIds() {
        FlowLibrary lib = FlowLibrary.builtIn();
        assertEquals(List.of(), lib.errors());
        assertEquals(List.of("nccl-timeout", "job-crashed", "insufficient-resources", "no-rdma-device", "slow-training",
                "link-errors", "roce-gid-index"), lib.flows().stream().map(Flow::id).toList());
        for (Flow f : lib.flows()) {
            assertEquals(FlowLibrary.BUILTIN + f.id() + ".json", f.source());
            assertTrue(f.steps().stream().anyMatch(s -> s.kind() == Flow.Kind.MANUAL) || f.id().equals("job-crashed"),
                    f.id() + " asks where the tool cannot look");
            assertTrue(!f.sources().isEmpty(), f.id() + " names where its rules come from");
        }
    }

    @Test
    void everyFlowResourceIsListedInTheIndex() throws IOException, URISyntaxException {
        Path dir = Path.of(FlowLibrary.class.getResource(FlowLibrary.RESOURCES + "index.txt").toURI()).getParent();
        try (Stream<Path> s = Files.list(dir)) {
            List<String> files = s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".json")).sorted().toList();
            assertEquals(files, FlowLibrary.builtInNames().stream().sorted().toList());
        }
    }

    @Test
    void unknownStepTargetIsAnError() {
        error(VALID.replace("\"yes\": \"ifname\"", "\"yes\": \"ifnme\""), "/steps/0/yes", "no step or conclusion 'ifnme'");
    }

    @Test
    void unknownFactIsAnError() {
        FlowError e = error(VALID.replace("\"fact\": \"pfc-enabled\"", "\"fact\": \"pfc-on\""), "/steps/2/ask/fact",
                "unknown fact 'pfc-on'");
        assertTrue(e.message().contains("pfc-enabled"), "lists the known facts: " + e);
    }

    @Test
    void badFactParametersAreErrors() {
        error(VALID.replace("\"transport\": \"NET/Socket\"", "\"transport\": \"TCP\""), "/steps/0/ask/transport",
                "must be one of NET/IB");
        FlowLoader.Loaded typo = load(VALID.replace("\"name\": \"NCCL_SOCKET_IFNAME\"", "\"nme\": \"NCCL_SOCKET_IFNAME\""));
        assertEquals(List.of("/steps/1/ask/nme", "/steps/1/ask/name"), typo.errors().stream().map(FlowError::pointer).toList());
        assertTrue(typo.errors().get(0).message().contains("takes no parameter 'nme' (it takes: name, value, in)"));
        FlowLoader.Loaded l = load(VALID.replace("\"fact\": \"env-set\", \"name\": \"NCCL_SOCKET_IFNAME\"", "\"fact\": \"env-set\""));
        assertEquals("/steps/1/ask/name", l.errors().get(0).pointer());
        assertTrue(l.errors().get(0).message().contains("needs 'name'"), l.errors().toString());
        error(VALID.replace("{\"fact\": \"pfc-enabled\"}", "{\"fact\": \"nccl-version-at-least\", \"version\": \"two\"}"),
                "/steps/2/ask/version", "must be a version");
        error(VALID.replace("{\"fact\": \"pfc-enabled\"}", "{\"fact\": \"finding-present\", \"id\": \"tcp-falback\"}"),
                "/steps/2/ask/id", "unknown finding id 'tcp-falback'");
        error(VALID.replace("{\"fact\": \"pfc-enabled\"}", "{\"fact\": \"cpu-limit-per-gpu-below\", \"cores\": \"2\"}"),
                "/steps/2/ask/cores", "must be a number");
    }

    @Test
    void missingFieldsAreErrors() {
        error(VALID.replace("\"title\": \"My flow\",", ""), "/title", "missing");
        error(VALID.replace("\"question\": \"Over sockets?\", ", ""), "/steps/0/question", "missing");
        error(VALID.replace("\"command\": \"kubectl exec {{pod}} -- ip addr show net1\", ", ""), "/steps/2/command",
                "a manual step shows the command to run");
        error(VALID.replace(", \"no\": \"set-it\"}\n", "}\n"), "/steps/2/no", "where does a no answer lead");
        error(VALID.replace("\"entry\": {\"findings\": [\"tcp-fallback\"]},", ""), "/entry", "entry symptom");
        error(VALID.replace("\"remedies\": [\"none\"]", "\"remedies\": []"), "/conclusions/1/remedies", "at least one remedy");
    }

    @Test
    void cycleIsAnError() {
        FlowError e = error(VALID.replace("\"yes\": \"check\", \"no\": \"set-it\"", "\"yes\": \"check\", \"no\": \"sockets\""),
                "/steps/1/no", "cycle: sockets -> ifname -> sockets");
        assertTrue(e.message().contains("must end in a conclusion"), e.toString());
    }

    @Test
    void unreachableStepsAndConclusionsAreErrors() {
        String json = VALID.replace("\"yes\": \"fine\", \"no\": \"set-it\"}", "\"yes\": \"fine\", \"no\": \"fine\"}")
                .replace("\"yes\": \"check\", \"no\": \"set-it\"", "\"yes\": \"fine\", \"no\": \"fine\"")
                .replace("\"text\": \"{{answer:sockets}}\"", "\"text\": \"over sockets\"");
        FlowLoader.Loaded l = load(json);
        assertNull(l.flow());
        assertEquals(List.of("/steps/2", "/conclusions/0"), l.errors().stream().map(FlowError::pointer).toList(), l.errors().toString());
        assertTrue(l.errors().get(0).message().contains("step 'check' is unreachable from the first step 'sockets'"));
        assertTrue(l.errors().get(1).message().contains("conclusion 'set-it' is unreachable"));
    }

    @Test
    void placeholdersMustBeKnown() {
        error(VALID.replace("{{pod}}?", "{{pood}}?"), "/steps/1/question", "unknown placeholder {{pood}}");
        error(VALID.replace("\"text\": \"Nothing to do.\"", "\"text\": \"{{answer:nope}}\""), "/conclusions/1/text",
                "'nope' is not a step walked before this point");
    }

    @Test
    void structuralMistakesAreErrors() {
        error("{\"id\": \"x\",", "", "not valid JSON: line");
        error("[1, 2]", "", "one JSON object");
        error(VALID.replace("\"title\": \"My flow\",", "\"title\": \"My flow\", \"titel\": \"typo\","), "/titel",
                "unknown field 'titel'");
        error(VALID.replace("\"id\": \"my-flow\"", "\"id\": \"My Flow\""), "/id", "not an id");
        error(VALID.replace("\"id\": \"fine\"", "\"id\": \"check\""), "/conclusions/1/id", "already the id of /steps/2");
        error(VALID.replace("\"kind\": \"manual\"", "\"kind\": \"handmade\""), "/steps/2/kind", "auto or manual");
        error(VALID.replace("\"command\": \"kubectl exec {{pod}} -- ip addr show net1\", \"yes\": \"fine\"",
                "\"command\": \"x\", \"unknown\": \"fine\", \"yes\": \"fine\""), "/steps/2/unknown", "waits for its answer");
        error(VALID.replace("\"id\": \"my-flow\",", "\"id\": \"my-flow\", \"id\": \"again\","), "", "Duplicate field 'id'");
    }

    @Test
    void everyErrorOfAFileIsReportedAtOnce() {
        String json = VALID.replace("\"title\": \"My flow\",", "").replace("\"fact\": \"pfc-enabled\"", "\"fact\": \"nope\"");
        FlowLoader.Loaded l = load(json);
        assertEquals(List.of("/title", "/steps/2/ask/fact"), l.errors().stream().map(FlowError::pointer).toList());
        assertNotNull(l.errors().get(0).toString());
    }
}
