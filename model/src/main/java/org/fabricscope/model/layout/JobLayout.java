package org.fabricscope.model.layout;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import org.fabricscope.model.FabricModel;
import org.fabricscope.model.core.NaturalOrder;
import org.fabricscope.model.core.Subject;
import org.fabricscope.model.k8s.K8sPod;
import org.fabricscope.model.ranks.RankMap;
import org.fabricscope.model.ranks.RankRoute;
import org.fabricscope.model.ranks.RankSite;
import org.fabricscope.model.training.Rank;
import org.fabricscope.model.training.Transport;

/**
 * The training job drawn without a fabric: a box per node (the Kubernetes node, else the fabric host,
 * else the host NCCL printed), in it a box per pod, in it a box per world rank with its GPU and NICs;
 * and a line per pair of ranks that talk, by their slowest transport. Positions are in layout units
 * (the view scales them); the order is natural by name and rank, so the same inputs always give the
 * same picture. Pure: no toolkit, computed once per load off the UI thread.
 */
public final class JobLayout {
    public static final double RANK_W = 150;
    public static final double RANK_H = 48;
    public static final double GAP = 12;
    public static final double HEADER = 26;
    public static final double PAD = 10;
    private static final int RANKS_PER_ROW = 4;
    private static final int NODES_PER_ROW = 4;

    /** What a box stands for. */
    public enum Kind { NODE, POD, RANK }

    /**
     * One box. {@code key} is unique ({@code node:NAME}, {@code pod:NAME}, {@code rank:N}); {@code parent}
     * the key of the box it sits in (null for a node); {@code line} the second line drawn in it (a rank's GPU
     * and NICs); {@code detail} the lines a tooltip shows.
     */
    public record Box(Kind kind, String key, String parent, String label, String line, String detail, double x, double y,
                      double w, double h) {
        public double centerX() {
            return x + w / 2;
        }

        public double centerY() {
            return y + h / 2;
        }
    }

    /** Two world ranks that share channels: their slowest transport and how many channels. */
    public record Edge(int rankA, int rankB, Transport transport, int channels) {
        public String fromKey() {
            return "rank:" + rankA;
        }

        public String toKey() {
            return "rank:" + rankB;
        }
    }

    private final List<Box> boxes;
    private final List<Edge> edges;
    private final Map<String, Box> byKey = new LinkedHashMap<>();
    private final List<RankSite> sites;
    private final RankMap ranks;
    private final double width;
    private final double height;

    private JobLayout(List<Box> boxes, List<Edge> edges, List<RankSite> sites, RankMap ranks) {
        this.ranks = ranks;
        this.boxes = List.copyOf(boxes);
        this.edges = List.copyOf(edges);
        this.sites = List.copyOf(sites);
        double w = 0;
        double h = 0;
        for (Box b : boxes) {
            byKey.put(b.key(), b);
            w = Math.max(w, b.x() + b.w());
            h = Math.max(h, b.y() + b.h());
        }
        this.width = w;
        this.height = h;
    }

    public static final JobLayout EMPTY = new JobLayout(List.of(), List.of(), List.of(), null);

