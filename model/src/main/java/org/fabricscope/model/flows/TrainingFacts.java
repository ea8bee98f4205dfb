package org.fabricscope.model.flows;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import org.fabricscope.model.slowness.ConfigDrift;
import org.fabricscope.model.core.Severity;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.core.Plural;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.core.Subject;
import org.fabricscope.model.flows.FlowContext.Failure;
import org.fabricscope.model.flows.FlowContext.Lag;
import org.fabricscope.model.k8s.ContainerStatus;
import org.fabricscope.model.k8s.K8sEvent;
import org.fabricscope.model.k8s.K8sPod;
import org.fabricscope.model.training.ChannelLink;
import org.fabricscope.model.training.NcclEvent;
import org.fabricscope.model.training.NcclProcess;
import org.fabricscope.model.training.Rank;
import org.fabricscope.model.training.TrainingChecks;
import org.fabricscope.model.training.Transport;

/**
 * The facts NCCL and PyTorch logs answer: the transport NCCL chose per channel, how many nodes the
 * ranks span, the NCCL version, NET/IB finding no device, RoCE in use, NCCL errors raised; and the
 * failures torchrun and the pods report (which rank died first, of what signal, out of memory).
 * Registered by {@link StandardFacts}.
 */
final class TrainingFacts {
    private TrainingFacts() {
    }

    private static boolean matches(Transport t, String wanted) {
        return switch (wanted) {
            case "network" -> t.isNetwork();
            case "local" -> t == Transport.P2P || t == Transport.SHM;
            case "NET/IB" -> t == Transport.NET_IB || t == Transport.NET_IB_GDR;
            default -> t.label().equals(wanted);
        };
    }

    private static String label(Transport t) {
        return t == Transport.NET_IB_GDR ? "NET/IB/GDRDMA" : t.label();
    }

    static Answer transportUsed(FlowContext c, FactCall call) {
        String wanted = call.string("transport");
        List<ChannelLink> channels = c.log().channels();
        String whose = "";
        if ("lagging-rank".equals(call.string("of", "all"))) {
            Lag lag = c.lag();
            if (lag == null) {
                return Answer.unknown("no nccl-timeout finding names a lagging rank");
            }
            if (lag.rank() == null) {
                return Answer.unknown("rank " + lag.worldRank() + " printed no NCCL Init line, so its channels are unknown");
            }
            Rank r = lag.rank();
            channels = channels.stream().filter(x -> x.commId().equals(r.commId())
                    && (x.fromRank() == r.rank() || x.toRank() == r.rank())).toList();
            whose = "rank " + lag.worldRank() + "'s ";
        }
        if (channels.isEmpty()) {
            return Answer.unknown("no NCCL channel lines for " + (whose.isEmpty() ? "the job" : whose.replace("'s ", ""))
                    + " (Channel NN : a[x] -> b[y] via ...; NCCL_DEBUG=INFO prints them)");
        }
        Map<String, Integer> byTransport = new TreeMap<>();
        channels.forEach(x -> byTransport.merge(label(x.transport()), 1, Integer::sum));
        List<ChannelLink> hit = channels.stream().filter(x -> matches(x.transport(), wanted)).toList();
        String counts = byTransport.entrySet().stream().map(e -> e.getValue() + " " + e.getKey())
                .reduce((a, b) -> a + ", " + b).orElse("");
        if (hit.isEmpty()) {
            return new Answer(Verdict.NO, (whose.isEmpty() ? "the channels" : whose + "channels") + " use no " + wanted + " (" + counts + ")",
                    List.of(channels.get(0).evidence()), List.of(), Map.of());
        }
        ChannelLink first = hit.get(0);
        List<Subject> subjects = new ArrayList<>();
        Set<String> seen = new LinkedHashSet<>();
        for (ChannelLink x : hit) {
            String key = x.commId() + "/" + Math.min(x.fromRank(), x.toRank()) + "/" + Math.max(x.fromRank(), x.toRank());
            if (seen.add(key)) {
                subjects.add(new Subject.RankRef(x.commId(), x.fromRank(), "", "rank " + x.fromRank() + " -> "
                        + x.toRank() + " via " + x.via()));
            }
        }
        return new Answer(Verdict.YES, whose + Plural.of(hit.size(), "channel line") + (hit.size() == 1 ? " uses " : " use ") + wanted + ", e.g. rank "
                + first.fromRank() + " -> " + first.toRank() + " via " + first.via() + " (all: " + counts + ")",
                hit.stream().map(ChannelLink::evidence).toList(), subjects, Map.of());
    }

