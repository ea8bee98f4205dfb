package org.fabricscope.model.flows;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.core.Subject;

/**
 * What a fact said about one analysed model: the verdict, one line saying why ({@code detail}), the
 * input lines that show it, the subjects it is about, and named values the flow's later text may use
 * ({@code pod}, {@code node}, {@code hca}...; see {@link Templates#VARIABLES}).
 */
public record Answer(Verdict verdict, String detail, List<Evidence> evidence, List<Subject> subjects,
                     Map<String, String> values) {
    /** Evidence and subjects an answer keeps at most: the first few show it, the finding lists the rest. */
    public static final int MAX_EVIDENCE = 5;
    public static final int MAX_SUBJECTS = 10;

    public Answer {
        Objects.requireNonNull(verdict, "verdict");
        detail = detail == null ? "" : detail;
        evidence = List.copyOf(evidence.size() > MAX_EVIDENCE ? evidence.subList(0, MAX_EVIDENCE) : evidence);
        subjects = List.copyOf(subjects.size() > MAX_SUBJECTS ? subjects.subList(0, MAX_SUBJECTS) : subjects);
        Map<String, String> v = new LinkedHashMap<>();
        values.forEach((k, x) -> {
            if (x != null && !x.isEmpty()) {
                v.put(k, x);
            }
        });
        values = java.util.Collections.unmodifiableMap(v);
    }

    public static Answer yes(String detail) {
        return new Answer(Verdict.YES, detail, List.of(), List.of(), Map.of());
    }

    public static Answer no(String detail) {
        return new Answer(Verdict.NO, detail, List.of(), List.of(), Map.of());
    }

    public static Answer unknown(String detail) {
        return new Answer(Verdict.UNKNOWN, detail, List.of(), List.of(), Map.of());
    }

    public Answer withEvidence(List<Evidence> e) {
        return new Answer(verdict, detail, e, subjects, values);
    }

    public Answer withSubjects(List<Subject> s) {
        return new Answer(verdict, detail, evidence, s, values);
    }

    /** This answer with one more value (null values are dropped). */
    public Answer with(String name, String value) {
        Map<String, String> v = new LinkedHashMap<>(values);
        if (value != null) {
            v.put(name, value);
        }
        return new Answer(verdict, detail, evidence, subjects, v);
    }

    public Answer withValues(Map<String, String> more) {
        Map<String, String> v = new LinkedHashMap<>(values);
        more.forEach((k, x) -> {
            if (x != null) {
                v.put(k, x);
            }
        });
        return new Answer(verdict, detail, evidence, subjects, v);
    }
}
