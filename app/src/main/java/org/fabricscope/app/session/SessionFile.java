package org.fabricscope.app.session;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.fabricscope.app.report.OutputFile;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * A session as a JSON file: {@code {"format": "fabricscope-session", "version": 1, "sources": [...], "answers":
 * {"flow/step": {"verdict", "output", "read"}}, "view": {"colour", "problemsOnly", "collapseAll", "tab"}, "notes":
 * {"subject key": {"label", "text"}}}. Written
 * whole or not at all; read with every problem named with the file (and the field), never half-applied. A source
 * relative to the session file's folder is resolved against it; sources are written as absolute paths.
 */
public final class SessionFile {
    /** The largest session file read: answers carry pasted outputs, each bounded by the paste area. */
    public static final long MAX_BYTES = 16L << 20;
    public static final String FORMAT = "fabricscope-session";
    public static final int VERSION = 1;
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private SessionFile() {
    }

    /** A session file that cannot be read: the message names the file and what is wrong. */
    public static final class Invalid extends Exception {
        private static final long serialVersionUID = 1L;

        Invalid(Path file, String why) {
            super(file + ": " + why);
        }
    }

    /** The session as the file's text. */
    public static String text(Session s) throws JsonProcessingException {
        ObjectNode root = JSON.createObjectNode();
        root.put("format", FORMAT);
        root.put("version", VERSION);
        ArrayNode sources = root.putArray("sources");
        s.sources().forEach(sources::add);
        ObjectNode answers = root.putObject("answers");
        for (Map.Entry<String, Session.Answer> e : s.answers().entrySet()) {
            ObjectNode a = answers.putObject(e.getKey());
            a.put("verdict", e.getValue().verdict());
            a.put("output", e.getValue().output());
            ArrayNode read = a.putArray("read");
            e.getValue().read().forEach(read::add);
        }
        ObjectNode view = root.putObject("view");
        view.put("colour", s.view().colour());
        view.put("problemsOnly", s.view().problemsOnly());
        view.put("collapseAll", s.view().collapseAll());
        view.put("tab", s.view().tab());
        ObjectNode notes = root.putObject("notes");
        for (Map.Entry<String, Session.Note> e : s.notes().entrySet()) {
            ObjectNode n = notes.putObject(e.getKey());
            n.put("label", e.getValue().label());
            n.put("text", e.getValue().text());
        }
        return JSON.writeValueAsString(root) + "\n";
    }

    /** Writes the session to {@code file}, whole or not at all (a failure leaves an old file as it was). */
    public static void write(Path file, Session s) throws IOException {
        byte[] bytes = text(s).getBytes(StandardCharsets.UTF_8);
        OutputFile.write(file, out -> out.write(bytes));
    }

    /** Reads a session file; {@link Invalid} names the file and the first problem. */
    public static Session read(Path file) throws Invalid {
        byte[] bytes;
        try {
            if (Files.size(file) > MAX_BYTES) {
                throw new Invalid(file, "larger than " + (MAX_BYTES >> 20) + " MiB (SessionFile.MAX_BYTES): not a session file");
            }
            try (InputStream in = Files.newInputStream(file)) {
                bytes = in.readNBytes((int) MAX_BYTES + 1);
            }
        } catch (IOException e) {
            throw new Invalid(file, "cannot be read: " + OutputFile.reason(e));
        }
        if (bytes.length > MAX_BYTES) {
            throw new Invalid(file, "larger than " + (MAX_BYTES >> 20) + " MiB (SessionFile.MAX_BYTES): not a session file");
        }
        JsonNode root;
        try {
            root = JSON.readTree(bytes);
        } catch (IOException e) {
            String where = e instanceof JsonProcessingException j && j.getLocation() != null
                    ? " at line " + j.getLocation().getLineNr() : "";
            throw new Invalid(file, "not JSON" + where + ": not a session file");
        }
        if (root == null || !root.isObject() || !FORMAT.equals(root.path("format").asText(null))) {
            throw new Invalid(file, "not a FabricScope session (no \"format\": \"" + FORMAT + "\")");
        }
        if (root.path("version").asInt(-1) != VERSION) {
            throw new Invalid(file, "session version " + root.path("version") + " is not one this FabricScope reads (" + VERSION + ")");
        }
        Path base = file.toAbsolutePath().getParent();
        List<String> sources = new ArrayList<>();
        for (JsonNode n : array(file, root, "sources")) {
            if (!n.isTextual() || n.asText().isBlank() || n.asText().indexOf('\0') >= 0) {
                throw new Invalid(file, "\"sources\" holds " + n + ", not a path");
            }
            Path p = Path.of(n.asText());
            sources.add((p.isAbsolute() || base == null ? p : base.resolve(p)).normalize().toString());
        }
        Map<String, Session.Answer> answers = new LinkedHashMap<>();
        JsonNode a = root.path("answers");
        if (!a.isMissingNode() && !a.isObject()) {
            throw new Invalid(file, "\"answers\" is not an object");
        }
        for (Map.Entry<String, JsonNode> e : a.properties()) {
            JsonNode v = e.getValue();
            String verdict = v.path("verdict").asText("");
            if (!e.getKey().matches("[A-Za-z0-9._-]+/[A-Za-z0-9._-]+") || !(verdict.equals("yes") || verdict.equals("no"))) {
                throw new Invalid(file, "answer \"" + e.getKey() + "\" is not FLOW/STEP with verdict yes or no");
            }
            List<String> read = new ArrayList<>();
            v.path("read").forEach(r -> read.add(r.asText()));
            answers.put(e.getKey(), new Session.Answer(verdict, v.path("output").asText(""), read));
        }
        JsonNode view = root.path("view");
        Session.View d = Session.View.DEFAULT;
        Session.View shown = new Session.View(view.path("colour").asText(d.colour()), view.path("problemsOnly").asBoolean(false),
                view.path("collapseAll").asBoolean(false), view.path("tab").asText(d.tab()));
        return new Session(sources, answers, shown, notes(file, root));
    }

    /** {@code "notes": {"KEY": {"label", "text"}}}: absent in sessions written before notes were saved. */
    private static Map<String, Session.Note> notes(Path file, JsonNode root) throws Invalid {
        Map<String, Session.Note> out = new LinkedHashMap<>();
        JsonNode n = root.path("notes");
        if (n.isMissingNode() || n.isNull()) {
            return out;
        }
        if (!n.isObject()) {
            throw new Invalid(file, "\"notes\" is not an object");
        }
        for (Map.Entry<String, JsonNode> e : n.properties()) {
            JsonNode text = e.getValue().path("text");
            if (e.getKey().isBlank() || !text.isTextual()) {
                throw new Invalid(file, "note \"" + e.getKey() + "\" has no \"text\"");
            }
            out.put(e.getKey(), new Session.Note(e.getValue().path("label").asText(""), text.asText()));
        }
        return out;
    }

    private static JsonNode array(Path file, JsonNode root, String field) throws Invalid {
        JsonNode n = root.path(field);
        if (!n.isArray()) {
            throw new Invalid(file, "\"" + field + "\" is not a list");
        }
        return n;
    }
}
