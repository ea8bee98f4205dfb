package org.fabricscope.model.flows;

import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A guided troubleshooting flow, as a flow file declares it (see {@code docs/flows.md}): its id (a
 * published contract, like finding ids), title, the entry symptom that makes it apply, its steps (the
 * walk starts at the first) and the conclusions the steps' branches end in. Built and validated by
 * {@link FlowLoader}; immutable.
 */
public record Flow(String id, String title, String description, List<String> sources, Entry entry, List<Step> steps,
                   List<Conclusion> conclusions, String source) {
    public Flow {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(title, "title");
        description = description == null ? "" : description;
        sources = List.copyOf(sources);
        Objects.requireNonNull(entry, "entry");
        steps = List.copyOf(steps);
        conclusions = List.copyOf(conclusions);
        Objects.requireNonNull(source, "source");
    }

    /** Where the walk starts. */
    public Step first() {
        return steps.get(0);
    }

    public Step step(String stepId) {
        for (Step s : steps) {
            if (s.id().equals(stepId)) {
                return s;
            }
        }
        return null;
    }

    public Conclusion conclusion(String conclusionId) {
        for (Conclusion c : conclusions) {
            if (c.id().equals(conclusionId)) {
                return c;
            }
        }
        return null;
    }

    /**
     * The symptom that makes a flow apply: any of these finding ids present, or any of these facts
     * answering yes. {@code scope} {@code job} counts only findings about the loaded job's hosts,
     * pods and ranks (everything when no job was loaded); {@code all} counts every finding.
     */
    public record Entry(List<String> findings, List<FactCall> facts, String scope) {
        public Entry {
            findings = List.copyOf(findings);
            facts = List.copyOf(facts);
            scope = scope == null ? "all" : scope;
        }
    }

    public enum Kind {
        /** Answered from the model and its findings. */
        AUTO,
        /** A command the user runs where the tool cannot look; answered from the model once a reader holds the fact. */
        MANUAL;

        public String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /**
     * One question: what it asks ({@code question}, may use {@code {{placeholders}}}), how it is
     * answered ({@code ask}, a fact), the command that shows the answer ({@code command}: required for a
     * manual step, optional for an automatic one), what in the command's output means yes
     * ({@code expect}), and where each answer leads ({@code branches}: a step or conclusion id per
     * verdict; {@code otherwise} for the verdicts without their own), and what the command prints
     * ({@code output}: what output pasted for the step must be; from the command when not declared). An
     * automatic step whose answer is unknown and has no branch for it, and a manual step the model cannot
     * answer, stop the walk: the flow needs input.
     */
    public record Step(String id, String question, Kind kind, FactCall ask, String command, String expect,
                       Map<Verdict, String> branches, String otherwise, StepOutput output) {
        public Step {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(question, "question");
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(ask, "ask");
            command = command == null ? "" : command;
            expect = expect == null ? "" : expect;
            Map<Verdict, String> b = new EnumMap<>(Verdict.class);
            b.putAll(branches);
            branches = java.util.Collections.unmodifiableMap(b);
            output = output == null ? StepOutput.of(command) : output;
        }

        /** A step whose output is worked out from its command. */
        public Step(String id, String question, Kind kind, FactCall ask, String command, String expect,
                    Map<Verdict, String> branches, String otherwise) {
            this(id, question, kind, ask, command, expect, branches, otherwise, null);
        }

        /** Where this verdict leads: its branch, else {@code otherwise}; null when neither (the walk stops). */
        public String next(Verdict v) {
            String t = branches.get(v);
            if (t != null) {
                return t;
            }
            if (v == Verdict.UNKNOWN && kind == Kind.MANUAL) {
                return null; // a manual step waits for its answer
            }
            return otherwise;
        }

        /** Every target this step can lead to, in verdict order, each once. */
        public List<String> targets() {
            Map<String, Boolean> t = new LinkedHashMap<>();
            branches.values().forEach(x -> t.put(x, true));
            if (otherwise != null) {
                t.put(otherwise, true);
            }
            return List.copyOf(t.keySet());
        }
    }

    /**
     * Where a walk ends: the cause (a finding id where one fits, else empty), what it means
     * ({@code text}) and what to do ({@code remedies}: exact commands, environment variables, job flags,
     * manifest snippets), each possibly with {@code {{placeholders}}}.
     */
    public record Conclusion(String id, String finding, String text, List<String> remedies) {
        public Conclusion {
            Objects.requireNonNull(id, "id");
            finding = finding == null ? "" : finding;
            Objects.requireNonNull(text, "text");
            remedies = List.copyOf(remedies);
        }
    }
}
