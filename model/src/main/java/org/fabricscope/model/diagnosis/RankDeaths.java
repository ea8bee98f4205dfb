package org.fabricscope.model.diagnosis;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.fabricscope.model.FabricModel;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.core.Severity;
import org.fabricscope.model.core.Subject;
import org.fabricscope.model.k8s.K8sEvent;
import org.fabricscope.model.k8s.K8sPod;
import org.fabricscope.model.ranks.RankSite;
import org.fabricscope.model.training.NcclEvent;
import org.fabricscope.model.training.Rank;

/**
 * The log side of {@code rank-exited} (declared by {@link HangForensicsCheck}): a rank whose process was
 * killed by a signal (torchrun's {@code ChildFailedError} entries and {@code failed (exitcode: -9)} lines;
 * exit code 137 = 128 + SIGKILL), a pod that Kubernetes reports OOMKilled, or, without either, a peer that
 * other ranks report gone (WARN {@code Connection closed by remote peer}, {@code remote process exited},
 * {@code ncclRemoteError}). The rank that died first (torchrun's root cause, else the earliest) is the
 * finding's first subject, with its pod and node; the ranks that only reported the loss are named in the
 * title and evidence, never as subjects. SIGTERM, SIGABRT, SIGINT and SIGHUP are not deaths: torchrun sends
 * SIGTERM to the survivors and the watchdog aborts (SIGABRT) after a timeout.
 */
final class RankDeaths {
    private static final Set<String> NOT_DEATHS = Set.of("SIGTERM", "SIGABRT", "SIGINT", "SIGHUP");
    private static final int MAX_EVIDENCE = 12;

    private RankDeaths() {
    }

    /** One process that died, over every line that says so. */
    private static final class Death {
        int rank = -1;
        int localRank = -1;
        long pid = -1;
        String host = "";
        String how = "";
        String signal = "";
        String podNamespace = "";
        String pod;
        boolean rootCause;
        boolean oom;
        String time = "";
        int order;
        final List<Evidence> evidence = new ArrayList<>();
    }

