package org.fabricscope.model.flows;

import static org.fabricscope.model.flows.FlowFacts.Param.choice;
import static org.fabricscope.model.flows.FlowFacts.Param.optional;
import static org.fabricscope.model.flows.FlowFacts.Param.required;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import org.fabricscope.model.FabricModel;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.core.FindingSpec;
import org.fabricscope.model.core.Subject;
import org.fabricscope.model.diagnosis.Subjects;
import org.fabricscope.model.fabric.Cable;
import org.fabricscope.model.fabric.FabricNode;
import org.fabricscope.model.fabric.Host;
import org.fabricscope.model.fabric.Port;
import org.fabricscope.model.fabric.PortState;
import org.fabricscope.model.flows.FlowContext.Failure;
import org.fabricscope.model.flows.FlowContext.Lag;
import org.fabricscope.model.flows.FlowContext.Spec;
import org.fabricscope.model.flows.FlowFacts.Fact;
import org.fabricscope.model.flows.FlowFacts.Type;
import org.fabricscope.model.k8s.K8sEvent;
import org.fabricscope.model.k8s.K8sNode;
import org.fabricscope.model.k8s.K8sPod;
import org.fabricscope.model.k8s.NodeFit;
import org.fabricscope.model.k8s.Quantity;
import org.fabricscope.model.k8s.Resources;
import org.fabricscope.model.k8s.SchedulingFailure;
import org.fabricscope.model.ranks.RankSite;
import org.fabricscope.model.training.ChannelLink;
import org.fabricscope.model.training.NcclEvent;
import org.fabricscope.model.training.Rank;
import org.fabricscope.model.training.Transport;

/**
 * The facts FabricScope implements. Each answers from what the model holds (host evidence such as
 * ibstat, ulimit, ls -l /dev/infiniband and GID tables through {@link HostFacts}); where no reader
 * holds the fact yet (switch PFC settings) it answers from findings that imply it, and otherwise
 * unknown, so the manual step that asks it waits for the user until a reader adds the fact.
 */
final class StandardFacts {
    private StandardFacts() {
    }

    static final String RDMA = "rdma";
    private static final String INSTANCE_TYPE = "node.kubernetes.io/instance-type";
    /** A NIC subject's label that names its port: {@code dgx-01 mlx5_3 port 1}. */
    private static final java.util.regex.Pattern HCA_PORT = java.util.regex.Pattern.compile(" port (\\d{1,3})$");
    private static final String INSTANCE_TYPE_BETA = "beta.kubernetes.io/instance-type";