    static Answer multiNode(FlowContext c, FactCall call) {
        List<Rank> ranks = c.log().ranks();
        Set<String> hosts = new LinkedHashSet<>();
        int nNodes = -1;
        for (Rank r : ranks) {
            hosts.add(r.host());
            nNodes = Math.max(nNodes, r.nNodes());
        }
        if (ranks.isEmpty() && !c.log().processes().isEmpty()) {
            // processes that failed before Init: the hosts of their NCCL lines
            List<NcclProcess> procs = c.log().processes();
            procs.forEach(p -> hosts.add(p.host()));
            Evidence first = procs.stream().map(p -> p.noIbDevice() != null ? p.noIbDevice() : p.netFailure())
                    .filter(java.util.Objects::nonNull).findFirst().orElse(null);
            List<Evidence> ev = first == null ? List.of() : List.of(first);
            if (hosts.size() > 1) {
                return new Answer(Verdict.YES, Plural.of(procs.size(), "NCCL process") + " on " + Plural.of(hosts.size(), "host") + ": "
                        + String.join(", ", hosts), ev, List.of(), Map.of());
            }
            Set<String> nodes = new LinkedHashSet<>();
            c.trainingPods().stream().filter(p -> p.node() != null).forEach(p -> nodes.add(p.node()));
            if (nodes.size() <= 1) {
                return new Answer(Verdict.NO, (procs.size() == 1 ? "the one NCCL process" : "all " + procs.size() + " NCCL processes") + " logged from one host, "
                        + hosts.iterator().next() + " (none reached Init, which would say how many nodes its communicator "
                        + "spans)", ev, List.of(), Map.of());
            }
        }
        if (!ranks.isEmpty() && TrainingChecks.multiNode(c.log())) {
            return new Answer(Verdict.YES, Plural.of(ranks.size(), "rank line") + " on " + Plural.of(Math.max(hosts.size(), nNodes), "node") + ": " + String.join(", ", hosts), List.of(ranks.get(0).evidence()), List.of(), Map.of());
        }
        // the pods count too: the logs of only some of them may have been loaded
        Set<String> nodes = new LinkedHashSet<>();
        for (K8sPod p : c.trainingPods()) {
            if (p.node() != null) {
                nodes.add(p.node());
            }
        }
        if (nodes.size() > 1) {
            return Answer.yes("training pods run on " + nodes.size() + " nodes: " + String.join(", ", nodes));
        }
        if (!ranks.isEmpty()) {
            return new Answer(Verdict.NO, (ranks.size() == 1 ? "the one rank line comes" : "all " + ranks.size() + " rank lines come") + " from one host, " + hosts.iterator().next()
                    + (nNodes > 1 ? " (NCCL counts " + nNodes + " nodes: without P2P or shared memory between them it "
                    + "treats the ranks of one host as nodes of their own)" : ""),
                    List.of(ranks.get(0).evidence()), List.of(), Map.of());
        }
        if (nodes.size() == 1) {
            return Answer.no("the training pods run on one node, " + nodes.iterator().next());
        }
        int replicas = c.model().jobs().stream().mapToInt(j -> j.replicas().stream().mapToInt(r -> r.count()).sum()).max().orElse(0);
        if (replicas > 1) {
            return Answer.yes("the job manifest asks for " + replicas + " pods");
        }
        if (c.trainingPods().size() > 1) {
            return Answer.yes(c.trainingPods().size() + " training pods");
        }
        return Answer.unknown("no NCCL log and no training pod was loaded");
    }

    private static int compareVersions(String a, String b) {
        String[] x = a.split("[.+\\-]");
        String[] y = b.split("[.+\\-]");
        for (int i = 0; i < Math.max(x.length, y.length); i++) {
            int p = i < x.length ? FlowContext.intOf(x[i], 0) : 0;
            int q = i < y.length ? FlowContext.intOf(y[i], 0) : 0;
            if (p != q) {
                return Integer.compare(p, q);
            }
        }
        return 0;
    }

