package org.fabricscope.model.incident.reasoning;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.fabricscope.model.core.Severity;
import org.fabricscope.model.incident.CauseClass;
import org.fabricscope.model.incident.Role;
import org.fabricscope.model.incident.TimeoutWindow;

/**
 * The root of an incident whose only failures are collective timeouts ({@link IncidentReasoner}'s last rule): the rank
 * that never joined the collective its peers timed out on, by the ranks' own progress reports within the group that
 * timed out, by when they came ({@link TimeoutWindow}), or by which ranks reported no timeout at all.
 */
final class NeverJoined {
    private NeverJoined() {
    }

    /** Only collective timeouts: the ranks that never reported one while others did are the ones that never joined. */
    static IncidentEvent root(List<IncidentEvent> reports, List<IncidentEvent> events, Places places, List<String> notes) {
        List<IncidentEvent> timeouts = reports.stream().filter(r -> r.causeClass() == CauseClass.COLLECTIVE_HANG).toList();
        if (timeouts.isEmpty()) {
            if (!reports.isEmpty()) {
                IncidentEvent r = reports.stream().min(IncidentReasoner.ORDER).orElseThrow();
                notes.add("no cause was found in the evidence: the first failure reported is " + r.line());
                return r;
            }
            return null;
        }
        // the ranks' own progress reports (watchdog, dump notices: last enqueued work): the lowest is behind. Each
        // rank's first report counts (its lowest: the count only grows), made as the timeout struck; a rank that was
        // only late, not stuck, goes on enqueuing after its peers gave up, and its later reports would hide it
        // Sequence numbers count per process group: only the reports of the group of the first report that names one
        // (with those that name none) are compared
        String pg = events.stream().filter(e -> e.fields().containsKey("lastEnqueued") && e.fields().containsKey("pg"))
                .min(IncidentReasoner.ORDER).map(e -> e.fields().get("pg")).orElse(null);
        // a rank whose every report came after the first watchdog's timeout period had passed reached it late
        IncidentEvent fired = timeouts.stream().filter(t -> t.fields().containsKey("timeoutMs") && t.blamed().isNobody()
                && t.stamp().exact()).min(IncidentReasoner.ORDER).orElse(null);
        TimeoutWindow window = fired == null ? TimeoutWindow.NONE : TimeoutWindow.of(fired.stamp(), fired.fields().get("timeoutMs"));
        Map<Integer, Long> enqueued = new java.util.TreeMap<>();
        Map<Integer, IncidentEvent> lateFirst = new java.util.TreeMap<>();
        java.util.Set<Integer> timely = new java.util.HashSet<>();
        for (IncidentEvent e : events) {
            String v = e.fields().get("lastEnqueued");
            String itsPg = e.fields().get("pg");
            boolean ownTimeout = e.causeClass() == CauseClass.COLLECTIVE_HANG && e.blamed().isNobody()
                    && e.fields().containsKey("timeoutMs");
            if ((v == null && !ownTimeout) || e.who().rank() < 0 || pg != null && itsPg != null && !pg.equals(itsPg)) {
                continue;
            }
            if (window.late(e.stamp())) {
                lateFirst.merge(e.who().rank(), e, (a, b) -> IncidentReasoner.ORDER.compare(a, b) <= 0 ? a : b);
                continue;
            }
            timely.add(e.who().rank());
            try {
                if (v != null) {
                    enqueued.merge(e.who().rank(), Long.parseLong(v), Math::min);
                }
            } catch (NumberFormatException ignored) {
                // not a number: no progress said
            }
        }
        lateFirst.keySet().removeAll(timely);
        List<Integer> quiet = new ArrayList<>();
        String progress = "";
        if (enqueued.size() >= 2) {
            long min = java.util.Collections.min(enqueued.values());
            long max = java.util.Collections.max(enqueued.values());
            if (min < max) {
                enqueued.forEach((rank, n) -> {
                    if (n == min) {
                        quiet.add(rank);
                    }
                });
                progress = " (its last enqueued work: #" + min + "; its peers enqueued #" + max + ")";
            }
        }
        if (quiet.isEmpty() && !lateFirst.isEmpty()) {
            quiet.addAll(lateFirst.keySet());
            IncidentEvent late = lateFirst.values().stream().min(IncidentReasoner.ORDER).orElseThrow();
            progress = " (it came late: its first report, at " + late.stamp().clock() + ", came " + window.secondsAfter(late.stamp())
                    + " s after " + (fired.who().rank() >= 0 ? "rank " + fired.who().rank() : fired.who().label())
                    + "'s watchdog fired, past the " + window.timeoutMs() + " ms timeout)";
        }
        if (quiet.isEmpty()) {
            // else the ranks that reported no timeout of their own (one that names its collective) while others did
            for (int rank : places.worldRanks()) {
                if (timeouts.stream().noneMatch(t -> t.who().rank() == rank && t.blamed().isNobody()
                        && (t.fields().containsKey("seq") || t.fields().containsKey("timeoutMs")))) {
                    quiet.add(rank);
                }
            }
        }
        IncidentEvent first = timeouts.stream().min(IncidentReasoner.ORDER).orElseThrow();
        if (quiet.isEmpty()) {
            notes.add("every rank reported the collective's timeout: none can be named as the one that never joined");
            return first;
        }
        Who who = places.complete(Who.NOBODY.withRank(quiet.get(0)));
        Map<String, String> f = new LinkedHashMap<>();
        f.put("ranks", quiet.toString());
        return new IncidentEvent(events.size(), "fabricscope.rank-never-joined", "never joined the collective its peers timed out on"
                + progress + (quiet.size() > 1 ? " (with ranks " + quiet + ")" : ""), Role.CAUSE, CauseClass.COLLECTIVE_HANG,
                Severity.ERROR, first.stamp(), who, Who.NOBODY, f, List.of(
                        "Find what " + who.label() + " was doing instead: its last log lines, py-spy dump of its process,"
                                + " its flight recorder dump (last enqueued collective).",
                        "A rank stuck in its data loader, in a checkpoint or on a slow GPU holds every peer at the next collective.",
                        "A last enqueued work one short of its peers' also fits a rank blocked inside the NCCL call that issues"
                                + " the next one: ProcessGroupNCCL counts work as enqueued only once that call returns (workEnqueue);"
                                + " py-spy dump --native on its process shows which."),
                first.evidence(), "FabricScope: the ranks that did not report a collective timeout that the others reported");
    }
}
