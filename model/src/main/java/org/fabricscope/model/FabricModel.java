package org.fabricscope.model;

import org.fabricscope.model.core.Beside;
import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.core.FabricEdge;
import org.fabricscope.model.core.Guids;
import org.fabricscope.model.core.NaturalOrder;
import org.fabricscope.model.core.Vertex;
import org.fabricscope.model.fabric.Cable;
import org.fabricscope.model.fabric.FabricNode;
import org.fabricscope.model.fabric.Host;
import org.fabricscope.model.fabric.HostMembership;
import org.fabricscope.model.fabric.NodeKind;
import org.fabricscope.model.fabric.Port;
import org.fabricscope.model.fabric.Tier;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.fabricscope.model.evidence.HostEvidence;
import org.fabricscope.model.fabric.FabricLayer;
import org.fabricscope.model.host.Gpu;
import org.fabricscope.model.training.TrainingLog;
import org.fabricscope.model.forensics.ForensicsLayer;
import org.fabricscope.model.host.GpuFabricPath;
import org.fabricscope.model.host.HostTopology;
import org.fabricscope.model.k8s.K8sEvent;
import org.fabricscope.model.k8s.K8sLayer;
import org.fabricscope.model.k8s.K8sNode;
import org.fabricscope.model.k8s.K8sPod;
import org.fabricscope.model.k8s.TrainingJob;
import org.jgrapht.Graph;
import org.jgrapht.graph.AsUnmodifiableGraph;
import org.jgrapht.graph.MaskSubgraph;
import org.jgrapht.graph.Pseudograph;

/**
 * The loaded fabric: a JGraphT pseudograph (parallel cables are separate edges; a port cabled
 * back into its own switch is a loop) of switches, CAs, routers and hosts, with the diagnostics
 * the import produced. Immutable once built; safe to hand to another thread.
 */
public final class FabricModel {
    private final FabricLayer fabric;
    private final List<Diagnostic> diagnostics;
    /**
     * The key of {@link #graph} among the derived values: made on the first call (the export and path
     * queries use it; the checks, the layout and the window do not), since building it was a quarter of
     * a second of every import of ten times Selene with the window's C1 compiler.
     */
    private static final Object GRAPH = new Object();
    /** Values computed once from this model by several readers ({@link #derived}), by key. */
    private final java.util.concurrent.ConcurrentHashMap<Object, Beside<Object>> derived =
            new java.util.concurrent.ConcurrentHashMap<>();
    private final Map<String, HostTopology> hostTopologies;
    private final K8sLayer k8s;
    private final TrainingLog training;
    private final ForensicsLayer forensics;
    private final Map<String, HostEvidence> hostEvidence;
    private final org.fabricscope.model.incident.IncidentLog incident;

    /** Built by {@link FabricModelBuilder}; every layer is complete and immutable when it gets here. */
    FabricModel(FabricLayer fabric, List<Diagnostic> diagnostics, Map<String, HostTopology> hostTopologies,
                K8sLayer k8s, TrainingLog training, ForensicsLayer forensics, Map<String, HostEvidence> hostEvidence,
                org.fabricscope.model.incident.IncidentLog incident) {
        this.fabric = fabric;
        this.incident = incident == null ? org.fabricscope.model.incident.IncidentLog.EMPTY : incident;
        this.forensics = forensics == null ? ForensicsLayer.EMPTY : forensics;
        this.hostEvidence = Collections.unmodifiableMap(new LinkedHashMap<>(hostEvidence == null ? Map.of() : hostEvidence));
        this.k8s = k8s == null ? K8sLayer.EMPTY : k8s;
        this.training = training == null ? TrainingLog.EMPTY : training;
        this.hostTopologies = Collections.unmodifiableMap(new LinkedHashMap<>(hostTopologies));
        this.diagnostics = List.copyOf(diagnostics);
    }

    private Graph<Vertex, FabricEdge> buildGraph() {
        Pseudograph<Vertex, FabricEdge> g = new Pseudograph<>(null, null, false);
        for (FabricNode n : fabric.nodes().values()) {
            g.addVertex(n);
        }
        for (Cable c : fabric.cables()) {
            g.addEdge(c.a().node(), c.b().node(), c);
        }
        for (Host h : fabric.hosts().values()) {
            g.addVertex(h);
            for (FabricNode a : h.adapters()) {
                g.addEdge(h, a, new HostMembership(h, a));
            }
        }
        for (HostTopology t : hostTopologies.values()) {
            Host h = fabric.hosts().get(t.name());
            if (h == null) {
                h = new Host(t.name()); // a host known only from its topology: in the graph, not in hosts()
            }
            g.addVertex(h);
            t.addTo(g, h);
        }
        return new AsUnmodifiableGraph<>(g);
    }

