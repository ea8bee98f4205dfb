package org.fabricscope.model.incident.reasoning;

import org.fabricscope.model.incident.CauseClass;
import org.fabricscope.model.incident.Role;
import org.fabricscope.model.incident.Stamp;
import java.util.List;
import java.util.Map;

import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.core.Severity;

/**
 * One thing that happened in an incident: a log line, kernel line, Kubernetes event or status that a
 * signature recognised, or a conclusion the reasoning drew ({@code fabricscope.*} ids, such as a rank
 * that went silent while its peers report it gone). {@code seq} orders events that share a stamp (the
 * order they were read in); {@code blamed} is whom a consequence points at ({@link Who#NOBODY} when it
 * names nobody).
 */
public record IncidentEvent(int seq, String id, String title, Role role, CauseClass causeClass, Severity severity,
                            Stamp stamp, Who who, Who blamed, Map<String, String> fields, List<String> remedies,
                            Evidence evidence, String origin) {
    public IncidentEvent {
        fields = org.fabricscope.model.core.OrderedMaps.copyOf(fields);
        remedies = List.copyOf(remedies);
        blamed = blamed == null ? Who.NOBODY : blamed;
        origin = origin == null ? "" : origin;
    }

    /** {@code 15:47:41.200 rank 1 (trainer-worker-1): CUDA out of memory}. */
    public String line() {
        String t = stamp.known() ? stamp.clock() + " " : "";
        return t + who.label() + ": " + title;
    }
}
