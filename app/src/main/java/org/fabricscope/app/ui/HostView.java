package org.fabricscope.app.ui;

import java.util.List;

import org.fabricscope.model.core.Plural;
import org.fabricscope.model.fabric.FabricNode;
import org.fabricscope.model.core.Vertex;
import org.fabricscope.model.host.AffinityMatrix;
import org.fabricscope.model.host.Cpu;
import org.fabricscope.model.host.Gpu;
import org.fabricscope.model.host.GpuFabricPath;
import org.fabricscope.model.host.HostTopology;
import org.fabricscope.model.host.NetPort;
import org.fabricscope.model.host.Nic;
import org.fabricscope.model.host.PathType;
import org.fabricscope.model.host.PciDevice;

import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.collections.FXCollections;
import javafx.geometry.Insets;
import javafx.scene.control.Label;
import javafx.scene.control.ScrollPane;
import javafx.scene.control.SplitPane;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.control.Tooltip;
import javafx.scene.control.TreeItem;
import javafx.scene.control.TreeView;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;

/**
 * One host's drill-down: the PCIe tree (CPUs, switches, GPUs, NICs with link widths and speeds),
 * the GPU x NIC affinity matrix as {@code nvidia-smi topo -m} prints it, and for each GPU the path
 * its traffic takes to the fabric: nearest NIC, HCA, leaf switch port.
 */
public final class HostView extends BorderPane {
    private final Label title = new Label();
    private final Label details = new Label();
    private final TreeView<String> tree = new TreeView<>();
    private final GridPane matrix = new GridPane();
    private final TableView<GpuFabricPath> paths = new TableView<>();

    public HostView() {
        getStyleClass().add(Styles.HOST_VIEW);
        title.getStyleClass().add(Styles.INSPECTOR_TITLE);
        details.setWrapText(true);
        tree.setId("pcieTree");
        tree.setShowRoot(true);
        matrix.setId("affinityMatrix");
        matrix.setHgap(2);
        matrix.setVgap(2);
        matrix.setPadding(new Insets(6));
        paths.setId("gpuPaths");
        paths.setPlaceholder(new Label("No GPUs in this host's topology"));
        paths.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        paths.getColumns().add(column("GPU", p -> p.gpu().label() + " " + p.gpu().busId(), 130));
        paths.getColumns().add(column("Nearest NIC", p -> p.net() == null ? "none" : p.net().name(), 90));
        paths.getColumns().add(column("Path", p -> p.affinity() == null ? "" : p.affinity().label(), 55));
        paths.getColumns().add(column("HCA", p -> p.hca() == null ? (p.net() == null ? "" : "not in the fabric")
                : p.hca().displayName(), 150));
        paths.getColumns().add(column("Leaf port", p -> p.leafPort() == null ? "" : p.leafPort().node().displayName()
                + " [" + p.leafPort().number() + "] " + (p.leafPort().cable() == null ? "" : p.leafPort().cable().rateToken()), 170));
        VBox right = new VBox(6, new Label("GPU / NIC affinity (as nvidia-smi topo -m)"), new ScrollPane(matrix),
                new Label("GPU to fabric"), paths);
        VBox.setVgrow(paths, Priority.ALWAYS);
        right.setPadding(new Insets(6));
        SplitPane split = new SplitPane(tree, right);
        split.setDividerPositions(0.45);
        VBox top = new VBox(4, title, details);
        top.setPadding(new Insets(8));
        setTop(top);
        setCenter(split);
    }

    private static TableColumn<GpuFabricPath, String> column(String name, java.util.function.Function<GpuFabricPath, String> f,
                                                             double width) {
        TableColumn<GpuFabricPath, String> c = new TableColumn<>(name);
        c.setPrefWidth(width);
        c.setCellValueFactory(cd -> new ReadOnlyObjectWrapper<>(f.apply(cd.getValue())));
        return c;
    }

    public void show(HostTopology t) {
        title.setText(t.name());
        details.setText(Plural.of(t.gpus().size(), "GPU") + " · " + Plural.of(t.nics().size(), "NIC") + " (" + Plural.of(t.nets().size(), "port") + ") · "
                + t.nvlinkCount() + " NVLinks · " + t.cpus().size() + " CPU sockets/NUMA nodes · from "
                + String.join(", ", t.sources()));
        TreeItem<String> root = new TreeItem<>(t.name());
        root.setExpanded(true);
        for (Cpu cpu : t.cpus()) {
            TreeItem<String> ci = new TreeItem<>(cpu.displayName());
            ci.setExpanded(true);
            for (PciDevice p : cpu.pciDevices()) {
                ci.getChildren().add(pciItem(p));
            }
            for (Nic n : cpu.nics()) {
                ci.getChildren().add(nicItem(n));
            }
            root.getChildren().add(ci);
        }
        tree.setRoot(root);
        fillMatrix(t.affinity());
        paths.setItems(FXCollections.observableArrayList(t.fabricPaths()));
    }