    /**
     * What commands run on hosts and in pods said (ibstat, ibv_devinfo, GID tables, ulimit, ls -l
     * /dev/infiniband, ip addr, df -h /dev/shm, env), by host or pod name, in the order first read.
     */
    public Map<String, HostEvidence> hostEvidence() {
        return hostEvidence;
    }

    /** The evidence of one host or pod, or null. */
    public HostEvidence hostEvidence(String host) {
        return hostEvidence.get(host);
    }

    /** What NCCL and PyTorch logs said: ranks, channel transports, events. Empty when no log was read. */
    public org.fabricscope.model.incident.IncidentLog incidentLog() {
        return incident;
    }

    public TrainingLog trainingLog() {
        return training;
    }

    /** What hang forensics inputs said: flight recorder dumps, NCCL RAS reports, nccl-tests runs. Empty when none was read. */
    public ForensicsLayer forensics() {
        return forensics;
    }

    /** The fabric layer: switches, CAs, cables and hosts, with their lookups. */
    public FabricLayer fabric() {
        return fabric;
    }

    /** The Kubernetes layer: nodes, pods, events, training jobs and the node-to-host join (empty when none was read). */
    public K8sLayer k8s() {
        return k8s;
    }

    /** Kubernetes nodes by name, in natural name order. */
    public Map<String, K8sNode> k8sNodes() {
        return k8s.nodes();
    }

    public List<K8sPod> pods() {
        return k8s.pods();
    }

    public List<K8sEvent> events() {
        return k8s.events();
    }

    public List<TrainingJob> jobs() {
        return k8s.jobs();
    }

    /** The fabric host a Kubernetes node joined (by name, hostname label or InternalIP), or null. */
    public Host hostOf(K8sNode node) {
        String h = k8s.hostOf(node.name());
        return h == null ? null : fabric.hosts().get(h);
    }

    /** The Kubernetes node a fabric host is (its readiness, allocatable, pods), or null. */
    public K8sNode k8sNodeOf(Host host) {
        return host == null ? null : k8s.nodeOfHost(host.name());
    }

    /** An empty model, for a window with nothing loaded. */
    public static FabricModel empty() {
        return new FabricModelBuilder().build();
    }

    /**
     * The whole graph, read-only: fabric nodes, hosts, cables and host memberships, and the host
     * layer (CPUs, PCI switches, GPUs, NICs, nets, NVSwitches; {@code HostLink}, {@code NvLink},
     * {@code C2cLink} edges), so GPU -> PCIe -> NIC -> net -> HCA -> cable -> leaf is one path.
     */
    public Graph<Vertex, FabricEdge> graph() {
        return derived(GRAPH, FabricModel::buildGraph);
    }

    /**
     * A value computed from this model once, by {@code key}, however many readers ask for it and from
     * whichever threads: the first caller computes it, concurrent callers wait for that result. For
     * results several readers need (the degraded-link assessment: the checks and the map's colours).
     * The model is immutable, so the value never goes stale; it must be immutable too. The function must
     * not ask for the same key; an exception it throws reaches every caller and is not kept.
     */
    @SuppressWarnings("unchecked")
    public <T> T derived(Object key, java.util.function.Function<FabricModel, T> compute) {
        Beside<Object> task = derived.get(key);
        if (task == null) {
            Beside<Object> mine = Beside.deferred(() -> compute.apply(this));
            task = derived.putIfAbsent(key, mine);
            if (task == null) {
                task = mine;
            }
        }
        try {
            return (T) task.join(); // the first caller runs it; the others wait for it
        } catch (RuntimeException | Error e) {
            derived.remove(key, task); // a later call tries again
            throw e;
        }
    }

    /**
     * Host topologies (NCCL topology files, graph dumps, nvidia-smi matrices) by host name. A host
     * here need not be in {@link #hosts()}, which lists hosts with HCAs on the fabric.
     */
    public Map<String, HostTopology> hostTopologies() {
        return hostTopologies;
    }

    /** The topology of a host, or null. */
    public HostTopology hostTopology(String hostName) {
        return hostTopologies.get(hostName);
    }

    /** How a GPU reaches the fabric: nearest net, HCA, HCA port, leaf port. */
    public GpuFabricPath fabricPath(Gpu gpu) {
        return gpu.topology().fabricPath(gpu);
    }

