package org.fabricscope.app.ui;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

import org.fabricscope.app.session.Session;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.core.Guids;
import org.fabricscope.model.core.Subject;
import org.fabricscope.model.core.Vertex;
import org.fabricscope.model.fabric.Cable;
import org.fabricscope.model.fabric.FabricNode;
import org.fabricscope.model.fabric.Host;
import org.fabricscope.model.fabric.Port;

import javafx.collections.FXCollections;
import javafx.collections.ObservableMap;

/**
 * The user's notes on subjects (a switch, HCA, host, port, cable, rank, finding): the note's text and the subject's
 * label by a key made of the subject's stable keys ({@link #key(Subject)}: GUIDs and port numbers, host names,
 * communicator and rank, a finding's id and subjects), so that a note finds its subject again in any capture of the
 * same cluster. Saved and reopened with the session ({@link Session#notes}); shown in the inspector.
 */
public final class SubjectNotes {
    /** The longest note kept: a note is a sentence or a paragraph, not a log. */
    public static final int MAX_CHARS = 4000;

    private final ObservableMap<String, Session.Note> notes = FXCollections.observableMap(new LinkedHashMap<>());

    /** The notes, by subject key (observe to follow changes). */
    public ObservableMap<String, Session.Note> all() {
        return notes;
    }

    /** Sets the note of a subject; blank text removes it; text past {@link #MAX_CHARS} is refused (false). */
    public boolean put(String key, String label, String text) {
        if (key == null) {
            return false;
        }
        if (text == null || text.isBlank()) {
            notes.remove(key);
            return true;
        }
        if (text.length() > MAX_CHARS) {
            return false;
        }
        notes.put(key, new Session.Note(label, text.strip()));
        return true;
    }

    /** The note's text, or null. */
    public String text(String key) {
        Session.Note n = key == null ? null : notes.get(key);
        return n == null ? null : n.text();
    }

    /** Replaces every note (a session opened). */
    public void setAll(Map<String, Session.Note> all) {
        notes.clear();
        notes.putAll(all);
    }

    /** {@code kind key=value,...}; a cable's two ends in a fixed order, whichever end was named first. */
    public static String key(Subject s) {
        if (s instanceof Subject.CableRef c) {
            String a = Guids.format(c.guidA()) + "/" + c.portA();
            String b = Guids.format(c.guidB()) + "/" + c.portB();
            return "cable " + (a.compareTo(b) <= 0 ? a + " " + b : b + " " + a);
        }
        return s.kind() + " " + s.keys().entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(","));
    }

    /** A finding: its id and its subjects' keys (the same finding in another capture has the same key). */
    public static String key(Finding f) {
        return "finding " + f.id() + " " + f.refs().stream().map(SubjectNotes::key).collect(Collectors.joining("; "));
    }

    /** The subject of a switch, HCA or host on the map; null for anything else. */
    public static Subject subjectOf(Vertex v) {
        if (v instanceof FabricNode n) {
            return n.isSwitch() ? new Subject.SwitchRef(n.guid(), n.displayName()) : new Subject.HcaRef(n.guid(), n.displayName());
        }
        return v instanceof Host h ? new Subject.HostRef(h.name(), h.name()) : null;
    }

    public static Subject subjectOf(Port p) {
        return new Subject.PortRef(p.node().guid(), p.number(), p.label());
    }

    public static Subject subjectOf(Cable c) {
        return new Subject.CableRef(c.a().node().guid(), c.a().number(), c.b().node().guid(), c.b().number(),
                c.a().label() + " <-> " + c.b().label());
    }
}