    /** The job of {@code model}: its world ranks (as {@code ranks} places them) and the pods of its nodes. */
    public static JobLayout of(FabricModel model, RankMap ranks) {
        // node -> pod (or "" when the ranks name no pod) -> world ranks
        Map<String, Map<String, Map<Integer, RankSite>>> tree = new TreeMap<>(NaturalOrder.INSTANCE);
        List<RankSite> placed = new ArrayList<>();
        for (int world : new LinkedHashSet<>(ranks.worldRanks().values())) {
            RankSite s = ranks.worldSite(world);
            if (s == null) {
                continue;
            }
            placed.add(s);
            tree.computeIfAbsent(nodeOf(s), k -> new TreeMap<>(NaturalOrder.INSTANCE))
                    .computeIfAbsent(s.pod() == null ? "" : s.pod(), k -> new TreeMap<>()).put(world, s);
        }
        boolean anyRank = !placed.isEmpty();
        for (K8sPod p : model.pods()) {
            boolean hasRanks = placed.stream().anyMatch(s -> p.name().equals(s.pod()));
            if (!hasRanks && (!anyRank || isJobPod(p, placed))) {
                String node = p.node() == null || p.node().isEmpty() ? "(not scheduled)" : p.node();
                tree.computeIfAbsent(node, k -> new TreeMap<>(NaturalOrder.INSTANCE)).computeIfAbsent(p.name(), k -> new TreeMap<>());
            }
        }
        List<Box> boxes = new ArrayList<>();
        double rowY = 0;
        double x = 0;
        double rowH = 0;
        int col = 0;
        for (var node : tree.entrySet()) {
            if (col == NODES_PER_ROW) {
                col = 0;
                x = 0;
                rowY += rowH + GAP * 2;
                rowH = 0;
            }
            List<Box> inner = new ArrayList<>();
            double y = rowY + HEADER;
            double nodeW = RANK_W + 2 * PAD;
            String nodeKey = "node:" + node.getKey();
            for (var pod : node.getValue().entrySet()) {
                boolean podBox = !pod.getKey().isEmpty();
                String parent = podBox ? "pod:" + pod.getKey() : nodeKey;
                double px = x + PAD;
                double rx = podBox ? px + PAD : px;
                double ry = podBox ? y + HEADER : y;
                int n = pod.getValue().size();
                int cols = Math.max(1, Math.min(n, RANKS_PER_ROW));
                int rows = (n + RANKS_PER_ROW - 1) / RANKS_PER_ROW;
                int i = 0;
                for (var r : pod.getValue().entrySet()) {
                    inner.add(new Box(Kind.RANK, "rank:" + r.getKey(), parent, rankLabel(r.getKey(), r.getValue()),
                            rankLine(r.getValue()), rankDetail(r.getKey(), r.getValue()), rx + (i % RANKS_PER_ROW) * (RANK_W + GAP),
                            ry + (i / RANKS_PER_ROW) * (RANK_H + GAP), RANK_W, RANK_H));
                    i++;
                }
                double ranksW = cols * RANK_W + (cols - 1) * GAP;
                double ranksH = rows == 0 ? 0 : rows * RANK_H + (rows - 1) * GAP;
                if (podBox) {
                    double pw = ranksW + 2 * PAD;
                    double ph = HEADER + ranksH + PAD;
                    inner.add(inner.size() - n, new Box(Kind.POD, parent, nodeKey, pod.getKey(), podPhase(model, pod.getKey()),
                            podDetail(model, pod.getKey(), n), px, y, pw, ph));
                    nodeW = Math.max(nodeW, pw + 2 * PAD);
                    y += ph + GAP;
                } else {
                    nodeW = Math.max(nodeW, ranksW + 2 * PAD);
                    y += ranksH + GAP;
                }
            }
            double nodeH = Math.max(y - rowY, HEADER + PAD);
            boxes.add(new Box(Kind.NODE, nodeKey, null, node.getKey(),
                    model.k8sNodes().containsKey(node.getKey()) ? "Kubernetes node" : "host", nodeDetail(model, node.getKey(), node.getValue()),
                    x, rowY, nodeW, nodeH));
            boxes.addAll(inner);
            x += nodeW + GAP * 2;
            rowH = Math.max(rowH, nodeH);
            col++;
        }
        return new JobLayout(boxes, edges(ranks), placed, ranks);
    }

    private static boolean isJobPod(K8sPod p, List<RankSite> placed) {
        // a pod of the same job that logged nothing (pending, crashed before init): it shares a rank pod's name stem
        for (RankSite s : placed) {
            String other = s.pod();
            if (other != null) {
                int dash = other.lastIndexOf('-');
                if (dash > 0 && p.name().startsWith(other.substring(0, dash + 1))) {
                    return true;
                }
            }
        }
        return false;
    }

    private static String nodeOf(RankSite s) {
        if (s.k8sNode() != null) {
            return s.k8sNode();
        }
        return s.host() != null ? s.host() : s.rank().host();
    }

    private static String rankLabel(int world, RankSite s) {
        return "rank " + world;
    }

