package org.fabricscope.model.training;

import org.fabricscope.model.core.FindingSpec;
import org.fabricscope.model.core.Layer;
import org.fabricscope.model.core.Subject;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.core.Severity;

/**
 * The training layer's checks over what the NCCL and PyTorch logs say. Remedies come from the
 * documented FAQs (the ACK/Arena eRDMA guide, the RunAI RoCE guide, the Kubernetes training
 * infrastructure notes and the RDMA fabric manual's troubleshooting matrix).
 */
public final class TrainingChecks {
    private TrainingChecks() {
    }

    private static final String S000 = "the ACK eRDMA guide (ACK/Arena eRDMA guide and FAQ); NCCL 2.7-2.30 log formats";
    private static final String S003 = "the distributed-training module (distributed training on Kubernetes: failure modes)";
    private static final String S004 = "the RDMA fabric manual (RDMA fabric manual: troubleshooting matrix); IB verbs completion status codes";

    /** The ids these checks raise, with their layer, severity, meaning and the source of the rule. */
    public static final List<FindingSpec> SPECS = List.of(
            spec("rdma-device-missing", Severity.ERROR, "Ranks that found no RDMA device (NET/IB : No device found, or only sockets although NCCL_IB_HCA is set or their pod requests an RDMA resource): an error on a multi-node job, or where NCCL was then left with no network at all (NCCL_NET=IB: Failed to initialize any NET plugin); a warning on one node where RDMA was asked for", S000),
            spec("rdma-device-not-needed", Severity.INFO, "NCCL found no RDMA device (NET/IB : No device found) on a job whose ranks all share one node and asked for none: NVLink/P2P and shared memory carry their traffic, so none was needed", S000),
            spec("tcp-fallback", Severity.ERROR, "Ranks on different hosts talk over TCP sockets (NET/Socket) instead of RDMA", S003),
            spec("gdr-not-used", Severity.WARNING, "IB channels without GPU Direct RDMA (no /GDRDMA), or RDMA devices reporting GDR disabled", S003),
            spec("nccl-version-mismatch", Severity.ERROR, "Ranks of one job run different NCCL versions", S003),
            spec("nccl-init-hang", Severity.ERROR, "Ranks that started communicator init (Init START) and never completed it", S000),
            spec("nccl-timeout", Severity.ERROR, "A collective timed out (PyTorch watchdog), with the rank that lagged and where it ran", S000 + "; " + S003),
            spec("ib-completion-error", Severity.ERROR, "IB work completion errors (status 12 retry exceeded, 4, 5, 10) in NCCL's log", S004),
            spec("rdma-permission", Severity.ERROR, "Access to the RDMA device files denied (errno 13)", S000),
            spec("memlock-limit", Severity.ERROR, "Memory registration failed: ibv_reg_mr cannot allocate memory (locked-memory limit)", S004));

    private static FindingSpec spec(String id, Severity severity, String description, String source) {
        return new FindingSpec(id, Layer.TRAINING, severity, description, source);
    }

    /** Where a world rank ran, as the rank join found it ({@code (pod on host, GPU4, mlx5_4 -> leaf port 7)}), or null. */
    @FunctionalInterface
    public interface RankPlaces {
        RankPlaces NONE = rank -> null;

        String place(int worldRank);
    }

    public static List<Finding> run(TrainingLog log) {
        return run(log, RankPlaces.NONE);
    }

    /**
     * Runs the checks; {@code places} names where a rank ran when the fabric, hosts or pods were loaded
     * too, and goes into the titles instead of the log's host and device list.
     */
    public static List<Finding> run(TrainingLog log, RankPlaces places) {
        return run(log, places, RdmaWanted.NONE);
    }

    /**
     * Whether the pod a log's host names asks for an RDMA device resource: a few words saying so
     * ({@code pod ml/llm-worker-1 requests rdma/rdma}), or null when it does not or no pod is known.
     */
    @FunctionalInterface
    public interface RdmaWanted {
        RdmaWanted NONE = host -> null;

        String of(String host);
    }

    /** As {@link #run(TrainingLog, RankPlaces)}, with what the pods of the log's hosts request. */
    public static List<Finding> run(TrainingLog log, RankPlaces places, RdmaWanted wanted) {
        List<Finding> out = new ArrayList<>();
        rdmaDevice(log, wanted, out);
        networkChecks(log, out);
        versionMismatch(log, out);
        initHang(log, out);
        TimeoutCheck.timeouts(log, places, out);
        warnings(log, out);
        return out;
    }

