package org.fabricscope.app.ui;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.stream.Collectors;

import org.fabricscope.model.core.Plural;
import org.fabricscope.app.nav.CableFacts;
import org.fabricscope.model.FabricModel;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.core.Guids;
import org.fabricscope.model.core.Severity;
import org.fabricscope.model.core.Vertex;
import org.fabricscope.model.diagnosis.ErrorThresholds;
import org.fabricscope.model.diagnosis.LinkErrorsCheck;
import org.fabricscope.model.fabric.Cable;
import org.fabricscope.model.fabric.FabricNode;
import org.fabricscope.model.fabric.Host;
import org.fabricscope.model.fabric.NodeKind;
import org.fabricscope.model.fabric.Port;
import org.fabricscope.model.fabric.PortState;
import org.fabricscope.model.host.Gpu;
import org.fabricscope.model.host.HostTopology;
import org.fabricscope.model.host.NetPort;
import org.fabricscope.model.ranks.RankMap;
import org.fabricscope.model.ranks.RankRoute;
import org.fabricscope.model.ranks.RankSite;

import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * What the inspector shows of one switch, HCA or host: identity, its Kubernetes node and training
 * ranks, a row per port with peer and counters (its own and the peer port's: the errors of a link
 * are often counted at the other end), and whether its host drill-down can open (with the GPU or NIC
 * a finding is about picked out there). Or of one cable: both ends with every counter and rate, the
 * findings about it and the rank pairs whose InfiniBand traffic may cross it.
 */
public final class InspectorViewModel {
    private static final String HINT = "Click a switch or HCA on the map, or search (Ctrl+F).";

    /** How a port row is marked. */
    public enum PortHealth { OK, WARNING, DANGER, DEGRADED }

    /** One host's drill-down and what to pick out in it (null when nothing). */
    public record HostFocus(HostTopology topology, Gpu gpu, NetPort net) {
    }

    private final ReadOnlyStringWrapper title = new ReadOnlyStringWrapper("Nothing selected");
    private final ReadOnlyStringWrapper details = new ReadOnlyStringWrapper(HINT);
    private final ObservableList<Port> ports = FXCollections.observableArrayList();
    private final ReadOnlyBooleanWrapper hostAvailable = new ReadOnlyBooleanWrapper();
    private final ReadOnlyStringWrapper hostButtonText = new ReadOnlyStringWrapper("Host topology…");
    private final javafx.beans.property.ReadOnlyObjectWrapper<Port> focusedPort = new javafx.beans.property.ReadOnlyObjectWrapper<>();
    private Consumer<HostFocus> onOpenHost = f -> { };
    private Map<Cable, String> degraded = Map.of();
    private ErrorThresholds thresholds = ErrorThresholds.defaults();
    private FabricModel model;
    private RankMap ranks;
    private Vertex shown;
    private Cable shownCable;
    private List<Finding> findings = List.of();
    private HostTopology topology;
    private Gpu focusGpu;
    private NetPort focusNet;

    /** What opening a host drill-down does (the window opens it). */
    public void setOnOpenHost(Consumer<HostFocus> onOpenHost) {
        this.onOpenHost = onOpenHost;
    }

    public void setContext(Map<Cable, String> degraded, ErrorThresholds thresholds) {
        this.degraded = degraded;
        this.thresholds = thresholds;
    }

    /** The loaded layers: host topologies, the Kubernetes node and the training ranks of a host. */
    public void setLayers(FabricModel model, RankMap ranks) {
        this.model = model;
        this.ranks = ranks;
    }

    /** The analysis' findings, for the cable view's "findings on this cable". */
    public void setFindings(List<Finding> all) {
        this.findings = List.copyOf(all);
    }

    /** Opens the drill-down of the shown host, when it has a topology. */
    public boolean openHost() {
        if (topology == null) {
            return false;
        }
        onOpenHost.accept(new HostFocus(topology, focusGpu, focusNet));
        return true;
    }

    /** The GPU or NIC the host drill-down picks out, when it is of the shown host. */
    public void focus(List<Gpu> gpus, List<NetPort> nets) {
        focusGpu = gpus.stream().filter(g -> g.topology() == topology).findFirst().orElse(null);
        focusNet = topology == null ? null : nets.stream().filter(n -> topology.nets().contains(n)).findFirst().orElse(null);
    }