    /**
     * A live view of the physical links only: the whole graph without {@link Host} vertices (so
     * without host memberships and host-to-CPU edges). A shortest path here from a GPU to a spine
     * runs GPU -> PCIe -> NIC -> net -> HCA -> cable -> leaf -> cable -> spine.
     */
    public Graph<Vertex, FabricEdge> linkGraph() {
        return new MaskSubgraph<>(graph(), v -> v instanceof Host, e -> false);
    }

    /** A live view with only switches, CAs, routers and cables. */
    public Graph<Vertex, FabricEdge> cableGraph() {
        return new MaskSubgraph<>(graph(), v -> !(v instanceof FabricNode), e -> !(e instanceof Cable));
    }

    public Collection<FabricNode> nodes() {
        return fabric.nodes().values();
    }

    public FabricNode node(long guid) {
        return fabric.nodes().get(guid);
    }

    /** The node answering on this LID (a switch's port 0 LID or a CA port's LID), or null. */
    public FabricNode nodeByLid(int lid) {
        return fabric.nodeByLid(lid);
    }

    public FabricNode nodeByPortGuid(long guid) {
        return fabric.nodeByPortGuid(guid);
    }

    public List<FabricNode> switches() {
        return fabric.nodes().values().stream().filter(FabricNode::isSwitch).toList();
    }

    public List<FabricNode> channelAdapters() {
        return fabric.nodes().values().stream().filter(n -> n.kind() == NodeKind.CA).toList();
    }

    public List<Cable> cables() {
        return fabric.cables();
    }

    public Map<String, Host> hosts() {
        return fabric.hosts();
    }

    public Host host(String name) {
        return fabric.hosts().get(name);
    }

    public List<Diagnostic> diagnostics() {
        return diagnostics;
    }

    /** The files (or archive entries) the model was read from. */
    public List<String> sources() {
        return fabric.sources();
    }

    public boolean isEmpty() {
        return fabric.nodes().isEmpty();
    }

    public Map<Tier, List<FabricNode>> switchesByTier() {
        Map<Tier, List<FabricNode>> m = new EnumMap<>(Tier.class);
        for (Tier t : Tier.values()) {
            m.put(t, new ArrayList<>());
        }
        for (FabricNode n : fabric.nodes().values()) {
            if (n.isSwitch()) {
                m.get(n.tier()).add(n);
            }
        }
        return m;
    }

    /**
     * Everything whose name, description, host, GUID (node, port or system image, with or
     * without 0x) or LID matches the query: exact matches (name, node or port GUID, LID) first,
     * then nodes sharing the system image GUID, then substring matches.
     */
    public List<Vertex> search(String query, int limit) {
        String q = query.strip().toLowerCase(Locale.ROOT);
        if (q.isEmpty()) {
            return List.of();
        }
        long guid = Guids.parse(q);
        int lid = -1;
        try {
            lid = Integer.parseInt(q);
        } catch (NumberFormatException ignored) {
            // not a LID
        }
        List<Vertex> exact = new ArrayList<>();
        List<Vertex> sameSystem = new ArrayList<>();
        List<Vertex> partial = new ArrayList<>();
        for (Host h : fabric.hosts().values()) {
            String name = h.name().toLowerCase(Locale.ROOT);
            if (name.equals(q)) {
                exact.add(h);
            } else if (name.contains(q)) {
                partial.add(h);
            }
        }
        for (FabricNode n : fabric.nodes().values()) {
            boolean isExact = n.displayName().toLowerCase(Locale.ROOT).equals(q)
                    || (Guids.isValid(guid) && n.guid() == guid)
                    || (lid > 0 && n.lid() == lid);
            if (!isExact) {
                for (Port p : n.ports()) {
                    if ((Guids.isValid(guid) && p.portGuid() == guid) || (lid > 0 && p.lid() == lid)) {
                        isExact = true;
                        break;
                    }
                }
            }
            if (isExact) {
                exact.add(n);
            } else if (Guids.isValid(guid) && n.sysImgGuid() == guid) {
                sameSystem.add(n); // e.g. a switch's SHARP node, or the other ports of one adapter
            } else if (n.description().toLowerCase(Locale.ROOT).contains(q)
                    || Guids.format(n.guid()).contains(q)) {
                partial.add(n);
            }
        }
        Comparator<Vertex> byName = Comparator.comparing(Vertex::displayName, NaturalOrder.INSTANCE);
        exact.sort(byName);
        sameSystem.sort(byName);
        partial.sort(byName);
        List<Vertex> out = new ArrayList<>(exact);
        out.addAll(sameSystem);
        out.addAll(partial);
        return out.size() > limit ? out.subList(0, limit) : out;
    }
}
