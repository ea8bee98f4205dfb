package org.fabricscope.app.ui;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.fabricscope.model.fabric.Cable;
import org.fabricscope.model.fabric.FabricNode;
import org.fabricscope.model.core.Guids;
import org.fabricscope.model.fabric.Host;
import org.fabricscope.model.fabric.Port;
import org.fabricscope.model.core.Vertex;
import org.fabricscope.model.diagnosis.ErrorThresholds;

import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.collections.FXCollections;
import javafx.scene.control.Label;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;

/** Details of the selected switch, HCA or host: identity, then a row per port with its peer and counters. */
public final class InspectorView extends VBox {
    private final Label title = new Label("Nothing selected");
    private final Label details = new Label("Click a switch or HCA on the map, or search (Ctrl+F).");
    private final TableView<Port> ports = new TableView<>();
    private final javafx.scene.control.Button hostButton = new javafx.scene.control.Button("Host topology…");
    private java.util.function.Function<String, org.fabricscope.model.host.HostTopology> topologies = name -> null;
    private java.util.function.Consumer<org.fabricscope.model.host.HostTopology> onOpenHost = t -> { };
    private org.fabricscope.model.host.HostTopology shownTopology;
    private Map<Cable, String> degraded = Map.of();
    private ErrorThresholds thresholds = ErrorThresholds.defaults();

    public InspectorView() {
        getStyleClass().add("inspector");
        setSpacing(6);
        title.getStyleClass().add("inspector-title");
        details.setWrapText(true);
        ports.setId("portTable");
        ports.setPlaceholder(new Label("No ports"));
        ports.setColumnResizePolicy(TableView.UNCONSTRAINED_RESIZE_POLICY);
        ports.getColumns().add(column("Port", p -> String.valueOf(p.number()) + (p.extNumber() > 0 ? " (ext " + p.extNumber() + ")" : ""), 48));
        ports.getColumns().add(column("State", p -> p.state() == org.fabricscope.model.fabric.PortState.UNKNOWN ? (p.cable() != null ? "linked" : "")
                : p.state().name().toLowerCase() + "/" + p.physState().name().toLowerCase().replace('_', ' '), 95));
        ports.getColumns().add(column("Rate", p -> p.cable() != null ? p.cable().rateToken()
                : p.width() != null ? p.width().token() + (p.speed() == null ? "" : p.speed().name()) : "", 64));
        ports.getColumns().add(column("Peer", p -> p.peer() == null ? "" : p.peer().node().displayName() + " [" + p.peer().number() + "]", 180));
        ports.getColumns().add(column("Counters", this::counterText, 220));
        ports.setRowFactory(tv -> new TableRow<>() {
            @Override
            protected void updateItem(Port p, boolean empty) {
                super.updateItem(p, empty);
                getStyleClass().removeAll("row-danger", "row-warning", "row-degraded");
                if (!empty && p != null) {
                    var s = org.fabricscope.model.diagnosis.LinkErrorsCheck.worst(p, thresholds);
                    if (s == org.fabricscope.model.core.Severity.ERROR) {
                        getStyleClass().add("row-danger");
                    } else if (s == org.fabricscope.model.core.Severity.WARNING) {
                        getStyleClass().add("row-warning");
                    } else if (p.cable() != null && degraded.containsKey(p.cable())) {
                        getStyleClass().add("row-degraded");
                    }
                }
            }
        });
        VBox.setVgrow(ports, Priority.ALWAYS);
        hostButton.setId("openHost");
        hostButton.setTooltip(new javafx.scene.control.Tooltip(
                "PCIe tree, GPU/NIC affinity and each GPU's path to the fabric, from NCCL topology files (Ctrl+T)"));
        hostButton.setOnAction(e -> openHost());
        hostButton.setVisible(false);
        hostButton.managedProperty().bind(hostButton.visibleProperty());
        getChildren().addAll(title, details, hostButton, ports);
    }

    private static TableColumn<Port, String> column(String name, java.util.function.Function<Port, String> f, double width) {
        TableColumn<Port, String> c = new TableColumn<>(name);
        c.setCellValueFactory(cd -> new ReadOnlyObjectWrapper<>(f.apply(cd.getValue())));
        c.setPrefWidth(width);
        return c;
    }