    static Answer ncclVersionAtLeast(FlowContext c, FactCall call) {
        String want = call.string("version");
        List<Rank> low = new ArrayList<>();
        Rank any = null;
        for (Rank r : c.log().ranks()) {
            if (r.ncclVersion() == null) {
                continue;
            }
            any = any == null ? r : any;
            if (compareVersions(r.ncclVersion(), want) < 0 && low.stream().noneMatch(x -> x.ncclVersion().equals(r.ncclVersion()))) {
                low.add(r);
            }
        }
        if (any == null) {
            return Answer.unknown("no NCCL version in the logs (NCCL_DEBUG=INFO prints NCCL version x.y.z)");
        }
        if (low.isEmpty()) {
            return new Answer(Verdict.YES, "NCCL " + String.join(", ", c.log().ncclVersions()) + " >= " + want,
                    List.of(any.evidence()), List.of(), Map.of("nccl-version", any.ncclVersion()));
        }
        Rank r = low.get(0);
        return new Answer(Verdict.NO, r.process() + " runs NCCL " + r.ncclVersion() + ", older than " + want,
                low.stream().map(Rank::evidence).toList(), low.stream().map(TrainingFacts::rankRef).toList(),
                Map.of("nccl-version", r.ncclVersion(), "host", r.host()));
    }

    static Subject rankRef(Rank r) {
        return new Subject.RankRef(r.commId(), r.rank(), r.host(), r.process() + " rank " + r.rank());
    }

    static Answer ibNoDeviceFound(FlowContext c, FactCall call) {
        if (c.log().ranks().isEmpty() && c.log().processes().isEmpty()) {
            return Answer.unknown("no NCCL log was loaded");
        }
        // processes that use an RDMA device (NET/IB : Using [0]mlx5_0:1/IB) found one, whatever else they printed
        Set<String> rdma = new LinkedHashSet<>();
        c.log().ranks().stream().filter(r -> !r.rdmaDevices().isEmpty()).forEach(r -> rdma.add(r.process()));
        Map<String, Evidence> lines = new LinkedHashMap<>();
        Map<String, Subject> subjects = new LinkedHashMap<>();
        for (NcclProcess p : c.log().processes()) {
            if (p.noIbDevice() != null && !rdma.contains(p.process())) {
                lines.put(p.process(), p.noIbDevice());
                subjects.put(p.process(), new Subject.HostRef(p.host(), "process " + p.process()));
            }
        }
        for (Rank r : c.log().ranks()) {
            if (r.noIbDevice() && !rdma.contains(r.process())) {
                lines.putIfAbsent(r.process(), r.evidence());
                if (!(subjects.get(r.process()) instanceof Subject.RankRef)) {
                    subjects.put(r.process(), rankRef(r));
                }
            }
        }
        if (lines.isEmpty()) {
            return Answer.no("every process that logged its network uses an RDMA device or did not report NET/IB : No device found");
        }
        String first = lines.keySet().iterator().next();
        return new Answer(Verdict.YES, Plural.of(lines.size(), "process") + " logged NET/IB : No device found, e.g. " + first,
                List.copyOf(lines.values()), List.copyOf(subjects.values()),
                Map.of("host", first.substring(0, first.lastIndexOf(':'))));
    }

    /**
     * NCCL was left with no network: the NET plugin it was restricted to (NCCL_NET=IB) failed to initialize and
     * none was left (2.19+: Failed to initialize any NET plugin; older: Error: network IB not found.).
     */
    static Answer ncclNetFailed(FlowContext c, FactCall call) {
        if (c.log().ranks().isEmpty() && c.log().processes().isEmpty() && c.log().events().isEmpty()) {
            return Answer.unknown("no NCCL log was loaded");
        }
        List<NcclProcess> failed = c.log().processes().stream().filter(NcclProcess::noNetwork).toList();
        if (failed.isEmpty()) {
            return Answer.no("no process logged that it could not initialize any network (Failed to initialize any NET plugin)");
        }
        NcclProcess p = failed.get(0);
        List<String> nets = p.failedNets().stream().filter(n -> !n.equals(NcclProcess.ANY)).toList();
        String forced = p.env().get("NCCL_NET");
        List<Evidence> ev = new ArrayList<>();
        for (NcclProcess f : failed) {
            if (f.noIbDevice() != null) {
                ev.add(f.noIbDevice());
            }
            if (f.netFailure() != null) {
                ev.add(f.netFailure());
            }
        }
        return new Answer(Verdict.YES, Plural.of(failed.size(), "process") + " could not initialize any network, e.g. " + p.process()
                + (nets.isEmpty() ? "" : " (NET plugin " + String.join(", ", nets) + " failed to initialize"
                + (p.noIbDevice() != null ? " after NET/IB : No device found" : "") + ")")
                + (forced == null ? "" : "; NCCL_NET=" + forced), ev,
                failed.stream().map(f -> (Subject) new Subject.HostRef(f.host(), "process " + f.process())).toList(),
                Map.of("host", p.host()));
    }

