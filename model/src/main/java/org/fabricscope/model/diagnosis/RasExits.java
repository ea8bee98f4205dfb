package org.fabricscope.model.diagnosis;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.core.Severity;
import org.fabricscope.model.core.Subject;
import org.fabricscope.model.forensics.RasCommunicator;
import org.fabricscope.model.forensics.RasEvent;
import org.fabricscope.model.forensics.RasProcess;
import org.fabricscope.model.forensics.RasRank;
import org.fabricscope.model.forensics.RasStatus;
import org.fabricscope.model.ranks.RankSite;
import org.fabricscope.model.training.Rank;

/**
 * The {@code rank-exited} findings of {@link HangForensicsCheck} from NCCL RAS: processes that reports
 * name missing (RAS cannot reach them) or dead (unreachable for 60 s), from the communicators' missing
 * ranks, the missing and dead process lists and {@code PEER_DEAD} monitor events, merged per process
 * over every report and joined to the rank, pod, node and GPU when logs name them.
 */
final class RasExits {
    private RasExits() {
    }

    /** One process RAS reports missing or dead, over every report that mentions it. */
    private static final class Gone {
        String host = "";
        int pid = -1;
        String gpus = "";
        boolean dead;
        final Map<String, Integer> ranks = new LinkedHashMap<>(); // communicator hash -> rank
        final List<Evidence> evidence = new ArrayList<>();
        final Set<String> sources = new LinkedHashSet<>();
        int cudaDev = -1;
    }

