package org.fabricscope.model.flows;

import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;

/**
 * Reads one flow file (schema: {@code docs/flows.md}) and validates it: every field's type, ids,
 * the facts and their parameters against {@link FlowFacts}, finding ids against the check catalogue,
 * and the graph ({@link FlowGraph}: targets, cycles, depth, reachability, placeholders). Every problem
 * becomes a {@link FlowError} naming the file, the field as a JSON pointer and why; a file with any
 * error yields no flow. The limits below keep a hostile file from taking the memory, the stack or the
 * time of a run; past one, the error names it.
 */
public final class FlowLoader {
    /** The largest flow file read: 1 MiB (the built-in flows are 8-18 KiB). */
    public static final int MAX_BYTES = 1 << 20;
    /** The most steps a flow has (the built-in flows have at most 15). */
    public static final int MAX_STEPS = 200;
    /** The most conclusions a flow has. */
    public static final int MAX_CONCLUSIONS = 200;
    /** The most steps one walk passes, first step included (the built-in flows' longest walk passes 12). */
    public static final int MAX_DEPTH = 64;
    /** The most errors reported for one file; the rest are counted in one last error. */
    public static final int MAX_ERRORS = 100;
    /** The most bad placeholders named for one field; the rest are counted. */
    static final int MAX_ERRORS_PER_FIELD = 5;

    private static final Pattern VERSION = Pattern.compile("\\d+(?:\\.\\d+){0,3}");
    private static final Set<String> TOP = Set.of("id", "title", "description", "sources", "entry", "steps", "conclusions");
    private static final Set<String> ENTRY = Set.of("findings", "facts", "scope");
    private static final Set<String> STEP = Set.of("id", "question", "kind", "ask", "command", "expect", "output", "yes",
            "no", "unknown", "otherwise");
    private static final Set<String> CONCLUSION = Set.of("id", "finding", "text", "remedies");

    private final FlowFacts facts;
    private final Set<String> findingIds;

    /** What reading one file gave: the flow (null when it has errors) and the errors. */
    public record Loaded(Flow flow, List<FlowError> errors) {
        public Loaded {
            errors = List.copyOf(errors);
        }
    }

    public FlowLoader(FlowFacts facts, Set<String> findingIds) {
        this.facts = facts;
        this.findingIds = Set.copyOf(findingIds);
    }

    /** The standard facts and the standard checks' finding ids. */
    public static FlowLoader standard() {
        return new FlowLoader(FlowFacts.standard(), FlowContext.catalogue().keySet());
    }

    /**
     * Validates one file's bytes. A file past {@link #MAX_BYTES}, JSON nested past the parser's depth
     * limit, or a stack overflow in the parser is an error of that file, never of the run.
     */
    public Loaded load(String source, byte[] content) {
        if (content.length > MAX_BYTES) {
            return new Loaded(null, List.of(new FlowError(source, "", "too large: " + content.length + " bytes; a flow file is at most "
                    + MAX_BYTES + " bytes (FlowLoader.MAX_BYTES)")));
        }
        JsonNode root;
        try {
            root = org.fabricscope.model.core.JsonTrees.read(content, true); // a key given twice is an error
        } catch (JsonProcessingException e) {
            JsonLocation l = e.getLocation();
            String where = l == null ? "" : "line " + l.getLineNr() + ", column " + l.getColumnNr() + ": ";
            return new Loaded(null, List.of(new FlowError(source, "", "not valid JSON: " + where + e.getOriginalMessage())));
        } catch (IOException e) {
            return new Loaded(null, List.of(new FlowError(source, "", "cannot read: " + e.getMessage())));
        } catch (StackOverflowError e) {
            return new Loaded(null, List.of(new FlowError(source, "", "nested too deeply to read")));
        }
        if (root == null || root.isMissingNode()) {
            return new Loaded(null, List.of(new FlowError(source, "", "empty file: a flow file is one JSON object")));
        }
        return new Run(source).flow(root);
    }

    /** The state of one file's validation. */
    private final class Run {
        final String source;
        final List<FlowError> errors = new ArrayList<>();
        final FlowFields fields = new FlowFields(this::error);
        int dropped;

        Run(String source) {
            this.source = source;
        }

        void error(String pointer, String message) {
            if (errors.size() < MAX_ERRORS) {
                errors.add(new FlowError(source, pointer, message));
            } else {
                dropped++;
            }
        }