    static Answer roceInUse(FlowContext c, FactCall call) {
        Rank ib = null;
        for (Rank r : c.log().ranks()) {
            for (String d : r.rdmaDevices()) {
                if (d.endsWith("/RoCE") || d.startsWith("erdma")) {
                    return new Answer(Verdict.YES, r.process() + " uses " + d, List.of(r.evidence()), List.of(rankRef(r)),
                            Map.of("hca", FlowContext.device(d)));
                }
                ib = ib == null ? r : ib;
            }
        }
        if (ib != null) {
            return new Answer(Verdict.NO, ib.process() + " uses " + String.join(" ", ib.rdmaDevices()) + ": InfiniBand, not RoCE",
                    List.of(ib.evidence()), List.of(), Map.of());
        }
        // no log says: the GID tables do (RoCE ports list RoCE v2 or IPv4-mapped GIDs, InfiniBand ports only link-local ones)
        Answer gids = HostFacts.roceGidListed(c, call);
        if (gids.verdict() != Verdict.UNKNOWN) {
            return gids;
        }
        return Answer.unknown("no rank logged the RDMA devices it uses (NET/IB : Using [0]dev:port/RoCE), and no GID table "
                + "was loaded");
    }

    static Answer ncclErrorRaised(FlowContext c, FactCall call) {
        if (c.log().isEmpty()) {
            return Answer.unknown("no NCCL or PyTorch log was loaded");
        }
        for (NcclEvent e : c.log().events()) {
            if (e.kind() != NcclEvent.Kind.NCCL_ERROR) {
                continue;
            }
            String error = e.field("error") == null ? e.message() : e.field("error");
            if (error.contains("aborted") || error.contains("Watchdog caught")) {
                continue; // the communicator was torn down after a timeout: a consequence, not a cause
            }
            String last = e.field("lastError");
            return new Answer(Verdict.YES, "NCCL error: " + error + (last == null ? "" : " (last error: " + last + ")"),
                    List.of(e.evidence()), List.of(), Map.of());
        }
        return Answer.no("no NCCL error raised other than communicators aborted after a timeout");
    }

    /**
     * {@code nccl-settings-differ}: the job's nodes differ in an NCCL setting known to hang a job or fail its
     * connections (the config-drift finding, at error). Unknown while fewer than two nodes printed their settings
     * ({@link ConfigDrift#printedNodes}): then no difference could have been seen.
     */
    static Answer ncclSettingsDiffer(FlowContext c, FactCall call) {
        List<Finding> drift = c.findings("config-drift");
        for (Finding f : drift) {
            if (f.severity() == Severity.ERROR) {
                return new Answer(Verdict.YES, f.title(), f.evidence(), f.refs(), StandardFacts.focusOf(c, f));
            }
        }
        int nodes = ConfigDrift.printedNodes(c.model()).size();
        if (nodes < 2) {
            return Answer.unknown((nodes == 0 ? "no node" : "only one node") + " printed its NCCL settings (NCCL_DEBUG=INFO"
                    + " with ENV among NCCL_DEBUG_SUBSYS, or a pod's environment dump): there is nothing to compare");
        }
        return Answer.no(nodes + " nodes' settings compared: none known to hang a job differs"
                + (drift.isEmpty() ? "" : " (" + drift.get(0).title() + ")"));
    }

    // ---------------------------------------------------------------- failures

    static Answer rankFailed(FlowContext c, FactCall call) {
        List<Failure> fs = c.failures();
        if (fs.isEmpty()) {
            if (c.log().isEmpty() && c.trainingPods().isEmpty()) {
                return Answer.unknown("no torchrun output and no training pod was loaded");
            }
            return Answer.no("no failed rank: torchrun reported no failure and no training pod is Failed");
        }
        Failure f = fs.get(0);
        StringBuilder d = new StringBuilder(f.who()).append(' ').append(f.exitCode().isEmpty() ? "failed" : "failed with " + f.how());
        if (f.rootCause()) {
            d.append(", torchrun's root cause");
        }
        if (fs.size() > 1) {
            d.append("; ").append(fs.size()).append(" failures in all");
        }
        Answer a = new Answer(Verdict.YES, d.toString(), fs.stream().map(Failure::evidence).toList(),
                fs.stream().map(Failure::subject).toList(), Map.of());
        a = a.with("rank", f.rank() >= 0 ? String.valueOf(f.rank()) : null).with("exit", f.exitCode().isEmpty() ? null : f.how());
        if (f.pod() != null) {
            K8sPod p = c.podByName(f.pod());
            if (p != null) {
                Map<String, String> v = new LinkedHashMap<>();
                c.putPod(v, p);
                a = a.withValues(v);
            }
        } else if (!f.host().isEmpty()) {
            a = a.with("host", f.host());
        }
        return a;
    }