    private static String gpu(Rank r) {
        if (r.cudaDev() < 0) {
            return "GPU ?";
        }
        return "GPU " + r.cudaDev() + (r.nvmlDev() >= 0 && r.nvmlDev() != r.cudaDev() ? " (NVML " + r.nvmlDev() + ")" : "");
    }

    /** The rank's second line in its box: GPU and NICs. */
    public static String rankLine(RankSite s) {
        Rank r = s.rank();
        List<String> nics = nics(s);
        // NCCL lists every NIC of the node for each rank; past two the count reads better (the tooltip lists them)
        String net = nics.isEmpty() ? "" : " · " + (nics.size() <= 2 ? String.join(" ", nics) : nics.size() + " NICs");
        return gpu(r) + net;
    }

    private static List<String> nics(RankSite s) {
        if (s.hca() != null) {
            String d = s.hca().displayName();
            int sp = d.lastIndexOf(' ');
            return List.of(sp >= 0 ? d.substring(sp + 1) : d);
        }
        List<String> out = new ArrayList<>();
        for (String d : s.rank().rdmaDevices()) {
            int cut = d.indexOf(':') > 0 ? d.indexOf(':') : d.indexOf('/');
            out.add(cut > 0 ? d.substring(0, cut) : d); // mlx5_0:1/IB -> mlx5_0
        }
        return out;
    }

    private static String rankDetail(int world, RankSite s) {
        Rank r = s.rank();
        StringBuilder b = new StringBuilder("rank " + world + " of " + r.nranks());
        b.append("\n").append(gpu(r));
        if (r.busId() != null && !r.busId().isEmpty()) {
            b.append(", bus ").append(r.busId());
        }
        if (!r.netDevices().isEmpty()) {
            b.append("\nNICs: ").append(String.join(", ", r.netDevices()));
        }
        if (s.hca() != null) {
            b.append("\nHCA: ").append(s.hca().displayName());
        }
        b.append("\nprocess ").append(r.process());
        if (s.pod() != null) {
            b.append("\npod ").append(s.pod());
        }
        return b.toString();
    }

    private static String podPhase(FabricModel model, String pod) {
        for (K8sPod p : model.pods()) {
            if (p.name().equals(pod)) {
                return p.phase() == null ? "" : p.phase();
            }
        }
        return "";
    }

    private static String podDetail(FabricModel model, String pod, int ranks) {
        for (K8sPod p : model.pods()) {
            if (p.name().equals(pod)) {
                return "pod " + p.namespace() + "/" + p.name() + "\n" + (p.phase() == null ? "" : p.phase() + ", ")
                        + ranks + (ranks == 1 ? " rank" : " ranks");
            }
        }
        return "pod " + pod + "\n" + ranks + (ranks == 1 ? " rank" : " ranks");
    }

    private static String nodeDetail(FabricModel model, String node, Map<String, Map<Integer, RankSite>> pods) {
        int ranks = pods.values().stream().mapToInt(Map::size).sum();
        int podCount = (int) pods.keySet().stream().filter(p -> !p.isEmpty()).count();
        String kind = model.k8sNodes().containsKey(node) ? "Kubernetes node " : "host ";
        return kind + node + "\n" + (podCount > 0 ? podCount + (podCount == 1 ? " pod, " : " pods, ") : "") + ranks
                + (ranks == 1 ? " rank" : " ranks");
    }

    /** The routes of every communicator, as pairs of world ranks, each with its slowest transport. */
    private static List<Edge> edges(RankMap ranks) {
        Map<String, Integer> world = ranks.worldRanks();
        Map<Long, Edge> pairs = new TreeMap<>();
        for (RankRoute r : ranks.routes()) {
            Integer a = world.get(r.a().rank().process());
            Integer b = world.get(r.b().rank().process());
            if (a == null || b == null || a.equals(b)) {
                continue;
            }
            int lo = Math.min(a, b);
            int hi = Math.max(a, b);
            long k = ((long) lo << 32) | hi;
            Edge e = pairs.get(k);
            Transport t = e == null || r.transport().compareTo(e.transport()) > 0 ? r.transport() : e.transport();
            pairs.put(k, new Edge(lo, hi, t, (e == null ? 0 : e.channels()) + r.channels()));
        }
        return new ArrayList<>(pairs.values());
    }

