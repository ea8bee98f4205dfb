package org.fabricscope.app.ui;

import org.fabricscope.app.render.ColourMode;

import org.fabricscope.model.core.Vertex;

import javafx.beans.value.ChangeListener;
import javafx.fxml.FXML;
import javafx.geometry.Side;
import javafx.scene.control.ChoiceBox;
import javafx.scene.control.ContextMenu;
import javafx.scene.control.MenuItem;
import javafx.scene.control.TextField;
import javafx.scene.control.ToggleButton;
import javafx.scene.control.ToolBar;

/**
 * The main window's toolbar, declared in {@code MainToolBar.fxml}: the find field (several hits are
 * offered in a menu under it), the colour mode, collapse hosts, problems only, fit, and the legend of the colours.
 */
public final class MainToolBar extends ToolBar {
    @FXML private TextField search;
    @FXML private ChoiceBox<ColourMode> colourMode;
    @FXML private ToggleButton collapseHosts;
    @FXML private ToggleButton problemsOnly;
    @FXML private Legend legend;
    private MainViewModel vm;
    private FabricMapView map;

    public MainToolBar() {
        ViewLoader.load(this);
    }

    void bind(MainViewModel model, FabricMapView fabricMap) {
        this.vm = model;
        this.map = fabricMap;
        Loader loader = model.loader();
        search.textProperty().bindBidirectional(model.search().textProperty());
        model.search().choicesProperty().addListener((o, a, hits) -> {
            ContextMenu menu = new ContextMenu();
            for (Vertex v : hits) {
                MenuItem m = new MenuItem(SearchViewModel.choiceText(v));
                m.setOnAction(e -> model.search().choose(v));
                menu.getItems().add(m);
            }
            menu.show(search, Side.BOTTOM, 0, 0);
        });
        colourMode.getItems().setAll(ColourMode.values());
        colourMode.valueProperty().bindBidirectional(loader.colourModeProperty());
        collapseHosts.selectedProperty().bindBidirectional(loader.collapseAllProperty());
        problemsOnly.selectedProperty().bindBidirectional(fabricMap.problemsOnlyProperty());
        ChangeListener<Object> legendChanged = (o, a, b) -> legend.show(loader.colourModeProperty().get(), model.snapshot(),
                loader.jobProperty().get());
        loader.colourModeProperty().addListener(legendChanged);
        loader.jobProperty().addListener(legendChanged);
        model.snapshotProperty().addListener(legendChanged);
        legendChanged.changed(null, null, null);
        // the legend wraps onto a second line rather than overflow into the toolbar's menu
        widthProperty().addListener((o, a, b) -> fitLegend());
        legend.getChildren().addListener((javafx.collections.ListChangeListener<javafx.scene.Node>) c -> fitLegend());
    }

    /** Gives the legend the width the other items leave (it wraps within it). */
    private void fitLegend() {
        // a narrow window (1024 px) shortens the find field so the legend keeps to two lines
        int columns = getWidth() > 0 && getWidth() < 1200 ? 16 : 26;
        if (search.getPrefColumnCount() != columns) {
            search.setPrefColumnCount(columns);
        }
        double used = 0;
        for (javafx.scene.Node n : getItems()) {
            if (n != legend && !(n instanceof javafx.scene.layout.Region r && r.getStyleClass().isEmpty())) {
                used += n.prefWidth(-1) + 6;
            }
        }
        legend.fitWithin(getWidth() - getPadding().getLeft() - getPadding().getRight() - used - 12);
    }

    /** Ctrl+F. */
    void focusSearch() {
        search.requestFocus();
    }

    @FXML private void search() {
        vm.search().search();
    }

    @FXML private void fit() {
        map.fit();
    }
}