    private String counterText(Port p) {
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

    /** Where host topologies come from, and what opening one does. */
    public void setHostTopologies(java.util.function.Function<String, org.fabricscope.model.host.HostTopology> topologies,
                                  java.util.function.Consumer<org.fabricscope.model.host.HostTopology> onOpenHost) {
        this.topologies = topologies;
        this.onOpenHost = onOpenHost;
    }

    /** Opens the drill-down of the shown host, when it has a topology. */
    public boolean openHost() {
        if (shownTopology == null) {
            return false;
        }
        onOpenHost.accept(shownTopology);
        return true;
    }

    public void setContext(Map<Cable, String> degraded, ErrorThresholds thresholds) {
        this.degraded = degraded;
        this.thresholds = thresholds;
    }

    private org.fabricscope.model.FabricModel model;
    private org.fabricscope.model.ranks.RankMap ranks;

    /** The loaded layers, for the Kubernetes node and training ranks of a selected host. */
    public void setLayers(org.fabricscope.model.FabricModel model, org.fabricscope.model.ranks.RankMap ranks) {
        this.model = model;
        this.ranks = ranks;
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
            for (var e : new java.util.TreeMap<>(node.allocatable()).entrySet()) {
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
            var sites = ranks.sitesOn(h.name()).stream().filter(x -> onlyHca == null || x.hca() == onlyHca).toList();
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
                        java.util.TreeMap::new, Collectors.counting()));
                if (!byTransport.isEmpty()) {
                    sb.append("\n  talks over: ").append(byTransport.entrySet().stream().map(e -> e.getKey() + " × " + e.getValue())
                            .collect(Collectors.joining(", "))).append(" (rank pairs; Ctrl+3 draws their paths)");
                }
            }
        }
        return sb.toString();
    }

    public void show(Vertex v) {
        String hostName = v instanceof Host h ? h.name() : v instanceof FabricNode n && n.host() != null ? n.host().name() : null;
        shownTopology = hostName == null ? null : topologies.apply(hostName);
        hostButton.setVisible(shownTopology != null);
        if (shownTopology != null) {
            hostButton.setText("Host topology of " + hostName + "…");
        }
        if (v == null) {
            title.setText("Nothing selected");
            details.setText("Click a switch or HCA on the map, or search (Ctrl+F).");
            ports.setItems(FXCollections.observableArrayList());
            return;
        }
        if (v instanceof FabricNode n) {
            title.setText(n.displayName());
            StringBuilder sb = new StringBuilder();
            sb.append(n.isSwitch() ? (n.tier().label() + " switch") : n.kind() == org.fabricscope.model.fabric.NodeKind.CA
                    ? (n.isHostAdapter() ? "host HCA" : n.role().name().toLowerCase().replace('_', ' ')) : "router");
            if (n.switchModel() != null) {
                sb.append(" · ").append(n.switchModel());
            }
            sb.append("\nGUID ").append(Guids.format(n.guid()));
            if (n.sysImgGuid() != 0) {
                sb.append(" · system image ").append(Guids.format(n.sysImgGuid()));
            }
            sb.append("\nLID ").append(n.lid()).append(" · ").append(n.numPorts()).append(" ports");
            if (n.host() != null) {
                sb.append(" · host ").append(n.host().name());
            }
            if (!n.description().equals(n.displayName())) {
                sb.append("\n\"").append(n.description().strip()).append('"');
            }
            sb.append(layersText(n.host(), n));
            details.setText(sb.toString());
            ports.setItems(FXCollections.observableArrayList(n.ports()));
        } else if (v instanceof Host h) {
            title.setText(h.name());
            details.setText("host · " + h.adapters().size() + " HCAs: "
                    + h.adapters().stream().map(FabricMapView::shortName).collect(Collectors.joining(", ")) + layersText(h, null));
            ports.setItems(FXCollections.observableArrayList(h.adapters().stream()
                    .flatMap(a -> a.ports().stream()).toList()));
        }
    }

    public List<Port> shownPorts() {
        return ports.getItems();
    }

    public String titleText() {
        return title.getText();
    }
}
