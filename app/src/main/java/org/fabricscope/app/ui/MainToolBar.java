package org.fabricscope.app.ui;

import org.fabricscope.app.render.ColourMode;

import org.fabricscope.model.core.Vertex;

import javafx.beans.value.ChangeListener;
import javafx.fxml.FXML;
import javafx.scene.control.ChoiceBox;
import javafx.collections.FXCollections;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.scene.control.TextField;
import javafx.scene.control.ToggleButton;
import javafx.scene.control.ToolBar;
import javafx.scene.layout.Pane;
import javafx.scene.layout.VBox;
import javafx.stage.Popup;

/**
 * The main window's toolbar, declared in {@code MainToolBar.fxml}: the find field (suggestions with
 * their count while typing, several hits offered in a list under it), the colour mode, collapse hosts, problems only, fit, and the legend of
 * the colours (in a row of its own under the toolbar when the toolbar cannot hold it in two lines).
 */
public final class MainToolBar extends ToolBar {
    @FXML private TextField search;
    @FXML private ChoiceBox<ColourMode> colourMode;
    @FXML private ToggleButton collapseHosts;
    @FXML private ToggleButton problemsOnly;
    @FXML private Legend legend;
    private MainViewModel vm;
    private FabricMapView map;
    private Pane legendRow;
    private Popup matches;

    public MainToolBar() {
        ViewLoader.load(this);
    }

    /** {@code row}: where the legend goes, under the toolbar, when the toolbar has no room for it in two lines. */
    void bind(MainViewModel model, FabricMapView fabricMap, Pane row) {
        this.vm = model;
        this.map = fabricMap;
        this.legendRow = row;
        Loader loader = model.loader();
        search.textProperty().bindBidirectional(model.search().textProperty());
        model.search().choicesProperty().addListener((o, a, hits) -> showMatches(hits, true));
        // suggestions while typing: the list opens under the field and the typing goes on in the field
        model.search().suggestionsProperty().addListener((o, a, hits) -> {
            if (search.isFocused()) {
                showMatches(hits, false);
            }
        });
        search.addEventFilter(javafx.scene.input.KeyEvent.KEY_PRESSED, e -> {
            if (e.getCode() == javafx.scene.input.KeyCode.DOWN && matches != null && matches.isShowing()) {
                matchList().requestFocus(); // into the suggestions
                e.consume();
            }
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
        // the legend wraps onto a second line, or moves under the toolbar, rather than overflow into the toolbar's menu
        widthProperty().addListener((o, a, b) -> fitLegend());
        legend.getChildren().addListener((javafx.collections.ListChangeListener<javafx.scene.Node>) c -> fitLegend());
    }

    /**
     * Gives the legend the width the other items leave when its entries fit there in two lines;
     * otherwise (a narrow window, a mode with many entries) the whole width of a row under the toolbar.
     */
    private void fitLegend() {
        // a narrow window (1024 px) shortens the find field
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
        double room = getWidth() - getPadding().getLeft() - getPadding().getRight() - used - 12;
        if (legend.getScene() != null) {
            legend.applyCss(); // new entries get their skins and font, so their widths are known
        }
        boolean inBar = getWidth() <= 0 || legend.linesAt(Math.max(room, Legend.MIN_WRAP)) <= 2;
        if (inBar != getItems().contains(legend)) {
            if (inBar) {
                legendRow.getChildren().remove(legend);
                getItems().add(legend);
            } else {
                getItems().remove(legend);
                legendRow.getChildren().add(legend);
            }
        }
        legendRow.setVisible(!inBar);
        legendRow.setManaged(!inBar);
        legend.fitWithin(inBar ? room : getWidth() - legendRow.getPadding().getLeft() - legendRow.getPadding().getRight());
    }

    /**
     * Matches in a virtualised list under the find field, with how many match in all ("81 matches");
     * names verbatim (a list cell parses no mnemonics, so {@code mlx5_0} stays {@code mlx5_0}). Enter, a
     * click or a double-click goes to one; Esc closes the list. {@code all}: every hit of Enter's search,
     * the list focused; else the first suggestions while typing, the focus left in the field (Down
     * moves into the list).
     */
    private void showMatches(java.util.List<Vertex> hits, boolean all) {
        if (matches != null) {
            matches.hide();
        }
        if (hits.isEmpty()) {
            matches = null;
            return;
        }
        ListView<Vertex> list = new ListView<>(FXCollections.observableArrayList(hits));
        list.setId("searchMatches");
        list.setCellFactory(lv -> new ListCell<>() {
            @Override
            protected void updateItem(Vertex v, boolean empty) {
                super.updateItem(v, empty);
                setText(empty || v == null ? null : SearchViewModel.choiceText(v));
            }
        });
        list.setPrefSize(460, Math.min(hits.size(), 14) * 24 + 4);
        String total = all ? SearchViewModel.countText(hits.size()) : vm.search().countProperty().get();
        Label count = new Label(total + " for \"" + vm.search().textProperty().get().strip() + "\""
                + (all || total.equals(SearchViewModel.countText(hits.size())) ? "" : " · the first " + hits.size()
                + " listed, Enter lists them all"));
        count.setId("searchMatchCount");
        count.setMnemonicParsing(false);
        VBox box = new VBox(4, count, list);
        box.getStyleClass().addAll("root", "search-matches"); // root: the palette's variables resolve in the popup
        if (getScene() != null) {
            box.getStylesheets().addAll(getScene().getStylesheets()); // a popup's scene has none of its own
        }
        box.setPadding(new javafx.geometry.Insets(6));
        Popup popup = new Popup();
        popup.setAutoHide(true);
        popup.setHideOnEscape(true);
        popup.getContent().add(box);
        Runnable choose = () -> {
            Vertex v = list.getSelectionModel().getSelectedItem();
            if (v != null) {
                popup.hide();
                vm.search().choose(v);
            }
        };
        list.setOnMouseClicked(e -> choose.run());
        list.setOnKeyPressed(e -> {
            if (e.getCode() == javafx.scene.input.KeyCode.ENTER) {
                choose.run();
            }
        });
        matches = popup;
        javafx.geometry.Point2D at = search.localToScreen(0, search.getHeight());
        if (at != null) {
            popup.show(search, at.getX(), at.getY());
        }
        list.getSelectionModel().selectFirst();
        if (all) {
            list.requestFocus();
        } else {
            // nothing in the popup takes the keys (a popup's focused node gets the owner's key events): typing and
            // Enter stay the field's until Down moves into the list
            list.setFocusTraversable(false);
        }
    }

    /** The list in the open matches popup. */
    @SuppressWarnings("unchecked")
    private ListView<Vertex> matchList() {
        return (ListView<Vertex>) ((VBox) matches.getContent().get(0)).getChildren().get(1);
    }

    /** The list of matches under the find field while it is open (tests). */
    Popup matchesPopup() {
        return matches;
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
