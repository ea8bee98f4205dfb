package org.fabricscope.model.incident;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.fabricscope.model.FabricModel;
import org.fabricscope.model.k8s.K8sPod;
import org.fabricscope.model.ranks.RankMap;
import org.fabricscope.model.ranks.RankSite;
import org.fabricscope.model.training.NcclEvent;
import org.fabricscope.model.training.Rank;

/**
 * Places an event's party for the incident: from a rank number, a log prefix's {@code host:pid}, a
 * pod or host name, or the file a line came from, to the rank, pod, node and host. The rank's pod,
 * node and GPU come from {@link RankMap}, the one owner of rank placement; this class only finds
 * which rank a line is about.
 */
final class Places {
    private final RankMap ranks;
    private final Map<String, Integer> rankOfProcess = new HashMap<>();
    private final Map<String, Integer> rankOfHost = new HashMap<>();
    private final Map<Integer, RankSite> siteOfRank = new HashMap<>();
    private final Map<String, K8sPod> pods = new LinkedHashMap<>();
    private final Set<String> nodes;
    private final Map<String, LogSource> sources = new HashMap<>();
    /** A pid that names one rank (a pid two hosts share names none). */
    private final Map<Long, Integer> rankOfPid = new HashMap<>();
    /** torchrun's failure summary blocks: source to the blocks' first lines, ranks and hosts. */
    private final Map<String, List<NcclEvent>> summaries = new HashMap<>();

    Places(FabricModel model, RankMap ranks) {
        this.ranks = ranks;
        Map<String, Integer> size = new HashMap<>();
        for (Rank r : model.trainingLog().ranks()) {
            // the largest communicator a process is in is the world: its rank there is the global rank
            if (r.nranks() >= size.getOrDefault(r.process(), -1)) {
                size.put(r.process(), r.nranks());
                rankOfProcess.put(r.process(), r.rank());
            }
        }
        Map<String, Integer> hostRanks = new HashMap<>();
        rankOfProcess.forEach((proc, rank) -> {
            String host = proc.substring(0, proc.lastIndexOf(':'));
            hostRanks.merge(host, 1, Integer::sum);
            rankOfHost.put(host, rank);
        });
        hostRanks.forEach((h, n) -> {
            if (n > 1) {
                rankOfHost.remove(h); // a host with several ranks names none of them
            }
        });
        for (RankSite s : ranks.sites()) {
            Rank r = s.rank();
            Integer world = rankOfProcess.get(r.process());
            if (world != null && world == r.rank()) {
                siteOfRank.putIfAbsent(r.rank(), s);
            }
        }
        for (K8sPod p : model.pods()) {
            pods.putIfAbsent(p.name(), p);
        }
        Map<Long, Integer> pidCount = new HashMap<>();
        rankOfProcess.forEach((proc, rank) -> {
            long pid = Long.parseLong(proc.substring(proc.lastIndexOf(':') + 1));
            pidCount.merge(pid, 1, Integer::sum);
            rankOfPid.put(pid, rank);
        });
        for (NcclEvent e : model.trainingLog().events()) {
            if (e.kind() == NcclEvent.Kind.CHILD_FAILED || e.kind() == NcclEvent.Kind.PROCESS_FAILED) {
                int rank = e.rank() >= 0 ? e.rank() : parse(e.field("rank"));
                long pid = e.pid() >= 0 ? e.pid() : parse(e.field("pid"));
                if (rank >= 0 && pid >= 0 && !rankOfPid.containsKey(pid)) {
                    rankOfPid.put(pid, rank);
                }
                if (e.kind() == NcclEvent.Kind.CHILD_FAILED && e.evidence() != null) {
                    summaries.computeIfAbsent(e.evidence().source(), k -> new java.util.ArrayList<>()).add(e);
                }
            }
        }
        pidCount.forEach((pid, n) -> {
            if (n > 1) {
                rankOfPid.remove(pid);
            }
        });
        nodes = model.k8sNodes().keySet();
        for (LogSource s : model.incidentLog().sources()) {
            sources.put(s.name(), s);
        }
    }

    /** The world rank of the process {@code host:pid}, or -1. */
    int rankOf(String host, long pid) {
        Integer r = rankOfProcess.get(host + ":" + pid);
        if (r == null && !host.isEmpty()) {
            r = rankOfHost.get(host);
        }
        return r == null ? -1 : r;
    }