    /**
     * The row a navigation (a finding) is about: the first of these ports that the inspector lists; the
     * view selects it and keeps it and its counter columns in view. None when the ports are not shown.
     */
    public void focusPorts(List<Port> about) {
        focusedPort.set(about.stream().filter(ports::contains).findFirst().orElse(null));
    }

    /** The port row a finding selected, or null. */
    public javafx.beans.property.ReadOnlyObjectProperty<Port> focusedPortProperty() {
        return focusedPort.getReadOnlyProperty();
    }

    public HostFocus hostFocus() {
        return topology == null ? null : new HostFocus(topology, focusGpu, focusNet);
    }

    private final SubjectNotes notes = new SubjectNotes();
    private final ReadOnlyStringWrapper note = new ReadOnlyStringWrapper("");

    {
        notes.all().addListener((javafx.collections.MapChangeListener<String, org.fabricscope.app.session.Session.Note>) c -> showNote());
    }

    /** The user's notes on subjects (saved with the session). */
    public SubjectNotes notes() {
        return notes;
    }

    /** The notes on what is shown and on its ports, as the inspector prints them; empty when none. */
    public ReadOnlyStringProperty noteProperty() {
        return note.getReadOnlyProperty();
    }

    /** What a note written now is about: the cable shown, else the switch, HCA or host; null when nothing is shown. */
    public org.fabricscope.model.core.Subject noteSubject() {
        return shownCable != null ? SubjectNotes.subjectOf(shownCable) : SubjectNotes.subjectOf(shown);
    }

    private void showNote() {
        StringBuilder b = new StringBuilder();
        org.fabricscope.model.core.Subject s = noteSubject();
        String own = s == null ? null : notes.text(SubjectNotes.key(s));
        if (own != null) {
            b.append("Note: ").append(own);
        }
        for (Port p : ports) {
            String t = notes.text(SubjectNotes.key(SubjectNotes.subjectOf(p)));
            if (t != null) {
                b.append(b.length() == 0 ? "" : "\n").append("Note on ").append(p.label()).append(": ").append(t);
            }
        }
        note.set(b.toString());
    }

    public void show(Vertex v) {
        showVertex(v);
        showNote();
    }

    private void showVertex(Vertex v) {
        if (v != shown) {
            focusedPort.set(null); // another node: the row a finding named is not among its ports
        }
        shown = v;
        shownCable = null;
        String hostName = v instanceof Host h ? h.name() : v instanceof FabricNode n && n.host() != null ? n.host().name() : null;
        HostTopology t = hostName == null || model == null ? null : model.hostTopology(hostName);
        if (t != topology) {
            focusGpu = null;
            focusNet = null;
        }
        topology = t;
        hostAvailable.set(t != null);
        if (t != null) {
            hostButtonText.set("Host topology of " + hostName + "…");
        }
        if (v == null) {
            title.set("Nothing selected");
            details.set(HINT);
            ports.clear();
        } else if (v instanceof FabricNode n) {
            title.set(n.displayName());
            details.set(nodeText(n) + layersText(n.host(), n));
            ports.setAll(n.ports());
        } else if (v instanceof Host h) {
            title.set(h.name());
            details.set("host · " + Plural.of(h.adapters().size(), "HCA") + ": "
                    + h.adapters().stream().map(InspectorViewModel::shortName).collect(Collectors.joining(", ")) + layersText(h, null));
            ports.setAll(h.adapters().stream().flatMap(a -> a.ports().stream()).toList());
        }
    }

    /** The vertex shown, or null. */
    public Vertex shown() {
        return shown;
    }

    /** The cable shown, or null. */
    public Cable shownCable() {
        return shownCable;
    }

    /**
     * Shows a cable: both ends (switch or HCA, port, LID, rate and state, every counter read), the
     * findings whose refs name the cable or either port, and the rank pairs whose IB traffic may cross
     * it. The host drill-down stays available for the HCA end's host.
     */
    public void showCable(Cable c) {
        if (c == null) {
            show(null);
            return;
        }
        FabricNode hca = !c.a().node().isSwitch() ? c.a().node() : !c.b().node().isSwitch() ? c.b().node() : null;
        show(hca != null && hca.host() != null ? hca : null); // the drill-down of the HCA's host, when loaded
        shown = null;
        shownCable = c;
        title.set("Cable " + c.rateToken() + ": " + c.a().label() + " <-> " + c.b().label());
        details.set(cableText(c));
        ports.setAll(c.a(), c.b());
        showNote();
    }