    static List<Fact> all() {
        return List.of(
                new Fact("finding-present", "A finding with this id is among the analysis' findings.",
                        List.of(required("id", Type.FINDING_ID, "the finding id (fabricscope checks lists them)"),
                                choice("scope", false, "all (default): any finding; job: only findings about the loaded "
                                        + "job's pods, nodes, hosts, HCAs, fabric paths and ranks", "all", "job")),
                        "the inputs of the finding's layer; unknown when that layer was not loaded",
                        StandardFacts::findingPresent),
                new Fact("transport-used", "NCCL channels use this transport (from the Channel ... via ... lines).",
                        List.of(choice("transport", true, "NET/IB (with or without GDRDMA), NET/IB+GDRDMA, NET/Socket, "
                                        + "NET/other, P2P, SHM; network (any NET/*) or local (P2P or SHM)",
                                        "NET/IB", "NET/IB+GDRDMA", "NET/Socket", "NET/other", "P2P", "SHM", "network", "local"),
                                choice("of", false, "all (default): any rank's channels; lagging-rank: the channels of the "
                                        + "rank the nccl-timeout finding says lagged", "all", "lagging-rank")),
                        "NCCL_DEBUG=INFO logs", StandardFacts::transportUsed),
                new Fact("multi-node", "The job's ranks (or pods) span more than one node.", List.of(),
                        "NCCL logs (Init lines), else the training pods", StandardFacts::multiNode),
                new Fact("resource-requested", "Every training pod (or replica template) requests this resource.",
                        List.of(required("resource", Type.STRING, "a resource name (aliyun/erdma, rdma/rdma, nvidia.com/gpu) "
                                + "or rdma: any RDMA device resource (aliyun/erdma, rdma/*)")),
                        "kubectl get pods -o yaml, or the job manifest", StandardFacts::resourceRequested),
                new Fact("allocatable-has", "Every node the job runs on (every node read, when none is known) offers this "
                        + "resource in its allocatable.",
                        List.of(required("resource", Type.STRING, "a resource name, or rdma: any RDMA device resource")),
                        "kubectl get nodes -o json, or kubectl get node X -o jsonpath='{.status.allocatable}'",
                        StandardFacts::allocatableHas),
                new Fact("env-set", "An environment variable is set (to this value) for the job: pod specs, manifests and "
                        + "the variables NCCL logged as set by environment.",
                        List.of(required("name", Type.STRING, "the variable, e.g. NCCL_IB_HCA"),
                                optional("value", Type.STRING, "the value it must have (exact match after trimming)"),
                                choice("in", false, "all (default): every pod, template and rank; any: at least one",
                                        "all", "any")),
                        "kubectl get pods -o yaml, the job manifest, or NCCL_DEBUG=INFO logs", StandardFacts::envSet),
                new Fact("nccl-version-at-least", "Every rank runs at least this NCCL version.",
                        List.of(required("version", Type.VERSION, "e.g. 2.19")), "NCCL logs (NCCL version line)",
                        StandardFacts::ncclVersionAtLeast),
                new Fact("ib-no-device-found", "A rank logged NET/IB : No device found and uses no RDMA device.", List.of(),
                        "NCCL logs", StandardFacts::ibNoDeviceFound),
                new Fact("erdma-setup", "The job is set up for Alibaba Cloud eRDMA: it requests or its nodes offer "
                        + "aliyun/erdma, its ranks use erdma_* devices, or NCCL_IB_HCA names erdma.", List.of(),
                        "pods, nodes, NCCL logs", StandardFacts::erdmaSetup),
                new Fact("instance-type-in", "The job's nodes are of instance types in this table (instance type "
                        + "label node.kubernetes.io/instance-type); the table's value becomes {{erdma-nics}}.",
                        List.of(required("types", Type.TABLE, "instance type -> number (e.g. eRDMA NICs, seed 001)"),
                                optional("scope", Type.STRING, "a prefix (e.g. ecs.): types outside it answer unknown")),
                        "kubectl get nodes -o json (labels)", StandardFacts::instanceTypeIn),
                new Fact("hca-ports-active", "The RDMA ports of the job's hosts are Active (PORT_ACTIVE).", List.of(),
                        "ibstat, ibstatus or ibv_devinfo on the hosts; else eadm stat (an eRDMA device missing, or passing "
                                + "traffic); else iblinkinfo or ibnetdiscover with port states",
                        (c, call) -> {
                            Answer a = HostFacts.hcaPortsActive(c);
                            return a != null ? a : hcaPortsActive(c, call);
                        }),
                new Fact("erdma-device-present", "The job's nodes have their Alibaba Cloud eRDMA device: eadm stat "
                        + "printed its statistics (with its traffic), or ibstat / ibv_devinfo list an erdma_* port.", List.of(),
                        "eadm stat -d erdma_0 -l (or eadm stat -d erdma_0) on the nodes; no when eadm printed no statistics "
                                + "for the device", HostFacts::erdmaDevicePresent),
                new Fact("uverbs-accessible", "The job's user can open /dev/infiniband/uverbs* (in the rdma group).",
                        List.of(), "ls -l /dev/infiniband (mode and group of uverbs*); no when an rdma-permission finding "
                                + "shows errno 13", HostFacts::uverbsAccessible),
                new Fact("memlock-unlimited", "The locked-memory limit of the job's processes is unlimited.", List.of(),
                        "ulimit -l or ulimit -a; no when a memlock-limit finding shows ibv_reg_mr failing",
                        HostFacts::memlockUnlimited),
                new Fact("pfc-enabled", "Priority flow control is enabled for the RoCE traffic class on hosts and switches.",
                        List.of(), "no reader yet (mlnx_qos, the switch configuration)",
                        (c, call) -> Answer.unknown("PFC settings are not in the inputs")),
                new Fact("gid-index-matches", "NCCL_IB_GID_INDEX is the RoCE v2 entry of the IPv4-mapped GID "
                        + "(::ffff:a.b.c.d) of the device's port.", List.of(),
                        "the GID table (grep . /sys/class/infiniband/*/ports/*/gids/* .../gid_attrs/types/*, show_gids, "
                                + "ibv_devinfo -v) with NCCL_IB_GID_INDEX from pods, env or NCCL logs",
                        HostFacts::gidIndexMatches),
                new Fact("same-rdma-network", "All the job's pods attach the same secondary network and RDMA settings "
                        + "(Multus annotation, NCCL_IB_HCA, NCCL_SOCKET_IFNAME).", List.of(),
                        "pods or manifests; VLAN and partition membership have no reader yet", StandardFacts::sameRdmaNetwork),
                new Fact("roce-in-use", "The ranks' RDMA devices run RoCE (NET/IB : Using [0]mlx5_0:1/RoCE, eRDMA).",
                        List.of(), "NCCL logs", StandardFacts::roceInUse),
                new Fact("lagging-rank-located", "The rank the nccl-timeout finding says lagged is placed: pod, node, "
                        + "GPU, HCA and leaf port.", List.of(),
                        "NCCL logs with the pods, host topologies and fabric dump", StandardFacts::laggingRankLocated),
                new Fact("lagging-rank-path-errors", "The lagging rank's host link, or a cable on its fabric paths, has "
                        + "error counters over threshold or lost its link.", List.of(),
                        "NCCL logs with the fabric dump and counters (perfquery, ibqueryerrors)",
                        StandardFacts::laggingRankPathErrors),
                new Fact("cpu-limit-per-gpu-below", "A training pod's CPU limit is below this many cores per GPU "
                        + "(NCCL's proxy threads starve).", List.of(required("cores", Type.NUMBER, "cores per GPU")),
                        "kubectl get pods -o yaml", StandardFacts::cpuLimitPerGpuBelow),
                new Fact("rank-failed", "A rank died: torchrun reported a failed process (ChildFailedError, failed "
                        + "(exitcode ...)), or a training pod is Failed. Names the first (torchrun's root cause).",
                        List.of(), "torchrun output, pods", StandardFacts::rankFailed),
                new Fact("failure-signal", "The first failed rank died of this signal.",
                        List.of(required("signal", Type.STRING, "e.g. SIGKILL, SIGTERM, SIGABRT, SIGSEGV")),
                        "torchrun output", StandardFacts::failureSignal),
                new Fact("oom-killed", "A rank or pod was killed for memory: exit code 137 / SIGKILL, an OOMKilled event, "
                        + "or CUDA out of memory.", List.of(), "torchrun output, Kubernetes events", StandardFacts::oomKilled),
                new Fact("nccl-error-raised", "PyTorch raised an NCCL error of its own (not a communicator aborted "
                        + "after a timeout): unhandled system error, invalid usage, remote error...", List.of(),
                        "PyTorch / NCCL logs", StandardFacts::ncclErrorRaised),
                new Fact("pod-pending", "A training pod is Pending, not scheduled to a node.", List.of(),
                        "kubectl get pods -o yaml", StandardFacts::podPending),
                new Fact("scheduling-reason", "The scheduler (its FailedScheduling event) or FabricScope's own fit of "
                        + "the Pending pod gives this reason.",
                        List.of(choice("kind", true, "insufficient, taint, selector or unschedulable",
                                        "insufficient", "taint", "selector", "unschedulable"),
                                optional("resource", Type.STRING, "with insufficient: the resource (or rdma)")),
                        "kubectl get events / describe pod, kubectl get nodes -o json", StandardFacts::schedulingReason),
                new Fact("pod-fits-a-node", "The Pending pod's requests, selectors and tolerations fit a node "
                        + "(free = allocatable minus the requests of the pods there).", List.of(),
                        "kubectl get nodes -o json and kubectl get pods -A -o yaml", StandardFacts::podFitsANode),
                new Fact("socket-ifname-secondary", "NCCL_SOCKET_IFNAME names the pod's secondary (Multus) interface "
                        + "(net1...) where the pod has one.", List.of(),
                        "kubectl get pods -o yaml (annotation k8s.v1.cni.cncf.io/networks and env)",
                        StandardFacts::socketIfnameSecondary));
    }

    // ---------------------------------------------------------------- findings

