package org.fabricscope.model.flows;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The user's flow folder: where it is, and that its flows join the built-in ones while a bad file does not stop them. */
class FlowLibraryTest {
    @TempDir
    Path dir;

    @Test
    void userDirectoryFollowsXdgThenHome() {
        assertEquals(Path.of("/cfg", "fabricscope", "flows"), FlowLibrary.userDirectory(Map.of("XDG_CONFIG_HOME", "/cfg"), "/home/u"));
        assertEquals(Path.of("/home/u", ".config", "fabricscope", "flows"), FlowLibrary.userDirectory(Map.of(), "/home/u"));
        assertEquals(Path.of("/home/u", ".config", "fabricscope", "flows"),
                FlowLibrary.userDirectory(Map.of("XDG_CONFIG_HOME", "relative"), "/home/u"), "XDG paths must be absolute");
        assertEquals(null, FlowLibrary.userDirectory(Map.of(), ""));
    }

    @Test
    void aUserFolderAddsItsFlowsAndReportsItsBadFiles() throws IOException {
        Files.writeString(dir.resolve("a-mine.json"), FlowLoaderTest.VALID);
        Files.writeString(dir.resolve("b-broken.json"), FlowLoaderTest.VALID.replace("\"my-flow\"", "\"other-flow\"")
                .replace("\"fact\": \"pfc-enabled\"", "\"fact\": \"no-such-fact\""));
        Files.writeString(dir.resolve("c-duplicate.json"), FlowLoaderTest.VALID);
        Files.writeString(dir.resolve("d-builtin-id.json"), FlowLoaderTest.VALID.replace("\"my-flow\"", "\"nccl-timeout\""));
        Files.writeString(dir.resolve("notes.txt"), "not a flow");
        FlowLibrary lib = FlowLibrary.builtIn().plus(dir);
        assertEquals(8, lib.flows().size());
        Flow mine = lib.flow("my-flow");
        assertNotNull(mine);
        assertEquals(dir.resolve("a-mine.json").toString(), mine.source());
        assertEquals(3, lib.errors().size(), lib.errors().toString());
        assertEquals(dir.resolve("b-broken.json").toString(), lib.errors().get(0).source());
        assertEquals("/steps/2/ask/fact", lib.errors().get(0).pointer());
        assertTrue(lib.errors().get(1).toString().contains("c-duplicate.json: /id: flow 'my-flow' is already defined by "
                + dir.resolve("a-mine.json")), lib.errors().toString());
        assertTrue(lib.errors().get(2).message().contains("already defined by builtin:nccl-timeout.json"));
        assertEquals(FlowLibrary.BUILTIN + "nccl-timeout.json", lib.flow("nccl-timeout").source(), "the built-in one stays");
    }

    @Test
    void aMissingFolderAddsNothing() {
        FlowLibrary b = FlowLibrary.builtIn();
        assertSame(b, b.plus(dir.resolve("none")));
        assertEquals(b.flows(), FlowLibrary.load(List.of(dir.resolve("none"))).flows());
    }
}