    private static Set<String> hosts(TrainingLog log) {
        Set<String> h = new LinkedHashSet<>();
        log.ranks().forEach(r -> h.add(r.host()));
        return h;
    }

    /** One NCCL process's network, over its ranks and its own lines (see {@link NcclProcess}). */
    private static final class NetProc {
        String host;
        String process;
        final List<Rank> ranks = new ArrayList<>();
        Evidence noIbLine;
        boolean noIb;
        boolean rdmaUsed;
        boolean socketDevices;
        boolean nonSocketDevices;
        String hca;
        String net;
        boolean noNetwork;
        Evidence netFailure;

        boolean socketsOnly() {
            return !nonSocketDevices;
        }
    }

    /**
     * {@code rdma-device-missing} and {@code rdma-device-not-needed}: processes that found no RDMA device
     * ({@code NET/IB : No device found}) or talk over sockets only although RDMA was asked for (NCCL_IB_HCA,
     * or their pod requests an RDMA resource), whether or not they reached Init. How bad depends on where:
     * across nodes the traffic falls back to TCP (error); on one node NVLink/P2P and shared memory carry it,
     * so the device was not needed (info), unless RDMA was asked for (warning: the same job across nodes
     * would fall back) or NCCL was restricted to a network it then could not start (error: init failed).
     */
    private static void rdmaDevice(TrainingLog log, RdmaWanted wanted, List<Finding> out) {
        Map<String, NetProc> procs = new LinkedHashMap<>();
        for (NcclProcess np : log.processes()) {
            NetProc p = procs.computeIfAbsent(np.process(), k -> new NetProc());
            p.host = np.host();
            p.process = np.process();
            p.noIbLine = np.noIbDevice();
            p.noIb = np.noIbDevice() != null;
            p.hca = np.env().get("NCCL_IB_HCA");
            p.net = np.env().get("NCCL_NET");
            p.noNetwork = np.noNetwork();
            p.netFailure = np.netFailure();
        }
        for (Rank r : log.ranks()) {
            NetProc p = procs.computeIfAbsent(r.process(), k -> new NetProc());
            p.host = r.host();
            p.process = r.process();
            p.ranks.add(r);
            p.noIb |= r.noIbDevice();
            p.rdmaUsed |= !r.rdmaDevices().isEmpty();
            p.socketDevices |= r.netDevices().stream().anyMatch(d -> d.startsWith("socket "));
            p.nonSocketDevices |= r.netDevices().stream().anyMatch(d -> !d.startsWith("socket "));
            if (p.hca == null) {
                p.hca = r.env().get("NCCL_IB_HCA");
            }
            if (p.net == null) {
                p.net = r.env().get("NCCL_NET");
            }
        }
        Set<String> hosts = new LinkedHashSet<>();
        procs.values().forEach(p -> hosts.add(p.host));
        boolean multiNode = multiNode(log);
        List<NetProc> noIb = new ArrayList<>();
        List<NetProc> asked = new ArrayList<>();
        Map<String, String> askedBy = new LinkedHashMap<>();
        for (NetProc p : procs.values()) {
            if (p.rdmaUsed) {
                continue;
            }
            if (p.noIb) {
                noIb.add(p);
            }
            String pod = wanted.of(p.host);
            // sockets only: NET/Socket devices and no RDMA one; across nodes a rank that logged no device at all counts too
            boolean noRdma = p.noIb || p.socketDevices && p.socketsOnly() || multiNode && !p.ranks.isEmpty() && p.socketsOnly();
            if (p.hca != null && noRdma) {
                asked.add(p);
                askedBy.putIfAbsent("NCCL_IB_HCA", "NCCL_IB_HCA=" + p.hca);
            } else if (pod != null && noRdma) {
                asked.add(p);
                askedBy.putIfAbsent("pod", pod);
            }
        }
        if (noIb.isEmpty() && asked.isEmpty()) {
            return;
        }
        List<NetProc> affected = new ArrayList<>(noIb);
        asked.stream().filter(p -> !affected.contains(p)).forEach(affected::add);
        List<Subject> subjects = new ArrayList<>();
        List<Evidence> evidence = new ArrayList<>();
        boolean noNetwork = false;
        for (NetProc p : affected) {
            if (p.ranks.isEmpty()) {
                subjects.add(new Subject.HostRef(p.host, "process " + p.process + " (no communicator reached Init)"));
            }
            for (Rank r : p.ranks) {
                subjects.add(new Subject.RankRef(r.commId(), r.rank(), r.host(), r.process() + " rank " + r.rank()));
            }
            if (p.noIbLine != null) {
                evidence.add(p.noIbLine);
            } else if (!p.ranks.isEmpty()) {
                evidence.add(p.ranks.get(0).evidence());
            }
            if (p.noNetwork && p.netFailure != null) {
                evidence.add(p.netFailure);
            }
            noNetwork |= p.noNetwork;
        }
        subjects = distinct(subjects.stream()).stream().limit(20).toList();
        evidence = evidence.stream().limit(10).toList();
        String why = askedBy.isEmpty() ? "" : " although " + String.join(" and ", askedBy.values());
        String host = hosts.iterator().next();
        String n = affected.size() == 1 ? "1 NCCL process" : affected.size() + " NCCL processes";
        List<String> check = List.of(
                "Check that the job requests the RDMA resource: Arena --device=aliyun/erdma=1, RunAI --extended-resource rdma/rdma=1.",
                "Check that the node offers it: kubectl get node <node> -o jsonpath='{.status.allocatable}' should list aliyun/erdma or rdma/*; if not, install the eRDMA controller / RDMA device plugin.",
                "On the node, ibv_devinfo should list the device (e.g. erdma_0) with PORT_ACTIVE; check the container image has the RDMA user-space libraries.",
                "The NCCL log should then show NET/IB : Using [0]erdma_0:1/RoCE (or mlx5_N:1/IB).");
        if (multiNode) {
            out.add(new Finding("rdma-device-missing", Severity.ERROR, "No RDMA device used on a multi-node job: " + n
                    + " found none" + why, subjects, evidence, check));
        } else if (noNetwork) {
            String set = affected.stream().map(p -> p.net).filter(java.util.Objects::nonNull).findFirst().orElse(null);
            String failedNet = log.processes().stream().flatMap(p -> p.failedNets().stream())
                    .filter(x -> !x.equals(NcclProcess.ANY)).findFirst().orElse("IB");
            String restricted = set != null ? "restricted by NCCL_NET=" + set : "restricted to " + failedNet
                    + " (NCCL_NET=" + failedNet + ")";
            out.add(new Finding("rdma-device-missing", Severity.ERROR, "NCCL found no RDMA device on " + host
                    + " and was left with no network: " + n + " failed at init (Failed to initialize any NET plugin); "
                    + restricted + ", NCCL needs an RDMA device even where the ranks share one node", subjects, evidence,
                    List.of("On one node NCCL needs no network device: unset NCCL_NET (and NCCL_NET_PLUGIN if it names a plugin "
                                    + "that needs RDMA), and it uses NVLink/P2P or shared memory between the GPUs.",
                            "If the job must use RDMA (it will run across nodes), give the container the device: request the RDMA "
                                    + "resource (Arena --device=aliyun/erdma=1, RunAI --extended-resource rdma/rdma=1) and check "
                                    + "ls /sys/class/infiniband and ibv_devinfo inside it.",
                            "NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET shows the sequence: NET/IB : No device found., Failed to "
                                    + "initialize NET plugin IB, Failed to initialize any NET plugin.")));
        } else if (!asked.isEmpty()) {
            out.add(new Finding("rdma-device-missing", Severity.WARNING, "RDMA was asked for but NCCL found no RDMA device on "
                    + host + ": " + n + why + "; this single-node run's ranks talk over NVLink/P2P or shared memory and did "
                    + "not need one, but across nodes the same job would fall back to TCP sockets", subjects, evidence, check));
        } else {
            boolean sockets = log.channels().stream().anyMatch(c -> c.transport() == Transport.NET_SOCKET);
            List<String> remedies = new ArrayList<>(List.of(
                    "Nothing to fix for this run: traffic between GPUs of one node does not need InfiniBand.",
                    "Before running the job across nodes, give it an RDMA device (request the RDMA resource; "
                            + "ls /sys/class/infiniband in the container lists it), or it falls back to TCP sockets."));
            if (sockets) {
                remedies.add("Channels via NET/Socket between GPUs of one node mean P2P and shared memory are off: unset "
                        + "NCCL_P2P_DISABLE and NCCL_SHM_DISABLE (or raise NCCL_P2P_LEVEL).");
            }
            out.add(new Finding("rdma-device-not-needed", Severity.INFO, "NCCL found no RDMA device (NET/IB : No device "
                    + "found) on " + host + ", the job's only host (" + n + "): between GPUs of one node NVLink/P2P or shared "
                    + "memory carry the traffic, so none was needed" + (sockets ? " (channels via NET/Socket inside the host mean "
                    + "P2P and shared memory were off)" : ""), subjects, evidence, remedies));
        }
    }

