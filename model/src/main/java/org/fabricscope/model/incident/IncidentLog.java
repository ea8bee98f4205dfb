package org.fabricscope.model.incident;

import java.util.List;

/**
 * The incident layer of a model: every log line a failure signature recognised, in the order read,
 * and a summary of each log scanned. Kubernetes objects, flight recorder dumps and RAS reports are not
 * here: the reasoning reads them from their own layers. Immutable.
 */
public record IncidentLog(List<SignatureMatch> matches, List<LogSource> sources) {
    public static final IncidentLog EMPTY = new IncidentLog(List.of(), List.of());

    public IncidentLog {
        matches = List.copyOf(matches);
        sources = List.copyOf(sources);
    }
}
