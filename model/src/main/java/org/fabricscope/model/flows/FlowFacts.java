package org.fabricscope.model.flows;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The named predicates a flow's steps ask: each fact has a name (what flow files write in
 * {@code "fact"}), a description, its parameters with their types, what input answers it, and a
 * function from the analysed model to an {@link Answer}. A flow file that names an unknown fact, or
 * gives a parameter the fact does not take or a value of the wrong kind, is an error at load.
 * {@link #standard()} is the registry the CLI and the app use; {@code docs/flows.md} lists it.
 */
public final class FlowFacts {
    /** The kind of value a parameter takes. */
    public enum Type {
        /** Any non-empty string. */
        STRING,
        /** A number (JSON number). */
        NUMBER,
        /** A dotted version such as {@code 2.19} or {@code 2.21.5}. */
        VERSION,
        /** A finding id of {@code fabricscope checks}. */
        FINDING_ID,
        /** One of {@link Param#choices()}. */
        CHOICE,
        /** A JSON object of names to whole numbers (e.g. instance type to NIC count). */
        TABLE
    }

    /** One parameter of a fact: its name, type, whether it must be given, its choices (CHOICE) and meaning. */
    public record Param(String name, Type type, boolean required, List<String> choices, String description) {
        public Param {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(type, "type");
            choices = List.copyOf(choices);
        }

        static Param required(String name, Type type, String description) {
            return new Param(name, type, true, List.of(), description);
        }

        static Param optional(String name, Type type, String description) {
            return new Param(name, type, false, List.of(), description);
        }

        static Param choice(String name, boolean required, String description, String... choices) {
            return new Param(name, Type.CHOICE, required, List.of(choices), description);
        }
    }

    /** How a fact answers: from the context of one analysis and the validated call. */
    @FunctionalInterface
    public interface Evaluator {
        Answer answer(FlowContext context, FactCall call);
    }

    /**
     * One fact: its name, what it asks, its parameters, what input answers it ({@code answeredBy}: the
     * files or commands whose readers hold the fact, or that no reader does yet) and its function.
     */
    public record Fact(String name, String description, List<Param> params, String answeredBy, Evaluator evaluator) {
        public Fact {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(description, "description");
            params = List.copyOf(params);
            Objects.requireNonNull(answeredBy, "answeredBy");
            Objects.requireNonNull(evaluator, "evaluator");
        }

        public Param param(String paramName) {
            for (Param p : params) {
                if (p.name().equals(paramName)) {
                    return p;
                }
            }
            return null;
        }
    }

    private static volatile FlowFacts standard;
    private final Map<String, Fact> facts;

    private FlowFacts(Map<String, Fact> facts) {
        this.facts = Collections.unmodifiableMap(new LinkedHashMap<>(facts));
    }

    /** The facts FabricScope implements (see {@link StandardFacts}). */
    public static FlowFacts standard() {
        FlowFacts s = standard;
        if (s == null) {
            Map<String, Fact> m = new LinkedHashMap<>();
            for (Fact f : StandardFacts.all()) {
                if (m.put(f.name(), f) != null) {
                    throw new IllegalStateException("fact declared twice: " + f.name());
                }
            }
            standard = s = new FlowFacts(m);
        }
        return s;
    }

    /** This registry with one more fact (or one replaced): for tests and embedders. */
    public FlowFacts with(Fact fact) {
        Map<String, Fact> m = new LinkedHashMap<>(facts);
        m.put(fact.name(), fact);
        return new FlowFacts(m);
    }

    public Fact fact(String name) {
        return facts.get(name);
    }

    public Collection<Fact> all() {
        return facts.values();
    }

    public List<String> names() {
        return new ArrayList<>(facts.keySet());
    }

    /**
     * Asks a fact. A fact that fails (a bug, or a model it did not expect) answers unknown with the
     * reason rather than stopping every other flow.
     */
    public Answer answer(FactCall call, FlowContext context) {
        Fact f = facts.get(call.fact());
        if (f == null) {
            return Answer.unknown("no fact named " + call.fact());
        }
        try {
            Answer a = f.evaluator().answer(context, call);
            return a == null ? Answer.unknown(f.name() + " gave no answer") : a;
        } catch (RuntimeException e) {
            return Answer.unknown("fact " + f.name() + " failed: " + e);
        }
    }
}
