package org.fabricscope.app.ui;

import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;

import org.fabricscope.model.k8s.K8sEvent;
import org.fabricscope.model.k8s.K8sNode;
import org.fabricscope.model.k8s.K8sPod;

import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.collections.ListChangeListener;
import javafx.fxml.FXML;
import javafx.scene.control.CheckBox;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.scene.control.SelectionMode;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.VBox;

/**
 * The Kubernetes tab: nodes with requested / allocatable per resource, pods and where they run,
 * pending pods and where they could fit, and the training job the map picks out. Declared in
 * {@code ClusterView.fxml}; the state is {@link ClusterViewModel}'s.
 */
public final class ClusterView extends VBox {
    @FXML
    private Label heading;
    @FXML
    private ComboBox<String> k8sJob;
    @FXML
    private TableView<K8sNode> k8sNodes;
    @FXML
    private TableView<K8sPod> k8sPods;
    @FXML
    private TableColumn<K8sPod, String> podColumn;
    @FXML
    private TableColumn<K8sPod, String> phaseColumn;
    @FXML
    private TableColumn<K8sPod, String> podNodeColumn;
    @FXML
    private TableColumn<K8sPod, String> podJobColumn;
    @FXML
    private TableColumn<K8sPod, String> restartsColumn;
    @FXML
    private TableColumn<K8sPod, String> requestsColumn;
    @FXML
    private TableColumn<K8sPod, String> lastEventColumn;
    @FXML
    private TableColumn<K8sPod, String> exitCodesColumn;
    @FXML
    private Label eventsHeading;
    @FXML
    private TextField eventFilter;
    @FXML
    private CheckBox onlyPodEvents;
    @FXML
    private TableView<K8sEvent> k8sEvents;
    @FXML
    private TableColumn<K8sEvent, String> eventTypeColumn;
    @FXML
    private TableColumn<K8sEvent, String> eventReasonColumn;
    @FXML
    private TableColumn<K8sEvent, String> eventObjectColumn;
    @FXML
    private TableColumn<K8sEvent, String> eventMessageColumn;
    @FXML
    private TableColumn<K8sEvent, String> eventCountColumn;
    @FXML
    private TableColumn<K8sEvent, String> eventLastSeenColumn;
    @FXML
    private ListView<String> pendingPods;
    private ClusterViewModel vm;

    public ClusterView() {
        ViewLoader.load(this);
    }