        /** The errors, the last one counting those past {@link #MAX_ERRORS}. */
        List<FlowError> errors() {
            if (dropped == 0) {
                return errors;
            }
            List<FlowError> out = new ArrayList<>(errors);
            out.add(new FlowError(source, "", dropped + " more errors not listed (at most " + MAX_ERRORS
                    + " are: FlowLoader.MAX_ERRORS)"));
            return out;
        }

        private boolean tooMany(JsonNode n, String field, int max, String constant) {
            if (n != null && n.size() > max) {
                error("/" + field, n.size() + " " + field + "; a flow has at most " + max + " (FlowLoader." + constant
                        + "): split it into flows of their own");
                return true;
            }
            return false;
        }

        Loaded flow(JsonNode root) {
            if (!root.isObject()) {
                error("", "a flow file is one JSON object, not " + FlowFields.kind(root));
                return new Loaded(null, errors());
            }
            fields.unknownFields(root, "", TOP, "a flow");
            String id = fields.id(root, "");
            String title = fields.text(root, "", "title", true);
            String description = fields.text(root, "", "description", false);
            List<String> sources = fields.strings(root, "", "sources", false);
            Flow.Entry entry = entry(root);
            List<Flow.Step> steps = new ArrayList<>();
            List<Flow.Conclusion> conclusions = new ArrayList<>();
            Map<String, String> pointerOf = new LinkedHashMap<>();
            JsonNode stepsNode = fields.array(root, "", "steps", true);
            JsonNode concNode = fields.array(root, "", "conclusions", true);
            if (tooMany(stepsNode, "steps", MAX_STEPS, "MAX_STEPS") | tooMany(concNode, "conclusions", MAX_CONCLUSIONS,
                    "MAX_CONCLUSIONS")) {
                return new Loaded(null, errors());
            }
            if (stepsNode != null && stepsNode.isEmpty()) {
                error("/steps", "a flow needs at least one step (the walk starts at the first)");
            }
            if (stepsNode != null) {
                for (int i = 0; i < stepsNode.size(); i++) {
                    Flow.Step s = step(stepsNode.get(i), "/steps/" + i);
                    if (s != null) {
                        if (pointerOf.containsKey(s.id())) {
                            error("/steps/" + i + "/id", "'" + s.id() + "' is already the id of " + pointerOf.get(s.id()));
                        } else {
                            pointerOf.put(s.id(), "/steps/" + i);
                            steps.add(s);
                        }
                    }
                }
            }
            if (concNode != null && concNode.isEmpty()) {
                error("/conclusions", "a flow needs at least one conclusion");
            }
            if (concNode != null) {
                for (int i = 0; i < concNode.size(); i++) {
                    Flow.Conclusion c = conclusion(concNode.get(i), "/conclusions/" + i);
                    if (c != null) {
                        if (pointerOf.containsKey(c.id())) {
                            error("/conclusions/" + i + "/id", "'" + c.id() + "' is already the id of " + pointerOf.get(c.id()));
                        } else {
                            pointerOf.put(c.id(), "/conclusions/" + i);
                            conclusions.add(c);
                        }
                    }
                }
            }
            if (stepsNode != null && concNode != null && steps.size() == stepsNode.size()
                    && conclusions.size() == concNode.size() && !steps.isEmpty()) {
                FlowGraph.check(steps, conclusions, pointerOf, this::error);
            }
            if (!errors.isEmpty() || id == null || title == null || entry == null) {
                return new Loaded(null, errors());
            }
            return new Loaded(new Flow(id, title, description, sources, entry, steps, conclusions, source), errors());
        }

