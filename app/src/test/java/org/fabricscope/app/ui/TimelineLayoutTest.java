package org.fabricscope.app.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.core.Severity;
import org.fabricscope.model.incident.CauseClass;
import org.fabricscope.model.incident.reasoning.Incident;
import org.fabricscope.model.incident.reasoning.IncidentEvent;
import org.fabricscope.model.incident.Role;
import org.fabricscope.model.incident.Stamp;
import org.fabricscope.model.incident.reasoning.Who;
import org.junit.jupiter.api.Test;

/** The timeline's geometry, without a toolkit: lane labels, the clock axis, stacking, the no-time column, picking. */
class TimelineLayoutTest {
    private static final long T0 = Instant.parse("2026-11-21T23:14:05Z").toEpochMilli();

    private static IncidentEvent event(int seq, Role role, long millis, int rank, String pod) {
        Stamp s = millis == Long.MIN_VALUE ? Stamp.NONE : new Stamp(millis, true, true);
        return new IncidentEvent(seq, "test.e" + seq, "event " + seq, role, CauseClass.INTERNAL, Severity.ERROR, s,
                new Who(rank, "ns", pod, "", pod, "", ""), Who.NOBODY, Map.of(), List.of(), Evidence.at("f.log", seq + 1, "line"), "");
    }

    @Test
    void lanesNameTheirRanksCompactly() {
        assertEquals("rank 1", TimelineData.ranks(new TreeSet<>(List.of(1))));
        assertEquals("ranks 0-7", TimelineData.ranks(new TreeSet<>(List.of(0, 1, 2, 3, 4, 5, 6, 7))));
        assertEquals("ranks 0-3, 8, 12-15", TimelineData.ranks(new TreeSet<>(List.of(0, 1, 2, 3, 8, 12, 13, 14, 15))));
        assertEquals("trainer-worker-1 (rank 1)", TimelineData.label("trainer-worker-1", List.of(event(0, Role.CAUSE, T0, 1, "w"))));
        assertEquals("node-a", TimelineData.label("node-a", List.of(event(0, Role.CAUSE, T0, -1, "w"))));
        assertEquals("(no node or pod)", TimelineData.label("", List.of(event(0, Role.CAUSE, T0, -1, ""))));
    }

    @Test
    void theAxisTicksAtRoundClockTimes() {
        List<TimeAxis.Tick> ticks = TimeAxis.ticks(T0, T0 + 10 * 60_000, 600);
        assertEquals(List.of("23:16", "23:18", "23:20", "23:22", "23:24"), ticks.stream().map(TimeAxis.Tick::label).toList());
        List<TimeAxis.Tick> fine = TimeAxis.ticks(T0, T0 + 700, 600);
        assertEquals("23:14:05.200", fine.get(1).label());
        assertEquals("23:14:05", TimeAxis.ticks(T0 - 1, T0 + 20_000, 400).get(0).label());
        assertTrue(TimeAxis.ticks(T0, T0, 600).isEmpty());
    }

    @Test
    void marksArePlacedByTimeStackedWhenTheyMeetAndUntimedOnesGoToTheirColumn() {
        List<IncidentEvent> events = new ArrayList<>();
        events.add(event(0, Role.CAUSE, T0, 12, "worker"));
        for (int i = 1; i <= 9; i++) {
            events.add(event(i, Role.CONSEQUENCE, T0 + 600_000, i - 1, "master")); // nine at one instant: six slots, +3
        }
        events.add(event(10, Role.CONTEXT, Long.MIN_VALUE, -1, "master"));
        Map<Integer, Integer> causeOf = new HashMap<>();
        for (int i = 1; i <= 9; i++) {
            causeOf.put(i, 0);
        }
        TimelineData d = TimelineData.of(new Incident(events, events.get(0), causeOf, List.of()));
        assertEquals(List.of("worker (rank 12)", "master (ranks 0-8)"), d.lanes().stream().map(TimelineData.Lane::label).toList());
        long[] w = TimelineLayout.fullWindow(d);
        TimelineLayout l = new TimelineLayout(d, 800, 400, w[0], w[1], 0);

        TimelineLayout.Mark root = l.markOf(events.get(0));
        TimelineLayout.Mark first = l.markOf(events.get(1));
        assertTrue(root.x() > l.plotLeft() && first.x() < l.plotRight() && first.x() > root.x());
        assertTrue(l.bands().get(0).height() > 2 * TimelineLayout.LANE_PAD + TimelineLayout.SLOT, "the root's lane keeps a row for its label");
        assertEquals(2 * TimelineLayout.LANE_PAD + TimelineLayout.MAX_SLOTS * TimelineLayout.SLOT, l.bands().get(1).height());
        assertEquals(TimelineLayout.SLOT, l.markOf(events.get(2)).y() - first.y(), 1e-9, "stacked one slot down");
        assertEquals(1, l.overflows().size());
        assertEquals(3, l.overflows().get(0).count());

        TimelineLayout.Mark untimed = l.markOf(events.get(10));
        assertTrue(l.hasNoTimeColumn());
        assertTrue(untimed.x() > l.noTimeLeft() && untimed.x() < l.width(), "in the no-time column");
        assertTrue(untimed.inView());

        assertSame(events.get(0), l.pick(root.x() + 2, root.y() - 2).event());
        assertNull(l.pick(root.x(), TimelineLayout.AXIS_HEIGHT - 5), "the axis picks nothing");
        assertEquals(l.contentHeight(), TimelineLayout.AXIS_HEIGHT + l.bands().get(0).height() + l.bands().get(1).height(), 1e-9);

        // zoomed in on the root cause: the consequences leave the window and cannot be picked
        TimelineLayout zoomed = new TimelineLayout(d, 800, 400, T0 - 1000, T0 + 1000, 0);
        assertFalse(zoomed.markOf(events.get(1)).inView());
        assertNull(zoomed.pick(zoomed.markOf(events.get(1)).x(), zoomed.markOf(events.get(1)).y()));
    }

    @Test
    void withoutAnyTimeTheNoTimeColumnTakesTheWidth() {
        List<IncidentEvent> events = List.of(event(0, Role.CAUSE, Long.MIN_VALUE, 0, "a"), event(1, Role.CONSEQUENCE, Long.MIN_VALUE, 1, "b"));
        TimelineData d = TimelineData.of(new Incident(events, events.get(0), Map.of(1, 0), List.of()));
        assertFalse(d.hasTimes());
        TimelineLayout l = new TimelineLayout(d, 800, 300, 0, 1, 0);
        assertTrue(l.noTimeWidth() > 400);
        assertTrue(l.markOf(events.get(0)).x() < l.markOf(events.get(1)).x(), "in the order read");
    }
}
