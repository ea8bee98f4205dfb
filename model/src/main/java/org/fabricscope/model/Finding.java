package org.fabricscope.model;

import java.util.List;
import java.util.Objects;

/**
 * One result of the diagnosis pass. {@code id} names the check ({@code link-errors}, ...);
 * subjects name what it is about (switch and port, host, pod); evidence cites input lines;
 * remedies are what to do next, taken from the documented troubleshooting guides.
 */
public record Finding(String id, Severity severity, String title, List<String> subjects,
                      List<Evidence> evidence, List<String> remedies) {
    public Finding {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(severity, "severity");
        Objects.requireNonNull(title, "title");
        subjects = List.copyOf(subjects);
        evidence = List.copyOf(evidence);
        remedies = List.copyOf(remedies);
    }
}
