package org.fabricscope.model.flows;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Reads one flow file (schema: {@code docs/flows.md}) and validates it: every field's type, ids,
 * the facts and their parameters against {@link FlowFacts}, finding ids against the check catalogue,
 * placeholders, and the graph (branch targets exist, every step and conclusion is reachable from the
 * first step, no cycle). Every problem becomes a {@link FlowError} naming the file, the field as a
 * JSON pointer and why; a file with any error yields no flow.
 */
public final class FlowLoader {
    private static final Pattern ID = Pattern.compile("[a-z0-9]+(?:-[a-z0-9]+)*");
    private static final Pattern VERSION = Pattern.compile("\\d+(?:\\.\\d+){0,3}");
    private static final Set<String> TOP = Set.of("id", "title", "description", "sources", "entry", "steps", "conclusions");
    private static final Set<String> ENTRY = Set.of("findings", "facts", "scope");
    private static final Set<String> STEP = Set.of("id", "question", "kind", "ask", "command", "expect", "output", "yes",
            "no", "unknown", "otherwise");
    private static final Set<String> CONCLUSION = Set.of("id", "finding", "text", "remedies");
    private static final ObjectMapper MAPPER = new ObjectMapper().enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);

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

    public Loaded load(String source, byte[] content) {
        JsonNode root;
        try {
            root = MAPPER.readTree(content);
        } catch (JsonProcessingException e) {
            JsonLocation l = e.getLocation();
            String where = l == null ? "" : "line " + l.getLineNr() + ", column " + l.getColumnNr() + ": ";
            return new Loaded(null, List.of(new FlowError(source, "", "not valid JSON: " + where + e.getOriginalMessage())));
        } catch (IOException e) {
            return new Loaded(null, List.of(new FlowError(source, "", "cannot read: " + e.getMessage())));
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

        Run(String source) {
            this.source = source;
        }

        void error(String pointer, String message) {
            errors.add(new FlowError(source, pointer, message));
        }

        Loaded flow(JsonNode root) {
            if (!root.isObject()) {
                error("", "a flow file is one JSON object, not " + kind(root));
                return new Loaded(null, errors);
            }
            unknownFields(root, "", TOP, "a flow");
            String id = id(root, "", "the flow");
            String title = text(root, "", "title", true);
            String description = text(root, "", "description", false);
            List<String> sources = strings(root, "", "sources", false);
            Flow.Entry entry = entry(root);
            List<Flow.Step> steps = new ArrayList<>();
            List<Flow.Conclusion> conclusions = new ArrayList<>();
            Map<String, String> pointerOf = new LinkedHashMap<>();
            JsonNode stepsNode = array(root, "", "steps", true);
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
            JsonNode concNode = array(root, "", "conclusions", true);
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
                graph(steps, conclusions, pointerOf);
            }
            if (!errors.isEmpty() || id == null || title == null || entry == null) {
                return new Loaded(null, errors);
            }
            return new Loaded(new Flow(id, title, description, sources, entry, steps, conclusions, source), errors);
        }

        private Flow.Entry entry(JsonNode root) {
            JsonNode e = root.get("entry");
            if (e == null) {
                error("/entry", "missing: a flow declares its entry symptom (finding ids and/or facts)");
                return null;
            }
            if (!e.isObject()) {
                error("/entry", "must be an object {\"findings\": [...], \"facts\": [...]}, not " + kind(e));
                return null;
            }
            unknownFields(e, "/entry", ENTRY, "an entry");
            List<String> ids = strings(e, "/entry", "findings", false);
            for (int i = 0; i < ids.size(); i++) {
                findingId(ids.get(i), "/entry/findings/" + i);
            }
            List<FactCall> calls = new ArrayList<>();
            JsonNode f = array(e, "/entry", "facts", false);
            if (f != null) {
                for (int i = 0; i < f.size(); i++) {
                    FactCall c = fact(f.get(i), "/entry/facts/" + i);
                    if (c != null) {
                        calls.add(c);
                    }
                }
            }
            String scope = text(e, "/entry", "scope", false);
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
                error(at, "a step is an object, not " + kind(n));
                return null;
            }
            unknownFields(n, at, STEP, "a step");
            String id = id(n, at, "a step");
            String question = text(n, at, "question", true);
            String kindText = text(n, at, "kind", false);
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
            String command = text(n, at, "command", false);
            String expect = text(n, at, "expect", false);
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
                error(at + "/" + field, "must be a step or conclusion id (a string), not " + kind(t));
                return null;
            }
            return t.asText();
        }

        private Flow.Conclusion conclusion(JsonNode n, String at) {
            if (n == null || !n.isObject()) {
                error(at, "a conclusion is an object, not " + kind(n));
                return null;
            }
            unknownFields(n, at, CONCLUSION, "a conclusion");
            String id = id(n, at, "a conclusion");
            String finding = text(n, at, "finding", false);
            if (finding != null) {
                findingId(finding, at + "/finding");
            }
            String text = text(n, at, "text", true);
            List<String> remedies = strings(n, at, "remedies", true);
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
                error(at, "a fact is an object {\"fact\": \"name\", ...parameters}, not " + kind(n));
                return null;
            }
            JsonNode name = n.get("fact");
            if (name == null || !name.isTextual()) {
                error(at + "/fact", name == null ? "missing: which fact? (known: " + String.join(", ", facts.names()) + ")"
                        : "must be a fact name (a string), not " + kind(name));
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
                String pat = at + "/" + escape(e.getKey());
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
                    error(at + "/" + escape(p.name()), "missing: fact '" + f.name() + "' needs '" + p.name() + "' (" + p.description() + ")");
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
                        error(at, bad + "must be a number, not " + kind(v));
                        return null;
                    }
                    return v.numberValue();
                }
                case TABLE -> {
                    if (!v.isObject() || v.isEmpty()) {
                        error(at, bad + "must be a non-empty object of names to whole numbers, not " + kind(v));
                        return null;
                    }
                    Map<String, Integer> table = new LinkedHashMap<>();
                    for (Map.Entry<String, JsonNode> e : v.properties()) {
                        if (!e.getValue().canConvertToInt() || !e.getValue().isIntegralNumber()) {
                            error(at + "/" + escape(e.getKey()), bad + "values must be whole numbers, not " + kind(e.getValue()));
                            return null;
                        }
                        table.put(e.getKey(), e.getValue().intValue());
                    }
                    return table;
                }
                default -> {
                    if (!v.isTextual() || v.asText().isBlank()) {
                        error(at, bad + "must be a non-empty string, not " + kind(v));
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

        /** Targets, reachability, cycles and placeholders, once every step and conclusion parsed. */
        private void graph(List<Flow.Step> steps, List<Flow.Conclusion> conclusions, Map<String, String> pointerOf) {
            Map<String, Flow.Step> byId = new LinkedHashMap<>();
            steps.forEach(s -> byId.put(s.id(), s));
            Set<String> conclusionIds = new LinkedHashSet<>();
            conclusions.forEach(c -> conclusionIds.add(c.id()));
            boolean targetsOk = true;
            for (Flow.Step s : steps) {
                String at = pointerOf.get(s.id());
                for (Verdict v : Verdict.values()) {
                    String t = s.branches().get(v);
                    if (t != null && !byId.containsKey(t) && !conclusionIds.contains(t)) {
                        error(at + "/" + v.label(), "no step or conclusion '" + t + "'");
                        targetsOk = false;
                    }
                }
                if (s.otherwise() != null && !byId.containsKey(s.otherwise()) && !conclusionIds.contains(s.otherwise())) {
                    error(at + "/otherwise", "no step or conclusion '" + s.otherwise() + "'");
                    targetsOk = false;
                }
            }
            if (!targetsOk) {
                return;
            }
            // cycles: depth-first from every step, reporting each back edge once
            Map<String, Integer> state = new HashMap<>(); // 1 on the path, 2 done
            for (Flow.Step s : steps) {
                if (!state.containsKey(s.id())) {
                    cycles(s.id(), byId, state, new ArrayDeque<>(), pointerOf);
                }
            }
            // reachability from the first step
            Set<String> reached = new LinkedHashSet<>();
            Deque<String> todo = new ArrayDeque<>();
            todo.add(steps.get(0).id());
            while (!todo.isEmpty()) {
                String x = todo.poll();
                if (!reached.add(x)) {
                    continue;
                }
                Flow.Step s = byId.get(x);
                if (s != null) {
                    todo.addAll(s.targets());
                }
            }
            for (Flow.Step s : steps) {
                if (!reached.contains(s.id())) {
                    error(pointerOf.get(s.id()), "step '" + s.id() + "' is unreachable from the first step '" + steps.get(0).id() + "'");
                }
            }
            for (Flow.Conclusion c : conclusions) {
                if (!reached.contains(c.id())) {
                    error(pointerOf.get(c.id()), "conclusion '" + c.id() + "' is unreachable from the first step '"
                            + steps.get(0).id() + "'");
                }
            }
            // placeholders: known variables, or the answer of a step walked before
            Map<String, Set<String>> before = ancestors(steps, byId);
            for (Flow.Step s : steps) {
                String at = pointerOf.get(s.id());
                Set<String> mayUse = new HashSet<>(before.getOrDefault(s.id(), Set.of()));
                mayUse.add(s.id());
                placeholders(s.question(), at + "/question", mayUse);
                placeholders(s.command(), at + "/command", mayUse);
                placeholders(s.expect(), at + "/expect", mayUse);
            }
            for (Flow.Conclusion c : conclusions) {
                String at = pointerOf.get(c.id());
                Set<String> mayUse = before.getOrDefault(c.id(), Set.of());
                placeholders(c.text(), at + "/text", mayUse);
                for (int i = 0; i < c.remedies().size(); i++) {
                    placeholders(c.remedies().get(i), at + "/remedies/" + i, mayUse);
                }
            }
        }

        private void cycles(String id, Map<String, Flow.Step> byId, Map<String, Integer> state, Deque<String> path,
                            Map<String, String> pointerOf) {
            state.put(id, 1);
            path.addLast(id);
            Flow.Step s = byId.get(id);
            for (Verdict v : Verdict.values()) {
                check(s, v.label(), s.branches().get(v), byId, state, path, pointerOf);
            }
            check(s, "otherwise", s.otherwise(), byId, state, path, pointerOf);
            path.removeLast();
            state.put(id, 2);
        }

        private void check(Flow.Step s, String field, String t, Map<String, Flow.Step> byId, Map<String, Integer> state,
                           Deque<String> path, Map<String, String> pointerOf) {
            if (t == null || !byId.containsKey(t)) {
                return;
            }
            Integer st = state.get(t);
            if (st == null) {
                cycles(t, byId, state, path, pointerOf);
            } else if (st == 1) {
                List<String> loop = new ArrayList<>();
                boolean in = false;
                for (String x : path) {
                    in |= x.equals(t);
                    if (in) {
                        loop.add(x);
                    }
                }
                loop.add(t);
                error(pointerOf.get(s.id()) + "/" + field, "cycle: " + String.join(" -> ", loop)
                        + " (a walk must end in a conclusion)");
            }
        }

        /** For every step and conclusion, the steps that can come before it on some walk. */
        private Map<String, Set<String>> ancestors(List<Flow.Step> steps, Map<String, Flow.Step> byId) {
            Map<String, Set<String>> parents = new HashMap<>();
            for (Flow.Step s : steps) {
                for (String t : s.targets()) {
                    parents.computeIfAbsent(t, k -> new LinkedHashSet<>()).add(s.id());
                }
            }
            Map<String, Set<String>> out = new HashMap<>();
            Set<String> all = new LinkedHashSet<>(parents.keySet());
            all.addAll(byId.keySet());
            for (String x : all) {
                Set<String> seen = new LinkedHashSet<>();
                Deque<String> todo = new ArrayDeque<>(parents.getOrDefault(x, Set.of()));
                while (!todo.isEmpty()) {
                    String p = todo.poll();
                    if (seen.add(p)) {
                        todo.addAll(parents.getOrDefault(p, Set.of()));
                    }
                }
                out.put(x, seen);
            }
            return out;
        }

        private void placeholders(String text, String at, Set<String> answerable) {
            for (String name : Templates.names(text)) {
                if (name.startsWith(Templates.ANSWER)) {
                    String step = name.substring(Templates.ANSWER.length());
                    if (!answerable.contains(step)) {
                        error(at, "{{" + name + "}}: '" + step + "' is not a step walked before this point");
                    }
                } else if (!Templates.VARIABLES.containsKey(name)) {
                    error(at, "unknown placeholder {{" + name + "}} (known: " + String.join(", ", Templates.VARIABLES.keySet())
                            + ", answer:STEP)");
                }
            }
        }

        private void unknownFields(JsonNode n, String at, Set<String> known, String what) {
            for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
                String f = it.next();
                if (!known.contains(f)) {
                    error(at + "/" + escape(f), "unknown field '" + f + "' in " + what + " (fields: "
                            + String.join(", ", known.stream().sorted().toList()) + ")");
                }
            }
        }

        private String id(JsonNode n, String at, String what) {
            String id = text(n, at, "id", true);
            if (id != null && !ID.matcher(id).matches()) {
                error(at + "/id", "'" + id + "' is not an id: lower-case words and digits joined by '-'");
                return null;
            }
            return id;
        }

        private String text(JsonNode n, String at, String field, boolean required) {
            JsonNode v = n.get(field);
            if (v == null) {
                if (required) {
                    error(at + "/" + field, "missing: " + field + " is required");
                }
                return null;
            }
            if (!v.isTextual() || v.asText().isBlank()) {
                error(at + "/" + field, "must be a non-empty string, not " + kind(v));
                return null;
            }
            return v.asText();
        }

        private JsonNode array(JsonNode n, String at, String field, boolean required) {
            JsonNode v = n.get(field);
            if (v == null) {
                if (required) {
                    error(at + "/" + field, "missing: " + field + " is required");
                }
                return null;
            }
            if (!v.isArray()) {
                error(at + "/" + field, "must be an array, not " + kind(v));
                return null;
            }
            return v;
        }

        private List<String> strings(JsonNode n, String at, String field, boolean required) {
            JsonNode v = array(n, at, field, required);
            List<String> out = new ArrayList<>();
            if (v == null) {
                return out;
            }
            for (int i = 0; i < v.size(); i++) {
                JsonNode x = v.get(i);
                if (!x.isTextual() || x.asText().isBlank()) {
                    error(at + "/" + field + "/" + i, "must be a non-empty string, not " + kind(x));
                } else {
                    out.add(x.asText());
                }
            }
            return out;
        }
    }

    /** How a JSON value reads in a message: {@code a number (3)}, {@code an object}, {@code an empty string}. */
    private static String kind(JsonNode v) {
        if (v == null || v.isMissingNode()) {
            return "nothing";
        }
        if (v.isNull()) {
            return "null";
        }
        if (v.isTextual()) {
            return v.asText().isBlank() ? "an empty string" : "a string (\"" + v.asText() + "\")";
        }
        if (v.isNumber()) {
            return "a number (" + v.asText() + ")";
        }
        if (v.isBoolean()) {
            return "a boolean (" + v.asText() + ")";
        }
        if (v.isArray()) {
            return "an array";
        }
        return "an object";
    }

    /** RFC 6901: '~' is written "~0" and '/' "~1" in a pointer. */
    static String escape(String field) {
        return field.replace("~", "~0").replace("/", "~1");
    }
}
