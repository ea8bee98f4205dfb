package org.fabricscope.model.flows;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * The graph of a flow, checked once every step and conclusion parsed: branch targets exist, no cycle,
 * no walk longer than {@link FlowLoader#MAX_DEPTH} steps, every step and conclusion reachable from the
 * first step, and every placeholder known (a variable, or the answer of a step walked before). Every
 * walk over the graph is iterative, so that no flow file, however long its chains, can overflow the stack.
 */
final class FlowGraph {
    private final List<Flow.Step> steps;
    private final List<Flow.Conclusion> conclusions;
    private final Map<String, String> pointerOf;
    private final BiConsumer<String, String> error;
    private final Map<String, Flow.Step> byId = new LinkedHashMap<>();

    private FlowGraph(List<Flow.Step> steps, List<Flow.Conclusion> conclusions, Map<String, String> pointerOf,
                      BiConsumer<String, String> error) {
        this.steps = steps;
        this.conclusions = conclusions;
        this.pointerOf = pointerOf;
        this.error = error;
        steps.forEach(s -> byId.put(s.id(), s));
    }

    /** Reports every problem of the graph to {@code error} (a JSON pointer and a message). */
    static void check(List<Flow.Step> steps, List<Flow.Conclusion> conclusions, Map<String, String> pointerOf,
                      BiConsumer<String, String> error) {
        new FlowGraph(steps, conclusions, pointerOf, error).check();
    }

    private void check() {
        Set<String> conclusionIds = new LinkedHashSet<>();
        conclusions.forEach(c -> conclusionIds.add(c.id()));
        boolean targetsOk = true;
        for (Flow.Step s : steps) {
            for (Edge e : edges(s)) {
                if (!byId.containsKey(e.target()) && !conclusionIds.contains(e.target())) {
                    error.accept(pointerOf.get(s.id()) + "/" + e.field(), "no step or conclusion '" + e.target() + "'");
                    targetsOk = false;
                }
            }
        }
        if (!targetsOk) {
            return;
        }
        Map<String, Integer> depth = new HashMap<>();
        boolean acyclic = true;
        Map<String, Integer> state = new HashMap<>(); // 1 on the path, 2 done
        for (Flow.Step s : steps) {
            if (!state.containsKey(s.id())) {
                acyclic &= cycles(s, state, depth);
            }
        }
        Flow.Step first = steps.get(0);
        if (acyclic && depth.getOrDefault(first.id(), 0) > FlowLoader.MAX_DEPTH) {
            error.accept(pointerOf.get(first.id()), "the longest walk from the first step '" + first.id() + "' passes "
                    + depth.get(first.id()) + " steps; a flow walks at most " + FlowLoader.MAX_DEPTH
                    + " (FlowLoader.MAX_DEPTH): split it into flows of their own");
        }
        reachability(first);
        placeholders();
    }

    private record Edge(String field, String target) {
    }

    /** A step's branches in the order they are checked: yes, no, unknown, then otherwise. */
    private static List<Edge> edges(Flow.Step s) {
        List<Edge> out = new ArrayList<>(4);
        for (Verdict v : Verdict.values()) {
            String t = s.branches().get(v);
            if (t != null) {
                out.add(new Edge(v.label(), t));
            }
        }
        if (s.otherwise() != null) {
            out.add(new Edge("otherwise", s.otherwise()));
        }
        return out;
    }

    /**
     * Depth-first from one step with an explicit stack, reporting each back edge once as a cycle, and
     * noting for each step finished the number of steps of the longest walk from it. False on a cycle.
     */
    private boolean cycles(Flow.Step root, Map<String, Integer> state, Map<String, Integer> depth) {
        boolean acyclic = true;
        Deque<Flow.Step> path = new ArrayDeque<>();
        Deque<Integer> nextEdge = new ArrayDeque<>();
        state.put(root.id(), 1);
        path.addLast(root);
        nextEdge.addLast(0);
        while (!path.isEmpty()) {
            Flow.Step s = path.peekLast();
            List<Edge> edges = edges(s);
            int i = nextEdge.removeLast();
            if (i == edges.size()) {
                int d = 1;
                for (Edge e : edges) {
                    d = Math.max(d, 1 + depth.getOrDefault(e.target(), 0));
                }
                depth.put(s.id(), d);
                state.put(s.id(), 2);
                path.removeLast();
                continue;
            }
            nextEdge.addLast(i + 1);
            Edge e = edges.get(i);
            Flow.Step t = byId.get(e.target());
            if (t == null) {
                continue; // a conclusion
            }
            Integer st = state.get(t.id());
            if (st == null) {
                state.put(t.id(), 1);
                path.addLast(t);
                nextEdge.addLast(0);
            } else if (st == 1) {
                acyclic = false;
                List<String> loop = new ArrayList<>();
                boolean in = false;
                for (Flow.Step x : path) {
                    in |= x.id().equals(t.id());
                    if (in) {
                        loop.add(x.id());
                    }
                }
                loop.add(t.id());
                error.accept(pointerOf.get(s.id()) + "/" + e.field(), "cycle: " + String.join(" -> ", loop)
                        + " (a walk must end in a conclusion)");
            }
        }
        return acyclic;
    }

    private void reachability(Flow.Step first) {
        Set<String> reached = new LinkedHashSet<>();
        Deque<String> todo = new ArrayDeque<>();
        todo.add(first.id());
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
                error.accept(pointerOf.get(s.id()), "step '" + s.id() + "' is unreachable from the first step '" + first.id() + "'");
            }
        }
        for (Flow.Conclusion c : conclusions) {
            if (!reached.contains(c.id())) {
                error.accept(pointerOf.get(c.id()), "conclusion '" + c.id() + "' is unreachable from the first step '"
                        + first.id() + "'");
            }
        }
    }

    /** Placeholders: known variables, or the answer of a step walked before. */
    private void placeholders() {
        Map<String, Set<String>> before = ancestors();
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

    /** For every step and conclusion, the steps that can come before it on some walk. */
    private Map<String, Set<String>> ancestors() {
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
        int reported = 0;
        for (String name : Templates.names(text)) {
            String problem = null;
            if (name.startsWith(Templates.ANSWER)) {
                String step = name.substring(Templates.ANSWER.length());
                if (!answerable.contains(step)) {
                    problem = "{{" + FlowFields.quoted(name) + "}}: '" + FlowFields.quoted(step)
                            + "' is not a step walked before this point";
                }
            } else if (!Templates.VARIABLES.containsKey(name)) {
                problem = "unknown placeholder {{" + FlowFields.quoted(name) + "}} (known: "
                        + String.join(", ", Templates.VARIABLES.keySet()) + ", answer:STEP)";
            }
            if (problem != null && reported++ < FlowLoader.MAX_ERRORS_PER_FIELD) {
                error.accept(at, problem);
            }
        }
        if (reported > FlowLoader.MAX_ERRORS_PER_FIELD) {
            error.accept(at, (reported - FlowLoader.MAX_ERRORS_PER_FIELD) + " more bad placeholders in this field (at most "
                    + FlowLoader.MAX_ERRORS_PER_FIELD + " are named: FlowLoader.MAX_ERRORS_PER_FIELD)");
        }
    }
}
