package org.fabricscope.model.incident.reasoning;

import java.util.List;
import java.util.Map;

/**
 * What the reasoning concluded over every event of the inputs: the events in time order, the root
 * cause (the earliest cause, null when no failure was found), for each consequence the cause it
 * follows ({@code causeOf}: event seq to event seq), and notes on how sure the order is (clock skew
 * between nodes, lines without stamps). {@link #lanes()} groups the events per node or pod for the
 * timeline.
 */
public record Incident(List<IncidentEvent> events, IncidentEvent rootCause, Map<Integer, Integer> causeOf,
                       List<String> notes) {
    public static final Incident NONE = new Incident(List.of(), null, Map.of(), List.of());

    public Incident {
        events = List.copyOf(events);
        causeOf = Map.copyOf(causeOf);
        notes = List.copyOf(notes);
    }

    /** The event with this seq, or null. */
    public IncidentEvent event(int seq) {
        for (IncidentEvent e : events) {
            if (e.seq() == seq) {
                return e;
            }
        }
        return null;
    }

    /** The events that follow from {@code cause}, in time order. */
    public List<IncidentEvent> consequencesOf(IncidentEvent cause) {
        return events.stream().filter(e -> Integer.valueOf(cause.seq()).equals(causeOf.get(e.seq()))).toList();
    }

    /** The lanes of the timeline: node, else pod, else host; events with none in the lane {@code ""}. */
    public Map<String, List<IncidentEvent>> lanes() {
        Map<String, List<IncidentEvent>> m = new java.util.LinkedHashMap<>();
        for (IncidentEvent e : events) {
            m.computeIfAbsent(e.who().lane(), k -> new java.util.ArrayList<>()).add(e);
        }
        return m;
    }

    public boolean hasFailure() {
        return rootCause != null;
    }
}