    /** {@code out} with the log's rank deaths added (or merged into a RAS finding of the same rank). */
    static List<Finding> findings(CheckContext context, ForensicJoin join, List<Finding> out, String id) {
        FabricModel model = context.model();
        Map<String, Death> deaths = new LinkedHashMap<>();
        List<NcclEvent> reports = new ArrayList<>();
        for (NcclEvent e : model.trainingLog().events()) {
            NcclEvent.Kind k = e.kind();
            if (k == NcclEvent.Kind.CHILD_FAILED || k == NcclEvent.Kind.PROCESS_FAILED) {
                String signal = signal(e);
                if (signal == null) {
                    continue;
                }
                long pid = e.pid() >= 0 ? e.pid() : num(e.field("pid"));
                int rank = e.rank() >= 0 ? e.rank() : (int) num(e.field("rank"));
                String key = pid >= 0 ? "pid:" + pid : "rank:" + rank;
                Death d = deaths.computeIfAbsent(key, x -> new Death());
                d.order = d.order == 0 ? deaths.size() : d.order;
                d.pid = pid;
                d.rank = rank >= 0 ? rank : d.rank;
                long local = num(e.field("localRank"));
                d.localRank = local >= 0 ? (int) local : d.localRank;
                String host = e.field("host") != null ? e.field("host") : e.host();
                d.host = d.host.isEmpty() && host != null ? host : d.host;
                d.signal = signal;
                d.how = "exit code " + e.field("exitcode") + " (" + signal + ")";
                d.rootCause |= "true".equals(e.field("rootCause"));
                if (d.time.isEmpty() && e.field("time") != null) {
                    d.time = e.field("time");
                }
                add(d.evidence, e.evidence());
            } else if (reportsLoss(e)) {
                reports.add(e);
            }
        }
        for (K8sEvent e : model.events()) {
            if ((e.reason().startsWith("OOMKill") || e.message().contains("OOMKilled"))
                    && "pod".equalsIgnoreCase(e.objectKind())) {
                Death d = deaths.computeIfAbsent("pod:" + e.namespace() + "/" + e.objectName(), x -> new Death());
                d.order = d.order == 0 ? deaths.size() : d.order;
                d.pod = e.objectName();
                d.podNamespace = e.namespace();
                d.oom = true;
                d.signal = d.signal.isEmpty() ? "SIGKILL" : d.signal;
                d.how = "OOMKilled (exit code 137, SIGKILL)";
                add(d.evidence, e.evidence());
            }
        }
        kernelOomKills(model, deaths.values());
        List<Death> sorted = new ArrayList<>(deaths.values());
        sorted.sort(Comparator.comparing((Death d) -> !d.rootCause)
                .thenComparing(d -> d.time.isEmpty() ? "~" : d.time).thenComparingInt(d -> d.order));
        if (sorted.isEmpty()) {
            // peers' reports name an address, RAS names the process: when RAS found one, its finding stands alone
            if (out.stream().noneMatch(f -> f.id().equals(id))) {
                remoteOnly(model, join, reports, out, id);
            }
            return out;
        }
        Death first = sorted.get(0);
        Rank lr = rankOf(model, join, first);
        RankSite site = join.site(lr);
        String where = ForensicJoin.place(lr, site);
        List<Subject> refs = new ArrayList<>();
        Set<Subject> places = new LinkedHashSet<>();
        List<String> others = new ArrayList<>();
        for (Death d : sorted) {
            Rank r = d == first ? lr : rankOf(model, join, d);
            RankSite s = d == first ? site : join.site(r);
            String w = ForensicJoin.place(r, s);
            String label = who(d, r) + ": " + d.how + w;
            if (d.rank >= 0 || r != null) {
                refs.add(new Subject.RankRef(r == null ? "" : r.commId(), r == null ? d.rank : r.rank(),
                        r == null ? d.host : r.host(), label));
            } else if (d.pod != null) {
                refs.add(new Subject.PodRef(d.podNamespace, d.pod, "pod " + podKey(d) + ": " + d.how));
            } else {
                refs.add(new Subject.HostRef(d.host, label));
            }
            places.addAll(ForensicJoin.placeSubjects(s));
            if (d.pod != null && (s == null || !d.pod.equals(s.pod()))) {
                places.add(new Subject.PodRef(d.podNamespace, d.pod, "pod " + podKey(d)));
            }
            String node = nodeOf(model, d, s);
            if (node != null) {
                places.add(new Subject.K8sNodeRef(node, "node " + node));
            }
            if (d != first) {
                others.add(who(d, r) + " " + d.how);
            }
        }
        refs.addAll(places);
        List<Evidence> evidence = new ArrayList<>();
        for (Death d : sorted) {
            d.evidence.forEach(ev -> add(evidence, ev));
        }
        Set<String> reporters = new LinkedHashSet<>();
        for (NcclEvent e : reports) {
            String rep = reporter(join, e);
            if (first.rank >= 0 && rep.equals("rank " + first.rank)) {
                continue;
            }
            reporters.add(rep);
            add(evidence, e.evidence());
        }
        String title = cap(who(first, lr)) + where + " died first: " + first.how
                + (others.isEmpty() ? "" : "; then " + String.join(", ", others.subList(0, Math.min(3, others.size())))
                        + (others.size() > 3 ? " and " + (others.size() - 3) + " more" : ""))
                + (reporters.isEmpty() ? "" : "; " + String.join(", ", reporters) + " only reported the loss");
        List<String> remedies = remedies(first, where, reporters);
        // RAS named the same rank: one finding, RAS's with the log's lines added
        for (int i = 0; i < out.size(); i++) {
            Finding f = out.get(i);
            if (!f.id().equals(id) || lr == null) {
                continue;
            }
            for (Subject s : f.refs()) {
                if (s instanceof Subject.RankRef rr && rr.rank() == lr.rank() && rr.host().equals(lr.host())) {
                    List<Evidence> ev = new ArrayList<>(f.evidence());
                    evidence.forEach(x -> add(ev, x));
                    List<String> rem = new ArrayList<>(remedies);
                    rem.addAll(f.remedies());
                    out.set(i, f.with(f.title() + "; the logs agree: " + first.how, f.refs(), ev, rem));
                    return out;
                }
            }
        }
        out.add(new Finding(id, Severity.ERROR, title, refs, evidence, remedies));
        return out;
    }

