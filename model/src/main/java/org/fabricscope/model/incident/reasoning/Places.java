package org.fabricscope.model.incident.reasoning;

import org.fabricscope.model.incident.LogSource;
import org.fabricscope.model.incident.Stamp;
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
    /** The names torchrun's summary gives the machine of a standalone job. */
    private static final Set<String> LOOPBACK = Set.of("localhost", "127.0.0.1", "::1", "localhost6");
    private final RankMap ranks;
    private final Map<String, Integer> rankOfProcess = new HashMap<>();
    private final Map<String, Integer> rankOfHost = new HashMap<>();
    private final Map<Integer, RankSite> siteOfRank = new HashMap<>();
    private final Map<String, K8sPod> pods = new LinkedHashMap<>();
    private final Set<String> nodes;
    private final Map<String, LogSource> sources = new HashMap<>();
    /** An address NCCL printed as a process's OOB interface, to that process's host. */
    private final Map<String, String> hostOfAddress = new HashMap<>();
    /** A pid that names one rank (a pid two hosts share names none). */
    private final Map<Long, Integer> rankOfPid = new HashMap<>();
    /** torchrun's failure summary blocks: source to the blocks' first lines, ranks and hosts. */
    private final Map<String, List<NcclEvent>> summaries = new HashMap<>();
    /** torchrun's summary entries by the pid they name (every log's), for {@link #rankOfSummaryPid}. */
    private final Map<Long, List<NcclEvent>> summaryOfPid = new HashMap<>();
    /** The hosts whose NCCL Init lines (any log's) show a process with that pid. */
    private final Map<Long, Set<String>> hostsOfPid = new HashMap<>();
    /** Every summary entry names the loopback host: a standalone job on one machine (true with none). */
    private boolean standalone = true;

    Places(FabricModel model, RankMap ranks) {
        this.ranks = ranks;
        // the global rank of each process: RankMap, the one owner of rank placement, says it
        ranks.worldRanks().forEach((proc, rank) -> {
            int colon = proc.lastIndexOf(':');
            rankOfProcess.putIfAbsent(shortHost(proc.substring(0, colon)) + proc.substring(colon), rank);
        });
        Map<String, Integer> hostRanks = new HashMap<>();
        rankOfProcess.forEach((proc, rank) -> {
            String host = shortHost(proc.substring(0, proc.lastIndexOf(':')));
            hostRanks.merge(host, 1, Integer::sum);
            rankOfHost.put(host, rank);
        });
        hostRanks.forEach((h, n) -> {
            if (n > 1) {
                rankOfHost.remove(h); // a host with several ranks names none of them
            }
        });
        for (Rank r : model.trainingLog().ranks()) {
            // NCCL's OOB address (eth0:10.10.1.5<0>): how peers' socket and IB lines name this process's host
            if (r.oob() != null) {
                String ip = IncidentEvents.hostPart(r.oob().substring(r.oob().indexOf(':') + 1));
                if (!ip.isEmpty()) {
                    hostOfAddress.putIfAbsent(ip, shortHost(r.host()));
                }
            }
        }
        for (int rank : new java.util.TreeSet<>(rankOfProcess.values())) {
            RankSite site = ranks.worldSite(rank);
            if (site != null) {
                siteOfRank.put(rank, site);
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
                    if (pid >= 0) {
                        summaryOfPid.computeIfAbsent(pid, k -> new java.util.ArrayList<>()).add(e);
                    }
                    standalone &= LOOPBACK.contains(shortHost(e.field("host") == null ? "" : e.field("host")));
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
            for (String proc : s.processes()) {
                int colon = proc.lastIndexOf(':');
                long pid = parse(proc.substring(colon + 1));
                if (pid >= 0) {
                    hostsOfPid.computeIfAbsent(pid, k -> new java.util.HashSet<>()).add(shortHost(proc.substring(0, colon)));
                }
            }
        }
    }

    /** The world rank of the process {@code host:pid}, or -1. */
    int rankOf(String host, long pid) {
        String h = shortHost(host);
        Integer r = rankOfProcess.get(h + ":" + pid);
        if (r == null && !h.isEmpty()) {
            r = rankOfHost.get(h);
        }
        return r == null ? -1 : r;
    }

    /**
     * A host as the incident names it: the first label of a DNS name ({@code trainer-worker-1} of
     * {@code trainer-worker-1.trainer.default.svc.cluster.local}, how a pod's hostname and its service's
     * name print it); an address stays whole.
     */
    static String shortHost(String host) {
        if (host == null) {
            return "";
        }
        int dot = host.indexOf('.');
        if (dot <= 0 || Character.isDigit(host.charAt(0)) || host.indexOf(':') >= 0) {
            return host;
        }
        return host.substring(0, dot);
    }

    /** Words in a log file's name that say what printed it, not whom: such a name names no pod or host. */
    private static final java.util.regex.Pattern GENERIC_NAME = java.util.regex.Pattern.compile(
            "(?i).*(?:std(?:out|err)|torchrun|nccl|^logs?$|output|console|dmesg|kern|journal|syslog|messages|trace|debug|launcher"
                    + "|^\\d+$).*");

    /**
     * The pod or host a log file is named after when no Kubernetes object names it ({@code trainer-worker-1.log},
     * as {@code kubectl logs} is saved); empty when its name says what printed it ({@code torchrun-stderr.log}).
     */
    String hostOfSourceName(String source) {
        String file = source.substring(Math.max(source.lastIndexOf('/'), source.lastIndexOf('!')) + 1);
        int dot = file.indexOf('.');
        String stem = dot > 0 ? file.substring(0, dot) : file;
        if (stem.length() < 3 || !stem.matches("[A-Za-z0-9][A-Za-z0-9_-]{1,62}") || GENERIC_NAME.matcher(stem).matches()) {
            return "";
        }
        return stem;
    }

    /** The rank whose process had this pid, or -1 when none or several did. */
    int rankOfPid(long pid) {
        Integer r = rankOfPid.get(pid);
        return r == null ? -1 : r;
    }

    /**
     * The rank that torchrun's failure summary gives the process {@code pid} of {@code host}, for an NCCL line whose
     * process printed no completed Init line: the entry whose pid is it and whose host is that host, or, when every
     * entry names the loopback host (a standalone job, one machine), the entry with that pid. -1 when none, when two
     * entries name different ranks, or when processes of two hosts had that pid (their Init lines): a pid alone names
     * no one across pods, whose first workers can share it. NCCL's {@code vm:795:795} line of an init failure is then
     * the worker the summary calls rank 0, pid 795, on localhost.
     */
    int rankOfSummaryPid(String host, long pid) {
        Set<String> inits = hostsOfPid.getOrDefault(pid, Set.of());
        String me = shortHost(host);
        if (inits.size() > 1 || inits.size() == 1 && !inits.contains(me)) {
            return -1;
        }
        int rank = -1;
        for (NcclEvent e : summaryOfPid.getOrDefault(pid, List.of())) {
            int r = e.rank() >= 0 ? e.rank() : parse(e.field("rank"));
            if (r < 0 || !(standalone || shortHost(e.field("host") == null ? "" : e.field("host")).equals(me))) {
                continue;
            }
            if (rank >= 0 && rank != r) {
                return -1;
            }
            rank = r;
        }
        return rank;
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
            if (r < 0) {
                continue;
            }
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
                    out = out.withHost(shortHost(s.rank().host()));
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
        if (!out.host().isEmpty() && !out.host().equals(shortHost(out.host()))) {
            out = out.withHost(shortHost(out.host()));
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

    /**
     * The parties with a log of their own (or a Pending training pod) that printed no failure, other
     * than {@code besides}: the members a rendezvous may have waited for.
     */
    List<Who> quietParties(List<IncidentEvent> events, Who besides) {
        List<Who> out = new java.util.ArrayList<>();
        for (LogSource s : sources.values()) {
            if (s.kernel()) {
                continue;
            }
            int rank = rankOfSource(s.name());
            K8sPod pod = podOfSource(s.name());
            String host = hostOfSourceName(s.name());
            Who w = complete(new Who(rank, pod == null ? "" : pod.namespace(), pod == null ? "" : pod.name(), "", pod == null ? host : "",
                    "", ""));
            if (w.isNobody() || w.same(besides) || out.stream().anyMatch(o -> o.same(w))) {
                continue;
            }
            boolean said = events.stream().anyMatch(e -> e.severity() != org.fabricscope.model.core.Severity.INFO && e.who().same(w));
            if (!said) {
                out.add(w);
            }
        }
        for (K8sPod p : pods.values()) {
            if (p.pending() && p.training()) {
                Who w = complete(new Who(-1, p.namespace(), p.name(), "", "", "", ""));
                if (!w.same(besides) && out.stream().noneMatch(o -> o.same(w))) {
                    out.add(w);
                }
            }
        }
        return out;
    }

    /** The phase of the party's pod when Kubernetes objects name it, else empty. */
    String podPhase(Who w) {
        K8sPod p = pods.get(w.pod().isEmpty() ? w.host() : w.pod());
        return p == null || p.phase() == null ? "" : p.phase();
    }

    /** The host whose NCCL processes bootstrap on this address (their OOB interface), or the address itself. */
    String hostOfAddress(String address) {
        return hostOfAddress.getOrDefault(address, address);
    }

    /**
     * The last time a party's own logs printed anything (the latest stamp of the files its processes,
     * ranks or name are in), or {@link Stamp#NONE}.
     */
    Stamp lastSeen(Who w) {
        Stamp best = Stamp.NONE;
        for (LogSource s : sources.values()) {
            if (s.kernel() || !s.last().known()) {
                continue;
            }
            boolean mine = w.rank() >= 0 && (s.ranks().contains(w.rank()) || rankOfSource(s.name()) == w.rank());
            String name = !w.pod().isEmpty() ? w.pod() : w.host();
            if (!mine && !name.isEmpty()) {
                mine = name.equals(hostOfSourceName(s.name()))
                        || s.processes().stream().anyMatch(p -> shortHost(p.substring(0, p.lastIndexOf(':'))).equals(name));
            }
            if (mine && (!best.known() || s.last().millis() > best.millis())) {
                best = s.last();
            }
        }
        return best;
    }

    /** The world ranks the logs know, in order. */
    List<Integer> worldRanks() {
        return rankOfProcess.values().stream().distinct().sorted().toList();
    }

    RankMap rankMap() {
        return ranks;
    }
}