        private Flow.Entry entry(JsonNode root) {
            JsonNode e = root.get("entry");
            if (e == null) {
                error("/entry", "missing: a flow declares its entry symptom (finding ids and/or facts)");
                return null;
            }
            if (!e.isObject()) {
                error("/entry", "must be an object {\"findings\": [...], \"facts\": [...]}, not " + FlowFields.kind(e));
                return null;
            }
            fields.unknownFields(e, "/entry", ENTRY, "an entry");
            List<String> ids = fields.strings(e, "/entry", "findings", false);
            for (int i = 0; i < ids.size(); i++) {
                findingId(ids.get(i), "/entry/findings/" + i);
            }
            List<FactCall> calls = new ArrayList<>();
            JsonNode f = fields.array(e, "/entry", "facts", false);
            if (f != null) {
                for (int i = 0; i < f.size(); i++) {
                    FactCall c = fact(f.get(i), "/entry/facts/" + i);
                    if (c != null) {
                        calls.add(c);
                    }
                }
            }
            String scope = fields.text(e, "/entry", "scope", false);
            if (scope != null && !scope.equals("all") && !scope.equals("job")) {
                error("/entry/scope", "must be all or job, not '" + scope + "'");
            }
            if (ids.isEmpty() && (f == null || f.isEmpty())) {
                error("/entry", "names no symptom: give finding ids in findings or facts in facts");
            }
            return new Flow.Entry(ids, calls, scope);
        }

        private Flow.Step step(JsonNode n, String at) {
            if (n == null || !n.isObject()) {
                error(at, "a step is an object, not " + FlowFields.kind(n));
                return null;
            }
            fields.unknownFields(n, at, STEP, "a step");
            String id = fields.id(n, at);
            String question = fields.text(n, at, "question", true);
            String kindText = fields.text(n, at, "kind", false);
            Flow.Kind kind = Flow.Kind.AUTO;
            if (kindText != null) {
                if (kindText.equals("manual")) {
                    kind = Flow.Kind.MANUAL;
                } else if (!kindText.equals("auto")) {
                    error(at + "/kind", "must be auto or manual, not '" + kindText + "'");
                }
            }
            FactCall ask = null;
            if (n.get("ask") == null) {
                error(at + "/ask", "missing: a step asks a fact, e.g. {\"fact\": \"finding-present\", \"id\": \"tcp-fallback\"}");
            } else {
                ask = fact(n.get("ask"), at + "/ask");
            }
            String command = fields.text(n, at, "command", false);
            String expect = fields.text(n, at, "expect", false);
            if (kind == Flow.Kind.MANUAL && command == null && n.get("command") == null) {
                error(at + "/command", "missing: a manual step shows the command to run");
            }
            Map<Verdict, String> branches = new EnumMap<>(Verdict.class);
            for (Verdict v : Verdict.values()) {
                String t = target(n, at, v.label());
                if (t != null) {
                    branches.put(v, t);
                }
            }
            String otherwise = target(n, at, "otherwise");
            if (kind == Flow.Kind.MANUAL && branches.containsKey(Verdict.UNKNOWN)) {
                error(at + "/unknown", "a manual step waits for its answer: it has no unknown branch");
            }
            for (Verdict v : new Verdict[] {Verdict.YES, Verdict.NO}) {
                if (!branches.containsKey(v) && otherwise == null) {
                    error(at + "/" + v.label(), "missing: where does a " + v.label() + " answer lead? (a step or conclusion id; "
                            + "or otherwise)");
                }
            }
            StepOutput output = StepOutputField.read(n.get("output"), at + "/output", kind, this::error);
            if (id == null || question == null || ask == null) {
                return null;
            }
            return new Flow.Step(id, question, kind, ask, command, expect, branches, otherwise, output);
        }

        private String target(JsonNode n, String at, String field) {
            JsonNode t = n.get(field);
            if (t == null) {
                return null;
            }
            if (!t.isTextual() || t.asText().isBlank()) {
                error(at + "/" + field, "must be a step or conclusion id (a string), not " + FlowFields.kind(t));
                return null;
            }
            return t.asText();
        }

        private Flow.Conclusion conclusion(JsonNode n, String at) {
            if (n == null || !n.isObject()) {
                error(at, "a conclusion is an object, not " + FlowFields.kind(n));
                return null;
            }
            fields.unknownFields(n, at, CONCLUSION, "a conclusion");
            String id = fields.id(n, at);
            String finding = fields.text(n, at, "finding", false);
            if (finding != null) {
                findingId(finding, at + "/finding");
            }
            String text = fields.text(n, at, "text", true);
            List<String> remedies = fields.strings(n, at, "remedies", true);
            if (n.has("remedies") && n.get("remedies").isArray() && n.get("remedies").isEmpty()) {
                error(at + "/remedies", "a conclusion says what to do: give at least one remedy");
            }
            if (id == null || text == null) {
                return null;
            }
            return new Flow.Conclusion(id, finding, text, remedies);
        }

