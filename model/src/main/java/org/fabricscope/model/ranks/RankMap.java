package org.fabricscope.model.ranks;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.fabricscope.model.fabric.Cable;
import org.fabricscope.model.FabricModel;
import org.fabricscope.model.fabric.FabricNode;
import org.fabricscope.model.fabric.Host;
import org.fabricscope.model.fabric.Port;
import org.fabricscope.model.core.Vertex;
import org.fabricscope.model.host.Gpu;
import org.fabricscope.model.host.GpuFabricPath;
import org.fabricscope.model.host.HostTopology;
import org.fabricscope.model.k8s.K8sPod;
import org.fabricscope.model.training.ChannelLink;
import org.fabricscope.model.training.CommRank;
import org.fabricscope.model.training.RankPair;
import org.fabricscope.model.training.Rank;
import org.fabricscope.model.training.Transport;

/**
 * The training ranks placed on the fabric: each rank's {@link RankSite} (log host → pod → node →
 * fabric host; busId → GPU; GPU → nearest NIC → HCA → leaf port) and each talking pair's
 * {@link RankRoute} (its slowest transport, and for network transports the cables between the two
 * HCAs). Computed from an immutable model, so it can be built once off the UI thread and shared.
 */
public final class RankMap {
    private final Map<CommRank, RankSite> sites = new LinkedHashMap<>();
    /** A process ({@code host:pid} as NCCL prefixes its lines) to its global rank: its rank in the largest communicator it is in. */
    private final Map<String, Integer> worldRankOf = new LinkedHashMap<>();
    private final List<RankRoute> routes = new ArrayList<>();

    private RankMap() {
    }

    /** Joins the training layer of {@code model} with its Kubernetes, host and fabric layers. */
    public static RankMap of(FabricModel model) {
        RankMap m = new RankMap();
        if (model.trainingLog().isEmpty()) {
            return m;
        }
        Map<String, K8sPod> podsByName = new HashMap<>();
        for (K8sPod p : model.pods()) {
            podsByName.putIfAbsent(p.name(), p);
        }
        Map<String, Integer> size = new HashMap<>();
        for (Rank r : model.trainingLog().ranks()) {
            m.sites.putIfAbsent(new CommRank(r.commId(), r.rank()), site(model, r, podsByName));
            if (r.nranks() >= size.getOrDefault(r.process(), -1)) {
                size.put(r.process(), r.nranks());
                m.worldRankOf.put(r.process(), r.rank());
            }
        }
        m.world = model.trainingLog();
        m.routes(model);
        return m;
    }

    private static RankSite site(FabricModel model, Rank r, Map<String, K8sPod> podsByName) {
        String logHost = r.host();
        K8sPod pod = podsByName.get(logHost);
        String node = pod != null ? pod.node() : null;
        String host = resolveHost(model, logHost);
        if (host == null && node != null) {
            var k8sNode = model.k8sNodes().get(node);
            Host h = k8sNode == null ? null : model.hostOf(k8sNode);
            host = h != null ? h.name() : resolveHost(model, node);
        }
        Gpu gpu = null;
        FabricNode hca = null;
        Port hcaPort = null;
        Port leafPort = null;
        HostTopology topo = host == null ? null : model.hostTopology(host);
        if (topo != null) {
            gpu = gpuByBusId(topo, r.busId());
            if (gpu == null && r.nvmlDev() >= 0) {
                gpu = topo.gpuByDev(r.nvmlDev());
            }
            if (gpu != null) {
                GpuFabricPath p = model.fabricPath(gpu);
                if (p != null) {
                    hca = p.hca();
                    hcaPort = p.hcaPort();
                    leafPort = p.leafPort();
                }
            }
        }
        if (hca == null && host != null && model.host(host) != null && !r.netDevices().isEmpty()) {
            // no topology: NCCL's device list, first device; rail jobs use the one of the GPU's index
            int idx = r.cudaDev() >= 0 && r.cudaDev() < r.netDevices().size() ? r.cudaDev() : 0;
            hcaPort = hcaPort(model.host(host), r.netDevices().get(idx));
            if (hcaPort == null) {
                hcaPort = RoceNics.byGidTable(model, host, r.netDevices().get(idx));
            }
            if (hcaPort != null) {
                hca = hcaPort.node();
                leafPort = hcaPort.peer();
            }
        }
        return new RankSite(r, pod != null ? pod.name() : null, node, host, gpu, hca, hcaPort, leafPort);
    }

