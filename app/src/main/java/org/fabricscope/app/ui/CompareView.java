package org.fabricscope.app.ui;

import java.util.function.Consumer;

import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.ChoiceBox;
import javafx.scene.control.Label;
import javafx.scene.control.ProgressBar;
import javafx.scene.control.Tooltip;
import javafx.scene.control.TreeCell;
import javafx.scene.control.TreeItem;
import javafx.scene.control.TreeView;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;

/**
 * The Compare tab: which side the loaded capture is, the buttons that pick the other capture, the progress of a
 * comparison with Cancel, and the changes as a tree by layer (fabric, counters, hosts, training, Kubernetes,
 * findings new / resolved / unchanged), each layer with its rows or why it has none. Selecting a row selects its
 * subject on the map ({@link CompareViewModel#select}); the map's marks are {@link CompareMarks}'.
 */
public final class CompareView extends VBox {
    private final Label heading = new Label();
    private final ChoiceBox<String> side = new ChoiceBox<>();
    private final Button pickFile = new Button("Compare with capture…");
    private final Button pickFolder = new Button("…with a folder");
    private final Button clear = new Button("Clear");
    private final ProgressBar progress = new ProgressBar();
    private final Button cancel = new Button("Cancel");
    private final TreeView<Object> tree = new TreeView<>(new TreeItem<>("changes"));
    private final Label empty = new Label("Nothing compared yet.\nFile › Compare with capture… (Ctrl+D) reads another capture "
            + "(files, a folder, a bundle or a saved session) and shows what changed between it and the loaded one.");

    public CompareView() {
        getStyleClass().add("compare-view");
        setSpacing(6);
        setPadding(new Insets(8));
        side.getItems().addAll("The loaded capture is the new one", "The loaded capture is the old one");
        side.getSelectionModel().select(0);
        side.setTooltip(new Tooltip("Which side of the comparison the loaded capture is; the other capture is the other side"));
        pickFile.setTooltip(new Tooltip("Pick a capture file, a .tar.gz/.zip bundle or a saved session to compare with (Ctrl+D)"));
        pickFolder.setTooltip(new Tooltip("Pick a folder of dumps to compare with"));
        clear.setTooltip(new Tooltip("Forget the comparison and remove its marks from the map"));
        cancel.setTooltip(new Tooltip("Stop reading the other capture; what is loaded stays"));
        heading.setWrapText(true);
        heading.getStyleClass().add("compare-heading");
        empty.setWrapText(true);
        HBox buttons = new HBox(6, pickFile, pickFolder, clear);
        buttons.setAlignment(Pos.CENTER_LEFT);
        HBox busy = new HBox(6, progress, cancel);
        busy.setAlignment(Pos.CENTER_LEFT);
        progress.setMaxWidth(Double.MAX_VALUE);
        HBox.setHgrow(progress, Priority.ALWAYS);
        busy.visibleProperty().bind(progress.visibleProperty());
        busy.managedProperty().bind(progress.visibleProperty());
        tree.setShowRoot(false);
        tree.setId("compareTree");
        tree.setCellFactory(t -> new RowCell());
        VBox.setVgrow(tree, Priority.ALWAYS);
        Label legend = new Label("On the map: green added · red dashed removed (an unplugged cable) · orange counter rose · "
                + "purple rate or device changed · rings: nodes added or removed");
        legend.setWrapText(true);
        legend.getStyleClass().add("compare-legend");
        getChildren().addAll(side, buttons, busy, heading, empty, tree, legend);
    }

    /** Binds the tab to its model; {@code pickCapture} and {@code pickFolderOf} open the choosers (the menu's). */
    void bind(CompareViewModel vm, Runnable pickCapture, Runnable pickFolderOf) {
        side.getSelectionModel().selectedIndexProperty().addListener((o, a, i) -> vm.loadedIsOldProperty().set(i.intValue() == 1));
        vm.loadedIsOldProperty().addListener((o, a, old) -> side.getSelectionModel().select(old ? 1 : 0));
        pickFile.setOnAction(e -> pickCapture.run());
        pickFolder.setOnAction(e -> pickFolderOf.run());
        clear.setOnAction(e -> vm.clear());
        cancel.setOnAction(e -> vm.cancel());
        progress.visibleProperty().bind(vm.busyProperty());
        progress.progressProperty().bind(vm.progressProperty());
        pickFile.disableProperty().bind(vm.busyProperty());
        pickFolder.disableProperty().bind(vm.busyProperty());
        heading.textProperty().bind(vm.headingProperty());
        vm.rowsProperty().addListener((o, a, rows) -> fill(rows));
        fill(vm.rowsProperty().get());
        Consumer<Object> selected = v -> {
            if (v instanceof CompareRows.Row r) {
                vm.select(r);
            }
        };
        tree.getSelectionModel().selectedItemProperty().addListener((o, a, item) -> selected.accept(item == null ? null : item.getValue()));
    }

    private void fill(CompareRows rows) {
        TreeItem<Object> root = tree.getRoot();
        root.getChildren().clear();
        empty.setVisible(rows == null);
        empty.setManaged(rows == null);
        tree.setVisible(rows != null);
        tree.setManaged(rows != null);
        if (rows == null) {
            return;
        }
        for (CompareRows.Group g : rows.groups()) {
            TreeItem<Object> group = new TreeItem<>(g);
            for (CompareRows.Row r : g.rows()) {
                group.getChildren().add(new TreeItem<>(r));
            }
            group.setExpanded(!g.rows().isEmpty() && !g.layer().equals(CompareRows.FINDINGS_UNCHANGED) && g.rows().size() <= 200);
            root.getChildren().add(group);
        }
    }

    /** The tree (tests). */
    TreeView<Object> tree() {
        return tree;
    }

    /** A layer: its title, and "no differences" or "not in both captures" when it has no rows; a row: its change. */
    private static final class RowCell extends TreeCell<Object> {
        @Override
        protected void updateItem(Object item, boolean isEmpty) {
            super.updateItem(item, isEmpty);
            getStyleClass().removeAll("compare-group", "compare-row-added", "compare-row-removed", "compare-row-changed");
            setTooltip(null);
            if (isEmpty || item == null) {
                setText(null);
                return;
            }
            if (item instanceof CompareRows.Group g) {
                setText(g.rows().isEmpty() ? g.title() + ": " + g.empty() : g.title());
                getStyleClass().add("compare-group");
            } else if (item instanceof CompareRows.Row r) {
                setText(r.text());
                getStyleClass().add(r.kind().equals("added") || r.kind().equals("new") ? "compare-row-added"
                        : r.kind().equals("removed") || r.kind().equals("resolved") ? "compare-row-removed" : "compare-row-changed");
                setTooltip(new Tooltip(r.text() + (r.subjects().isEmpty() ? "" : "\nSelect to show it on the map")));
            } else {
                setText(String.valueOf(item));
            }
        }
    }
}
