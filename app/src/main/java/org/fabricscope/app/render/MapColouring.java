package org.fabricscope.app.render;

import java.util.List;
import java.util.Map;

import org.fabricscope.model.fabric.Cable;
import org.fabricscope.model.FabricModel;
import org.fabricscope.model.fabric.FabricNode;
import org.fabricscope.model.fabric.Host;
import org.fabricscope.model.fabric.LinkSpeed;
import org.fabricscope.model.fabric.Port;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.core.Severity;
import org.fabricscope.model.core.Subject;
import org.fabricscope.model.diagnosis.ErrorThresholds;
import org.fabricscope.model.diagnosis.LinkDegradedCheck;
import org.fabricscope.model.diagnosis.LinkDownCheck;
import org.fabricscope.model.diagnosis.LinkErrorsCheck;
import org.fabricscope.model.layout.MapLayout;
import org.fabricscope.model.core.Vertex;
import org.fabricscope.model.k8s.K8sNode;
import org.fabricscope.model.ranks.RankMap;
import org.fabricscope.model.ranks.RankRoute;
import org.fabricscope.model.ranks.RankSite;
import org.fabricscope.model.training.Transport;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.TreeSet;

/**
 * Colours of every link and glyph for one colour mode, computed once per model and mode (off
 * the FX thread) so drawing a frame only reads arrays.
 */
public final class MapColouring {
    private static final LinkSpeed[] SPEEDS = LinkSpeed.values();

    private final MapPalette palette;
    private final int[] linkColour;
    private final int[] linkThickness;
    private final int[] itemColour;
    /** Ports of each item's node that lost their link (down now, LinkDownedCounter above zero). */
    private final int[] itemDownPorts;
    /**
     * Per item, the slowest transport of its ranks' pairs that leave the host off the InfiniBand
     * fabric (NET/Socket over eth0, another NET plugin); null for none. Transport mode only: those
     * pairs are drawn as a mark on the host, never on IB cables.
     */
    private final Transport[] itemOffFabric;
    /** Per item, the slowest transport of the ranks it holds (for the rank badge); null for none. */
    private final Transport[] itemRankTransport;
    private final Map<Cable, String> degraded;
    /** Rank placement and routes (drawn over the map in the transport mode); empty without training logs. */
    private final RankMap ranks;
    /** Per item, the ranks it holds as a short label ({@code r8-15}); null for none. Transport mode only. */
    private final String[] rankLabels;

    /** Per link and per item: 0 none, {@link #WARNING} or {@link #ERROR}; what the overview draws with a halo. */
    private final byte[] linkProblem;
    private final byte[] itemProblem;

    /** Problem levels of {@link #linkProblem(int)} and {@link #itemProblem(int)}. */
    public static final int WARNING = 1;
    public static final int ERROR = 2;

    private MapColouring(int links, int items, Map<Cable, String> degraded, RankMap ranks, MapPalette palette) {
        this.palette = palette;
        linkProblem = new byte[links];
        itemProblem = new byte[items];
        itemOffFabric = new Transport[items];
        itemRankTransport = new Transport[items];
        this.ranks = ranks;
        rankLabels = new String[items];
        linkColour = new int[links];
        linkThickness = new int[links];
        itemColour = new int[items];
        itemDownPorts = new int[items];
        this.degraded = degraded;
    }

    /** The palette the colours were taken from (the rasteriser draws its background and badges with it). */
    public MapPalette palette() {
        return palette;
    }

    /** ARGB colour of link {@code i} of the layout. */
    public int linkColour(int i) {
        return linkColour[i];
    }

    /** Thickness in pixels of link {@code i}: 1, or 3 for emphasised links. */
    public int linkThickness(int i) {
        return linkThickness[i];
    }

    /**
     * How much of a problem link {@code i} is: {@link #ERROR}, {@link #WARNING} or 0. A link is a
     * problem when one of its cables (or their ports) is the subject of an error or warning finding,
     * or, in the error and speed modes, when its colour says so (over thresholds, degraded).
     */
    public int linkProblem(int i) {
        return linkProblem[i];
    }

    /** How much of a problem an item is: a switch or HCA a finding names, or one with a port that lost its link. */
    public int itemProblem(int item) {
        return itemProblem[item];
    }

    /** ARGB colour of the glyph of the item with this index. */
    public int itemColour(int item) {
        return itemColour[item];
    }

    /** Ports of the item's node (or host's HCAs) that lost their link. */
    public int itemDownPorts(int item) {
        return itemDownPorts[item];
    }

    /** Whether the map marks lost links on glyphs: in every colour mode (a lost link is an error finding). */
    public boolean marksDownPorts() {
        return true;
    }