    /**
     * The keys of the boxes that stand for these subjects (a finding's): its ranks, pods, nodes, and the
     * ranks of the GPUs, NICs, HCAs and hosts it names.
     */
    public Set<String> marked(List<Subject> subjects) {
        Set<String> out = new LinkedHashSet<>();
        if (ranks == null) {
            return out;
        }
        for (Subject s : subjects) {
            if (s instanceof Subject.RankRef r) {
                RankSite site = r.commId() == null ? null : ranks.site(r.commId(), r.rank());
                site = site != null ? site : ranks.worldSite(r.rank());
                if (site != null) {
                    out.add("rank:" + worldOf(site));
                }
            } else if (s instanceof Subject.PodRef p) {
                addPod(out, p.pod());
            } else if (s instanceof Subject.ContainerRef c) {
                addPod(out, c.pod());
            } else if (s instanceof Subject.K8sNodeRef n) {
                out.add("node:" + n.node());
            } else if (s instanceof Subject.HostRef h) {
                out.add("node:" + h.host());
                sites.stream().filter(x -> h.host().equals(x.host()) || h.host().equals(x.rank().host()))
                        .forEach(x -> out.add(nodeKeyOf(x)));
            } else if (s instanceof Subject.GpuRef g) {
                sites.stream().filter(x -> onHost(x, g.host()) && sameGpu(x, g)).forEach(x -> out.add("rank:" + worldOf(x)));
            } else if (s instanceof Subject.NicRef n) {
                sites.stream().filter(x -> onHost(x, n.host()) && usesNic(x, n.device())).forEach(x -> out.add("rank:" + worldOf(x)));
            } else if (s instanceof Subject.HcaRef h) {
                sites.stream().filter(x -> x.hca() != null && x.hca().guid() == h.guid()).forEach(x -> out.add("rank:" + worldOf(x)));
            }
        }
        out.retainAll(byKey.keySet());
        return out;
    }

    private void addPod(Set<String> out, String pod) {
        out.add("pod:" + pod);
        sites.stream().filter(x -> x.pod() == null && pod.equals(x.rank().host())).forEach(x -> out.add(nodeKeyOf(x)));
    }

    private static String nodeKeyOf(RankSite s) {
        return "node:" + nodeOf(s);
    }

    private int worldOf(RankSite s) {
        Integer w = ranks.worldRanks().get(s.rank().process());
        return w == null ? -1 : w;
    }

    private static boolean onHost(RankSite s, String host) {
        return host != null && (host.equals(s.host()) || host.equals(s.rank().host()) || host.equals(s.k8sNode()));
    }

    private static boolean sameGpu(RankSite s, Subject.GpuRef g) {
        if (g.busId() != null && s.rank().busId() != null && !g.busId().isEmpty()) {
            String a = g.busId().toLowerCase().replaceAll("[^0-9a-f]", "").replaceFirst("^0+", "");
            String b = s.rank().busId().toLowerCase().replaceAll("[^0-9a-f]", "").replaceFirst("^0+", "");
            if (a.equals(b)) {
                return true;
            }
        }
        return g.index() >= 0 && (g.index() == s.rank().nvmlDev() || s.gpu() != null && s.gpu().index() == g.index());
    }

    private static boolean usesNic(RankSite s, String device) {
        return s.rank().netDevices().stream().anyMatch(d -> d.equals(device) || d.startsWith(device + ":"));
    }

    public List<Box> boxes() {
        return boxes;
    }

    public List<Box> boxes(Kind kind) {
        return boxes.stream().filter(b -> b.kind() == kind).toList();
    }

    public Box box(String key) {
        return byKey.get(key);
    }

    public List<Edge> edges() {
        return edges;
    }

    public double width() {
        return width;
    }

    public double height() {
        return height;
    }

    public boolean isEmpty() {
        return boxes.isEmpty();
    }

    /** Each box's key to the box, in drawing order (nodes before the pods and ranks in them). */
    public Map<String, Box> byKey() {
        return Collections.unmodifiableMap(byKey);
    }
}