    private String cableText(Cable c) {
        StringBuilder b = new StringBuilder();
        String deg = degraded.get(c);
        b.append("cable ").append(c.rateToken()).append(deg != null ? " · degraded: " + deg : "");
        if (c.evidence() != null) {
            b.append("\nseen at ").append(c.evidence().where());
        }
        char end = 'A';
        for (Port p : new Port[] {c.a(), c.b()}) {
            b.append("\n\n").append(end++).append(": ").append(CableFacts.endText(p))
                    .append("\n  rate ").append(CableFacts.linkText(p))
                    .append(p.counters().isEmpty() ? "\n  counters not read" : "\n  counters: " + CableFacts.countersText(p, thresholds, true));
            for (String line : CounterSparkline.lines(p)) { // counters read over time (Prometheus): how they rose
                b.append("\n  ").append(line);
            }
        }
        List<Finding> on = CableFacts.findingsOn(c, findings);
        b.append("\n\nFindings on this cable (").append(on.size()).append(")").append(on.isEmpty() ? ": none" : ":");
        for (Finding f : on) {
            b.append("\n  ").append(f.severity()).append(' ').append(f.id()).append(": ").append(f.title());
        }
        List<RankRoute> routes = CableFacts.routesOver(c, ranks);
        if (ranks != null && !ranks.isEmpty()) {
            b.append("\n\nRanks whose InfiniBand traffic may cross it (").append(routes.size()).append(" pairs)")
                    .append(routes.isEmpty() ? ": none" : ":");
            for (RankRoute r : routes.stream().limit(16).toList()) {
                b.append("\n  rank ").append(r.a().rank().rank()).append(" <-> rank ").append(r.b().rank().rank())
                        .append(" over ").append(r.transport().label()).append(" (").append(r.a().describe())
                        .append(" <-> ").append(r.b().describe()).append(')');
            }
            if (routes.size() > 16) {
                b.append("\n  and ").append(Plural.of(routes.size() - 16, "more pair", "more pairs"));
            }
        }
        return b.toString();
    }

    private static String nodeText(FabricNode n) {
        StringBuilder sb = new StringBuilder();
        sb.append(n.isSwitch() ? (n.tier().label() + " switch") : n.kind() == NodeKind.CA
                ? (n.isHostAdapter() ? "host HCA" : n.role().name().toLowerCase().replace('_', ' ')) : "router");
        if (n.switchModel() != null) {
            sb.append(" · ").append(n.switchModel());
        }
        sb.append("\nGUID ").append(Guids.format(n.guid()));
        if (n.sysImgGuid() != 0) {
            sb.append(" · system image ").append(Guids.format(n.sysImgGuid()));
        }
        sb.append("\nLID ").append(n.lid()).append(" · ").append(Plural.of(n.numPorts(), "port"));
        if (n.host() != null) {
            sb.append(" · host ").append(n.host().name());
        }
        if (!n.description().equals(n.displayName())) {
            sb.append("\n\"").append(n.description().strip()).append('"');
        }
        return sb.toString();
    }

    /** The Kubernetes node (readiness, requests vs allocatable, pods) and the ranks of a host, or "". */
    private String layersText(Host h, FabricNode onlyHca) {
        if (model == null || h == null) {
            return "";
        }
        StringBuilder sb = new StringBuilder();
        var node = model.k8sNodeOf(h);
        if (node != null) {
            sb.append("\n\nKubernetes node ").append(node.name()).append(": ")
                    .append(node.ready() == null ? "readiness unknown" : node.ready() ? "Ready" : "NotReady")
                    .append(node.unschedulable() ? ", cordoned" : "");
            var free = model.k8s().free(node.name());
            for (var e : new TreeMap<>(node.allocatable()).entrySet()) {
                String r = e.getKey();
                if (r.equals("cpu") || r.equals("memory") || r.contains("gpu") || r.contains("rdma") || r.contains("erdma")
                        || r.startsWith("hugepages")) {
                    var f = free.get(r);
                    sb.append("\n  ").append(r).append(": ").append(f == null ? "?" : f.display(r)).append(" free of ").append(e.getValue().display(r));
                }
            }
            var pods = model.k8s().podsOn(node.name());
            if (!pods.isEmpty()) {
                sb.append("\n  pods: ").append(pods.stream().limit(12).map(p -> p.name() + " (" + p.phase() + ")")
                        .collect(Collectors.joining(", "))).append(pods.size() > 12 ? ", …" : "");
            }
        }
        if (ranks != null) {
            List<RankSite> sites = ranks.sitesOn(h.name()).stream().filter(x -> onlyHca == null || x.hca() == onlyHca).toList();
            if (!sites.isEmpty()) {
                sb.append("\n\nTraining ranks (").append(sites.size()).append("):");
                for (var x : sites.stream().limit(16).toList()) {
                    sb.append("\n  ").append(x.describe());
                    if (x.rank().ncclVersion() != null) {
                        sb.append(" · NCCL ").append(x.rank().ncclVersion());
                    }
                    if (!x.rank().initCompleted()) {
                        sb.append(" · init not complete");
                    }
                }
                var pairs = ranks.routes().stream().filter(r -> sites.contains(r.a()) || sites.contains(r.b())).toList();
                var byTransport = pairs.stream().collect(Collectors.groupingBy(r -> r.transport().label(),
                        TreeMap::new, Collectors.counting()));
                if (!byTransport.isEmpty()) {
                    sb.append("\n  talks over: ").append(byTransport.entrySet().stream().map(e -> e.getKey() + " × " + e.getValue())
                            .collect(Collectors.joining(", "))).append(" (rank pairs; Ctrl+3 draws their paths)");
                }
            }
        }
        return sb.toString();
    }

