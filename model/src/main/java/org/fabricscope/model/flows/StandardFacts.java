package org.fabricscope.model.flows;

import static org.fabricscope.model.flows.FlowFacts.Param.choice;
import static org.fabricscope.model.flows.FlowFacts.Param.optional;
import static org.fabricscope.model.flows.FlowFacts.Param.required;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.fabricscope.model.core.Plural;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.core.FindingSpec;
import org.fabricscope.model.core.Subject;
import org.fabricscope.model.fabric.Host;
import org.fabricscope.model.flows.FlowFacts.Fact;
import org.fabricscope.model.flows.FlowFacts.Type;
import org.fabricscope.model.k8s.K8sNode;
import org.fabricscope.model.k8s.K8sPod;
import org.fabricscope.model.ranks.RankSite;
import org.fabricscope.model.training.Rank;

/**
 * The facts FabricScope implements: the registry ({@link #all()}: each fact's name, parameters and
 * what answers it, in the order {@code flows --facts} lists them) and the facts about findings. The
 * others answer by domain: {@link FabricFacts} (fabric dump, ports and the lagging rank's links),
 * {@link HostFacts} (host evidence: ibstat, eadm stat, ulimit, ls -l /dev/infiniband, GID tables),
 * {@link KubernetesFacts} (pods, nodes, manifests, the job's environment, scheduling) and
 * {@link TrainingFacts} (NCCL and PyTorch logs, torchrun failures). Each answers from what the model
 * holds; where no reader holds the fact yet (switch PFC settings) it answers from findings that
 * imply it, and otherwise unknown, so the manual step that asks it waits for the user until a reader
 * adds the fact.
 */
final class StandardFacts {
    private StandardFacts() {
    }

    static final String RDMA = "rdma";
    /** A NIC subject's label that names its port: {@code dgx-01 mlx5_3 port 1}. */
    private static final java.util.regex.Pattern HCA_PORT = java.util.regex.Pattern.compile(" port (\\d{1,3})$");

