package org.fabricscope.model.slowness;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.forensics.InspectorCommunicator;

/**
 * Stragglers from NCCL Inspector's per-rank summaries (the inspector profiler plugin of NVIDIA/nccl,
 * plugins/profiler/inspector: per communicator and rank, each collective type's count, bus bandwidth and
 * mean execution time). A collective ends on every rank at about the same time, so the rank the others
 * wait for shows the <em>shortest</em> execution time and the highest bus bandwidth, while the others' times
 * grow by its delay. Per communicator and collective type done at least {@link FrStragglers#MIN_COLLECTIVES}
 * times by two or more ranks: the rank with the shortest mean execution, when the others' median is longer by
 * {@link FrStragglers#MIN_LATE_MS} and by {@link FrStragglers#MIN_STEP_SHARE} of their own time, is a
 * straggler of kind {@link Straggler.Kind#LATE_TO_ENQUEUE} (seen from the others' waiting, so confirmed).
 * Means over a whole run hide when it was late; the flight recorder tells per collective.
 */
public final class InspectorStragglers {
    private InspectorStragglers() {
    }

    /** A rank's global number from its host and pid, -1 when no log placed it. */
    public interface WorldRank {
        int of(String host, long pid);
    }

    public static List<Straggler> analyse(List<InspectorCommunicator> comms, WorldRank world) {
        Map<String, List<InspectorCommunicator>> byComm = new LinkedHashMap<>();
        for (InspectorCommunicator c : comms) {
            byComm.computeIfAbsent(c.commId(), k -> new ArrayList<>()).add(c);
        }
        List<Straggler> out = new ArrayList<>();
        for (Map.Entry<String, List<InspectorCommunicator>> e : byComm.entrySet()) {
            Straggler best = null;
            for (String coll : collectives(e.getValue())) {
                Straggler s = compare(e.getKey(), coll, e.getValue(), world);
                if (s != null && (best == null || s.compared() > best.compared())) {
                    best = s;
                }
            }
            if (best != null) {
                out.add(best);
            }
        }
        return out;
    }

    private static List<String> collectives(List<InspectorCommunicator> ranks) {
        List<String> out = new ArrayList<>();
        for (InspectorCommunicator c : ranks) {
            for (InspectorCommunicator.Collective k : c.collectives()) {
                if (!out.contains(k.coll())) {
                    out.add(k.coll());
                }
            }
        }
        return out;
    }

    private static Straggler compare(String comm, String coll, List<InspectorCommunicator> ranks, WorldRank world) {
        List<InspectorCommunicator> who = new ArrayList<>();
        List<InspectorCommunicator.Collective> what = new ArrayList<>();
        for (InspectorCommunicator c : ranks) {
            for (InspectorCommunicator.Collective k : c.collectives()) {
                if (k.coll().equals(coll) && k.count() >= FrStragglers.MIN_COLLECTIVES && k.meanExecUs() > 0
                        && Double.isFinite(k.meanExecUs())) {
                    who.add(c);
                    what.add(k);
                    break;
                }
            }
        }
        if (who.size() < 2) {
            return null;
        }
        int cand = 0;
        for (int i = 1; i < what.size(); i++) {
            cand = what.get(i).meanExecUs() < what.get(cand).meanExecUs() ? i : cand;
        }
        double[] others = new double[what.size() - 1];
        int n = 0;
        for (int i = 0; i < what.size(); i++) {
            if (i != cand) {
                others[n++] = what.get(i).meanExecUs() / 1000;
            }
        }
        double othersMs = Medians.of(others, n);
        double wait = othersMs - what.get(cand).meanExecUs() / 1000;
        if (wait < FrStragglers.MIN_LATE_MS || wait < FrStragglers.MIN_STEP_SHARE * othersMs) {
            return null;
        }
        InspectorCommunicator c = who.get(cand);
        int rank = world.of(c.hostname(), c.pid());
        InspectorCommunicator.Collective k = what.get(cand);
        List<Evidence> ev = new ArrayList<>();
        ev.add(Evidence.at(c.source(), 0, String.format(Locale.ROOT,
                "%s rank %d (%s pid %d): %d %s, mean execution %.1f ms, mean bus bandwidth %.1f GB/s; the other ranks' median %.1f ms",
                comm, c.rank(), c.hostname(), c.pid(), k.count(), coll, k.meanExecUs() / 1000, k.meanBusBw(), othersMs)));
        String basis = String.format(Locale.ROOT, "NCCL Inspector summaries of %d ranks of communicator %s, %s (means over the run)",
                who.size(), comm, coll);
        return new Straggler(rank, c.hostname(), comm, Straggler.Kind.LATE_TO_ENQUEUE, (int) Math.min(Integer.MAX_VALUE, k.count()), 0, "collectives", wait,
                Double.NaN, 0, wait, false, true, basis, ev);
    }
}
