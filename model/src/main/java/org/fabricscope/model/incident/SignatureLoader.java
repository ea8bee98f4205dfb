package org.fabricscope.model.incident;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

import org.fabricscope.model.core.Severity;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;

/**
 * Reads one catalogue file ({@code docs/signatures.md}) and validates every signature in it: the
 * id's form and prefix, the required fields, the pattern (it compiles, its named groups are exactly
 * the declared fields), the role, class and severity, and every example (it holds the literal, it
 * matches, it yields exactly the fields it lists). A signature with a problem is left out and the
 * problem reported; a file that is not a catalogue at all is reported whole.
 */
public final class SignatureLoader {
    /** The sources a file may declare. */
    public static final Set<String> SOURCES = Set.of("nccl", "pytorch", "kernel", "kubernetes", "prometheus", "user");
    /** Larger files are refused: a catalogue file is text written by people. */
    public static final int MAX_BYTES = 4 << 20;
    /** The letters or digits a literal holds at least. */
    static final int MIN_LITERAL = 3;
    private static final Pattern ID = Pattern.compile("[a-z][a-z0-9]*\\.[a-z0-9]+(?:-[a-z0-9]+)*");
    private static final Pattern GROUP = Pattern.compile("(?<!\\\\)\\(\\?<([a-zA-Z][a-zA-Z0-9]*)>");

    /** What one file gave: its signatures and its problems. */
    public record Result(List<Signature> signatures, List<SignatureProblem> problems) {
    }

    private SignatureLoader() {
    }

    /** Reads a file's bytes; {@code file} names it in problems and in each signature's {@code file}. */
    public static Result load(InputStream in, String file) {
        return load(in, file, true);
    }

