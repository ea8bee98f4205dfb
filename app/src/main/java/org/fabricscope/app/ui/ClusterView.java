package org.fabricscope.app.ui;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.stream.Collectors;

import org.fabricscope.model.FabricModel;
import org.fabricscope.model.fabric.Host;
import org.fabricscope.model.k8s.K8sNode;
import org.fabricscope.model.k8s.K8sPod;
import org.fabricscope.model.k8s.NodeFit;
import org.fabricscope.model.k8s.Quantity;
import org.fabricscope.model.k8s.Resources;

import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.collections.FXCollections;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;

/**
 * The Kubernetes resources view: per node, what its pods request against what it can allocate,
 * for the resources a training job needs (cpu, memory, GPUs, RDMA devices, hugepages); and for
 * each pending pod, which nodes could take it and why the others cannot, from the same fit
 * analysis the {@code insufficient-resources} finding uses.
 */
public final class ClusterView extends VBox {
    private final TableView<K8sNode> nodes = new TableView<>();
    private final ListView<String> pending = new ListView<>();
    private final Label heading = new Label("No Kubernetes objects loaded");
    private final javafx.scene.control.ComboBox<String> job = new javafx.scene.control.ComboBox<>();
    private final java.util.Map<String, String> jobKeys = new java.util.HashMap<>();
    private Consumer<String> onJob = k -> { };
    private boolean updating;
    private FabricModel model;
    private Consumer<Host> onShowHost = h -> { };

    public ClusterView() {
        setSpacing(6);
        getStyleClass().add("cluster-view");
        nodes.setId("k8sNodes");
        nodes.setPlaceholder(new Label("Open kubectl get nodes -o json, allocatable one-liners or a live cluster"));
        nodes.setColumnResizePolicy(TableView.UNCONSTRAINED_RESIZE_POLICY);
        nodes.setRowFactory(tv -> {
            TableRow<K8sNode> row = new TableRow<>() {
                @Override
                protected void updateItem(K8sNode n, boolean empty) {
                    super.updateItem(n, empty);
                    getStyleClass().removeAll("row-danger", "row-warning");
                    if (!empty && n != null && (Boolean.FALSE.equals(n.ready()) || n.unschedulable())) {
                        getStyleClass().add("row-danger");
                    }
                }
            };
            row.setOnMouseClicked(e -> {
                if (e.getClickCount() == 2 && row.getItem() != null && model != null) {
                    Host h = model.hostOf(row.getItem());
                    if (h != null) {
                        onShowHost.accept(h);
                    }
                }
            });
            return row;
        });
        nodes.setTooltip(new Tooltip("Requested (sum of the requests of pods holding resources) / allocatable. "
                + "Double-click a node to show its host on the map."));
        pending.setId("pendingPods");
        pending.setPlaceholder(new Label("No pending pods"));
        pending.setPrefHeight(180);
        pending.setCellFactory(lv -> {
            javafx.scene.control.ListCell<String> cell = new javafx.scene.control.ListCell<>() {
                @Override
                protected void updateItem(String text, boolean empty) {
                    super.updateItem(text, empty);
                    setText(empty ? null : text);
                    setTooltip(empty || text == null ? null : new Tooltip(text));
                }
            };
            cell.setWrapText(true);
            cell.prefWidthProperty().bind(lv.widthProperty().subtract(20));
            return cell;
        });
        VBox.setVgrow(nodes, Priority.ALWAYS);
        heading.getStyleClass().add("inspector-title");
        job.setId("k8sJob");
        job.setTooltip(new Tooltip("Show where this job's pods run: the map switches to the Kubernetes colours (Ctrl+4)"));
        job.setMaxWidth(Double.MAX_VALUE);
        job.valueProperty().addListener((o, a, b) -> {
            if (!updating) {
                onJob.accept(b == null ? null : jobKeys.get(b));
            }
        });
        javafx.scene.layout.HBox jobs = new javafx.scene.layout.HBox(6, new Label("Job on the map:"), job);
        jobs.setAlignment(javafx.geometry.Pos.CENTER_LEFT);
        javafx.scene.layout.HBox.setHgrow(job, Priority.ALWAYS);
        getChildren().addAll(heading, jobs, nodes, new Label("Pending pods: where they could fit"), pending);
    }

    /** Called with the picked job's key ({@code namespace/name}), or null for all jobs. */
    public void setOnJob(Consumer<String> onJob) {
        this.onJob = onJob;
    }

    public void setOnShowHost(Consumer<Host> onShowHost) {
        this.onShowHost = onShowHost;
    }