        private FactCall fact(JsonNode n, String at) {
            if (n == null || !n.isObject()) {
                error(at, "a fact is an object {\"fact\": \"name\", ...parameters}, not " + FlowFields.kind(n));
                return null;
            }
            JsonNode name = n.get("fact");
            if (name == null || !name.isTextual()) {
                error(at + "/fact", name == null ? "missing: which fact? (known: " + String.join(", ", facts.names()) + ")"
                        : "must be a fact name (a string), not " + FlowFields.kind(name));
                return null;
            }
            FlowFacts.Fact f = facts.fact(name.asText());
            if (f == null) {
                error(at + "/fact", "unknown fact '" + name.asText() + "' (known: " + String.join(", ", facts.names()) + ")");
                return null;
            }
            Map<String, Object> args = new LinkedHashMap<>();
            boolean ok = true;
            for (Map.Entry<String, JsonNode> e : n.properties()) {
                if (e.getKey().equals("fact")) {
                    continue;
                }
                FlowFacts.Param p = f.param(e.getKey());
                String pat = at + "/" + FlowFields.escape(e.getKey());
                if (p == null) {
                    error(pat, "fact '" + f.name() + "' takes no parameter '" + e.getKey() + "'"
                            + (f.params().isEmpty() ? " (it takes none)" : " (it takes: "
                            + String.join(", ", f.params().stream().map(FlowFacts.Param::name).toList()) + ")"));
                    ok = false;
                    continue;
                }
                Object v = value(f, p, e.getValue(), pat);
                if (v == null) {
                    ok = false;
                } else {
                    args.put(p.name(), v);
                }
            }
            for (FlowFacts.Param p : f.params()) {
                if (p.required() && !n.has(p.name())) {
                    error(at + "/" + FlowFields.escape(p.name()), "missing: fact '" + f.name() + "' needs '" + p.name() + "' (" + p.description() + ")");
                    ok = false;
                }
            }
            return ok ? new FactCall(f.name(), args) : null;
        }

        private Object value(FlowFacts.Fact f, FlowFacts.Param p, JsonNode v, String at) {
            String bad = "fact '" + f.name() + "': '" + p.name() + "' ";
            switch (p.type()) {
                case NUMBER -> {
                    if (!v.isNumber()) {
                        error(at, bad + "must be a number, not " + FlowFields.kind(v));
                        return null;
                    }
                    return v.numberValue();
                }
                case TABLE -> {
                    if (!v.isObject() || v.isEmpty()) {
                        error(at, bad + "must be a non-empty object of names to whole numbers, not " + FlowFields.kind(v));
                        return null;
                    }
                    Map<String, Integer> table = new LinkedHashMap<>();
                    for (Map.Entry<String, JsonNode> e : v.properties()) {
                        if (!e.getValue().canConvertToInt() || !e.getValue().isIntegralNumber()) {
                            error(at + "/" + FlowFields.escape(e.getKey()), bad + "values must be whole numbers, not " + FlowFields.kind(e.getValue()));
                            return null;
                        }
                        table.put(e.getKey(), e.getValue().intValue());
                    }
                    return table;
                }
                default -> {
                    if (!v.isTextual() || v.asText().isBlank()) {
                        error(at, bad + "must be a non-empty string, not " + FlowFields.kind(v));
                        return null;
                    }
                    String s = v.asText();
                    if (p.type() == FlowFacts.Type.CHOICE && !p.choices().contains(s)) {
                        error(at, bad + "must be one of " + String.join(", ", p.choices()) + ", not '" + s + "'");
                        return null;
                    }
                    if (p.type() == FlowFacts.Type.VERSION && !VERSION.matcher(s).matches()) {
                        error(at, bad + "must be a version such as 2.19, not '" + s + "'");
                        return null;
                    }
                    if (p.type() == FlowFacts.Type.FINDING_ID && !findingIds.contains(s)) {
                        error(at, bad + "unknown finding id '" + s + "' (fabricscope checks lists them)");
                        return null;
                    }
                    return s;
                }
            }
        }

        private void findingId(String id, String at) {
            if (!findingIds.contains(id)) {
                error(at, "unknown finding id '" + id + "' (fabricscope checks lists them)");
            }
        }
    }
}