    /** The fabric or topology host of this name, or of its first DNS label; null when neither is known. */
    private static String resolveHost(FabricModel model, String name) {
        if (name == null || name.isEmpty()) {
            return null;
        }
        if (model.host(name) != null || model.hostTopology(name) != null) {
            return name;
        }
        int dot = name.indexOf('.');
        if (dot > 0) {
            return resolveHost(model, name.substring(0, dot));
        }
        return null;
    }

    /** NCCL prints the bus id as the hex digits of domain:bus:dev.fn run together ({@code 0000:89:00.0} is {@code 89000}). */
    static long busIdValue(String busId) {
        if (busId == null) {
            return -1;
        }
        long v = 0;
        int digits = 0;
        for (int i = 0; i < busId.length(); i++) {
            int d = Character.digit(busId.charAt(i), 16);
            if (d >= 0) {
                v = (v << 4) | d;
                if (++digits > 15) {
                    return -1;
                }
            } else if (busId.charAt(i) != ':' && busId.charAt(i) != '.') {
                return -1;
            }
        }
        return digits == 0 ? -1 : v;
    }

    private static Gpu gpuByBusId(HostTopology topo, String busId) {
        long want = busIdValue(busId);
        if (want < 0) {
            return null;
        }
        for (Gpu g : topo.gpus()) {
            if (busIdValue(g.busId()) == want) {
                return g;
            }
        }
        return null;
    }

    /** The HCA port of {@code mlx5_4:1/IB} on this host. */
    static Port hcaPort(Host host, String netDevice) {
        int colon = netDevice.indexOf(':');
        String dev = colon < 0 ? netDevice : netDevice.substring(0, colon);
        int port = 1;
        if (colon >= 0) {
            int slash = netDevice.indexOf('/', colon);
            try {
                port = Integer.parseInt(netDevice.substring(colon + 1, slash < 0 ? netDevice.length() : slash));
            } catch (NumberFormatException e) {
                port = 1;
            }
        }
        for (FabricNode a : host.adapters()) {
            String d = a.description();
            if (d != null && (d.endsWith(" " + dev) || d.equals(dev))) {
                return a.port(port);
            }
        }
        return null;
    }

    private void routes(FabricModel model) {
        Map<RankPair, Linked> pairs = new LinkedHashMap<>();
        for (ChannelLink c : model.trainingLog().channels()) {
            if (c.fromRank() == c.toRank()) {
                continue;
            }
            Linked p = pairs.computeIfAbsent(RankPair.of(c), k -> new Linked());
            p.channels++;
            if (p.worst == null || c.transport().compareTo(p.worst) > 0) {
                p.worst = c.transport();
            }
        }
        Map<FabricNode, Map<FabricNode, Integer>> bfs = new HashMap<>();
        for (var e : pairs.entrySet()) {
            String commId = e.getKey().commId();
            RankSite a = sites.get(new CommRank(commId, e.getKey().lo()));
            RankSite b = sites.get(new CommRank(commId, e.getKey().hi()));
            if (a == null || b == null) {
                continue;
            }
            Transport t = e.getValue().worst;
            List<Vertex> path = List.of();
            Set<Cable> cables = Set.of();
            if (t.isNetwork() && a.hca() != null && b.hca() != null && a.hca() != b.hca()) {
                Map<FabricNode, Integer> db = bfs.computeIfAbsent(b.hca(), RankMap::distances);
                if (db.containsKey(a.hca())) {
                    cables = shortestPathCables(a.hca(), b.hca(), db);
                    path = onePath(a.hca(), b.hca(), db);
                }
            }
            routes.add(new RankRoute(commId, a, b, t, e.getValue().channels, path, cables));
        }
    }

    /** What the channel lines of one pair of ranks say: how many there are, and the worst transport among them. */
    private static final class Linked {
        int channels;
        Transport worst;
    }

    /** Hop counts from {@code start} over cables, passing only through switches. */
    private static Map<FabricNode, Integer> distances(FabricNode start) {
        Map<FabricNode, Integer> dist = new HashMap<>();
        ArrayDeque<FabricNode> queue = new ArrayDeque<>();
        dist.put(start, 0);
        queue.add(start);
        while (!queue.isEmpty()) {
            FabricNode u = queue.poll();
            if (u != start && !u.isSwitch()) {
                continue;
            }
            int du = dist.get(u);
            for (Port port : u.ports()) {
                Port peer = port.peer();
                if (peer != null && !dist.containsKey(peer.node())) {
                    dist.put(peer.node(), du + 1);
                    queue.add(peer.node());
                }
            }
        }
        return dist;
    }