    public void show(FabricModel m) {
        this.model = m;
        var k8s = m.k8s();
        heading.setText(k8s.nodes().isEmpty() && k8s.pods().isEmpty() ? "No Kubernetes objects loaded"
                : k8s.nodes().size() + " nodes · " + k8s.pods().size() + " pods · " + k8s.jobs().size() + " jobs");
        TreeSet<String> resources = new TreeSet<>((a, b) -> rank(a) != rank(b) ? Integer.compare(rank(a), rank(b)) : a.compareTo(b));
        for (K8sNode n : k8s.nodes().values()) {
            for (String r : n.allocatable().keySet()) {
                if (rank(r) < 9) {
                    resources.add(r);
                }
            }
        }
        nodes.getColumns().clear();
        nodes.getColumns().add(column("Node", n -> n.name(), 130));
        nodes.getColumns().add(column("Ready", n -> (n.ready() == null ? "?" : n.ready() ? "Ready" : "NotReady")
                + (n.unschedulable() ? ", cordoned" : ""), 80));
        nodes.getColumns().add(column("Host", n -> {
            Host h = m.hostOf(n);
            return h == null ? "" : h.name();
        }, 100));
        for (String r : resources) {
            nodes.getColumns().add(column(r, n -> usage(m, n, r), Math.max(90, r.length() * 7)));
        }
        nodes.setItems(FXCollections.observableArrayList(k8s.nodes().values()));
        updating = true;
        try {
            String keep = job.getValue();
            jobKeys.clear();
            List<String> labels = new ArrayList<>();
            labels.add("all training jobs");
            for (var j : k8s.jobs()) {
                String label = j.namespace() + "/" + j.name() + " · " + j.kind() + " · " + k8s.podsOf(j).size() + " pods";
                jobKeys.put(label, j.key());
                labels.add(label);
            }
            job.getItems().setAll(labels);
            job.setValue(keep != null && labels.contains(keep) ? keep : labels.get(0));
        } finally {
            updating = false;
        }
        List<String> rows = new ArrayList<>();
        for (K8sPod p : k8s.pods()) {
            if (!p.pending()) {
                continue;
            }
            List<NodeFit> fits = k8s.fit(p);
            String ok = fits.stream().filter(NodeFit::fits).map(NodeFit::node).collect(Collectors.joining(", "));
            StringBuilder b = new StringBuilder(p.namespace()).append('/').append(p.name()).append(" requests ")
                    .append(p.requests().entrySet().stream().filter(e -> e.getValue().isPositive())
                            .map(e -> e.getKey() + "=" + e.getValue().display(e.getKey())).collect(Collectors.joining(", ")));
            b.append(ok.isEmpty() ? "\n  fits no node" : "\n  fits: " + ok);
            for (NodeFit f : fits) {
                if (!f.fits()) {
                    b.append("\n  ").append(f.node()).append(": ").append(String.join("; ", f.reasons()));
                }
            }
            rows.add(b.toString());
        }
        pending.setItems(FXCollections.observableArrayList(rows));
    }

    /** Column order: cpu, memory, GPUs, RDMA, hugepages; other resources are left out (9). */
    private static int rank(String r) {
        if (r.equals("cpu")) {
            return 0;
        }
        if (r.equals("memory")) {
            return 1;
        }
        if (r.contains("gpu")) {
            return 2;
        }
        if (Resources.isRdma(r)) {
            return 3;
        }
        if (r.startsWith("hugepages-")) {
            return 4;
        }
        return 9;
    }

    /** {@code requested / allocatable} in display units. */
    static String usage(FabricModel m, K8sNode n, String resource) {
        Quantity alloc = n.allocatable().get(resource);
        if (alloc == null) {
            return "—";
        }
        Map<String, Quantity> free = m.k8s().free(n.name());
        Quantity f = free.get(resource);
        Quantity used = f == null ? Quantity.ZERO : alloc.minus(f);
        return used.display(resource) + " / " + alloc.display(resource);
    }

    private static TableColumn<K8sNode, String> column(String name, java.util.function.Function<K8sNode, String> f, double w) {
        TableColumn<K8sNode, String> c = new TableColumn<>(name);
        c.setCellValueFactory(cd -> new ReadOnlyObjectWrapper<>(f.apply(cd.getValue())));
        c.setPrefWidth(w);
        return c;
    }

    public List<K8sNode> shownNodes() {
        return nodes.getItems();
    }

    public List<String> shownPending() {
        return pending.getItems();
    }
}
