package org.fabricscope.app.ui;

import static org.fabricscope.app.nav.Samples.RAIL;
import static org.fabricscope.app.nav.Samples.paths;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.fabricscope.app.session.Session;
import org.fabricscope.app.session.SessionFile;
import org.fabricscope.app.task.CurrentThreadTaskExecutor;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.fabric.FabricNode;
import org.fabricscope.model.fabric.Port;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Notes on subjects (a switch, a port, a finding, a rank) written in one window, saved with the session and
 * reopened in another: the same notes, found again by their subjects' keys in the reloaded capture, shown in the
 * inspector; a session written before notes existed still opens; a malformed "notes" is named, not half-read.
 */
class SessionNotesTest {
    @TempDir
    Path dir;

    @Test
    void notesOnSubjectsSurviveASessionRoundTrip() throws Exception {
        RecordingDialogs dialogs = new RecordingDialogs();
        MainViewModel first = new MainViewModel(new CurrentThreadTaskExecutor(), dialogs);
        first.open(paths(RAIL), false, null);
        FabricNode sw = first.snapshot().model().switches().get(0);
        Port port = sw.ports().iterator().next();
        Finding finding = first.snapshot().findings().get(0);
        SubjectNotes notes = first.inspector().notes();
        assertTrue(notes.put(SubjectNotes.key(SubjectNotes.subjectOf(sw)), sw.displayName(), "replaced PSU 2 on 11/26"));
        assertTrue(notes.put(SubjectNotes.key(SubjectNotes.subjectOf(port)), port.label(), "reseated the cable\nstill flapping"));
        assertTrue(notes.put(SubjectNotes.key(finding), finding.title(), "ticket NET-4711"));
        assertTrue(notes.put(SubjectNotes.key(new org.fabricscope.model.core.Subject.RankRef("", 3, "node-a", "rank 3")), "rank 3",
                "slow since the upgrade"));
        assertFalse(notes.put("port x", "x", "y".repeat(SubjectNotes.MAX_CHARS + 1)), "a note past the limit is refused");
        first.inspector().show(sw);
        assertTrue(first.inspector().noteProperty().get().startsWith("Note: replaced PSU 2 on 11/26"), first.inspector().noteProperty().get());
        assertTrue(first.inspector().noteProperty().get().contains("Note on " + port.label() + ": reseated the cable"));

        Path file = dir.resolve("notes.fabricscope.json");
        new SessionActions(first, new CurrentThreadTaskExecutor(), dialogs).saveSession(file, false);
        String text = Files.readString(file);
        assertTrue(text.contains("\"notes\" : {"), text);
        assertTrue(text.contains("ticket NET-4711"), text);

        MainViewModel second = new MainViewModel(new CurrentThreadTaskExecutor(), dialogs);
        new SessionActions(second, new CurrentThreadTaskExecutor(), dialogs).openSession(file, b -> { });
        assertNotNull(second.snapshot(), second.statusProperty().get());
        assertEquals(Map.copyOf(notes.all()), Map.copyOf(second.inspector().notes().all()));
        // found again by their keys in the reloaded capture
        FabricNode again = second.snapshot().model().node(sw.guid());
        second.inspector().show(again);
        assertTrue(second.inspector().noteProperty().get().startsWith("Note: replaced PSU 2 on 11/26"), second.inspector().noteProperty().get());
        Finding same = second.snapshot().findings().get(0);
        assertEquals("ticket NET-4711", second.inspector().notes().text(SubjectNotes.key(same)));
        assertEquals(List.of(), dialogs.shown);
    }

    @Test
    void aSessionWithoutNotesOpensAndMalformedNotesAreNamed() throws Exception {
        Path old = Files.writeString(dir.resolve("old.fabricscope.json"), "{\"format\": \"fabricscope-session\", \"version\": 1, "
                + "\"sources\": [\"/captures/a\"], \"answers\": {}, \"view\": {\"colour\": \"ERRORS\"}}");
        Session s = SessionFile.read(old);
        assertEquals(Map.of(), s.notes());

        Path list = Files.writeString(dir.resolve("list.fabricscope.json"), "{\"format\": \"fabricscope-session\", \"version\": 1, "
                + "\"sources\": [\"/captures/a\"], \"notes\": [\"x\"]}");
        SessionFile.Invalid e = assertThrows(SessionFile.Invalid.class, () -> SessionFile.read(list));
        assertTrue(e.getMessage().contains("list.fabricscope.json") && e.getMessage().contains("\"notes\" is not an object"), e.getMessage());

        Path noText = Files.writeString(dir.resolve("notext.fabricscope.json"), "{\"format\": \"fabricscope-session\", \"version\": 1, "
                + "\"sources\": [\"/captures/a\"], \"notes\": {\"switch guid=0x1\": {\"label\": \"s\", \"text\": 3}}}");
        e = assertThrows(SessionFile.Invalid.class, () -> SessionFile.read(noText));
        assertTrue(e.getMessage().contains("note \"switch guid=0x1\" has no \"text\""), e.getMessage());

        // what is written reads back the same
        Session with = new Session(List.of("/captures/a"), Map.of(), null, Map.of("port guid=0x1,port=2", new Session.Note("leaf port 2", "é\n\"q\"")));
        Path f = dir.resolve("with.fabricscope.json");
        SessionFile.write(f, with);
        assertEquals(with.notes(), SessionFile.read(f).notes());
    }
}