    /**
     * Every cable on some shortest path from {@code from} to {@code to}: a walk from {@code from}
     * that only steps to a neighbour one hop closer to {@code to}, so it visits the equal-cost paths
     * and nothing else of the fabric.
     */
    private static Set<Cable> shortestPathCables(FabricNode from, FabricNode to, Map<FabricNode, Integer> toDist) {
        Set<Cable> out = new LinkedHashSet<>();
        Set<FabricNode> seen = new java.util.HashSet<>();
        ArrayDeque<FabricNode> queue = new ArrayDeque<>();
        queue.add(from);
        seen.add(from);
        while (!queue.isEmpty()) {
            FabricNode u = queue.poll();
            if (u == to) {
                continue;
            }
            int du = toDist.get(u);
            for (Port port : u.ports()) {
                Port peer = port.peer();
                if (peer == null || port.cable() == null) {
                    continue;
                }
                FabricNode v = peer.node();
                Integer dv = toDist.get(v);
                if (dv != null && dv == du - 1 && (v == to || v.isSwitch())) {
                    out.add(port.cable());
                    if (seen.add(v)) {
                        queue.add(v);
                    }
                }
            }
        }
        return out;
    }

    /** One shortest path, choosing the lowest GUID at each step so the map is stable. */
    private static List<Vertex> onePath(FabricNode from, FabricNode to, Map<FabricNode, Integer> toDist) {
        List<Vertex> path = new ArrayList<>();
        FabricNode u = from;
        path.add(u);
        while (u != to) {
            int du = toDist.get(u);
            FabricNode next = null;
            for (Port port : u.ports()) {
                Port peer = port.peer();
                if (peer == null) {
                    continue;
                }
                FabricNode v = peer.node();
                Integer dv = toDist.get(v);
                if (dv != null && dv == du - 1 && (v == to || v.isSwitch())
                        && (next == null || Long.compareUnsigned(v.guid(), next.guid()) < 0)) {
                    next = v;
                }
            }
            if (next == null) {
                return List.of();
            }
            path.add(next);
            u = next;
        }
        return path;
    }

    public List<RankSite> sites() {
        return Collections.unmodifiableList(new ArrayList<>(sites.values()));
    }

    public RankSite site(String commId, int rank) {
        return sites.get(new CommRank(commId, rank));
    }

    private org.fabricscope.model.training.TrainingLog world;

    /**
     * Where the PyTorch global rank {@code rank} ran: the rank of that number in the largest communicator
     * (the default process group spans every rank), or null when no log placed it. The one answer every
     * check, flow and view asks for "where did rank N run".
     */
    public RankSite worldSite(int rank) {
        if (rank < 0 || world == null) {
            return null;
        }
        Rank r = world.worldRank(rank).orElse(null);
        return r == null ? null : site(r.commId(), r.rank());
    }

    /** The global rank of the process {@code host:pid} (its rank in the largest communicator it is in), or -1. */
    public int worldRankOf(String host, long pid) {
        Integer r = worldRankOf.get(host + ":" + pid);
        return r == null ? -1 : r;
    }

    /** Every process the logs placed ({@code host:pid}) with its global rank. */
    public Map<String, Integer> worldRanks() {
        return Collections.unmodifiableMap(worldRankOf);
    }

    /** The ranks that ran on this fabric or topology host. */
    public List<RankSite> sitesOn(String host) {
        List<RankSite> out = new ArrayList<>();
        for (RankSite s : sites.values()) {
            if (host.equals(s.host())) {
                out.add(s);
            }
        }
        out.sort(Comparator.comparingInt(s -> s.rank().rank()));
        return out;
    }

    public List<RankRoute> routes() {
        return Collections.unmodifiableList(routes);
    }

    /** The routes whose fabric cables include this one. */
    public List<RankRoute> routesOver(Cable cable) {
        List<RankRoute> out = new ArrayList<>();
        for (RankRoute r : routes) {
            if (r.cables().contains(cable)) {
                out.add(r);
            }
        }
        return out;
    }

    public boolean isEmpty() {
        return sites.isEmpty();
    }
}
