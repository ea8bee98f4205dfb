package org.fabricscope.model.core;

import java.util.List;
import java.util.Objects;

/**
 * One result of the diagnosis pass. {@code id} is one of the ids its check declared (see
 * {@link FindingSpec}); {@code refs} are what it is about, as typed values with stable keys (switch
 * and port, host, pod, rank...); evidence cites input lines; remedies are what to do next, taken from
 * the documented troubleshooting guides.
 */
public record Finding(String id, Severity severity, String title, List<Subject> refs,
                      List<Evidence> evidence, List<String> remedies) {
    public Finding {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(severity, "severity");
        Objects.requireNonNull(title, "title");
        refs = List.copyOf(refs);
        evidence = List.copyOf(evidence);
        remedies = List.copyOf(remedies);
    }

    /** The subjects' labels, in order: what {@code diagnose --json} has always written as {@code subjects}. */
    public List<String> subjects() {
        return refs.stream().map(Subject::label).toList();
    }

    /** The same finding with another title, subjects, evidence and remedies (a later join added to it). */
    public Finding with(String newTitle, List<Subject> newRefs, List<Evidence> newEvidence, List<String> newRemedies) {
        return new Finding(id, severity, newTitle, newRefs, newEvidence, newRemedies);
    }
}