    private static Answer findingPresent(FlowContext c, FactCall call) {
        String id = call.string("id");
        boolean job = "job".equals(call.string("scope", "all"));
        List<Finding> all = c.findings(id);
        List<Finding> fs = job ? all.stream().filter(c::touchesJob).toList() : all;
        if (!fs.isEmpty()) {
            Finding f = fs.get(0);
            List<Evidence> ev = new ArrayList<>();
            fs.forEach(x -> ev.addAll(x.evidence()));
            List<Subject> subjects = new ArrayList<>();
            fs.forEach(x -> subjects.addAll(x.refs()));
            return new Answer(Verdict.YES, f.title() + (fs.size() > 1 ? " (and " + (fs.size() - 1) + " more)" : ""),
                    ev, subjects, focusOf(c, f));
        }
        FindingSpec spec = FlowContext.catalogue().get(id);
        if (spec != null && !c.loaded(spec.layer())) {
            return Answer.unknown("no " + spec.layer().label() + " input was loaded, so " + id + " cannot be judged");
        }
        if (job && !all.isEmpty()) {
            return Answer.no(all.size() + " " + id + " finding(s), none about the job's pods, hosts or paths");
        }
        return Answer.no("no " + id + " finding");
    }

    /**
     * Where a finding points, as placeholder values: its first pod, rank, host or node subject (a log's
     * host is often the pod's name), so the remedies that follow name what the finding is about.
     */
    static Map<String, String> focusOf(FlowContext c, Finding f) {
        Map<String, String> v = new LinkedHashMap<>();
        for (Subject s : f.refs()) {
            if (s instanceof Subject.PodRef p) {
                K8sPod pod = c.podByName(p.pod());
                if (pod != null) {
                    c.putPod(v, pod);
                    return v;
                }
            } else if (s instanceof Subject.RankRef r) {
                Rank rank = r.rank() < 0 ? null : c.log().worldRank(r.rank()).orElse(null);
                RankSite site = rank == null ? null : c.analysis().ranks().site(rank.commId(), rank.rank());
                if (site != null) {
                    c.putSite(v, site);
                    return v;
                }
            } else if (s instanceof Subject.HostRef || s instanceof Subject.NicRef || s instanceof Subject.GpuRef
                    || s instanceof Subject.PciRef) {
                String name = s instanceof Subject.HostRef h ? h.host() : s instanceof Subject.NicRef n ? n.host()
                        : s instanceof Subject.GpuRef g ? g.host() : ((Subject.PciRef) s).host();
                K8sPod pod = c.podByName(name);
                if (pod != null) {
                    c.putPod(v, pod);
                    return v;
                }
                Host host = c.model().host(name);
                K8sNode node = host == null ? null : c.model().k8sNodeOf(host);
                v.put("host", name);
                v.put("node", node != null ? node.name() : name);
                if (s instanceof Subject.NicRef n) {
                    v.put("hca", n.device());
                    java.util.regex.Matcher port = HCA_PORT.matcher(n.label());
                    if (port.find()) {
                        v.put("hca-port", port.group(1));
                    }
                }
                return v;
            } else if (s instanceof Subject.K8sNodeRef n) {
                v.put("node", n.node());
                Host h = c.model().k8sNodes().get(n.node()) == null ? null : c.model().hostOf(c.model().k8sNodes().get(n.node()));
                v.put("host", h != null ? h.name() : n.node());
                return v;
            }
        }
        return v;
    }

    /** No when a finding shows the limit was hit, else unknown: no reader holds the setting itself yet. */
    static Answer denied(FlowContext c, String finding, String why, String unknown) {
        List<Finding> fs = c.findings(finding);
        if (!fs.isEmpty()) {
            return new Answer(Verdict.NO, why + " (" + finding + ": " + fs.get(0).title() + ")", fs.get(0).evidence(),
                    fs.get(0).refs(), Map.of());
        }
        return Answer.unknown(unknown);
    }

    // ---------------------------------------------------------------- training logs

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

    private static Answer transportUsed(FlowContext c, FactCall call) {
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
        return new Answer(Verdict.YES, whose + hit.size() + " channel line(s) use " + wanted + ", e.g. rank "
                + first.fromRank() + " -> " + first.toRank() + " via " + first.via() + " (all: " + counts + ")",
                hit.stream().map(ChannelLink::evidence).toList(), subjects, Map.of());
    }