    /**
     * The slowest off-fabric transport (NET/Socket, another NET plugin) of the pairs of the ranks
     * this item holds, drawn as a mark under the glyph; null for none or outside the transport mode.
     */
    public Transport itemOffFabric(int item) {
        return itemOffFabric[item];
    }

    /** The slowest transport of the pairs of the ranks this item holds (the rank badge's colour); null for none. */
    public Transport itemRankTransport(int item) {
        return itemRankTransport[item];
    }

    /**
     * Whether a pair talking over this transport crosses the InfiniBand fabric, so that its path's
     * IB cables carry it: NET/IB with or without GPUDirect RDMA. NET/Socket goes over the hosts'
     * Ethernet (eth0), another NET plugin over its own network; P2P and SHM stay inside a host.
     */
    public static boolean onFabric(Transport t) {
        return t == Transport.NET_IB || t == Transport.NET_IB_GDR;
    }

    /** A transport between two hosts that does not cross the IB fabric: drawn as a mark on the hosts. */
    public static boolean offFabric(Transport t) {
        return t == Transport.NET_SOCKET || t == Transport.NET_OTHER;
    }

    /** Degraded cables (narrower or slower than they could run) and why. */
    public Map<Cable, String> degraded() {
        return degraded;
    }

    /** Rank placement and routes; empty without training logs. */
    public RankMap ranks() {
        return ranks;
    }

    /** The ranks the item holds as a short label ({@code r8-15}); null for none or outside the transport mode. */
    public String rankLabel(int item) {
        return rankLabels[item];
    }

    public static MapColouring compute(FabricModel model, MapLayout layout, ColourMode mode, ErrorThresholds t, RankMap ranks,
                                       MapPalette palette) {
        return compute(model, layout, mode, t, ranks, null, palette);
    }

    /** {@code job}: in the Kubernetes mode, the training job ({@code namespace/name}) whose hosts stand out; null for all. */
    public static MapColouring compute(FabricModel model, MapLayout layout, ColourMode mode, ErrorThresholds t, RankMap ranks,
                                       String job, MapPalette palette) {
        return compute(model, layout, mode, t, ranks, job, List.of(), palette);
    }

    /** As above; the cables, ports and switches that {@code findings} name become problems drawn above the rest. */
    public static MapColouring compute(FabricModel model, MapLayout layout, ColourMode mode, ErrorThresholds t, RankMap ranks,
                                       String job, List<Finding> findings, MapPalette palette) {
        MapColouring c = colours(model, layout, mode, t, ranks, job, palette);
        c.problems(model, layout, mode, findings);
        return c;
    }

    private static MapColouring colours(FabricModel model, MapLayout layout, ColourMode mode, ErrorThresholds t, RankMap ranks,
                                        String job, MapPalette palette) {
        Map<Cable, LinkDegradedCheck.Degradation> assessed = LinkDegradedCheck.assessAll(model);
        Map<Cable, String> degraded = new java.util.LinkedHashMap<>();
        assessed.forEach((cable, d) -> degraded.put(cable, d.why()));
        List<MapLayout.Link> links = layout.links();
        MapColouring c = new MapColouring(links.size(), layout.items().size(), degraded, ranks, palette);
        c.downPorts(layout);
        if (mode == ColourMode.TRANSPORT) {
            c.transport(model, layout, ranks);
            return c;
        }
        if (mode == ColourMode.KUBERNETES) {
            c.kubernetes(model, layout, job);
            return c;
        }
        for (int i = 0; i < links.size(); i++) {
            MapLayout.Link l = links.get(i);
            int colour;
            boolean emphasis = false;
            if (mode == ColourMode.ERRORS) {
                Severity worst = null;
                boolean anyCounters = false;
                boolean deg = false;
                for (Cable cable : l.cables()) {
                    LinkDegradedCheck.Degradation d = assessed.get(cable);
                    if (d != null) {
                        // a degraded link is a finding too: lost lanes an ERROR, a slower speed a WARNING
                        Severity s = d.severity();
                        deg |= s == Severity.WARNING;
                        if (worst == null || s.compareTo(worst) < 0) {
                            worst = s;
                        }
                    }
                    for (Port p : new Port[] {cable.a(), cable.b()}) {
                        anyCounters |= !p.counters().isEmpty();
                        Severity s = LinkErrorsCheck.worst(p, t);
                        if (s != null && (worst == null || s.compareTo(worst) < 0)) {
                            worst = s;
                        }
                    }
                }
                colour = worst == Severity.ERROR ? palette.danger()
                        : worst == Severity.WARNING ? (deg ? palette.degraded() : palette.warning())
                        : anyCounters ? palette.ok() : palette.unknown();
                emphasis = worst != null;
            } else {
                boolean deg = false;
                int speed = -1;
                for (Cable cable : l.cables()) {
                    deg |= degraded.containsKey(cable);
                    if (cable.speed() != null) {
                        speed = Math.max(speed, cable.speed().ordinal());
                    }
                }
                colour = deg ? palette.degraded() : speed < 0 ? palette.unknown() : palette.speed(SPEEDS[speed]);
                emphasis = deg;
            }
            c.linkColour[i] = colour;
            c.linkThickness[i] = emphasis ? 3 : 1;
        }
        for (MapLayout.Item it : layout.items()) {
            int colour;
            if (it.vertex() instanceof FabricNode) {
                colour = switch (it.row()) {
                    case CORE -> palette.core();
                    case SPINE -> palette.spine();
                    case LEAF -> palette.leaf();
                    case OTHER -> palette.other();
                    default -> palette.hca();
                };
            } else if (it.vertex() instanceof Host) {
                colour = palette.host();
            } else {
                colour = palette.hca();
            }
            c.itemColour[it.index()] = colour;
        }
        return c;
    }