    /** One {@code rank-exited} finding per process that any report names missing or dead, joined to its rank and place. */
    static List<Finding> findings(List<RasStatus> statuses, ForensicJoin join) {
        Map<String, Gone> gone = new LinkedHashMap<>();
        for (RasStatus s : statuses) {
            for (RasCommunicator c : s.communicators()) {
                for (RasRank r : c.missingRanks()) {
                    String key = r.hasProcess() ? r.host() + ":" + r.pid() : c.hash() + "/" + r.rank();
                    Gone g = gone.computeIfAbsent(key, k -> new Gone());
                    g.host = r.host();
                    g.pid = r.pid();
                    if (r.cudaDev() >= 0) {
                        g.cudaDev = r.cudaDev();
                        g.gpus = g.gpus.isEmpty() ? String.valueOf(r.cudaDev()) : g.gpus;
                    }
                    g.dead |= r.dead();
                    g.ranks.putIfAbsent(c.hash(), r.rank());
                    add(g, r.evidence(), s.source());
                }
            }
            for (RasProcess p : s.missingProcesses()) {
                process(gone, p.host(), p.pid(), p.gpus(), p.dead(), p.evidence(), s.source());
            }
            for (RasProcess p : s.deadProcesses()) {
                process(gone, p.host(), p.pid(), p.gpus(), true, p.evidence(), s.source());
            }
            for (RasEvent e : s.events()) {
                if (e.event().equals("PEER_DEAD")) {
                    process(gone, e.host(), e.pid(), e.cudaDevs().isEmpty() ? "" : e.cudaDevs().toString()
                            .replaceAll("[\\[\\] ]", ""), true, e.evidence(), s.source());
                }
            }
        }
        List<Finding> out = new ArrayList<>();
        for (Gone g : gone.values()) {
            List<Subject> refs = new ArrayList<>();
            Rank lr = null;
            if (!g.ranks.isEmpty()) {
                var first = g.ranks.entrySet().iterator().next();
                lr = join.rasRank(first.getKey(), first.getValue(), g.host, g.pid, g.cudaDev);
            } else {
                lr = join.process(g.host, g.pid, gpuOf(g.gpus));
            }
            RankSite site = join.site(lr);
            String where = ForensicJoin.place(lr, site);
            String proc = g.pid >= 0 ? "process " + g.pid + " on node " + g.host + (g.gpus.isEmpty() ? "" : " (GPU " + g.gpus + ")")
                    : "its process (RAS found no information on it)";
            String state = g.dead ? "dead (unreachable over the RAS network for 60 s)"
                    : "missing: RAS cannot reach it (it exited, was killed or is stopped)";
            List<String> rankTexts = new ArrayList<>();
            for (var e : g.ranks.entrySet()) {
                rankTexts.add("rank " + e.getValue() + " of communicator " + e.getKey());
                if (refs.size() < HangForensicsCheck.MAX_RANKS_NAMED) {
                    refs.add(new Subject.RankRef(e.getKey(), e.getValue(), lr != null ? lr.host() : g.host,
                            "rank " + e.getValue() + " of " + e.getKey() + ": " + proc + " " + (g.dead ? "dead" : "missing") + where));
                }
            }
            if (g.ranks.isEmpty()) {
                if (lr != null) {
                    refs.add(new Subject.RankRef(lr.commId(), lr.rank(), lr.host(), "rank " + lr.rank() + ": " + proc + " "
                            + (g.dead ? "dead" : "missing") + where));
                    rankTexts.add("rank " + lr.rank() + " (from the NCCL log of " + lr.process() + ")");
                } else {
                    refs.add(new Subject.HostRef(g.host, "node " + g.host + " " + proc));
                }
            }
            for (String hash : g.ranks.keySet()) {
                refs.add(new Subject.CommRef(hash, "", -1, "communicator " + hash));
            }
            refs.addAll(ForensicJoin.placeSubjects(site));
            String who;
            if (g.ranks.isEmpty()) {
                who = rankTexts.isEmpty() ? "" : HangForensicsCheck.cap(rankTexts.get(0)) + " went away: ";
            } else if (new java.util.HashSet<>(g.ranks.values()).size() == 1) {
                who = "Rank " + g.ranks.values().iterator().next() + " (of communicator" + (g.ranks.size() > 1 ? "s " : " ")
                        + String.join(", ", new ArrayList<>(g.ranks.keySet()).subList(0, Math.min(4, g.ranks.size())))
                        + (g.ranks.size() > 4 ? ", ..." : "") + ") went away: ";
            } else {
                who = HangForensicsCheck.cap(String.join(", ", rankTexts.subList(0, Math.min(3, rankTexts.size()))))
                        + (rankTexts.size() > 3 ? " and " + (rankTexts.size() - 3) + " more" : "") + " went away: ";
            }
            String title = (who.isEmpty() ? HangForensicsCheck.cap(proc) : who + proc) + where + " is " + state + " (NCCL RAS"
                    + (g.sources.size() > 1 ? ", " + g.sources.size() + " reports" : "") + ")";
            List<String> remedies = new ArrayList<>();
            remedies.add("Find why " + (g.pid >= 0 ? "process " + g.pid : "the process") + where + " ended or stopped: "
                    + "its exit code and last lines (torchrun's failure summary, kubectl logs --previous), the node's "
                    + "kernel log (the OOM killer, GPU Xid errors), or a debugger if it is still there but stopped.");
            remedies.add("The other ranks of its communicators cannot complete a collective without it: they wait until "
                    + "their timeout. Restart the job from its last checkpoint once the cause is fixed.");
            if (!g.dead) {
                remedies.add("RAS calls a process dead after 60 s without contact; until then it is only missing "
                        + "(unresponsive). Query again to see whether it comes back.");
            }
            out.add(new Finding(HangForensicsCheck.EXITED.id(), Severity.ERROR, title, refs, g.evidence, remedies));
        }
        return out;
    }

    private static void process(Map<String, Gone> gone, String host, int pid, String gpus, boolean dead, Evidence ev,
                                String source) {
        Gone g = gone.computeIfAbsent(host + ":" + pid, k -> new Gone());
        g.host = host;
        g.pid = pid;
        if (g.gpus.isEmpty()) {
            g.gpus = gpus;
        }
        if (g.cudaDev < 0) {
            g.cudaDev = gpuOf(gpus);
        }
        g.dead |= dead;
        add(g, ev, source);
    }

    private static void add(Gone g, Evidence ev, String source) {
        g.sources.add(source);
        if (ev != null && g.evidence.size() < 12 && !g.evidence.contains(ev)) {
            g.evidence.add(ev);
        }
    }

    private static int gpuOf(String gpus) {
        try {
            return gpus.isEmpty() || gpus.contains(",") ? -1 : Integer.parseInt(gpus.strip());
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