    /**
     * As {@link #load(InputStream, String)}; {@code checkExamples} false skips matching each example and compiles
     * each pattern on first use ({@link Regex}): for the bundled files, whose patterns and examples a test
     * compiles and matches, and which load at every start and should load fast.
     */
    public static Result load(InputStream in, String file, boolean checkExamples) {
        List<SignatureProblem> problems = new ArrayList<>();
        byte[] bytes;
        try {
            bytes = in.readNBytes(MAX_BYTES + 1);
        } catch (IOException e) {
            return new Result(List.of(), List.of(new SignatureProblem(file, "", "", "cannot be read: " + e.getMessage())));
        }
        if (bytes.length > MAX_BYTES) {
            return new Result(List.of(), List.of(new SignatureProblem(file, "", "", "larger than " + (MAX_BYTES >> 20)
                    + " MiB; not a catalogue file")));
        }
        JsonNode root;
        try {
            root = org.fabricscope.model.core.JsonTrees.read(bytes, false);
        } catch (JsonProcessingException e) {
            String where = e.getLocation() == null ? "" : "line " + e.getLocation().getLineNr();
            return new Result(List.of(), List.of(new SignatureProblem(file, where, "", "not valid JSON: "
                    + e.getOriginalMessage())));
        } catch (IOException e) {
            return new Result(List.of(), List.of(new SignatureProblem(file, "", "", "cannot be read: " + e.getMessage())));
        }
        if (root == null || !root.isObject()) {
            return new Result(List.of(), List.of(new SignatureProblem(file, "", "", "not a JSON object")));
        }
        if (root.path("schema").asInt(-1) != 1) {
            problems.add(new SignatureProblem(file, "", "schema", "must be 1"));
            return new Result(List.of(), problems);
        }
        String source = root.path("source").asText("");
        if (!SOURCES.contains(source)) {
            problems.add(new SignatureProblem(file, "", "source", "must be one of " + new java.util.TreeSet<>(SOURCES)));
            return new Result(List.of(), problems);
        }
        JsonNode list = root.path("signatures");
        if (!list.isArray()) {
            problems.add(new SignatureProblem(file, "", "signatures", "must be a list"));
            return new Result(List.of(), problems);
        }
        List<Signature> out = new ArrayList<>();
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < list.size(); i++) {
            Entry e = new Entry(file, source, list.get(i), "signatures[" + i + "]", problems, checkExamples);
            Signature s = e.signature();
            if (s == null) {
                continue;
            }
            if (!ids.add(s.id())) {
                problems.add(new SignatureProblem(file, s.id(), "id", "used twice in this file"));
                continue;
            }
            out.add(s);
        }
        return new Result(out, problems);
    }

    /** One entry being read: problems are added with the entry's id once it is known. */
    private static final class Entry {
        final String file;
        final String source;
        final JsonNode n;
        final List<SignatureProblem> problems;
        final boolean checkExamples;
        String name;
        boolean bad;

        Entry(String file, String source, JsonNode n, String name, List<SignatureProblem> problems, boolean checkExamples) {
            this.checkExamples = checkExamples;
            this.file = file;
            this.source = source;
            this.n = n;
            this.name = name;
            this.problems = problems;
        }

        void problem(String field, String message) {
            problems.add(new SignatureProblem(file, name, field, message));
            bad = true;
        }

        String text(String field, boolean required) {
            JsonNode v = n.get(field);
            if (v == null || v.isNull()) {
                if (required) {
                    problem(field, "is required");
                }
                return "";
            }
            if (!v.isTextual()) {
                problem(field, "must be a string");
                return "";
            }
            if (required && v.asText().isBlank()) {
                problem(field, "must not be empty");
            }
            return v.asText();
        }

        List<String> texts(String field, boolean required) {
            JsonNode v = n.get(field);
            List<String> out = new ArrayList<>();
            if (v == null || v.isNull()) {
                if (required) {
                    problem(field, "is required");
                }
                return out;
            }
            if (!v.isArray()) {
                problem(field, "must be a list of strings");
                return out;
            }
            for (JsonNode x : v) {
                if (!x.isTextual()) {
                    problem(field, "must be a list of strings");
                    return out;
                }
                out.add(x.asText());
            }
            return out;
        }

        Signature signature() {
            if (n == null || !n.isObject()) {
                problem("", "must be an object");
                return null;
            }
            String id = text("id", true);
            if (!id.isEmpty()) {
                name = id;
                if (!ID.matcher(id).matches()) {
                    problem("id", "must be lowercase words joined by '-' after a source prefix and a dot, like nccl.ib-completion-error");
                } else if (!"user".equals(source) && !id.startsWith(source + ".")) {
                    problem("id", "must start with '" + source + ".' in a file of source " + source);
                }
            }
            String title = text("title", true);
            String template = text("template", true);
            List<Signature.Origin> origins = origins();
            String onText = text("on", false);
            Target on = onText.isEmpty() ? Target.LOG : Target.of(onText);
            if (on == null) {
                problem("on", "must be log, k8s-event or k8s-status");
            }
            List<String> literals = literals();
            String match = text("match", true);
            List<String> fields = texts("fields", true);
            Regex pattern = null;
            if (!match.isEmpty() && !checkExamples) {
                pattern = Regex.lazy(match); // a bundled file: its test compiles every pattern
            } else if (!match.isEmpty()) {
                try {
                    pattern = Regex.of(Pattern.compile(match));
                } catch (PatternSyntaxException e) {
                    problem("match", "not a valid regular expression: " + e.getDescription() + " at index " + e.getIndex());
                }
            }
            if (pattern != null) {
                Set<String> groups = new java.util.LinkedHashSet<>();
                Matcher g = GROUP.matcher(match);
                while (g.find()) {
                    groups.add(g.group(1));
                }
                for (String f : fields) {
                    if (!groups.contains(f)) {
                        problem("fields", "'" + f + "' is not a named group of match");
                    }
                }
                for (String gname : groups) {
                    if (!fields.contains(gname)) {
                        problem("fields", "the named group '" + gname + "' is not listed");
                    }
                }
            }
            Role role = Role.of(text("role", true));
            if (role == null) {
                problem("role", "must be cause, consequence or context");
            }
            String cls = text("class", true);
            CauseClass causeClass = CauseClass.of(cls);
            if (causeClass == null) {
                problem("class", "'" + cls + "' is not a cause class (docs/signatures.md)");
            }
            Severity severity = severity(text("severity", true));
            String blames = text("blames", false);
            if (!blames.isEmpty() && !fields.contains(blames)) {
                problem("blames", "'" + blames + "' is not one of its fields");
            }
            List<String> remedies = texts("remedies", role == Role.CAUSE);
            if (role == Role.CAUSE && remedies.isEmpty() && n.has("remedies")) {
                problem("remedies", "a cause needs at least one remedy");
            }
            List<Signature.Example> examples = examples();
            String notes = text("notes", false);
            if (bad) {
                return null;
            }
            Signature s = new Signature(id, source, title, template, origins, on, literals, pattern, fields, role, causeClass,
                    severity, blames, remedies, examples, notes, file);
            for (int i = 0; checkExamples && i < examples.size(); i++) {
                check(s, examples.get(i), "examples[" + i + "]");
            }
            return bad ? null : s;
        }

        /**
         * {@code literal}: a string or a list of strings, each with at least {@link #MIN_LITERAL} letters or
         * digits: a short literal ({@code "] "}, {@code " : "}) is in most lines and makes every line pay for the pattern.
         */
        private List<String> literals() {
            JsonNode v = n.get("literal");
            List<String> out = new ArrayList<>();
            if (v != null && v.isTextual()) {
                out.add(v.asText());
            } else if (v != null && v.isArray() && !v.isEmpty()) {
                for (JsonNode x : v) {
                    if (!x.isTextual()) {
                        problem("literal", "must be a string or a list of strings");
                        return out;
                    }
                    out.add(x.asText());
                }
            } else {
                problem("literal", "is required: a fixed part of the template (or a list of them) that every matching text holds");
                return out;
            }
            for (String l : out) {
                if (l.chars().filter(Character::isLetterOrDigit).count() < MIN_LITERAL) {
                    problem("literal", "'" + l + "' holds fewer than " + MIN_LITERAL + " letters or digits: pick a rarer fixed"
                            + " part of the template");
                }
            }
            return out;
        }

        private Severity severity(String s) {
            for (Severity v : Severity.values()) {
                if (v.label().equals(s)) {
                    return v;
                }
            }
            problem("severity", "must be error, warning or info");
            return null;
        }

        private List<Signature.Origin> origins() {
            JsonNode v = n.get("origin");
            List<Signature.Origin> out = new ArrayList<>();
            if (v == null || !v.isArray() || v.isEmpty()) {
                problem("origin", "must be a non-empty list of {file, versions}");
                return out;
            }
            for (JsonNode o : v) {
                String f = o.path("file").asText("");
                if (f.isBlank()) {
                    problem("origin", "every entry needs a file");
                    return out;
                }
                out.add(new Signature.Origin(f, o.path("versions").asText(""), o.path("function").asText("")));
            }
            return out;
        }

        private List<Signature.Example> examples() {
            JsonNode v = n.get("examples");
            List<Signature.Example> out = new ArrayList<>();
            if (v == null || !v.isArray() || v.isEmpty()) {
                problem("examples", "must be a non-empty list of {text, fields}");
                return out;
            }
            for (JsonNode e : v) {
                if (!e.path("text").isTextual()) {
                    problem("examples", "every example needs a text");
                    return out;
                }
                Map<String, String> fields = new LinkedHashMap<>();
                for (Map.Entry<String, JsonNode> f : e.path("fields").properties()) {
                    fields.put(f.getKey(), f.getValue().asText());
                }
                out.add(new Signature.Example(e.get("text").asText(), fields));
            }
            return out;
        }

        private void check(Signature s, Signature.Example e, String where) {
            if (!s.holdsLiteral(e.text())) {
                problem(where, "holds none of the literals " + s.literals());
                return;
            }
            Map<String, String> got = s.match(e.text());
            if (got == null) {
                problem(where, "is not matched by match");
            } else if (!got.equals(e.fields())) {
                problem(where, "yields " + got + ", not " + e.fields());
            }
        }
    }
}