    /** Opens a window with one host's drill-down, owned by {@code owner}'s window and styled like it (when not null). */
    public static HostView openWindow(HostTopology t, javafx.scene.Scene owner) {
        HostView hv = new HostView();
        hv.show(t);
        javafx.stage.Stage stage = new javafx.stage.Stage();
        stage.setTitle("FabricScope — host " + t.name());
        javafx.scene.Scene scene = new javafx.scene.Scene(hv, 1150, 720);
        if (owner != null) {
            scene.getStylesheets().addAll(owner.getStylesheets());
            stage.initOwner(owner.getWindow());
        }
        SecondaryWindows.closeOnEscape(scene, stage);
        stage.setScene(scene);
        stage.show();
        return hv;
    }

    /** Picks out the path of this GPU, or else of this NIC (a finding's subject); either may be null. */
    public void focus(Gpu gpu, NetPort net) {
        for (GpuFabricPath p : paths.getItems()) {
            if ((gpu != null && p.gpu() == gpu) || (gpu == null && net != null && p.net() == net)) {
                paths.getSelectionModel().select(p);
                paths.scrollTo(p);
                return;
            }
        }
    }

    private TreeItem<String> pciItem(PciDevice p) {
        String label;
        if (p.gpu() != null) {
            Gpu g = p.gpu();
            label = g.label() + "  " + p.busId() + "  " + p.linkLabel() + "  sm " + g.sm() + ", gdr " + g.gdr()
                    + (g.nvlinks().isEmpty() ? "" : ", " + g.nvlinks().size() + " NVLink targets");
        } else if (p.nic() != null) {
            return nicItem(p.nic());
        } else {
            label = p.displayName() + "  " + p.linkLabel();
        }
        TreeItem<String> item = new TreeItem<>(label);
        item.setExpanded(true);
        for (PciDevice c : p.children()) {
            item.getChildren().add(pciItem(c));
        }
        return item;
    }

    private TreeItem<String> nicItem(Nic n) {
        TreeItem<String> item = new TreeItem<>("NIC" + (n.pci() == null ? " (no PCI device: a socket NIC)" : "  "
                + n.pci().busId() + "  " + n.pci().linkLabel()));
        item.setExpanded(true);
        for (NetPort net : n.nets()) {
            FabricNode hca = net.hca();
            String where = hca == null ? "no matching HCA in the fabric"
                    : "HCA " + hca.displayName() + (net.hcaPort() != null && net.hcaPort().peer() != null
                            ? " -> " + net.hcaPort().peer().node().displayName() + " [" + net.hcaPort().peer().number() + "]" : "");
            item.getChildren().add(new TreeItem<>(net.name() + "  port " + net.port() + ", " + net.speed() / 1000
                    + " Gb/s, gdr " + net.gdr() + "  ->  " + where));
        }
        return item;
    }

    private void fillMatrix(AffinityMatrix m) {
        matrix.getChildren().clear();
        if (m == null) {
            matrix.add(new Label("No affinity: the topology has no PCIe tree"), 0, 0);
            return;
        }
        List<Vertex> devices = m.devices();
        for (int c = 0; c < devices.size(); c++) {
            Label h = new Label(m.name(devices.get(c)));
            h.getStyleClass().add(Styles.MATRIX_HEADER);
            matrix.add(h, c + 1, 0);
        }
        for (int r = 0; r < devices.size(); r++) {
            Vertex a = devices.get(r);
            Label rowHead = new Label(m.name(a));
            rowHead.getStyleClass().add(Styles.MATRIX_HEADER);
            matrix.add(rowHead, 0, r + 1);
            for (int c = 0; c < devices.size(); c++) {
                Vertex b = devices.get(c);
                AffinityMatrix.Cell cell = m.cell(a, b);
                Label l = new Label(cell == null ? "" : cell.label());
                l.getStyleClass().addAll(Styles.MATRIX_CELL, cell == null ? Styles.PATH_NONE : Styles.path(cell.type()));
                l.setMinWidth(44);
                if (cell != null) {
                    l.setTooltip(new Tooltip(m.name(a) + " to " + m.name(b) + ": " + meaning(cell.type())));
                }
                matrix.add(l, c + 1, r + 1);
            }
        }
    }

    static String meaning(PathType t) {
        return switch (t) {
            case X -> "self";
            case NV -> "a bonded set of NVLinks";
            case PIX -> "at most a single PCIe bridge";
            case PXB -> "multiple PCIe bridges, not through the host bridge";
            case PHB -> "through a PCIe host bridge (the CPU)";
            case NODE -> "between PCIe host bridges within a NUMA node";
            case SYS -> "across the SMP interconnect between NUMA nodes (QPI/UPI): slowest";
        };
    }

    public TreeView<String> tree() {
        return tree;
    }

    public TableView<GpuFabricPath> paths() {
        return paths;
    }
}
