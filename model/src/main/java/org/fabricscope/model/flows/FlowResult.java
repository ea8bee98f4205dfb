package org.fabricscope.model.flows;

import java.util.List;
import java.util.Objects;

import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.core.Severity;

/**
 * One flow walked over one analysis: its status, why (for needs-input and not-applicable), the
 * symptoms that made it apply (finding ids, or {@code fact: detail}), the steps walked with their
 * answers, and the conclusion reached (null unless concluded). {@code severity} is the worst of the
 * matched findings' (a symptom that is a fact counts as a warning), used to rank flows; null when the
 * flow does not apply.
 */
public record FlowResult(Flow flow, Status status, String reason, List<String> symptoms, List<StepResult> steps,
                         ConclusionResult conclusion, Severity severity) {
    public FlowResult {
        Objects.requireNonNull(flow, "flow");
        Objects.requireNonNull(status, "status");
        reason = reason == null ? "" : reason;
        symptoms = List.copyOf(symptoms);
        steps = List.copyOf(steps);
    }

    public enum Status {
        CONCLUDED("concluded"), NEEDS_INPUT("needs-input"), NOT_APPLICABLE("not-applicable");

        private final String label;

        Status(String label) {
            this.label = label;
        }

        /** As {@code diagnose --json} writes it. */
        public String label() {
            return label;
        }
    }

    public boolean applicable() {
        return status != Status.NOT_APPLICABLE;
    }

    /**
     * One step as walked: its id, question and command with the placeholders filled, its kind, the
     * answer, what a manual step's output shows for yes ({@code expect}), and whether the user gave the
     * answer ({@code given}) rather than the model.
     */
    public record StepResult(String id, String question, Flow.Kind kind, Answer answer, String command, String expect,
                             boolean given) {
    }

    /** The conclusion reached: its id, the finding it names (may be empty), its text and remedies filled in, and the evidence of the step that led to it. */
    public record ConclusionResult(String id, String finding, String text, List<String> remedies, List<Evidence> evidence) {
        public ConclusionResult {
            remedies = List.copyOf(remedies);
            evidence = List.copyOf(evidence);
        }
    }
}