    private static Answer multiNode(FlowContext c, FactCall call) {
        List<Rank> ranks = c.log().ranks();
        Set<String> hosts = new LinkedHashSet<>();
        int nNodes = -1;
        for (Rank r : ranks) {
            hosts.add(r.host());
            nNodes = Math.max(nNodes, r.nNodes());
        }
        if (hosts.size() > 1 || nNodes > 1) {
            return new Answer(Verdict.YES, ranks.size() + " rank line(s) on " + Math.max(hosts.size(), nNodes)
                    + " nodes: " + String.join(", ", hosts), List.of(ranks.get(0).evidence()), List.of(), Map.of());
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
            return new Answer(Verdict.NO, "all " + ranks.size() + " rank line(s) come from one host, " + hosts.iterator().next(),
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

    private static Answer ncclVersionAtLeast(FlowContext c, FactCall call) {
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
                low.stream().map(Rank::evidence).toList(), low.stream().map(StandardFacts::rankRef).toList(),
                Map.of("nccl-version", r.ncclVersion(), "host", r.host()));
    }

    private static Subject rankRef(Rank r) {
        return new Subject.RankRef(r.commId(), r.rank(), r.host(), r.process() + " rank " + r.rank());
    }

    private static Answer ibNoDeviceFound(FlowContext c, FactCall call) {
        List<Rank> ranks = c.log().ranks();
        if (ranks.isEmpty()) {
            return Answer.unknown("no NCCL log was loaded");
        }
        Map<String, Rank> byProcess = new LinkedHashMap<>();
        ranks.stream().filter(r -> r.noIbDevice() && r.rdmaDevices().isEmpty()).forEach(r -> byProcess.putIfAbsent(r.process(), r));
        if (byProcess.isEmpty()) {
            return Answer.no("every rank that logged its network uses an RDMA device or did not report NET/IB : No device found");
        }
        Rank r = byProcess.values().iterator().next();
        return new Answer(Verdict.YES, byProcess.size() + " process(es) logged NET/IB : No device found, e.g. " + r.process(),
                byProcess.values().stream().map(Rank::evidence).toList(),
                byProcess.values().stream().map(StandardFacts::rankRef).toList(), Map.of("host", r.host()));
    }

    private static Answer roceInUse(FlowContext c, FactCall call) {
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
        return Answer.unknown("no rank logged the RDMA devices it uses (NET/IB : Using [0]dev:port/RoCE)");
    }

    private static Answer ncclErrorRaised(FlowContext c, FactCall call) {
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

    // ---------------------------------------------------------------- failures

    private static Answer rankFailed(FlowContext c, FactCall call) {
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

    private static Answer failureSignal(FlowContext c, FactCall call) {
        String want = call.string("signal").toUpperCase(Locale.ROOT);
        List<Failure> fs = c.failures();
        if (fs.isEmpty() || fs.get(0).exitCode().isEmpty()) {
            return Answer.unknown("no failed rank with an exit code in the inputs");
        }
        Failure f = fs.get(0);
        if (f.signal().equalsIgnoreCase(want)) {
            return new Answer(Verdict.YES, f.who() + " died of " + f.signal(), List.of(f.evidence()), List.of(f.subject()), Map.of());
        }
        return new Answer(Verdict.NO, f.who() + " " + f.how(), List.of(f.evidence()), List.of(f.subject()), Map.of());
    }

    private static Answer oomKilled(FlowContext c, FactCall call) {
        for (K8sEvent e : c.model().events()) {
            if (e.reason().startsWith("OOMKill") || e.message().contains("OOMKilled")) {
                return new Answer(Verdict.YES, e.objectName() + ": " + e.reason() + " " + e.message(), List.of(e.evidence()),
                        List.of(), Map.of());
            }
        }
        for (NcclEvent e : c.log().events()) {
            if (e.message().contains("CUDA out of memory") || e.message().contains("OutOfMemoryError")) {
                return new Answer(Verdict.YES, "CUDA out of memory", List.of(e.evidence()), List.of(), Map.of());
            }
        }
        for (Failure f : c.failures()) {
            if (f.exitCode().equals("137") || f.exitCode().equals("-9") || f.signal().equals("SIGKILL")) {
                return new Answer(Verdict.YES, f.who() + " " + f.how() + ": killed with SIGKILL, as the kernel's OOM "
                        + "killer or the kubelet does for memory", List.of(f.evidence()), List.of(f.subject()), Map.of());
            }
        }
        if (c.failures().isEmpty()) {
            return Answer.unknown("no failed rank or pod in the inputs");
        }
        return Answer.no("no OOMKilled event, no CUDA out of memory and no SIGKILL among the failures");
    }

    // ---------------------------------------------------------------- Kubernetes

    private static boolean requests(Map<String, Quantity> req, String resource) {
        if (RDMA.equals(resource)) {
            return Resources.requestsRdma(req);
        }
        Quantity q = req.get(resource);
        return q != null && q.isPositive();
    }

    private static String what(String resource) {
        return RDMA.equals(resource) ? "RDMA device resource (aliyun/erdma, rdma/*)" : resource;
    }

    private static Answer resourceRequested(FlowContext c, FactCall call) {
        String res = call.string("resource");
        List<Spec> specs = c.specs();
        if (specs.isEmpty()) {
            return Answer.unknown("no training pod or job manifest was loaded (kubectl get pods -o yaml)");
        }
        List<Spec> missing = specs.stream().filter(s -> !requests(s.spec().effectiveRequests(), res)).toList();
        if (missing.isEmpty()) {
            Set<String> names = new LinkedHashSet<>();
            specs.forEach(s -> s.spec().effectiveRequests().forEach((k, v) -> {
                if (v.isPositive() && (RDMA.equals(res) ? Resources.isRdma(k) : k.equals(res))) {
                    names.add(k + "=" + v.text());
                }
            }));
            return new Answer(Verdict.YES, "all " + specs.size() + " training pod(s)/template(s) request " + String.join(", ", names),
                    specs.stream().map(Spec::evidence).filter(java.util.Objects::nonNull).toList(), List.of(), Map.of());
        }
        Spec first = missing.get(0);
        Answer a = new Answer(Verdict.NO, first.label() + " requests no " + what(res)
                + (missing.size() > 1 ? " (and " + (missing.size() - 1) + " more)" : ""),
                missing.stream().map(Spec::evidence).filter(java.util.Objects::nonNull).toList(),
                missing.stream().map(Spec::subject).toList(), Map.of());
        return withPod(c, a, first.pod());
    }

    private static Answer withPod(FlowContext c, Answer a, K8sPod pod) {
        if (pod == null) {
            return a;
        }
        Map<String, String> v = new LinkedHashMap<>();
        c.putPod(v, pod);
        return a.withValues(v);
    }

    private static List<K8sNode> jobNodesOrAll(FlowContext c) {
        List<K8sNode> nodes = new ArrayList<>();
        for (String n : c.jobNodes()) {
            K8sNode k = c.model().k8sNodes().get(n);
            if (k != null) {
                nodes.add(k);
            }
        }
        if (nodes.isEmpty()) {
            nodes.addAll(c.model().k8sNodes().values());
        }
        return nodes;
    }

    private static Answer allocatableHas(FlowContext c, FactCall call) {
        String res = call.string("resource");
        List<K8sNode> nodes = jobNodesOrAll(c);
        if (nodes.isEmpty()) {
            return Answer.unknown("no node's allocatable was loaded (kubectl get node <node> -o jsonpath='{.status.allocatable}')");
        }
        List<K8sNode> lacking = new ArrayList<>();
        Set<String> offered = new LinkedHashSet<>();
        for (K8sNode n : nodes) {
            Map<String, Quantity> have = RDMA.equals(res) ? Resources.rdmaOffered(n.allocatable())
                    : n.allocatable(res) != null && n.allocatable(res).isPositive() ? Map.of(res, n.allocatable(res)) : Map.of();
            if (have.isEmpty()) {
                lacking.add(n);
            } else {
                have.forEach((k, v) -> offered.add(k + "=" + v.text()));
            }
        }
        if (lacking.isEmpty()) {
            return new Answer(Verdict.YES, nodes.size() + " node(s) offer " + String.join(", ", offered),
                    nodes.stream().map(K8sNode::allocatableEvidence).filter(java.util.Objects::nonNull).toList(),
                    List.of(), Map.of());
        }
        K8sNode n = lacking.get(0);
        Answer a = new Answer(Verdict.NO, "node " + n.name() + " offers no " + what(res) + " in its allocatable"
                + (lacking.size() > 1 ? " (nor " + (lacking.size() - 1) + " other node(s))" : ""),
                lacking.stream().map(K8sNode::allocatableEvidence).filter(java.util.Objects::nonNull).toList(),
                lacking.stream().map(x -> (Subject) Subjects.node(x)).toList(), Map.of("node", n.name()));
        Host h = c.model().hostOf(n);
        return a.with("host", h == null ? n.name() : h.name());
    }

    /** One environment per pod or template, and per process that logged NCCL's variables. */
    private record EnvSource(String label, Map<String, String> env, Evidence evidence, Subject subject, K8sPod pod,
                             String cite) {
    }

    private static List<EnvSource> envSources(FlowContext c, String name) {
        List<EnvSource> out = new ArrayList<>();
        for (Spec s : c.specs()) {
            Evidence cited = s.spec().citation(name);
            out.add(new EnvSource(s.label(), s.spec().env(), cited != null ? cited : s.evidence(), s.subject(), s.pod(), null));
        }
        for (org.fabricscope.model.evidence.HostEvidence h : c.model().hostEvidence().values()) {
            if (h.env().isEmpty() || c.hasJob() && !c.jobHosts().contains(h.host()) && c.podByName(h.host()) == null) {
                continue;
            }
            Map<String, String> env = new LinkedHashMap<>();
            h.env().forEach((k, v) -> env.put(k, v.value()));
            org.fabricscope.model.evidence.EnvVar v = h.env().get(name);
            out.add(new EnvSource("env of " + h.host(), env, v != null ? v.evidence()
                    : h.env().values().iterator().next().evidence(), new Subject.HostRef(h.host(), h.host()),
                    c.podByName(h.host()), null));
        }
        Set<String> seen = new LinkedHashSet<>();
        for (Rank r : c.log().ranks()) {
            // a process that logged no NCCL_* variable at all says nothing about its environment
            if (!r.env().isEmpty() && seen.add(r.process())) {
                out.add(new EnvSource("process " + r.process(), r.env(), r.evidence(), rankRef(r), null, null));
            }
        }
        return out;
    }

    private static Answer envSet(FlowContext c, FactCall call) {
        String name = call.string("name");
        String value = call.string("value");
        boolean any = "any".equals(call.string("in", "all"));
        List<EnvSource> sources = envSources(c, name);
        if (sources.isEmpty()) {
            return Answer.unknown("no pod, job manifest or NCCL log was loaded to show the job's environment");
        }
        List<EnvSource> ok = new ArrayList<>();
        List<EnvSource> bad = new ArrayList<>();
        for (EnvSource s : sources) {
            String v = s.env().get(name);
            boolean good = value == null ? v != null && !v.isBlank() : v != null && value.equals(v.trim());
            (good ? ok : bad).add(s);
        }
        String want = name + (value == null ? "" : "=" + value);
        if (any ? !ok.isEmpty() : bad.isEmpty()) {
            EnvSource s = ok.get(0);
            Answer a = new Answer(Verdict.YES, (any ? s.label() + " sets " : "all " + sources.size() + " pod(s)/process(es) set ")
                    + name + "=" + s.env().get(name), ok.stream().map(EnvSource::evidence).filter(java.util.Objects::nonNull).toList(),
                    ok.stream().map(EnvSource::subject).toList(), Map.of());
            return withPod(c, a, s.pod());
        }
        EnvSource s = bad.get(0);
        String v = s.env().get(name);
        String detail = any ? "no pod or process sets " + want
                : s.label() + (v == null ? " does not set " + name : " sets " + name + "=" + v) + (value == null || v == null ? "" : ", not " + value)
                + (bad.size() > 1 ? " (and " + (bad.size() - 1) + " more)" : "");
        Answer a = new Answer(Verdict.NO, detail, bad.stream().map(EnvSource::evidence).filter(java.util.Objects::nonNull).toList(),
                bad.stream().map(EnvSource::subject).toList(), Map.of());
        return withPod(c, a, s.pod());
    }

    private static Answer erdmaSetup(FlowContext c, FactCall call) {
        boolean loaded = false;
        for (Spec s : c.specs()) {
            loaded = true;
            if (requests(s.spec().effectiveRequests(), Resources.ERDMA)) {
                return new Answer(Verdict.YES, s.label() + " requests " + Resources.ERDMA,
                        s.evidence() == null ? List.of() : List.of(s.evidence()), List.of(s.subject()), Map.of());
            }
            String hca = s.spec().env().get("NCCL_IB_HCA");
            if (hca != null && hca.contains("erdma")) {
                return new Answer(Verdict.YES, s.label() + " sets NCCL_IB_HCA=" + hca,
                        s.evidence() == null ? List.of() : List.of(s.evidence()), List.of(s.subject()), Map.of());
            }
        }
        for (K8sNode n : jobNodesOrAll(c)) {
            loaded = true;
            Quantity q = n.allocatable(Resources.ERDMA);
            if (q != null && q.isPositive()) {
                return new Answer(Verdict.YES, "node " + n.name() + " offers " + Resources.ERDMA + "=" + q.text(),
                        n.allocatableEvidence() == null ? List.of() : List.of(n.allocatableEvidence()), List.of(), Map.of());
            }
        }
        for (Rank r : c.log().ranks()) {
            loaded = true;
            for (String d : r.rdmaDevices()) {
                if (d.startsWith("erdma")) {
                    return new Answer(Verdict.YES, r.process() + " uses " + d, List.of(r.evidence()), List.of(rankRef(r)), Map.of());
                }
            }
            String hca = r.env().get("NCCL_IB_HCA");
            if (hca != null && hca.contains("erdma")) {
                return new Answer(Verdict.YES, r.process() + " has NCCL_IB_HCA=" + hca, List.of(r.evidence()), List.of(rankRef(r)), Map.of());
            }
        }
        return loaded ? Answer.no("no aliyun/erdma request or offer, no erdma_* device and no NCCL_IB_HCA=erdma")
                : Answer.unknown("no pod, node or NCCL log was loaded");
    }

    private static Answer instanceTypeIn(FlowContext c, FactCall call) {
        Map<String, Integer> table = call.table("types");
        String scope = call.string("scope");
        List<K8sNode> nodes = jobNodesOrAll(c);
        K8sNode found = null;
        for (K8sNode n : nodes) {
            String type = n.labels().getOrDefault(INSTANCE_TYPE, n.labels().get(INSTANCE_TYPE_BETA));
            if (type == null) {
                continue;
            }
            if (scope != null && !type.startsWith(scope)) {
                return new Answer(Verdict.UNKNOWN, "node " + n.name() + " is a " + type + ", outside " + scope + "*",
                        List.of(), List.of(), Map.of("node", n.name(), "instance-type", type));
            }
            if (!table.containsKey(type)) {
                return new Answer(Verdict.NO, "node " + n.name() + " is a " + type + ", not in the table", 
                        n.evidence() == null ? List.of() : List.of(n.evidence()), List.of(Subjects.node(n)),
                        Map.of("node", n.name(), "instance-type", type));
            }
            found = found == null ? n : found;
        }
        if (found == null) {
            return Answer.unknown("no node read carries an instance type label (" + INSTANCE_TYPE + ")");
        }
        String type = found.labels().getOrDefault(INSTANCE_TYPE, found.labels().get(INSTANCE_TYPE_BETA));
        return new Answer(Verdict.YES, "node " + found.name() + " is a " + type + " (" + table.get(type) + ")",
                found.evidence() == null ? List.of() : List.of(found.evidence()), List.of(Subjects.node(found)),
                Map.of("node", found.name(), "instance-type", type, "erdma-nics", String.valueOf(table.get(type))));
    }

    private static Answer sameRdmaNetwork(FlowContext c, FactCall call) {
        Map<String, List<Spec>> byJob = new LinkedHashMap<>();
        for (Spec s : c.specs()) {
            String job = s.pod() != null && s.pod().job() != null ? s.pod().namespace() + "/" + s.pod().job().jobName()
                    : s.subject() instanceof Subject.JobRef j ? j.namespace() + "/" + j.job() : s.label();
            byJob.computeIfAbsent(job, k -> new ArrayList<>()).add(s);
        }
        for (var e : byJob.entrySet()) {
            List<Spec> specs = e.getValue();
            for (String key : new String[] {"networks", "NCCL_IB_HCA", "NCCL_SOCKET_IFNAME"}) {
                Map<String, Spec> seen = new LinkedHashMap<>();
                for (Spec s : specs) {
                    String v = key.equals("networks") ? s.spec().networks() : s.spec().env().get(key);
                    seen.putIfAbsent(String.valueOf(v), s);
                }
                if (seen.size() > 1) {
                    List<String> parts = new ArrayList<>();
                    seen.forEach((v, s) -> parts.add(s.label() + ": " + ("null".equals(v) ? "none" : v)));
                    String what = key.equals("networks") ? "secondary network (k8s.v1.cni.cncf.io/networks)" : key;
                    Spec first = seen.values().iterator().next();
                    return new Answer(Verdict.NO, "job " + e.getKey() + " differs in " + what + ": " + String.join("; ", parts),
                            seen.values().stream().map(Spec::evidence).filter(java.util.Objects::nonNull).toList(),
                            seen.values().stream().map(Spec::subject).toList(), Map.of()).with("pod",
                            first.pod() == null ? null : first.pod().name());
                }
            }
        }
        return Answer.unknown(byJob.isEmpty() ? "no training pod or manifest was loaded"
                : "the pods agree on their network settings; VLAN and partition membership are not in the inputs");
    }

    private static Answer cpuLimitPerGpuBelow(FlowContext c, FactCall call) {
        double cores = call.number("cores", 0);
        boolean anyLimit = false;
        if (c.specs().isEmpty()) {
            return Answer.unknown("no training pod or job manifest was loaded");
        }
        for (Spec s : c.specs()) {
            Quantity cpu = s.spec().limits().get("cpu");
            Quantity gpu = s.spec().effectiveRequests().get(Resources.GPU);
            if (cpu == null) {
                continue;
            }
            anyLimit = true;
            if (gpu == null || !gpu.isPositive()) {
                continue;
            }
            BigDecimal per = cpu.value().divide(gpu.value(), 2, RoundingMode.HALF_UP);
            if (per.compareTo(BigDecimal.valueOf(cores)) < 0) {
                return withPod(c, new Answer(Verdict.YES, s.label() + " limits CPU to " + cpu.text() + " for " + gpu.text()
                        + " GPU(s): " + per.stripTrailingZeros().toPlainString() + " per GPU, below " + fmt(cores),
                        s.evidence() == null ? List.of() : List.of(s.evidence()), List.of(s.subject()), Map.of()), s.pod());
            }
        }
        return Answer.no(anyLimit ? "every CPU limit leaves at least " + fmt(cores) + " cores per GPU"
                : "no training pod limits its CPU");
    }

    private static String fmt(double d) {
        return d == Math.rint(d) ? String.valueOf((long) d) : String.valueOf(d);
    }

    private static Answer podPending(FlowContext c, FactCall call) {
        K8sPod p = c.pendingPod();
        if (p == null) {
            if (c.model().pods().isEmpty()) {
                return Answer.unknown("no pod was loaded (kubectl get pods -o yaml)");
            }
            return Answer.no("no pod is Pending");
        }
        long more = c.model().pods().stream().filter(x -> x.pending() && x.node() == null).count() - 1;
        return withPod(c, new Answer(Verdict.YES, "pod " + p.key() + " is Pending" + (more > 0 ? " (and " + more + " more)" : ""),
                p.evidence() == null ? List.of() : List.of(p.evidence()), List.of(Subjects.pod(p)), Map.of()), p);
    }

    /** A reason the Pending pod does not fit, from the scheduler's event or the model's own fit. */
    private record Why(SchedulingFailure.Kind kind, String subject, String text, int count, Evidence evidence) {
    }

    private static List<Why> reasons(FlowContext c, K8sPod pod) {
        List<Why> out = new ArrayList<>();
        for (K8sEvent e : c.model().k8s().eventsFor(pod)) {
            if (e.scheduling() != null) {
                for (SchedulingFailure.Reason r : e.scheduling().reasons()) {
                    out.add(new Why(r.kind(), r.subject(), r.count() + " " + r.text(), r.count(), e.evidence()));
                }
            }
        }
        if (!out.isEmpty() || c.model().k8sNodes().isEmpty()) {
            return out;
        }
        Map<String, Integer> counts = new LinkedHashMap<>();
        for (NodeFit f : c.model().k8s().fit(pod)) {
            f.reasons().forEach(r -> counts.merge(r, 1, Integer::sum));
        }
        counts.forEach((r, n) -> {
            SchedulingFailure.Kind k = r.startsWith("Insufficient ") ? SchedulingFailure.Kind.INSUFFICIENT
                    : r.contains("taint") ? SchedulingFailure.Kind.UNTOLERATED_TAINT
                    : r.contains("affinity/selector") ? SchedulingFailure.Kind.NODE_AFFINITY
                    : r.contains("unschedulable") ? SchedulingFailure.Kind.UNSCHEDULABLE : SchedulingFailure.Kind.OTHER;
            out.add(new Why(k, r.startsWith("Insufficient ") ? r.substring(13) : "", n + " " + r + " (FabricScope's fit)", n,
                    pod.evidence()));
        });
        return out;
    }

    private static Answer schedulingReason(FlowContext c, FactCall call) {
        K8sPod pod = c.pendingPod();
        if (pod == null) {
            return c.model().pods().isEmpty() ? Answer.unknown("no pod was loaded") : Answer.no("no pod is Pending");
        }
        List<Why> why = reasons(c, pod);
        if (why.isEmpty()) {
            return withPod(c, Answer.unknown("no FailedScheduling event for pod " + pod.key() + " and no node was loaded to fit it"), pod);
        }
        SchedulingFailure.Kind kind = switch (call.string("kind")) {
            case "insufficient" -> SchedulingFailure.Kind.INSUFFICIENT;
            case "taint" -> SchedulingFailure.Kind.UNTOLERATED_TAINT;
            case "selector" -> SchedulingFailure.Kind.NODE_AFFINITY;
            default -> SchedulingFailure.Kind.UNSCHEDULABLE;
        };
        String res = call.string("resource");
        List<Why> hit = why.stream().filter(w -> w.kind() == kind && (res == null
                || (RDMA.equals(res) ? Resources.isRdma(w.subject()) : res.equals(w.subject())))).toList();
        String all = why.stream().map(Why::text).reduce((a, b) -> a + ", " + b).orElse("");
        if (hit.isEmpty()) {
            return withPod(c, new Answer(Verdict.NO, "pod " + pod.key() + ": " + all, List.of(why.get(0).evidence()),
                    List.of(Subjects.pod(pod)), Map.of()), pod);
        }
        return withPod(c, new Answer(Verdict.YES, "pod " + pod.key() + ": " + hit.stream().map(Why::text)
                .reduce((a, b) -> a + ", " + b).orElse("") + (hit.size() < why.size() ? " (all: " + all + ")" : ""),
                List.of(hit.get(0).evidence()), List.of(Subjects.pod(pod)), Map.of()), pod);
    }

    private static Answer podFitsANode(FlowContext c, FactCall call) {
        K8sPod pod = c.pendingPod();
        if (pod == null) {
            return c.model().pods().isEmpty() ? Answer.unknown("no pod was loaded") : Answer.no("no pod is Pending");
        }
        if (c.model().k8sNodes().isEmpty()) {
            return withPod(c, Answer.unknown("no node was loaded (kubectl get nodes -o json) to fit pod " + pod.key()), pod);
        }
        List<NodeFit> fits = c.model().k8s().fit(pod);
        for (NodeFit f : fits) {
            if (f.fits()) {
                return withPod(c, Answer.yes("pod " + pod.key() + " fits node " + f.node()
                        + " by its requests, selectors and tolerations").with("node", f.node()), pod);
            }
        }
        List<String> parts = fits.stream().map(f -> f.node() + ": " + String.join(", ", f.reasons())).toList();
        return withPod(c, new Answer(Verdict.NO, "pod " + pod.key() + " fits no node (" + String.join("; ", parts) + ")",
                pod.evidence() == null ? List.of() : List.of(pod.evidence()), List.of(Subjects.pod(pod)), Map.of()), pod);
    }

    private static Answer socketIfnameSecondary(FlowContext c, FactCall call) {
        if (c.specs().isEmpty()) {
            return Answer.unknown("no training pod or manifest was loaded");
        }
        boolean judged = false;
        for (Spec s : c.specs()) {
            List<String> ifs = s.spec().socketInterfaces();
            boolean secondary = !ifs.isEmpty() && ifs.stream().allMatch(i -> i.matches("net\\d+"));
            String nets = s.spec().networks();
            Evidence ev = s.spec().citation("NCCL_SOCKET_IFNAME") != null ? s.spec().citation("NCCL_SOCKET_IFNAME") : s.evidence();
            if (nets != null && !nets.isBlank()) {
                judged = true;
                if (!secondary) {
                    return withPod(c, new Answer(Verdict.NO, s.label() + " attaches " + nets + " (net1) but NCCL_SOCKET_IFNAME="
                            + s.spec().env().getOrDefault("NCCL_SOCKET_IFNAME", "(unset)"), ev == null ? List.of() : List.of(ev),
                            List.of(s.subject()), Map.of()), s.pod());
                }
            } else if (secondary) {
                judged = true;
                return withPod(c, new Answer(Verdict.NO, s.label() + " sets NCCL_SOCKET_IFNAME=" + String.join(",", ifs)
                        + " but attaches no secondary network: the interface does not exist in the pod",
                        ev == null ? List.of() : List.of(ev), List.of(s.subject()), Map.of()), s.pod());
            }
        }
        return judged ? Answer.yes("every pod with a secondary network names it in NCCL_SOCKET_IFNAME")
                : Answer.unknown("the pods attach no secondary (Multus) network");
    }

    // ---------------------------------------------------------------- fabric and ranks

    /** A port's logical state, or its peer's when its own was not read (both ends of a link share it). */
    private static PortState state(Port p) {
        if (p.state() != PortState.UNKNOWN) {
            return p.state();
        }
        return p.peer() != null ? p.peer().state() : PortState.UNKNOWN;
    }

    private static Answer hcaPortsActive(FlowContext c, FactCall call) {
        FabricModel m = c.model();
        List<Host> hosts = new ArrayList<>();
        if (c.hasJob()) {
            for (String h : c.jobHosts()) {
                Host host = m.host(h);
                if (host != null) {
                    hosts.add(host);
                }
            }
        } else {
            hosts.addAll(m.hosts().values());
        }
        if (hosts.isEmpty()) {
            return Answer.unknown(c.hasJob() ? "the job's nodes are not in the fabric dump" : "no fabric host was loaded");
        }
        List<Port> known = new ArrayList<>();
        List<Port> bad = new ArrayList<>();
        for (Host h : hosts) {
            for (FabricNode a : h.adapters()) {
                for (Port p : a.ports()) {
                    PortState s = state(p);
                    if (s == PortState.UNKNOWN || s == PortState.DOWN && p.cable() == null) {
                        continue;
                    }
                    known.add(p);
                    if (s != PortState.ACTIVE) {
                        bad.add(p);
                    }
                }
            }
        }
        if (known.isEmpty()) {
            return Answer.unknown("the inputs give no port state for the HCAs of " + hosts.get(0).name()
                    + (hosts.size() > 1 ? " and " + (hosts.size() - 1) + " more host(s)" : "") + " (iblinkinfo, ibv_devinfo)");
        }
        if (bad.isEmpty()) {
            return new Answer(Verdict.YES, known.size() + " HCA port(s) of " + hosts.size() + " host(s) are Active",
                    known.stream().map(p -> p.stateEvidence() != null ? p.stateEvidence()
                            : p.peer() != null ? p.peer().stateEvidence() : null).filter(java.util.Objects::nonNull).toList(),
                    List.of(), Map.of());
        }
        Port p = bad.get(0);
        Evidence ev = p.stateEvidence() != null ? p.stateEvidence() : p.peer() != null ? p.peer().stateEvidence() : null;
        Answer a = new Answer(Verdict.NO, Subjects.portLabel(p) + " is " + state(p).name() + ", not Active"
                + (bad.size() > 1 ? " (and " + (bad.size() - 1) + " more)" : ""), ev == null ? List.of() : List.of(ev),
                bad.stream().map(x -> (Subject) Subjects.port(x)).toList(), Map.of("hca", FlowContext.hcaName(p.node())));
        Host h = p.node().host();
        if (h != null) {
            a = a.with("host", h.name());
            K8sNode n = m.k8sNodeOf(h);
            a = a.with("node", n == null ? h.name() : n.name());
        }
        return a;
    }

    private static Answer laggingRankLocated(FlowContext c, FactCall call) {
        Lag lag = c.lag();
        if (lag == null) {
            return Answer.unknown("no nccl-timeout finding names a lagging rank");
        }
        if (lag.site() == null) {
            return new Answer(Verdict.NO, "rank " + lag.worldRank() + " lagged, but printed no NCCL Init line to place it",
                    lag.finding().evidence(), List.of(lag.finding().refs().get(0)), Map.of("rank", String.valueOf(lag.worldRank())));
        }
        RankSite s = lag.site();
        Map<String, String> v = new LinkedHashMap<>();
        c.putSite(v, s);
        List<Subject> subjects = new ArrayList<>();
        subjects.add(lag.finding().refs().get(0));
        if (s.pod() != null) {
            K8sPod p = c.podByName(s.pod());
            if (p != null) {
                subjects.add(Subjects.pod(p));
            }
        }
        if (s.hcaPort() != null) {
            subjects.add(Subjects.port(s.hcaPort()));
        }
        if (s.leafPort() != null) {
            subjects.add(Subjects.port(s.leafPort()));
        }
        List<Evidence> ev = s.rank().evidence() == null ? List.of() : List.of(s.rank().evidence());
        String place = s.place();
        String ran = "rank " + s.rank().rank() + " ran on " + place.substring(1, place.length() - 1);
        if (s.hca() != null && s.leafPort() != null) {
            return new Answer(Verdict.YES, ran, ev, subjects, v);
        }
        return new Answer(Verdict.NO, ran + ": the inputs do not place its HCA and leaf port on the fabric "
                + "(load the fabric dump, host topologies and pods with the logs)", ev, subjects, v);
    }

    private static Answer laggingRankPathErrors(FlowContext c, FactCall call) {
        Lag lag = c.lag();
        if (lag == null || lag.site() == null || lag.site().hcaPort() == null) {
            return Answer.unknown(lag == null ? "no nccl-timeout finding names a lagging rank"
                    : "rank " + lag.worldRank() + " is not placed on the fabric, so its links are unknown");
        }
        RankSite s = lag.site();
        List<Evidence> ev = new ArrayList<>();
        List<String> over = new ArrayList<>();
        List<Subject> subjects = new ArrayList<>();
        for (Port p : new Port[] {s.hcaPort(), s.leafPort()}) {
            if (p == null) {
                continue;
            }
            for (var e : p.counters().entrySet()) {
                if (c.analysis().thresholds().judge(e.getKey(), e.getValue()) != null) {
                    over.add(p.label() + " " + e.getKey() + "=" + e.getValue());
                    Evidence x = p.counterEvidence(e.getKey());
                    ev.add(new Evidence(x == null ? "" : x.source(), x == null ? 0 : x.line(), p.label() + ": " + e.getKey() + "=" + e.getValue()));
                    subjects.add(Subjects.port(p));
                }
            }
            if (p.physState() != null && p.state() == PortState.DOWN && p.cable() != null) {
                over.add(p.label() + " is down");
                subjects.add(Subjects.port(p));
            }
        }
        if (!over.isEmpty()) {
            return new Answer(Verdict.YES, "the lagging rank's host link has errors: " + String.join(", ", over), ev, subjects, Map.of());
        }
        // a rank-path-errors finding whose cable lies on one of the lagging rank's routes
        List<org.fabricscope.model.ranks.RankRoute> routes = c.analysis().ranks().routes().stream()
                .filter(r -> r.a() == s || r.b() == s).toList();
        boolean counted = !s.hcaPort().counters().isEmpty() || s.leafPort() != null && !s.leafPort().counters().isEmpty();
        for (var r : routes) {
            for (Cable cable : r.cables()) {
                counted |= !cable.a().counters().isEmpty() || !cable.b().counters().isEmpty();
            }
        }
        for (Finding f : c.findings("rank-path-errors")) {
            List<Subject.PortRef> ends = f.refs().stream().filter(x -> x instanceof Subject.PortRef)
                    .map(x -> (Subject.PortRef) x).limit(2).toList();
            if (ends.size() < 2) {
                continue;
            }
            for (var r : routes) {
                for (Cable cable : r.cables()) {
                    if (isCable(cable, ends.get(0), ends.get(1))) {
                        return new Answer(Verdict.YES, "rank-path-errors on a path of rank " + lag.worldRank() + ": " + f.title(),
                                f.evidence(), f.refs(), Map.of());
                    }
                }
            }
        }
        if (!counted) {
            return Answer.unknown("no counters were read for the lagging rank's links (perfquery, ibqueryerrors)");
        }
        return Answer.no("the lagging rank's host link (" + s.hcaPort().label() + ") and the cables of its "
                + routes.size() + " fabric route(s) are within thresholds");
    }

    private static boolean isCable(Cable c, Subject.PortRef x, Subject.PortRef y) {
        return end(c.a(), x) && end(c.b(), y) || end(c.a(), y) && end(c.b(), x);
    }

    private static boolean end(Port p, Subject.PortRef r) {
        return p.node().guid() == r.guid() && p.number() == r.port();
    }
}
