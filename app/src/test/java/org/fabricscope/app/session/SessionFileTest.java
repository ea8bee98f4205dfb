package org.fabricscope.app.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The session file: a round trip, relative sources, and each kind of bad file named with the file and the problem. */
class SessionFileTest {
    @TempDir
    Path dir;

    private static final Session SESSION = new Session(List.of("/captures/a.tar.gz", "/captures/hosts"),
            Map.of("roce-gid-index/gid-matches", new Session.Answer("no", "3\n\"quoted\" \u0001 ünïcode", List.of("3"))),
            new Session.View("SPEED", true, false, "FINDINGS"));

    @Test
    void roundTrip() throws Exception {
        Path f = dir.resolve("s.fabricscope.json");
        SessionFile.write(f, SESSION);
        assertEquals(SESSION, SessionFile.read(f));
    }

    @Test
    void relativeSourcesAreTheSessionFilesFolders() throws Exception {
        Path f = Files.writeString(dir.resolve("s.json"), "{\"format\": \"fabricscope-session\", \"version\": 1, "
                + "\"sources\": [\"captures/x.tgz\", \"../y\"]}");
        Session s = SessionFile.read(f);
        assertEquals(List.of(dir.resolve("captures/x.tgz").toString(), dir.getParent().resolve("y").toString()), s.sources());
        assertEquals(Session.View.DEFAULT, s.view());
        assertTrue(s.answers().isEmpty());
    }

    private String problem(String text) throws Exception {
        Path f = Files.writeString(dir.resolve("bad.json"), text);
        SessionFile.Invalid e = assertThrows(SessionFile.Invalid.class, () -> SessionFile.read(f));
        assertTrue(e.getMessage().startsWith(f + ": "), e.getMessage());
        return e.getMessage();
    }

    @Test
    void badFilesAreNamedWithTheirProblem() throws Exception {
        assertTrue(problem("{\n\"format\": ").contains("not JSON at line 2"));
        assertTrue(problem("[1, 2]").contains("not a FabricScope session"));
        assertTrue(problem("{\"format\": \"fabricscope-session\", \"version\": 9, \"sources\": []}").contains("session version 9"));
        assertTrue(problem("{\"format\": \"fabricscope-session\", \"version\": 1, \"sources\": \"a\"}").contains("\"sources\" is not a list"));
        assertTrue(problem("{\"format\": \"fabricscope-session\", \"version\": 1, \"sources\": [3]}").contains("not a path"));
        assertTrue(problem("{\"format\": \"fabricscope-session\", \"version\": 1, \"sources\": [], "
                + "\"answers\": {\"x\": {\"verdict\": \"maybe\"}}}").contains("answer \"x\" is not FLOW/STEP"));
        assertTrue(problem("{\"format\": \"fabricscope-session\", \"version\": 1, \"sources\": [], \"answers\": []}")
                .contains("\"answers\" is not an object"));
    }

    @Test
    void aHugeFileIsRefusedUnread() throws Exception {
        Path f = dir.resolve("huge.json");
        try (RandomAccessFile r = new RandomAccessFile(f.toFile(), "rw")) {
            r.setLength(SessionFile.MAX_BYTES + 1); // sparse: no disk used
        }
        SessionFile.Invalid e = assertThrows(SessionFile.Invalid.class, () -> SessionFile.read(f));
        assertTrue(e.getMessage().contains("SessionFile.MAX_BYTES"), e.getMessage());
    }

    @Test
    void aFailedWriteLeavesTheOldFile() throws Exception {
        Path f = dir.resolve("s.json");
        SessionFile.write(f, SESSION);
        String before = Files.readString(f);
        Path missing = dir.resolve("no-such-folder").resolve("s.json");
        assertThrows(java.io.IOException.class, () -> SessionFile.write(missing, SESSION));
        assertEquals(before, Files.readString(f));
        assertTrue(Files.notExists(missing));
    }
}