    /**
     * Problems: in the error and speed modes every link coloured as over thresholds or degraded;
     * in every mode the fabric subjects (cables, ports, switches, HCAs) of error and warning findings,
     * and glyphs with a port that lost its link.
     */
    private void problems(FabricModel model, MapLayout layout, ColourMode mode, List<Finding> findings) {
        if (mode == ColourMode.ERRORS || mode == ColourMode.SPEED) {
            for (int i = 0; i < linkColour.length; i++) {
                int col = linkColour[i];
                linkProblem[i] = (byte) (col == palette.danger() ? ERROR
                        : col == palette.degraded() || col == palette.warning() ? WARNING : 0);
            }
        }
        for (int i = 0; i < itemDownPorts.length; i++) {
            if (itemDownPorts[i] > 0) {
                itemProblem[i] = WARNING;
            }
        }
        if (findings.isEmpty()) {
            return;
        }
        Map<Cable, Integer> linkOf = new HashMap<>();
        List<MapLayout.Link> links = layout.links();
        for (int i = 0; i < links.size(); i++) {
            for (Cable cable : links.get(i).cables()) {
                linkOf.put(cable, i);
            }
        }
        for (Finding f : findings) {
            if (f.severity() == Severity.INFO) {
                continue;
            }
            byte level = (byte) (f.severity() == Severity.ERROR ? ERROR : WARNING);
            for (Subject ref : f.refs()) {
                FabricNode node = null;
                Port port = null;
                if (ref instanceof Subject.CableRef c) {
                    node = model.node(c.guidA());
                    port = node == null ? null : node.port(c.portA());
                } else if (ref instanceof Subject.PortRef p) {
                    node = model.node(p.guid());
                    port = node == null ? null : node.port(p.port());
                } else if (ref instanceof Subject.SwitchRef s) {
                    node = model.node(s.guid());
                } else if (ref instanceof Subject.HcaRef h) {
                    node = model.node(h.guid());
                }
                Integer link = port == null || port.cable() == null ? null : linkOf.get(port.cable());
                if (link != null) {
                    linkProblem[link] = (byte) Math.max(linkProblem[link], level);
                } else if (node != null) {
                    MapLayout.Item it = layout.item(node);
                    if (it == null && node.host() != null) {
                        it = layout.item(node.host());
                    }
                    if (it != null) {
                        itemProblem[it.index()] = (byte) Math.max(itemProblem[it.index()], level);
                    }
                }
            }
        }
    }

    /** Ports that lost their link, per glyph (a collapsed host counts its HCAs'): marked in every mode. */
    private void downPorts(MapLayout layout) {
        for (MapLayout.Item it : layout.items()) {
            int down = 0;
            if (it.vertex() instanceof FabricNode n) {
                down = downPorts(n);
            } else if (it.vertex() instanceof Host h) {
                for (FabricNode a : h.adapters()) {
                    down += downPorts(a);
                }
            }
            itemDownPorts[it.index()] = down;
        }
    }

