package org.fabricscope.app.ui;

import java.util.List;
import java.util.function.Function;

import org.fabricscope.model.core.Vertex;
import org.fabricscope.model.fabric.Port;

import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.fxml.FXML;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.scene.layout.VBox;

/**
 * Details of the selected switch, HCA or host: identity, then a row per port with its counters and the
 * peer's (next to the port number, so that they stay in view), state, rate and the peer (last, as its
 * names are long), the row a finding is about selected and in view. Declared in {@code InspectorView.fxml}; the state is {@link InspectorViewModel}'s.
 */
public final class InspectorView extends VBox {
    @FXML
    private Label title;
    @FXML
    private Label details;
    @FXML
    private Button openHost;
    @FXML
    private Label note;
    @FXML
    private Button editNote;
    @FXML
    private TableView<Port> portTable;
    @FXML
    private TableColumn<Port, String> portColumn;
    @FXML
    private TableColumn<Port, String> stateColumn;
    @FXML
    private TableColumn<Port, String> rateColumn;
    @FXML
    private TableColumn<Port, String> peerColumn;
    @FXML
    private TableColumn<Port, String> countersColumn;
    @FXML
    private TableColumn<Port, String> peerCountersColumn;
    @FXML
    private TableColumn<Port, String> trendColumn;
    private InspectorViewModel vm;

    public InspectorView() {
        ViewLoader.load(this);
    }

    void bind(InspectorViewModel model) {
        this.vm = model;
        title.textProperty().bind(model.titleProperty());
        details.textProperty().bind(model.detailsProperty());
        openHost.visibleProperty().bind(model.hostAvailableProperty());
        openHost.managedProperty().bind(openHost.visibleProperty());
        openHost.textProperty().bind(model.hostButtonTextProperty());
        portTable.setItems(model.ports());
        cells(portColumn, InspectorViewModel::portText);
        cells(stateColumn, InspectorViewModel::stateText);
        cells(rateColumn, InspectorViewModel::rateText);
        cells(peerColumn, InspectorViewModel::peerText);
        cells(countersColumn, model::counterText);
        cells(peerCountersColumn, model::peerCounterText);
        cells(trendColumn, InspectorView::trendText);
        trendColumn.setCellFactory(c -> new TrendCell());
        trendColumn.setMinWidth(Sparkline.WIDTH + 48); // the line and its growth, whatever width the text alone would ask
        model.focusedPortProperty().addListener((o, a, p) -> showFocused());
        model.ports().addListener((javafx.collections.ListChangeListener<Port>) c -> showFocused());
        CopyMenus.addItems(portTable, this::noteItems);
        note.textProperty().bind(model.noteProperty());
        note.visibleProperty().bind(model.noteProperty().isNotEmpty());
        note.managedProperty().bind(note.visibleProperty());
        model.titleProperty().addListener((o, a, t) -> editNote.setDisable(model.noteSubject() == null));
        portTable.setRowFactory(tv -> new TableRow<>() {
            @Override
            protected void updateItem(Port p, boolean empty) {
                super.updateItem(p, empty);
                getStyleClass().removeAll(Styles.ROW_DANGER, Styles.ROW_WARNING, Styles.ROW_DEGRADED);
                if (!empty && p != null) {
                    switch (vm.health(p)) {
                        case DANGER -> getStyleClass().add(Styles.ROW_DANGER);
                        case WARNING -> getStyleClass().add(Styles.ROW_WARNING);
                        case DEGRADED -> getStyleClass().add(Styles.ROW_DEGRADED);
                        default -> { }
                    }
                }
            }
        });
    }

    /**
     * The row a finding selected: selected and scrolled to a few rows from the top, the columns back at
     * the left, so that its port number and both counter columns are in view.
     */
    private void showFocused() {
        Port p = vm.focusedPortProperty().get();
        int i = p == null ? -1 : portTable.getItems().indexOf(p);
        if (i < 0) {
            return;
        }
        portTable.getSelectionModel().clearAndSelect(i);
        portTable.scrollTo(Math.max(0, i - 3));
        portTable.scrollToColumn(portColumn);
    }

    /** A port's counter series as a sparkline and its growth (a polled or timed source); empty for a single reading. */
    private static final class TrendCell extends javafx.scene.control.TableCell<Port, String> {
        private final Sparkline line = new Sparkline();
        private final javafx.scene.control.Tooltip tip = new javafx.scene.control.Tooltip();

        @Override
        protected void updateItem(String text, boolean empty) {
            super.updateItem(text, empty);
            Port p = empty || getTableRow() == null ? null : getTableRow().getItem();
            PortTrend t = p == null ? null : PortTrend.of(p);
            if (t == null) {
                setGraphic(null);
                setText(null);
                setTooltip(null);
                return;
            }
            line.draw(t.times().stream().map(java.time.Instant::toEpochMilli).toList(), t.values(),
                    javafx.scene.paint.Color.web("#c0392b"));
            setGraphic(line);
            setText(text);
            tip.setText(t.counter() + ": " + t.values().size() + " samples, " + t.times().get(0) + " to "
                    + t.times().get(t.times().size() - 1) + ", now " + Long.toUnsignedString(t.values().get(t.values().size() - 1)));
            setTooltip(tip);
        }
    }

    /** The trend column's text: the growth of the port's sparkline counter ({@code +95}, {@code flat}), or "". */
    static String trendText(Port p) {
        PortTrend t = PortTrend.of(p);
        return t == null ? "" : t.increase() == 0 ? "flat" : "+" + Long.toUnsignedString(t.increase());
    }

    private static void cells(TableColumn<Port, String> c, Function<Port, String> f) {
        c.setCellValueFactory(cd -> new ReadOnlyObjectWrapper<>(f.apply(cd.getValue())));
    }

    /** A port row's menu, after its Copy items: the note on that port. */
    private List<javafx.scene.control.MenuItem> noteItems(int index) {
        if (index < 0 || index >= portTable.getItems().size()) {
            return List.of();
        }
        Port p = portTable.getItems().get(index);
        javafx.scene.control.MenuItem item = new javafx.scene.control.MenuItem("Note on " + p.label() + "…");
        item.setMnemonicParsing(false);
        item.setOnAction(e -> askNote(SubjectNotes.subjectOf(p)));
        return List.of(item);
    }

    /** The Note… button: the note on the switch, HCA, host or cable shown. */
    @FXML
    private void editNote() {
        askNote(vm.noteSubject());
    }

    private void askNote(org.fabricscope.model.core.Subject s) {
        if (s == null) {
            return;
        }
        String key = SubjectNotes.key(s);
        NoteDialog.ask(getScene() == null ? null : getScene().getWindow(), s.label(), vm.notes().text(key))
                .ifPresent(text -> vm.notes().put(key, s.label(), text));
    }

    @FXML
    private void openHost() {
        vm.openHost();
    }

    /** Opens the drill-down of the shown host, when it has a topology. */
    public boolean openHostTopology() {
        return vm.openHost();
    }

    public void show(Vertex v) {
        vm.show(v);
    }

    public List<Port> shownPorts() {
        return portTable.getItems();
    }

    /** The port table (tests check what is selected and in view). */
    TableView<Port> portTable() {
        return portTable;
    }

    public String titleText() {
        return title.getText();
    }

    public String detailsText() {
        return details.getText();
    }
}