    void bind(ClusterViewModel model) {
        this.vm = model;
        heading.textProperty().bind(model.headingProperty());
        k8sJob.setItems(model.jobs());
        k8sJob.valueProperty().bindBidirectional(model.jobProperty());
        k8sNodes.setItems(model.nodes());
        k8sNodes.getSelectionModel().setSelectionMode(SelectionMode.MULTIPLE);
        k8sNodes.setRowFactory(tv -> {
            TableRow<K8sNode> row = new TableRow<>() {
                @Override
                protected void updateItem(K8sNode n, boolean empty) {
                    super.updateItem(n, empty);
                    getStyleClass().removeAll(Styles.ROW_DANGER, Styles.ROW_WARNING);
                    if (!empty && n != null && ClusterViewModel.unhealthy(n)) {
                        getStyleClass().add(Styles.ROW_DANGER);
                    }
                }
            };
            onDoubleClick(row, vm::showHostOf);
            return row;
        });
        model.resources().addListener((ListChangeListener<String>) c -> nodeColumns());
        k8sPods.setItems(model.pods());
        k8sPods.getSelectionModel().setSelectionMode(SelectionMode.MULTIPLE);
        k8sPods.setRowFactory(tv -> {
            TableRow<K8sPod> row = new TableRow<>() {
                @Override
                protected void updateItem(K8sPod p, boolean empty) {
                    super.updateItem(p, empty);
                    // the exit codes and the last event are long: the whole text on hover
                    String more = empty || p == null ? "" : String.join("\n", java.util.stream.Stream.of(
                            ClusterViewModel.exitCodesText(p).isEmpty() ? "" : "Exit codes: " + ClusterViewModel.exitCodesText(p),
                            vm.lastEventText(p).isEmpty() ? "" : "Last event: " + vm.lastEventText(p))
                            .filter(t -> !t.isEmpty()).toList());
                    setTooltip(more.isEmpty() ? null : new Tooltip(more));
                }
            };
            onDoubleClick(row, vm::showHostOf);
            return row;
        });
        cells(podColumn, K8sPod::key);
        cells(phaseColumn, K8sPod::phase);
        cells(podNodeColumn, p -> p.node() == null ? "" : p.node());
        cells(podJobColumn, ClusterViewModel::jobText);
        cells(restartsColumn, ClusterViewModel::restartsText);
        cells(requestsColumn, ClusterViewModel::requestsText);
        cells(lastEventColumn, vm::lastEventText);
        cells(exitCodesColumn, ClusterViewModel::exitCodesText);
        k8sPods.getSelectionModel().selectedItemProperty().addListener((o, a, p) -> vm.eventPodProperty().set(p));
        eventsHeading.textProperty().bind(model.eventsHeadingProperty());
        eventFilter.textProperty().bindBidirectional(model.eventFilterProperty());
        onlyPodEvents.selectedProperty().bindBidirectional(model.onlyPodEventsProperty());
        k8sEvents.setItems(model.events());
        k8sEvents.setRowFactory(tv -> new TableRow<>() {
            @Override
            protected void updateItem(K8sEvent e, boolean empty) {
                super.updateItem(e, empty);
                getStyleClass().removeAll(Styles.ROW_WARNING);
                if (!empty && e != null && "Warning".equals(e.type())) {
                    getStyleClass().add(Styles.ROW_WARNING);
                }
                setTooltip(empty || e == null ? null : new Tooltip(e.message()
                        + (e.evidence() == null ? "" : "\n" + e.evidence().where())));
            }
        });
        cells(eventTypeColumn, K8sEvent::type);
        cells(eventReasonColumn, K8sEvent::reason);
        cells(eventObjectColumn, ClusterViewModel::objectText);
        cells(eventMessageColumn, K8sEvent::message);
        cells(eventCountColumn, e -> Integer.toString(e.count()));
        cells(eventLastSeenColumn, K8sEvent::lastSeen);
        pendingPods.setItems(model.pending());
        pendingPods.setCellFactory(lv -> {
            ListCell<String> cell = new ListCell<>() {
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
        model.selectedNodesProperty().addListener((o, a, ns) -> select(k8sNodes, ns));
        model.selectedPodsProperty().addListener((o, a, ps) -> select(k8sPods, ps));
        nodeColumns();
    }

    private void nodeColumns() {
        k8sNodes.getColumns().clear();
        k8sNodes.getColumns().add(column("Node", K8sNode::name, 130));
        k8sNodes.getColumns().add(column("Ready", ClusterViewModel::readyText, 80));
        k8sNodes.getColumns().add(column("Host", vm::hostText, 100));
        for (String r : vm.resources()) {
            k8sNodes.getColumns().add(column(r, n -> vm.usage(n, r), Math.max(90, r.length() * 7)));
        }
    }

    /** Selects these rows, the first last so it is the selected item, and scrolls to it. */
    static <T> void select(TableView<T> table, List<T> items) {
        var sm = table.getSelectionModel();
        sm.clearSelection();
        for (int i = items.size() - 1; i >= 0; i--) {
            sm.select(items.get(i));
        }
        if (!items.isEmpty()) {
            int at = table.getItems().indexOf(items.get(0));
            if (at >= 0) {
                sm.focus(at);
                table.scrollTo(at);
            }
        }
    }

    private static <T> void onDoubleClick(TableRow<T> row, Consumer<T> action) {
        row.setOnMouseClicked(e -> {
            if (e.getClickCount() == 2 && row.getItem() != null) {
                action.accept(row.getItem());
            }
        });
    }

    private static <S> void cells(TableColumn<S, String> c, Function<S, String> f) {
        c.setCellValueFactory(cd -> new ReadOnlyObjectWrapper<>(f.apply(cd.getValue())));
    }

    private static TableColumn<K8sNode, String> column(String name, Function<K8sNode, String> f, double w) {
        TableColumn<K8sNode, String> c = new TableColumn<>(name);
        cells(c, f);
        c.setPrefWidth(w);
        return c;
    }

    public List<K8sNode> shownNodes() {
        return k8sNodes.getItems();
    }

    public List<K8sPod> shownPods() {
        return k8sPods.getItems();
    }

    public List<K8sEvent> shownEvents() {
        return k8sEvents.getItems();
    }

    public List<String> shownPending() {
        return pendingPods.getItems();
    }
}
