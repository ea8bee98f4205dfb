package org.fabricscope.app.ui;

import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;

import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.core.Severity;
import org.fabricscope.model.incident.CauseClass;
import org.fabricscope.model.incident.reasoning.IncidentEvent;
import org.fabricscope.model.incident.Role;
import org.fabricscope.model.incident.Stamp;
import org.fabricscope.model.incident.reasoning.Who;

import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.collections.ListChangeListener;
import javafx.fxml.FXML;
import javafx.scene.Node;
import javafx.scene.canvas.Canvas;
import javafx.scene.control.Label;
import javafx.scene.control.SplitPane;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.scene.input.KeyCode;
import javafx.scene.input.MouseButton;
import javafx.scene.input.MouseEvent;
import javafx.scene.layout.FlowPane;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;

/**
 * The Timeline tab, declared in {@code TimelineView.fxml}: the root cause (or that none was found)
 * and the reasoning's notes over the {@link TimelineChart}, a legend of its marks, and the events as
 * a table whose selection follows the chart's. Opening an event (a click on its mark, Enter, a
 * double-click on its row) hands its line to the window, which opens it in the Logs tab or a viewer.
 * The state is {@link TimelineViewModel}'s.
 */
public final class TimelineView extends VBox {
    @FXML private Label timelineHeader;
    @FXML private Label timelineNotes;
    @FXML private FlowPane legend;
    @FXML private SplitPane split;
    @FXML private TimelineChart timelineChart;
    @FXML private TableView<IncidentEvent> timelineEvents;
    @FXML private TableColumn<IncidentEvent, String> timeColumn;
    @FXML private TableColumn<IncidentEvent, String> laneColumn;
    @FXML private TableColumn<IncidentEvent, String> whoColumn;
    @FXML private TableColumn<IncidentEvent, String> roleColumn;
    @FXML private TableColumn<IncidentEvent, String> titleColumn;
    private TimelineViewModel model;
    private Consumer<Evidence> openLine = e -> { };
    /** Whether the user moved the split's divider: then it stays where they put it. */
    private boolean dividerMoved;

    public TimelineView() {
        ViewLoader.load(this);
    }

    void bind(TimelineViewModel vm, Consumer<Evidence> openEvidence) {
        this.model = vm;
        this.openLine = openEvidence;
        timelineHeader.textProperty().bind(vm.headerProperty());
        vm.notes().addListener((ListChangeListener<String>) c -> showNotes());
        showNotes();
        fillLegend();
        timelineChart.setActions(this::open, vm::move, vm::moveToEnd, e -> TimelineViewModel.tooltip(vm.data(), e));
        timelineChart.show(vm.data());
        vm.dataProperty().addListener((o, a, d) -> {
            timelineChart.show(d);
            headerStyle();
            fitSplit();
        });
        split.heightProperty().addListener((o, a, h) -> fitSplit());
        split.addEventFilter(MouseEvent.MOUSE_DRAGGED, m -> { // the user drags the divider: theirs from now on
            for (Node n = m.getPickResult().getIntersectedNode(); n != null && n != split; n = n.getParent()) {
                dividerMoved |= n.getStyleClass().contains("split-pane-divider");
            }
        });
        headerStyle();
        timelineEvents.setItems(vm.events());
        vm.events().addListener((ListChangeListener<IncidentEvent>) c -> { // a new incident: its root cause's row in view
            int root = vm.data().orderOf(vm.data().incident().rootCause());
            if (root >= 0 && vm.selectedProperty().get() == null) {
                timelineEvents.scrollTo(Math.max(0, root - 2));
            }
        });
        column(timeColumn, TimelineViewModel::time);
        column(laneColumn, TimelineViewModel::lane);
        column(whoColumn, e -> e.who().label());
        column(roleColumn, e -> e.role().label());
        column(titleColumn, e -> vm.data().isRoot(e) ? "ROOT CAUSE: " + e.title() : e.title());
        timelineEvents.setRowFactory(t -> row(vm));
        timelineEvents.getSelectionModel().selectedItemProperty().addListener((o, a, e) -> {
            if (e != null && e != vm.selectedProperty().get()) {
                vm.select(e);
            }
        });
        timelineEvents.setOnKeyPressed(k -> {
            if (k.getCode() == KeyCode.ENTER) {
                open(timelineEvents.getSelectionModel().getSelectedItem());
                k.consume();
            }
        });
        vm.selectedProperty().addListener((o, a, e) -> {
            timelineChart.select(e);
            if (e == null) {
                timelineEvents.getSelectionModel().clearSelection();
            } else if (timelineEvents.getSelectionModel().getSelectedItem() != e) {
                timelineEvents.getSelectionModel().select(e);
                timelineEvents.scrollTo(Math.max(0, timelineEvents.getSelectionModel().getSelectedIndex() - 2));
            }
        });
        CopyMenus.install(timelineEvents); // under a split pane, out of reach of the window's install
    }