    /**
     * Transport mode, drawn where the traffic flows: each IB cable takes the slowest transport of
     * the InfiniBand rank pairs (NET/IB, NET/IB+GDR) whose paths cross it; pairs that talk over
     * sockets (eth0) or another network never colour an IB cable: their hosts get an off-fabric
     * mark instead. An HCA glyph takes the slowest IB or in-host transport its ranks use, a
     * collapsed host's glyph the slowest of all its ranks' transports; everything else is faint.
     */
    private void transport(FabricModel model, MapLayout layout, RankMap ranks) {
        Map<Cable, Transport> byCable = new HashMap<>();
        Map<Vertex, Transport> byVertex = new HashMap<>();
        Map<Vertex, Transport> offFabric = new HashMap<>();
        Map<Vertex, Transport> byRank = new HashMap<>();
        Map<Vertex, TreeSet<Integer>> rankNumbers = new HashMap<>();
        for (RankRoute r : ranks.routes()) {
            boolean off = offFabric(r.transport());
            if (onFabric(r.transport())) {
                for (Cable cable : r.cables()) {
                    byCable.merge(cable, r.transport(), MapColouring::slower);
                }
            }
            for (RankSite s : new RankSite[] {r.a(), r.b()}) {
                for (Vertex v : glyphsOf(model, s)) {
                    byRank.merge(v, r.transport(), MapColouring::slower);
                    if (off) {
                        offFabric.merge(v, r.transport(), MapColouring::slower);
                    }
                    if (!off || v instanceof Host) {
                        byVertex.merge(v, r.transport(), MapColouring::slower);
                    }
                }
            }
        }
        for (RankSite s : ranks.sites()) {
            for (Vertex v : glyphsOf(model, s)) {
                rankNumbers.computeIfAbsent(v, k -> new TreeSet<>()).add(s.rank().rank());
            }
        }
        List<MapLayout.Link> links = layout.links();
        for (int i = 0; i < links.size(); i++) {
            Transport worst = null;
            for (Cable cable : links.get(i).cables()) {
                Transport tr = byCable.get(cable);
                if (tr != null) {
                    worst = worst == null ? tr : slower(worst, tr);
                }
            }
            linkColour[i] = worst == null ? palette.faint() : palette.transport(worst);
            linkThickness[i] = worst == null ? 1 : 3;
        }
        for (MapLayout.Item it : layout.items()) {
            Transport tr = byVertex.get(it.vertex());
            boolean isSwitch = it.vertex() instanceof FabricNode n && n.isSwitch();
            itemColour[it.index()] = tr != null ? palette.transport(tr) : isSwitch ? palette.unknown() : palette.faint();
            itemOffFabric[it.index()] = offFabric.get(it.vertex());
            itemRankTransport[it.index()] = byRank.get(it.vertex());
            TreeSet<Integer> nums = rankNumbers.get(it.vertex());
            rankLabels[it.index()] = nums == null ? null : RankRanges.of(nums);
        }
    }

    /** The glyphs a rank is drawn on: its HCA (expanded hosts) or its host (collapsed). */
    private static List<Vertex> glyphsOf(FabricModel model, RankSite s) {
        List<Vertex> out = new ArrayList<>(2);
        if (s.hca() != null) {
            out.add(s.hca());
        }
        Host h = s.host() == null ? null : model.host(s.host());
        if (h != null) {
            out.add(h);
            if (s.hca() == null) {
                out.addAll(h.adapters());
            }
        }
        return out;
    }

    private static Transport slower(Transport a, Transport b) {
        return a.compareTo(b) >= 0 ? a : b;
    }

    /**
     * Kubernetes mode: a host's glyph (and its HCAs) shows its node's readiness, or that it runs
     * pods of a training job; hosts with no node are faint. Cables are faint.
     */
    private void kubernetes(FabricModel model, MapLayout layout, String job) {
        for (int i = 0; i < linkColour.length; i++) {
            linkColour[i] = palette.faint();
            linkThickness[i] = 1;
        }
        for (MapLayout.Item it : layout.items()) {
            Host h = it.vertex() instanceof Host host ? host
                    : it.vertex() instanceof FabricNode n ? n.host() : null;
            int colour;
            if (h == null) {
                colour = it.vertex() instanceof FabricNode n && n.isSwitch() ? palette.unknown() : palette.faint();
            } else {
                K8sNode node = model.k8sNodeOf(h);
                if (node == null) {
                    colour = palette.faint();
                } else if (Boolean.FALSE.equals(node.ready()) || node.unschedulable()) {
                    colour = palette.danger();
                } else if (model.k8s().podsOn(node.name()).stream().anyMatch(p -> runsJob(p, job))) {
                    colour = palette.job();
                } else if (job != null && model.k8s().podsOn(node.name()).stream().anyMatch(p -> runsJob(p, null))) {
                    colour = palette.otherJob();
                } else if (Boolean.TRUE.equals(node.ready())) {
                    colour = palette.ok();
                } else {
                    colour = palette.unknown();
                }
            }
            itemColour[it.index()] = colour;
        }
    }

    /**
     * A pod of this job ({@code namespace/name}), finished ones included (they show where the job
     * ran); with {@code job} null, a live training pod of any job.
     */
    private static boolean runsJob(org.fabricscope.model.k8s.K8sPod p, String job) {
        if (job == null) {
            return p.training() && !p.terminated();
        }
        return p.job() != null && job.equals(p.namespace() + "/" + p.job().jobName());
    }

    /** Ports that lost their link: unplugged or failed cables (spare ports that never linked are not counted). */
    static int downPorts(FabricNode n) {
        int down = 0;
        for (Port p : n.ports()) {
            if (LinkDownCheck.lostLink(p)) {
                down++;
            }
        }
        return down;
    }
}