    static Answer failureSignal(FlowContext c, FactCall call) {
        String want = call.string("signal").strip().toUpperCase(Locale.ROOT);
        want = want.startsWith("SIG") ? want : "SIG" + want;
        List<Failure> fs = c.failures();
        if (fs.isEmpty() || fs.get(0).exitCode().isEmpty() && fs.get(0).signal().isEmpty()) {
            return Answer.unknown("no failed rank with an exit code in the inputs");
        }
        Failure f = fs.get(0);
        String died = f.signalName();
        if (died.equalsIgnoreCase(want)) {
            return new Answer(Verdict.YES, f.who() + " died of " + died + (f.exitCode().isEmpty() ? "" : " (exit code "
                    + f.exitCode() + ")"), List.of(f.evidence()),
                    List.of(f.subject()), Map.of());
        }
        return new Answer(Verdict.NO, f.who() + " " + f.how(), List.of(f.evidence()), List.of(f.subject()), Map.of());
    }

    /**
     * Killed for memory, from evidence of memory only: an OOMKilled (or OOMKilling) event or container status of
     * the job's pods, the kernel's OOM killer in a host's kernel log, or CUDA out of memory in the logs. A SIGKILL
     * (exit code -9 or 137) is not such evidence by itself: the OOM killer sends it, but so do a scheduler that
     * preempts the job and a person's kill -9; without memory evidence the answer is unknown.
     */
    static Answer oomKilled(FlowContext c, FactCall call) {
        for (K8sEvent e : c.model().events()) {
            if ((e.reason().startsWith("OOMKill") || e.message().contains("OOMKilled")) && aboutJob(c, e)) {
                return new Answer(Verdict.YES, e.objectName() + ": " + e.reason() + " " + e.message(), List.of(e.evidence()),
                        List.of(), Map.of());
            }
        }
        for (K8sPod p : c.trainingPods()) {
            for (ContainerStatus s : p.containers()) {
                if ("OOMKilled".equals(s.reason()) || "OOMKilled".equals(s.lastReason())) {
                    Map<String, String> v = new LinkedHashMap<>();
                    c.putPod(v, p);
                    return new Answer(Verdict.YES, "pod " + p.key() + " container " + s.exitText(),
                            p.evidence() == null ? List.of() : List.of(p.evidence()),
                            List.of(new Subject.PodRef(p.namespace(), p.name(), "pod " + p.key())), v);
                }
            }
        }
        for (NcclEvent e : c.log().events()) {
            if (e.message().contains("CUDA out of memory") || e.message().contains("OutOfMemoryError")) {
                return new Answer(Verdict.YES, "CUDA out of memory", List.of(e.evidence()), List.of(), Map.of());
            }
        }
        Answer kernel = HostFacts.kernelOomKill(c);
        if (kernel != null) {
            return kernel;
        }
        for (Failure f : c.failures()) {
            if (f.signalName().equals("SIGKILL")) {
                return new Answer(Verdict.UNKNOWN, f.who() + " " + f.how() + ": killed by SIGKILL, which the kernel's OOM "
                        + "killer sends but so do a scheduler's preemption and a person's kill -9; the inputs hold no "
                        + "memory evidence (no OOMKilled status or event, no kernel OOM-killer line, no CUDA out of memory)",
                        List.of(f.evidence()), List.of(f.subject()), Map.of());
            }
        }
        if (c.failures().isEmpty()) {
            return Answer.unknown("no failed rank or pod in the inputs");
        }
        return Answer.no("no OOMKilled event or status, no kernel OOM-killer line, no CUDA out of memory and no SIGKILL "
                + "among the failures");
    }

    /** An event about one of the job's pods or nodes (any event, when no job is loaded). */
    private static boolean aboutJob(FlowContext c, K8sEvent e) {
        if ("pod".equalsIgnoreCase(e.objectKind())) {
            return c.touchesJob(new Subject.PodRef(e.namespace(), e.objectName(), "pod " + e.objectName()));
        }
        if ("node".equalsIgnoreCase(e.objectKind())) {
            return c.touchesJob(new Subject.K8sNodeRef(e.objectName(), "node " + e.objectName()));
        }
        return true;
    }
}