    /** Gives the chart the height its lanes need (a quarter to two thirds of the tab), until the user moves the divider. */
    private void fitSplit() {
        double h = split.getHeight();
        if (dividerMoved || h <= 0) {
            return;
        }
        double want = timelineChart.prefHeight(split.getWidth()) + 14;
        split.setDividerPositions(Math.max(0.25, Math.min(0.66, want / h)));
    }

    /** Opens an event: selects it, shows its party on the map, and opens its line (Logs tab or viewer). */
    private void open(IncidentEvent e) {
        Evidence ev = model.open(e);
        if (ev != null) {
            openLine.accept(ev);
        }
    }

    private TableRow<IncidentEvent> row(TimelineViewModel vm) {
        TableRow<IncidentEvent> r = new TableRow<>() {
            @Override
            protected void updateItem(IncidentEvent e, boolean empty) {
                super.updateItem(e, empty);
                getStyleClass().removeAll(Styles.SEV_ERROR, Styles.SEV_WARNING, Styles.SEV_INFO, Styles.TIMELINE_ROOT);
                if (!empty && e != null) {
                    getStyleClass().add(Styles.severity(e.role() == Role.CONTEXT ? Severity.INFO : e.severity()));
                    if (vm.data().isRoot(e)) {
                        getStyleClass().add(Styles.TIMELINE_ROOT);
                    }
                }
            }
        };
        r.setOnMouseClicked(m -> {
            if (!r.isEmpty() && m.getButton() == MouseButton.PRIMARY && m.getClickCount() == 2) {
                open(r.getItem());
            }
        });
        return r;
    }

    private static void column(TableColumn<IncidentEvent, String> c, Function<IncidentEvent, String> text) {
        c.setCellValueFactory(cd -> new ReadOnlyStringWrapper(text.apply(cd.getValue())));
    }

    private void showNotes() {
        timelineNotes.setText(String.join("\n", model.notes().stream().map(n -> "Note: " + n).toList()));
        timelineNotes.setVisible(!model.notes().isEmpty());
        timelineNotes.setManaged(!model.notes().isEmpty());
    }

    /** The header in the danger style while it names a root cause. */
    private void headerStyle() {
        timelineHeader.getStyleClass().remove(Styles.TIMELINE_HEADER_FAILURE);
        if (model.data().incident().rootCause() != null) {
            timelineHeader.getStyleClass().add(Styles.TIMELINE_HEADER_FAILURE);
        }
    }

    /** The marks as the chart draws them, each with its meaning, and how to use the chart. */
    private void fillLegend() {
        TimelinePainter painter = new TimelinePainter(UiPalette.current());
        legend.getChildren().add(key(painter, Role.CAUSE, Severity.ERROR, "cause"));
        legend.getChildren().add(key(painter, Role.CONSEQUENCE, Severity.ERROR, "consequence"));
        legend.getChildren().add(key(painter, Role.CONTEXT, Severity.INFO, "context"));
        for (Severity s : Severity.values()) {
            Region swatch = new Region();
            swatch.getStyleClass().addAll(Styles.TIMELINE_SWATCH, Styles.severity(s));
            Label l = new Label(s.label(), swatch);
            l.getStyleClass().add(Styles.TIMELINE_HELP);
            legend.getChildren().add(l);
        }
        Label help = new Label("Click a mark: map and log line · arrows, Enter · wheel on the time axis: zoom, drag: pan");
        help.getStyleClass().add(Styles.TIMELINE_HELP);
        legend.getChildren().add(help);
    }

    private static Label key(TimelinePainter painter, Role role, Severity severity, String text) {
        Canvas c = new Canvas(16, 16);
        painter.mark(c.getGraphicsContext2D(), legendEvent(role, severity), 8, 8);
        Label l = new Label(text, c);
        l.getStyleClass().add(Styles.TIMELINE_HELP);
        return l;
    }

    private static IncidentEvent legendEvent(Role role, Severity severity) {
        return new IncidentEvent(-1, "legend", "", role, CauseClass.INTERNAL, severity, Stamp.NONE, Who.NOBODY, null, Map.of(),
                List.of(), Evidence.at("", 0, ""), "");
    }

    /** The chart (tests find marks through it). */
    public TimelineChart chart() {
        return timelineChart;
    }

    /** The events table (tests select in it as a user does). */
    public TableView<IncidentEvent> table() {
        return timelineEvents;
    }
}
