package org.fabricscope.model.incident;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SignatureLoaderTest {
    static final String GOOD = """
            {"schema": 1, "source": "user", "project": "ours", "signatures": [{
              "id": "nccl.remote-process-exited",
              "title": "peer {peerRank} exited",
              "template": "remote process exited",
              "origin": [{"file": "ours.txt", "versions": "1"}],
              "literal": "remote process exited",
              "match": "remote process exited(?: rank (?<peerRank>\\\\d+))?",
              "fields": ["peerRank"],
              "role": "consequence", "class": "dead-rank", "severity": "error", "blames": "peerRank",
              "examples": [{"text": "x remote process exited rank 3", "fields": {"peerRank": "3"}}]
            }]}""";

    private static SignatureLoader.Result load(String json) {
        return SignatureLoader.load(new ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8)), "test.json");
    }

    @Test
    void readsAValidSignature() {
        SignatureLoader.Result r = load(GOOD);
        assertEquals(List.of(), r.problems());
        Signature s = r.signatures().get(0);
        assertEquals(Role.CONSEQUENCE, s.role());
        assertEquals(Map.of("peerRank", "3"), s.match("remote process exited rank 3"));
        assertEquals("peer 3 exited", s.title(Map.of("peerRank", "3")));
        assertEquals("peer ? exited", s.title(Map.of()));
        assertEquals("talking to x (status 12)", Signature.fill("talking to {address} on {device} (status {status})",
                Map.of("address", "x", "status", "12")));
    }

    @Test
    void namesTheFieldThatIsWrong() {
        String bad = GOOD.replace("\"dead-rank\"", "\"dead\"").replace("\"peerRank\": \"3\"", "\"peerRank\": \"4\"")
                .replace("(?<peerRank>", "(?<peer>");
        SignatureLoader.Result r = load(bad);
        assertTrue(r.signatures().isEmpty());
        List<String> fields = r.problems().stream().map(SignatureProblem::field).toList();
        assertTrue(fields.contains("class"), r.problems().toString());
        assertTrue(fields.contains("fields"), r.problems().toString());
        assertTrue(r.problems().stream().allMatch(p -> p.entry().equals("nccl.remote-process-exited")), r.problems().toString());
    }

    @Test
    void anExampleTheMatchMissesIsAProblem() {
        SignatureLoader.Result r = load(GOOD.replace("x remote process exited rank 3", "remote process exited rank 3 x")
                .replace("\"peerRank\": \"3\"", "\"peerRank\": \"9\""));
        assertEquals("examples[0]", r.problems().get(0).field());
        assertTrue(r.problems().get(0).message().contains("yields"));
    }

    @Test
    void aPatternThatBacktracksWithoutEndFailsOnItsLineInsteadOfStallingTheImport(@TempDir Path dir) throws Exception {
        String evil = GOOD.replace("remote process exited(?: rank (?<peerRank>\\\\d+))?", "remote process exited(?<peerRank>(a+)+)b")
                .replace("x remote process exited rank 3", "x remote process exitedaab").replace("\"peerRank\": \"3\"", "\"peerRank\": \"aa\"");
        Files.writeString(dir.resolve("evil.json"), evil);
        SignatureCatalogue c = SignatureCatalogue.bundled().plus(dir);
        assertEquals(List.of(), c.problems().stream().filter(p -> p.file().endsWith("evil.json")).toList());
        long start = System.nanoTime();
        String line = "remote process exited" + "a".repeat(40) + "c";
        assertEquals(null, c.matcher(Target.LOG).first(line));
        assertTrue(System.nanoTime() - start < 5_000_000_000L, "the budget stops the pattern");
    }

    @Test
    void theUsersSignatureFolderIsBesideTheirFlows() {
        assertEquals(Path.of("/cfg", "fabricscope", "signatures"), SignatureCatalogue.userDirectory(Map.of("XDG_CONFIG_HOME", "/cfg"), "/h"));
        assertEquals(Path.of("/h", ".config", "fabricscope", "signatures"), SignatureCatalogue.userDirectory(Map.of(), "/h"));
    }

    @Test
    void aFileThatIsNotACatalogueIsReportedWhole() {
        assertEquals("not valid JSON", load("{").problems().get(0).message().substring(0, 14));
        assertEquals("schema", load("{\"schema\": 2}").problems().get(0).field());
        assertEquals("source", load("{\"schema\": 1, \"source\": \"x\"}").problems().get(0).field());
        assertEquals("id", load(GOOD.replace("\"user\"", "\"pytorch\"")).problems().get(0).field());
        assertEquals("match", load(GOOD.replace("remote process exited(?:", "remote process exited((?:")).problems().get(0).field());
    }

    @Test
    void theUsersFolderReplacesABundledIdAndReportsBadFiles(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("mine.json"), GOOD);
        Files.writeString(dir.resolve("broken.json"), "[1, 2");
        SignatureCatalogue c = SignatureCatalogue.bundled().plus(dir);
        assertEquals(dir.resolve("mine.json").toString(), c.byId("nccl.remote-process-exited").file());
        assertTrue(c.problems().stream().anyMatch(p -> p.file().endsWith("broken.json")), c.problems().toString());
        SignatureCatalogue.Hit h = c.matcher(Target.LOG).first("x remote process exited rank 5");
        assertEquals("5", h.fields().get("peerRank"));
    }
}