    /**
     * Whether the job spans several nodes: its NCCL processes log from several hosts, or a communicator that NCCL
     * says spans several nodes ({@code nNodes}) has ranks the logs do not hold (they ran elsewhere). All ranks of a
     * communicator logging from one host are one node whatever {@code nNodes} says: NCCL counts ranks with neither
     * P2P nor shared memory between them (NCCL_P2P_DISABLE, NCCL_SHM_DISABLE) as nodes of their own.
     */
    public static boolean multiNode(TrainingLog log) {
        Set<String> hosts = new LinkedHashSet<>();
        log.ranks().forEach(r -> hosts.add(r.host()));
        log.processes().forEach(p -> hosts.add(p.host()));
        if (hosts.size() > 1) {
            return true;
        }
        Map<String, Set<Integer>> seen = new LinkedHashMap<>();
        log.ranks().forEach(r -> seen.computeIfAbsent(r.commId(), k -> new java.util.TreeSet<>()).add(r.rank()));
        for (Rank r : log.ranks()) {
            if (r.nNodes() > 1 && seen.get(r.commId()).size() < r.nranks()) {
                return true;
            }
        }
        return false;
    }

    private static void networkChecks(TrainingLog log, List<Finding> out) {
        // Cross-host channels over sockets, per communicator.
        Map<String, Set<String>> hostsByComm = new LinkedHashMap<>();
        for (Rank r : log.ranks()) {
            hostsByComm.computeIfAbsent(r.commId(), k -> new LinkedHashSet<>()).add(r.host());
        }
        List<ChannelLink> socket = log.channels().stream().filter(c -> c.transport() == Transport.NET_SOCKET
                && hostsByComm.getOrDefault(c.commId(), Set.of()).size() > 1).toList();
        if (!socket.isEmpty()) {
            String ifname = log.ranks().stream().flatMap(r -> r.netDevices().stream()).filter(d -> d.startsWith("socket "))
                    .findFirst().map(d -> d.substring(7)).orElse("a TCP interface");
            out.add(new Finding("tcp-fallback", Severity.ERROR,
                    "Ranks on different hosts talk over TCP sockets (" + ifname + "), not RDMA",
                    distinct(socket.stream().map(c -> (Subject) new Subject.RankRef(c.commId(), c.fromRank(), "", "comm " + c.commId() + " rank " + c.fromRank() + " -> " + c.toRank()))).stream().limit(20).toList(),
                    socket.stream().map(ChannelLink::evidence).limit(10).toList(),
                    List.of("Request the RDMA resource for every worker and check NET/IB : Using [...] appears in each rank's log.",
                            "Set NCCL_IB_HCA to the RDMA devices (e.g. mlx5_0,mlx5_1 or erdma_0) and, for RoCE, NCCL_IB_GID_INDEX (often 3).",
                            "NCCL_SOCKET_IFNAME only picks the bootstrap interface; with a secondary network (Multus) it is usually net1.",
                            "Do not set NCCL_IB_DISABLE=1 or NCCL_NET=Socket in the job's environment.")));
        }
        List<ChannelLink> noGdr = log.channels().stream().filter(c -> c.transport() == Transport.NET_IB).toList();
        // Per-HCA verdicts count too (logs without NCCL_DEBUG_SUBSYS=P2P/NET channel lines): an RDMA
        // device with GDR disabled in a process of a multi-host communicator that has no GDRDMA channel.
        Set<String> multiHostProcesses = new LinkedHashSet<>();
        Set<String> gdrComms = new LinkedHashSet<>();
        log.channels().stream().filter(c -> c.transport() == Transport.NET_IB_GDR).forEach(c -> gdrComms.add(c.commId()));
        for (Rank r : log.ranks()) {
            if (hostsByComm.getOrDefault(r.commId(), Set.of()).size() > 1 && !gdrComms.contains(r.commId())
                    && !r.rdmaDevices().isEmpty()) {
                multiHostProcesses.add(r.process());
            }
        }
        List<GdrSupport> disabled = log.gdrSupport().stream().filter(g -> !g.enabled() && g.isRdma()
                && multiHostProcesses.contains(g.host() + ":" + g.pid())).toList();
        if (!noGdr.isEmpty() || !disabled.isEmpty()) {
            List<Subject> subjects = new ArrayList<>();
            distinct(noGdr.stream().map(c -> (Subject) new Subject.RankRef(c.commId(), c.fromRank(), "",
                    "comm " + c.commId() + " rank " + c.fromRank() + " -> " + c.toRank() + " via " + c.via())))
                    .stream().limit(20).forEach(subjects::add);
            distinct(disabled.stream().map(g -> (Subject) new Subject.NicRef(g.host(),
                    g.hca().isEmpty() ? "HCA " + g.hcaIndex() : g.hca(),
                    g.host() + ":" + g.pid() + " HCA " + g.hcaIndex() + (g.hca().isEmpty() ? "" : " " + g.hca())
                    + " GDR disabled" + (g.reason().isEmpty() ? "" : " (" + g.reason() + ")")))).stream().limit(20)
                    .forEach(subjects::add);
            List<Evidence> ev = new ArrayList<>();
            noGdr.stream().map(ChannelLink::evidence).limit(10).forEach(ev::add);
            disabled.stream().map(GdrSupport::evidence).limit(10).forEach(ev::add);
            boolean noModule = disabled.stream().anyMatch(g -> g.reason().contains("no module"));
            out.add(new Finding("gdr-not-used", Severity.WARNING,
                    (noGdr.isEmpty() ? org.fabricscope.model.core.Plural.of(disabled.size(), "RDMA device") + (disabled.size() == 1 ? " reports" : " report") + " GPU Direct RDMA disabled"
                            : org.fabricscope.model.core.Plural.of(noGdr.size(), "IB channel") + (noGdr.size() == 1 ? " runs" : " run") + " without GPU Direct RDMA (no /GDRDMA)")
                            + (noModule ? "; NCCL found no peer-memory module" : ""),
                    subjects, ev,
                    List.of("Load the nvidia-peermem kernel module on the hosts (lsmod | grep peermem)"
                                    + (noModule ? ": \"(no module)\" means NCCL did not find it." : "."),
                            "Check the GPU and NIC share a PCIe switch (PIX/PXB in nvidia-smi topo -m) and ACS is off on that switch.",
                            "NCCL_NET_GDR_LEVEL controls how far apart GPU and NIC may be for GDRDMA; check it is not set too low.")));
        }
    }