    /** The rank whose process had this pid, or -1 when none or several did. */
    int rankOfPid(long pid) {
        Integer r = rankOfPid.get(pid);
        return r == null ? -1 : r;
    }

    /**
     * The torchrun failure summary entry ({@code [0]: time: ... rank: 1 ... exitcode: -9}) whose lines
     * hold {@code line} of {@code source}, or null.
     */
    NcclEvent summaryAt(String source, int line) {
        NcclEvent best = null;
        for (NcclEvent e : summaries.getOrDefault(source, List.of())) {
            int first = e.evidence().line();
            if (first <= line && line - first <= 12 && (best == null || first > best.evidence().line())) {
                best = e;
            }
        }
        return best;
    }

    private static int parse(String s) {
        if (s == null) {
            return -1;
        }
        try {
            return Integer.parseInt(s.strip());
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** The one rank a source's lines come from, or -1 when it holds none or several. */
    int rankOfSource(String source) {
        LogSource s = sources.get(source);
        if (s == null) {
            return -1;
        }
        int found = -1;
        for (String proc : s.processes()) {
            int colon = proc.lastIndexOf(':');
            int r = rankOf(proc.substring(0, colon), Long.parseLong(proc.substring(colon + 1)));
            if (r >= 0 && found >= 0 && r != found) {
                return -1;
            }
            found = r >= 0 ? r : found;
        }
        for (int r : s.ranks()) {
            if (found >= 0 && r != found) {
                return -1;
            }
            found = r;
        }
        return found;
    }

    /** The pod a file is named after ({@code logs/trainer-worker-1.log}): the longest pod name in its file name. */
    K8sPod podOfSource(String source) {
        String file = source.substring(Math.max(source.lastIndexOf('/'), source.lastIndexOf('!')) + 1);
        K8sPod best = null;
        for (K8sPod p : pods.values()) {
            if (file.contains(p.name()) && (best == null || p.name().length() > best.name().length())) {
                best = p;
            }
        }
        return best;
    }

    /** The Kubernetes node a file is named after, or empty. */
    String nodeOfSource(String source) {
        String file = source.substring(Math.max(source.lastIndexOf('/'), source.lastIndexOf('!')) + 1);
        String best = "";
        for (String n : nodes) {
            if (file.contains(n) && n.length() > best.length()) {
                best = n;
            }
        }
        return best;
    }

    /** {@code w} with what the layers add: a rank's pod, node and GPU; a pod's namespace and node; a host that is a pod. */
    Who complete(Who w) {
        Who out = w;
        if (out.rank() >= 0) {
            RankSite s = siteOfRank.get(out.rank());
            if (s != null) {
                if (out.host().isEmpty()) {
                    out = out.withHost(s.rank().host());
                }
                if (out.pod().isEmpty() && s.pod() != null) {
                    K8sPod p = pods.get(s.pod());
                    out = out.withPod(p == null ? "" : p.namespace(), s.pod());
                }
                if (out.node().isEmpty() && s.k8sNode() != null) {
                    out = out.withNode(s.k8sNode());
                } else if (out.node().isEmpty() && s.host() != null && !s.host().equals(out.pod())) {
                    out = out.withNode(s.host());
                }
                if (out.gpu().isEmpty() && s.rank().cudaDev() >= 0) {
                    out = new Who(out.rank(), out.namespace(), out.pod(), out.node(), out.host(),
                            String.valueOf(s.rank().cudaDev()), out.device());
                }
            }
        }
        if (out.pod().isEmpty() && !out.host().isEmpty() && pods.containsKey(out.host())) {
            K8sPod p = pods.get(out.host());
            out = out.withPod(p.namespace(), p.name());
        }
        if (!out.pod().isEmpty() && out.node().isEmpty()) {
            K8sPod p = pods.get(out.pod());
            if (p != null && p.node() != null) {
                out = out.withNode(p.node());
            }
        }
        if (out.rank() < 0 && !out.host().isEmpty()) {
            Integer r = rankOfHost.get(out.host());
            if (r != null) {
                out = complete(out.withRank(r));
            }
        }
        if (out.rank() < 0 && !out.pod().isEmpty()) {
            Integer r = rankOfHost.get(out.pod());
            if (r != null) {
                out = complete(out.withRank(r));
            }
        }
        return out;
    }

    /** The world ranks the logs know, in order. */
    List<Integer> worldRanks() {
        return rankOfProcess.values().stream().distinct().sorted().toList();
    }

    RankMap rankMap() {
        return ranks;
    }
}