    /** An HCA as its host's device name ({@code mlx5_0}), as the map labels it. */
    static String shortName(FabricNode n) {
        String d = n.description().strip();
        int sp = d.lastIndexOf(' ');
        return n.isSwitch() || n.host() == null ? n.displayName() : sp > 0 ? d.substring(sp + 1) : d;
    }

    // port table cells

    public static String portText(Port p) {
        return p.number() + (p.extNumber() > 0 ? " (ext " + p.extNumber() + ")" : "");
    }

    public static String stateText(Port p) {
        return p.state() == PortState.UNKNOWN ? (p.cable() != null ? "linked" : "")
                : p.state().name().toLowerCase() + "/" + p.physState().name().toLowerCase().replace('_', ' ');
    }

    public static String rateText(Port p) {
        return p.cable() != null ? p.cable().rateToken() : p.width() != null ? p.width().token() + (p.speed() == null ? "" : p.speed().name()) : "";
    }

    public static String peerText(Port p) {
        return p.peer() == null ? "" : p.peer().node().displayName() + " [" + p.peer().number() + "]";
    }

    /** The counters of the port at the other end of the cable (the same text as {@link #counterText}), or "". */
    public String peerCounterText(Port p) {
        return p.peer() == null ? "" : counterText(p.peer());
    }

    public String counterText(Port p) {
        String over = p.counters().entrySet().stream()
                .filter(e -> thresholds.limit(e.getKey()) >= 0 && e.getValue() > 0)
                .map(e -> e.getKey().replace("Counter", "") + "=" + e.getValue())
                .collect(Collectors.joining(", "));
        String deg = p.cable() != null ? degraded.get(p.cable()) : null;
        if (deg != null) {
            over = over.isEmpty() ? "degraded: " + deg : over + "; degraded: " + deg;
        }
        if (over.isEmpty() && !p.counters().isEmpty()) {
            return "clean";
        }
        return over;
    }

    /** The worse of the port's and its peer's: a link with errors counted at the far end is not clean. */
    public PortHealth health(Port p) {
        PortHealth own = ownHealth(p);
        PortHealth peer = p.peer() == null ? PortHealth.OK : ownHealth(p.peer());
        return rank(peer) > rank(own) ? peer : own;
    }

    private static int rank(PortHealth h) {
        return switch (h) {
            case DANGER -> 3;
            case WARNING -> 2;
            case DEGRADED -> 1;
            case OK -> 0;
        };
    }

    private PortHealth ownHealth(Port p) {
        Severity s = LinkErrorsCheck.worst(p, thresholds);
        if (s == Severity.ERROR) {
            return PortHealth.DANGER;
        }
        if (s == Severity.WARNING) {
            return PortHealth.WARNING;
        }
        return p.cable() != null && degraded.containsKey(p.cable()) ? PortHealth.DEGRADED : PortHealth.OK;
    }

    public ReadOnlyStringProperty titleProperty() {
        return title.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty detailsProperty() {
        return details.getReadOnlyProperty();
    }

    public ObservableList<Port> ports() {
        return ports;
    }

    public ReadOnlyBooleanProperty hostAvailableProperty() {
        return hostAvailable.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty hostButtonTextProperty() {
        return hostButtonText.getReadOnlyProperty();
    }
}