    private static void versionMismatch(TrainingLog log, List<Finding> out) {
        Set<String> versions = log.ncclVersions();
        if (versions.size() > 1) {
            List<Evidence> ev = new ArrayList<>();
            List<Subject> subjects = new ArrayList<>();
            for (String v : versions) {
                log.ranks().stream().filter(r -> v.equals(r.ncclVersion())).findFirst().ifPresent(r -> {
                    ev.add(r.evidence());
                    subjects.add(new Subject.RankRef(r.commId(), r.rank(), r.host(), r.process() + " NCCL " + v));
                });
            }
            out.add(new Finding("nccl-version-mismatch", Severity.ERROR, "Ranks run different NCCL versions: " + versions,
                    subjects, ev, List.of("Run every worker from the same container image (same PyTorch and NCCL builds).",
                            "Check NCCL_* library overrides (LD_LIBRARY_PATH, a host-mounted libnccl) on the odd ranks.")));
        }
    }

    private static void initHang(TrainingLog log, List<Finding> out) {
        List<Rank> stuck = log.ranks().stream().filter(r -> r.initStarted() && !r.initCompleted()).toList();
        if (!stuck.isEmpty()) {
            out.add(new Finding("nccl-init-hang", Severity.ERROR,
                    org.fabricscope.model.core.Plural.of(stuck.size(), "rank") + " started communicator init but never completed it",
                    stuck.stream().map(r -> (Subject) new Subject.RankRef(r.commId(), r.rank(), r.host(),
                            r.process() + " rank " + r.rank() + "/" + r.nranks() + " comm " + r.commId())).toList(),
                    stuck.stream().map(Rank::evidence).limit(10).toList(),
                    List.of("All ranks must reach init: check every pod is Running (a Pending worker stalls the rest).",
                            "Check the bootstrap network: NCCL_SOCKET_IFNAME must name an interface every rank can reach (firewalls, NetworkPolicies).",
                            "Look at the WARN lines of the stuck ranks for connect or RDMA failures.")));
        }
    }

