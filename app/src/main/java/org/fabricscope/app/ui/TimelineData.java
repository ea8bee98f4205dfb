package org.fabricscope.app.ui;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import org.fabricscope.model.incident.reasoning.Incident;
import org.fabricscope.model.incident.reasoning.IncidentEvent;

/**
 * An incident as the Timeline tab draws it: one lane per node (else pod, else host) in the incident's
 * order, each labelled with the ranks its events name; the span of the events that carry a time; the
 * events without one, in order, for the "no time" column. Built off the FX thread with the incident;
 * immutable, no toolkit.
 */
public record TimelineData(Incident incident, List<Lane> lanes, long first, long last, List<IncidentEvent> untimed,
                           Map<Integer, Integer> laneOfSeq, Map<Integer, Integer> orderOfSeq) {
    /** One lane: its key (node, pod or host; empty for none), its label and its events in time order. */
    public record Lane(String name, String label, List<IncidentEvent> events) {
        public Lane {
            events = List.copyOf(events);
        }
    }

    public static final TimelineData EMPTY = of(Incident.NONE);

    public TimelineData {
        lanes = List.copyOf(lanes);
        untimed = List.copyOf(untimed);
        laneOfSeq = Map.copyOf(laneOfSeq);
        orderOfSeq = Map.copyOf(orderOfSeq);
    }

    public static TimelineData of(Incident incident) {
        List<Lane> lanes = new ArrayList<>();
        Map<Integer, Integer> laneOf = new HashMap<>();
        for (Map.Entry<String, List<IncidentEvent>> e : incident.lanes().entrySet()) {
            for (IncidentEvent ev : e.getValue()) {
                laneOf.put(ev.seq(), lanes.size());
            }
            lanes.add(new Lane(e.getKey(), label(e.getKey(), e.getValue()), e.getValue()));
        }
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        List<IncidentEvent> untimed = new ArrayList<>();
        Map<Integer, Integer> order = new HashMap<>();
        for (IncidentEvent ev : incident.events()) {
            order.put(ev.seq(), order.size());
            if (ev.stamp().known()) {
                first = Math.min(first, ev.stamp().millis());
                last = Math.max(last, ev.stamp().millis());
            } else {
                untimed.add(ev);
            }
        }
        return new TimelineData(incident, lanes, first, last, untimed, laneOf, order);
    }

    /** Whether any event carries a time (else {@link #first()} and {@link #last()} mean nothing). */
    public boolean hasTimes() {
        return first <= last;
    }

    public boolean isEmpty() {
        return incident.events().isEmpty();
    }

    /** The index of the event's lane, -1 when it is not one of these events. */
    public int laneOf(IncidentEvent e) {
        return e == null ? -1 : laneOfSeq.getOrDefault(e.seq(), -1);
    }

    /** The event's place in time order ({@code incident().events()}), -1 when it is not one of these events. */
    public int orderOf(IncidentEvent e) {
        return e == null ? -1 : orderOfSeq.getOrDefault(e.seq(), -1);
    }

    /** Whether this is the incident's root cause. */
    public boolean isRoot(IncidentEvent e) {
        IncidentEvent root = incident.rootCause();
        return e != null && root != null && root.seq() == e.seq();
    }

    /** {@code trainer-worker-1 (rank 1)}, {@code dgx-su1-h05 (ranks 0-7)}; {@code (no node or pod)} for the empty key. */
    static String label(String lane, List<IncidentEvent> events) {
        TreeSet<Integer> ranks = new TreeSet<>();
        for (IncidentEvent e : events) {
            if (e.who().rank() >= 0) {
                ranks.add(e.who().rank());
            }
        }
        String name = lane.isEmpty() ? "(no node or pod)" : lane;
        return ranks.isEmpty() ? name : name + " (" + ranks(ranks) + ")";
    }

    /** {@code rank 1}, {@code ranks 0-7}, {@code ranks 0-3, 8, 12-15}. */
    static String ranks(TreeSet<Integer> ranks) {
        if (ranks.size() == 1) {
            return "rank " + ranks.first();
        }
        StringBuilder b = new StringBuilder("ranks ");
        Integer start = null;
        Integer prev = null;
        for (int r : ranks) {
            if (prev != null && r == prev + 1) {
                prev = r;
                continue;
            }
            if (start != null) {
                b.append(start.equals(prev) ? "" + start : start + "-" + prev).append(", ");
            }
            start = r;
            prev = r;
        }
        b.append(start.equals(prev) ? "" + start : start + "-" + prev);
        return b.toString();
    }
}