    static List<Fact> all() {
        return List.of(
                new Fact("finding-present", "A finding with this id is among the analysis' findings.",
                        List.of(required("id", Type.FINDING_ID, "the finding id (fabricscope checks lists them)"),
                                choice("scope", false, "all (default): any finding; job: only findings about the loaded "
                                        + "job's pods, nodes, hosts, HCAs, fabric paths and ranks", "all", "job")),
                        "the inputs of the finding's layer; unknown when that layer was not loaded",
                        StandardFacts::findingPresent),
                new Fact("root-cause", "The incident's first failure (the incident-root-cause finding) was found, of this cause "
                        + "class or not of it.",
                        List.of(optional("class", Type.STRING, "cause classes, comma-separated (docs/signatures.md lists them): the "
                                        + "root cause must be of one of them"),
                                optional("not", Type.STRING, "cause classes, comma-separated, the root cause must not be of, e.g. "
                                        + "scheduling,collective-hang")),
                        "logs, kernel logs and Kubernetes objects, through the failure-signature catalogue",
                        IncidentFacts::rootCause),
                new Fact("transport-used", "NCCL channels use this transport (from the Channel ... via ... lines).",
                        List.of(choice("transport", true, "NET/IB (with or without GDRDMA), NET/IB+GDRDMA, NET/Socket, "
                                        + "NET/other, P2P, SHM; network (any NET/*) or local (P2P or SHM)",
                                        "NET/IB", "NET/IB+GDRDMA", "NET/Socket", "NET/other", "P2P", "SHM", "network", "local"),
                                choice("of", false, "all (default): any rank's channels; lagging-rank: the channels of the "
                                        + "rank the nccl-timeout finding says lagged", "all", "lagging-rank")),
                        "NCCL_DEBUG=INFO logs", TrainingFacts::transportUsed),
                new Fact("multi-node", "The job's ranks (or pods) span more than one node.", List.of(),
                        "NCCL logs (Init lines), else the training pods", TrainingFacts::multiNode),
                new Fact("resource-requested", "Every training pod (or replica template) requests this resource.",
                        List.of(required("resource", Type.STRING, "a resource name (aliyun/erdma, rdma/rdma, nvidia.com/gpu) "
                                + "or rdma: any RDMA device resource (aliyun/erdma, rdma/*)")),
                        "kubectl get pods -o yaml, or the job manifest", KubernetesFacts::resourceRequested),
                new Fact("allocatable-has", "Every node the job runs on (every node read, when none is known) offers this "
                        + "resource in its allocatable.",
                        List.of(required("resource", Type.STRING, "a resource name, or rdma: any RDMA device resource")),
                        "kubectl get nodes -o json, or kubectl get node X -o jsonpath='{.status.allocatable}'",
                        KubernetesFacts::allocatableHas),
                new Fact("env-set", "An environment variable is set (to this value) for the job: pod specs, manifests and "
                        + "the variables NCCL logged as set by environment.",
                        List.of(required("name", Type.STRING, "the variable, e.g. NCCL_IB_HCA"),
                                optional("value", Type.STRING, "the value it must have (exact match after trimming)"),
                                choice("in", false, "all (default): every pod, template and rank; any: at least one",
                                        "all", "any")),
                        "kubectl get pods -o yaml, the job manifest, or NCCL_DEBUG=INFO logs", KubernetesFacts::envSet),
                new Fact("nccl-version-at-least", "Every rank runs at least this NCCL version.",
                        List.of(required("version", Type.VERSION, "e.g. 2.19")), "NCCL logs (NCCL version line)",
                        TrainingFacts::ncclVersionAtLeast),
                new Fact("ib-no-device-found", "A rank (or an NCCL process that failed before Init) logged NET/IB : No "
                        + "device found and uses no RDMA device.", List.of(), "NCCL logs", TrainingFacts::ibNoDeviceFound),
                new Fact("nccl-net-failed", "NCCL was left with no network: the NET plugin it was restricted to (NCCL_NET=IB) "
                        + "failed to initialize and none was left, so communicator init failed.", List.of(),
                        "NCCL logs (2.19+: Failed to initialize NET plugin IB, Failed to initialize any NET plugin; older: "
                                + "Error: network IB not found.)", TrainingFacts::ncclNetFailed),
                new Fact("erdma-setup", "The job is set up for Alibaba Cloud eRDMA: it requests or its nodes offer "
                        + "aliyun/erdma, its ranks use erdma_* devices, or NCCL_IB_HCA names erdma.", List.of(),
                        "pods, nodes, NCCL logs", KubernetesFacts::erdmaSetup),
                new Fact("instance-type-in", "The job's nodes are of instance types in this table (instance type "
                        + "label node.kubernetes.io/instance-type); the table's value becomes {{erdma-nics}}.",
                        List.of(required("types", Type.TABLE, "instance type -> number (e.g. eRDMA NICs, the PAI eRDMA guide)"),
                                optional("scope", Type.STRING, "a prefix (e.g. ecs.): types outside it answer unknown")),
                        "kubectl get nodes -o json (labels)", KubernetesFacts::instanceTypeIn),
                new Fact("hca-ports-active", "The RDMA ports of the job's hosts are Active (PORT_ACTIVE).", List.of(),
                        "ibstat, ibstatus or ibv_devinfo on the hosts; else eadm stat (an eRDMA device missing, or passing "
                                + "traffic); else iblinkinfo or ibnetdiscover with port states",
                        (c, call) -> {
                            Answer a = HostFacts.hcaPortsActive(c);
                            return a != null ? a : FabricFacts.hcaPortsActive(c, call);
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
                new Fact("pfc-enabled", "Priority flow control is enabled for the RoCE traffic class on hosts and switches: on "
                        + "every RoCE NIC read, PFC is on the priority its traffic uses (NCCL_IB_TC, or NCCL_IB_SL under trust pcp, "
                        + "through the NIC's trust state and DSCP table; its value {{roce-priority}}).",
                        List.of(), "mlnx_qos -i <interface> on the hosts, with NCCL_IB_TC from the ranks' NCCL logs or environment "
                                + "(the switch configuration has no reader)", RoceFacts::pfcEnabled),
                new Fact("roce-fabric", "The fabric is RoCE: host NICs placed by LLDP (Ethernet), or ranks on RoCE devices; "
                        + "no for an InfiniBand fabric (adapters from a subnet discovery, or ranks on /IB devices).", List.of(),
                        "lldpcli show neighbors of the hosts or switches; NCCL logs; GID tables; ibnetdiscover", RoceFacts::roceFabric),
                new Fact("roce-counters-sampled", "At least one RoCE NIC's counters (ethtool -S, the RDMA hw_counters) were read "
                        + "in two timed samples, so loss, pause storms and ECN can be judged from their rises.", List.of(),
                        "two timed samples of ethtool -S <interface> and grep . /sys/class/infiniband/<dev>/ports/1/hw_counters/*",
                        RoceFacts::countersSampled),
                new Fact("gid-index-matches", "NCCL_IB_GID_INDEX is the RoCE v2 entry of the IPv4-mapped GID "
                        + "(::ffff:a.b.c.d) of the device's port.", List.of(),
                        "the GID table (grep . /sys/class/infiniband/*/ports/*/gids/* .../gid_attrs/types/*, show_gids, "
                                + "ibv_devinfo -v) with NCCL_IB_GID_INDEX from pods, env or NCCL logs (each host's own where "
                                + "pods set their own), on the devices NCCL_IB_HCA takes",
                        HostFacts::gidIndexMatches),
                new Fact("roce-gid-listed", "A GID table read from the hosts lists RoCE entries (a RoCE v2 type, or an "
                        + "IPv4-mapped GID ::ffff:a.b.c.d), so the GID index matters; no when every table holds only "
                        + "InfiniBand (IB/RoCE v1 link-local) entries.", List.of(),
                        "the GID table (grep . /sys/class/infiniband/*/ports/*/gids/* .../gid_attrs/types/*, show_gids, "
                                + "ibv_devinfo -v)", HostFacts::roceGidListed),
                new Fact("roce-gid-index-found", "The GID tables give the RoCE v2 index of the IPv4-mapped GID "
                        + "(::ffff:a.b.c.d) of at least one RDMA device port (each port read is named); its values "
                        + "{{gid-index}}, {{ib-hca}} and {{gid-indexes}} are the NCCL_IB_GID_INDEX and NCCL_IB_HCA to set. "
                        + "No when the tables hold no such entry (no IPv4 address on the ports' netdevs).", List.of(),
                        "the GID table; ip addr and the NCCL log's bootstrap address pick among several IPv4 entries of a port",
                        HostFacts::roceGidIndexFound),
                new Fact("gid-index-uniform", "Every RDMA device port with a RoCE v2 IPv4 GID has it at the same index, and "
                        + "one NCCL_IB_HCA takes exactly those devices on every host: one setting fits the whole job.",
                        List.of(), "the GID tables of the job's hosts", HostFacts::gidIndexUniform),
                new Fact("same-rdma-network", "All the job's pods attach the same secondary network and RDMA settings "
                        + "(Multus annotation, NCCL_IB_HCA, NCCL_SOCKET_IFNAME).", List.of(),
                        "pods or manifests; VLAN and partition membership have no reader yet", KubernetesFacts::sameRdmaNetwork),
                new Fact("roce-in-use", "The ranks' RDMA devices run RoCE (NET/IB : Using [0]mlx5_0:1/RoCE, eRDMA).",
                        List.of(), "NCCL logs; without them, the GID tables (roce-gid-listed)", TrainingFacts::roceInUse),
                new Fact("lagging-rank-located", "The rank the nccl-timeout finding says lagged is placed: pod, node, "
                        + "GPU, HCA and leaf port.", List.of(),
                        "NCCL logs with the pods, host topologies and fabric dump", FabricFacts::laggingRankLocated),
                new Fact("lagging-rank-path-errors", "The lagging rank's host link, or a cable on its fabric paths, has "
                        + "error counters over threshold or lost its link.", List.of(),
                        "NCCL logs with the fabric dump and counters (perfquery, ibqueryerrors)",
                        FabricFacts::laggingRankPathErrors),
                new Fact("cpu-limit-per-gpu-below", "A training pod's CPU limit is below this many cores per GPU "
                        + "(NCCL's proxy threads starve).", List.of(required("cores", Type.NUMBER, "cores per GPU")),
                        "kubectl get pods -o yaml", KubernetesFacts::cpuLimitPerGpuBelow),
                new Fact("nccl-settings-differ", "The job's nodes differ in an NCCL setting known to hang a job or fail "
                        + "its connections (NCCL_PROTO, NCCL_ALGO, NCCL_BUFFSIZE, channel counts...: the config-drift finding "
                        + "at error).", List.of(), "NCCL_DEBUG=INFO logs with ENV, or the pods' environment, from two nodes or more",
                        TrainingFacts::ncclSettingsDiffer),
                new Fact("rank-failed", "A rank died: torchrun reported a failed process (ChildFailedError, failed "
                        + "(exitcode ...)), or a training pod is Failed. Names the first (torchrun's root cause).",
                        List.of(), "torchrun output, pods", TrainingFacts::rankFailed),
                new Fact("failure-signal", "The first failed rank died of this signal (named by torchrun, or implied by "
                        + "its exit code: -N, or 128 + N from a shell or container, is signal N).",
                        List.of(required("signal", Type.STRING, "e.g. SIGKILL, SIGTERM, SIGABRT, SIGSEGV")),
                        "torchrun output, pods", TrainingFacts::failureSignal),
                new Fact("oom-killed", "A rank or pod was killed for memory: an OOMKilled status or event of the job's pods "
                        + "or nodes, the kernel's OOM killer in a node's kernel log, or CUDA out of memory. A SIGKILL (exit code "
                        + "-9 or 137) without such evidence answers unknown: a scheduler or a person sends it too.", List.of(),
                        "Kubernetes pods (containerStatuses) and events, dmesg or journalctl -k, PyTorch logs",
                        TrainingFacts::oomKilled),
                new Fact("nccl-error-raised", "PyTorch raised an NCCL error of its own (not a communicator aborted "
                        + "after a timeout): unhandled system error, invalid usage, remote error...", List.of(),
                        "PyTorch / NCCL logs", TrainingFacts::ncclErrorRaised),
                new Fact("pod-pending", "A training pod is Pending, not scheduled to a node.", List.of(),
                        "kubectl get pods -o yaml", KubernetesFacts::podPending),
                new Fact("scheduling-reason", "The scheduler (its FailedScheduling event) or FabricScope's own fit of "
                        + "the Pending pod gives this reason.",
                        List.of(choice("kind", true, "insufficient, taint, selector or unschedulable",
                                        "insufficient", "taint", "selector", "unschedulable"),
                                optional("resource", Type.STRING, "with insufficient: the resource (or rdma)")),
                        "kubectl get events / describe pod, kubectl get nodes -o json", KubernetesFacts::schedulingReason),
                new Fact("pod-fits-a-node", "The Pending pod's requests, selectors and tolerations fit a node "
                        + "(free = allocatable minus the requests of the pods there).", List.of(),
                        "kubectl get nodes -o json and kubectl get pods -A -o yaml", KubernetesFacts::podFitsANode),
                new Fact("socket-ifname-secondary", "NCCL_SOCKET_IFNAME names the pod's secondary (Multus) interface "
                        + "(net1...) where the pod has one.", List.of(),
                        "kubectl get pods -o yaml (annotation k8s.v1.cni.cncf.io/networks and env)",
                        KubernetesFacts::socketIfnameSecondary));
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
            return Answer.no(Plural.of(all.size(), id + " finding") + ", none about the job's pods, hosts or paths");
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
}