    /** The process an event came from: its host when the log prefix named one, else its rank. */
    private static Subject process(NcclEvent e, String label) {
        return e.host().isEmpty() ? new Subject.RankRef("", e.rank(), "", label) : new Subject.HostRef(e.host(), label);
    }

    /** Subjects with distinct labels, first kept: two processes of one host are one line to read. */
    private static List<Subject> distinct(java.util.stream.Stream<Subject> subjects) {
        Map<String, Subject> byLabel = new LinkedHashMap<>();
        subjects.forEach(x -> byLabel.putIfAbsent(x.label(), x));
        return List.copyOf(byLabel.values());
    }

    private static void warnings(TrainingLog log, List<Finding> out) {
        List<NcclEvent> completion = new ArrayList<>();
        List<NcclEvent> permission = new ArrayList<>();
        List<NcclEvent> memlock = new ArrayList<>();
        for (NcclEvent e : log.events()) {
            if (e.kind() == NcclEvent.Kind.IB_COMPLETION_ERROR
                    || e.kind() == NcclEvent.Kind.NCCL_ERROR && e.field("statusName") != null) {
                completion.add(e);
            } else if (e.kind() == NcclEvent.Kind.VERBS_FAILURE) {
                String errno = e.field("errno");
                String error = e.field("error") == null ? "" : e.field("error");
                String call = e.field("call");
                if ("13".equals(errno) || error.contains("Permission denied")) {
                    permission.add(e);
                } else if (call.startsWith("ibv_reg_mr") && ("12".equals(errno) || error.contains("Cannot allocate memory"))) {
                    memlock.add(e);
                }
            } else if (e.message().contains("/dev/infiniband") && e.message().contains("ermission")) {
                permission.add(e);
            }
        }
        if (!completion.isEmpty()) {
            NcclEvent e = completion.get(0);
            boolean retry = "12".equals(e.field("status"));
            String from = !e.host().isEmpty() ? e.host() : e.rank() >= 0 ? "rank " + e.rank() : e.evidence().source();
            out.add(new Finding("ib-completion-error", Severity.ERROR,
                    org.fabricscope.model.core.Plural.of(completion.size(), "IB completion error") + ", first " + e.field("statusName") + " (status " + e.field("status")
                            + (e.field("vendorErr") == null ? "" : ", vendor err " + e.field("vendorErr")) + ") from " + from,
                    distinct(completion.stream().map(x -> process(x, (x.host().isEmpty() ? "rank " + x.rank() : x.host() + ":" + x.pid())
                                    + (x.field("peer") == null ? "" : " peer " + x.field("peer"))))).stream().limit(20).toList(),
                    completion.stream().map(NcclEvent::evidence).limit(10).toList(),
                    retry ? List.of("Status 12 (retry exceeded) means the peer stopped answering: check the links on the path between the two hosts (error counters, flapping ports) and the peer's health.",
                                    "Raise NCCL_IB_TIMEOUT=23 and NCCL_IB_RETRY_CNT=10 if the fabric is congested rather than broken.")
                            : List.of("Status 4 (local protection) or 10 (remote access) point at memory registration: check nvidia-peermem and the memlock limit.",
                                    "Status 5 (flushed) follows another error: find the first failing completion in time.")));
        }
        if (!permission.isEmpty()) {
            out.add(new Finding("rdma-permission", Severity.ERROR,
                    "RDMA device access denied (errno 13) on " + permission.get(0).host(),
                    distinct(permission.stream().map(x -> process(x, x.host() + ":" + x.pid()))),
                    permission.stream().map(NcclEvent::evidence).limit(10).toList(),
                    List.of("The container needs the /dev/infiniband device files: request the RDMA resource so the device plugin mounts them.",
                            "Or run with the IPC_LOCK capability and, where the plugin requires it, a privileged security context.")));
        }
        if (!memlock.isEmpty()) {
            out.add(new Finding("memlock-limit", Severity.ERROR,
                    "Memory registration failed (ibv_reg_mr: Cannot allocate memory) on " + memlock.get(0).host(),
                    distinct(memlock.stream().map(x -> process(x, x.host() + ":" + x.pid()))),
                    memlock.stream().map(NcclEvent::evidence).limit(10).toList(),
                    List.of("Raise the locked-memory limit: ulimit -l unlimited (in Kubernetes, the container runtime's default memlock, or run with IPC_LOCK).",
                            "Check it inside the pod: ulimit -l should print unlimited.")));
        }
    }
}