    /** Only peers' reports: the peer they name, when it can be placed. */
    private static void remoteOnly(FabricModel model, ForensicJoin join, List<NcclEvent> reports, List<Finding> out,
                                   String id) {
        Map<String, List<NcclEvent>> byPeer = new LinkedHashMap<>();
        for (NcclEvent e : reports) {
            String peer = e.field("peer");
            if (peer != null && !"true".equals(e.field("info"))) {
                byPeer.computeIfAbsent(peer, x -> new ArrayList<>()).add(e);
            }
        }
        for (var p : byPeer.entrySet()) {
            String addr = ForensicJoin.oobAddress(p.getKey().contains("<") ? ":" + p.getKey() : p.getKey());
            Set<String> reporters = new LinkedHashSet<>();
            List<Evidence> evidence = new ArrayList<>();
            for (NcclEvent e : p.getValue()) {
                reporters.add(reporter(join, e));
                add(evidence, e.evidence());
            }
            List<Subject> refs = new ArrayList<>();
            Set<String> hosts = new LinkedHashSet<>();
            for (Rank r : model.trainingLog().ranks()) {
                if (addr.equals(ForensicJoin.oobAddress(r.oob()))) {
                    hosts.add(r.host());
                }
            }
            String where;
            if (hosts.size() == 1) {
                String h = hosts.iterator().next();
                refs.add(new Subject.HostRef(h, "host " + h + " (" + p.getKey() + ")"));
                where = "host " + h + " (" + p.getKey() + ")";
            } else {
                refs.add(new Subject.HostRef(addr, "peer " + p.getKey()));
                where = "peer " + p.getKey();
            }
            String title = "The process at " + where + " went away: " + String.join(", ", reporters)
                    + " reported the loss (" + p.getValue().get(0).message() + ")";
            List<String> remedies = new ArrayList<>();
            remedies.add("Find the rank that ran at " + where + " and why it ended: its exit code and last lines "
                    + "(torchrun's failure summary, kubectl logs --previous), the node's kernel log (OOM killer, GPU Xid).");
            remedies.add(String.join(", ", reporters) + " only reported the loss; they are not the cause.");
            out.add(new Finding(id, Severity.ERROR, title, refs, evidence, remedies));
        }
    }

    /**
     * A death by SIGKILL whose pid the kernel's OOM killer names in its host's kernel log (dmesg,
     * journalctl -k) was the OOM killer's: said in the finding, with the kernel's line. Only the same pid
     * on the same host counts (a container's pids are not the host's, so a containerised rank is left as a
     * plain SIGKILL rather than guessed at).
     */
    private static void kernelOomKills(FabricModel model, java.util.Collection<Death> deaths) {
        for (Death d : deaths) {
            if (d.oom || d.pid < 0 || !d.signal.equals("SIGKILL")) {
                continue;
            }
            for (org.fabricscope.model.evidence.HostEvidence h : model.hostEvidence().values()) {
                if (!d.host.isEmpty() && !d.host.equalsIgnoreCase(h.host())) {
                    continue;
                }
                for (org.fabricscope.model.evidence.OomKill k : h.oomKills()) {
                    if (k.pid() == d.pid) {
                        d.oom = true;
                        d.how = d.how + ", killed by the kernel's OOM killer (" + k.summary() + ")";
                        if (k.evidence() != null) {
                            add(d.evidence, k.evidence());
                        }
                        break;
                    }
                }
                if (d.oom) {
                    break;
                }
            }
        }
    }

    private static List<String> remedies(Death first, String where, Set<String> reporters) {
        List<String> remedies = new ArrayList<>();
        if (first.oom && first.signal.equals("SIGKILL")) {
            remedies.add("The memory ran out: " + first.how + ". Lower the job's host memory (data loader workers and "
                    + "prefetch, pinned buffers, the batch held on the CPU) or raise the pod's memory limit; the node's "
                    + "kernel log and kubectl describe pod (Last State) show each kill.");
        } else if (first.signal.equals("SIGKILL")) {
            remedies.add("SIGKILL (exit code -9, or 137 from a shell or container) comes from the kernel's OOM killer, "
                    + "the kubelet (OOMKilled, eviction) or a person or scheduler: read the node's kernel log "
                    + "(dmesg: Out of memory: Killed process), kubectl describe pod (Last State: Terminated, Reason: "
                    + "OOMKilled) and the job's host memory (data loader workers, pinned buffers, the memory limit).");
        } else {
            remedies.add("A crash by " + first.signal + ": read its stack trace or core dump (faulthandler, "
                    + "TORCH_SHOW_CPP_STACKTRACES=1); SIGBUS in a container is often a /dev/shm that is too small.");
        }
        remedies.add("Look at " + (first.rank >= 0 ? "rank " + first.rank : first.pod != null ? "pod " + podKey(first)
                : "that process") + where + " first" + (reporters.isEmpty() ? "" : ": " + String.join(", ", reporters)
                + " only reported the loss (a closed connection, a remote error, a timeout) and are not the cause")
                + ". Restart from the last checkpoint once the cause is fixed (torchrun --max-restarts restarts the workers).");
        return remedies;
    }

    /** The signal a failure entry died of, or null when it exited or was stopped by its launcher or watchdog. */
    private static String signal(NcclEvent e) {
        String signal = e.field("signal");
        String exit = e.field("exitcode");
        if (signal == null && exit != null) {
            signal = switch (exit.strip()) {
                case "137" -> "SIGKILL";
                case "139" -> "SIGSEGV";
                case "135" -> "SIGBUS";
                case "134" -> "SIGABRT";
                case "143" -> "SIGTERM";
                default -> null;
            };
        }
        return signal == null || NOT_DEATHS.contains(signal) ? null : signal;
    }

    private static boolean reportsLoss(NcclEvent e) {
        String text = e.message() + " " + (e.field("lastError") == null ? "" : e.field("lastError"));
        return switch (e.kind()) {
            case SOCKET_CLOSED -> true;
            case NCCL_ERROR, WARN -> "ncclRemoteError".equals(e.field("result")) || text.contains("remote process exited")
                    || text.contains("Connection closed by");
            default -> false;
        };
    }

    /** {@code rank 0}, or the process when the log does not say which rank. */
    private static String reporter(ForensicJoin join, NcclEvent e) {
        if (e.rank() >= 0) {
            return "rank " + e.rank();
        }
        Rank r = join.process(e.host(), e.pid(), -1);
        return r != null ? "rank " + r.rank() : e.host().isEmpty() ? "a peer" : "process " + e.host() + ":" + e.pid();
    }

    private static Rank rankOf(FabricModel model, ForensicJoin join, Death d) {
        if (d.rank >= 0) {
            Rank r = join.worldRank(d.rank);
            if (r != null) {
                return r;
            }
        }
        if (d.pid >= 0) {
            Rank r = join.process(d.host, (int) d.pid, -1);
            if (r != null) {
                return r;
            }
        }
        if (d.pod != null) {
            Rank best = null;
            for (Rank r : model.trainingLog().ranks()) {
                if (r.host().equals(d.pod) && (best == null || r.nranks() > best.nranks())) {
                    best = r;
                }
            }
            return best;
        }
        return null;
    }

    private static String nodeOf(FabricModel model, Death d, RankSite s) {
        if (s != null && s.k8sNode() != null) {
            return s.k8sNode();
        }
        String pod = d.pod != null ? d.pod : s != null ? s.pod() : null;
        if (pod == null) {
            return null;
        }
        for (K8sPod p : model.pods()) {
            if (p.name().equals(pod) && p.node() != null) {
                return p.node();
            }
        }
        return null;
    }

    private static String who(Death d, Rank r) {
        int rank = d.rank >= 0 ? d.rank : r != null ? r.rank() : -1;
        List<String> parts = new ArrayList<>();
        if (d.localRank >= 0) {
            parts.add("local rank " + d.localRank);
        }
        if (d.pid >= 0) {
            parts.add("pid " + d.pid + (d.host.isEmpty() ? "" : " on " + d.host));
        }
        String base = rank >= 0 ? "rank " + rank : d.pod != null ? "pod " + podKey(d) : "a process";
        return parts.isEmpty() ? base : base + " (" + String.join(", ", parts) + ")";
    }

    private static String podKey(Death d) {
        return d.podNamespace.isEmpty() ? d.pod : d.podNamespace + "/" + d.pod;
    }

    private static void add(List<Evidence> evidence, Evidence e) {
        if (e != null && evidence.size() < MAX_EVIDENCE && !evidence.contains(e)) {
            evidence.add(e);
        }
    }

    private static long num(String s) {
        try {
            return s == null ? -1 : Long.parseLong(s.strip());
        } catch (NumberFormatException x) {
            return -1;
        }
    }

    private static String cap(String s) {
        return s.isEmpty() ? s : Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }
}
