package org.fabricscope.app.ui;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.IntConsumer;

import org.fabricscope.model.core.Plural;
import org.fabricscope.model.FabricModel;
import org.fabricscope.model.analysis.ForensicsSummary;
import org.fabricscope.model.forensics.FlightRecorderAnalysis;
import org.fabricscope.model.forensics.ProcessGroupProgress;
import org.fabricscope.model.forensics.RankProgress;

import javafx.application.Platform;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.collections.FXCollections;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;

/**
 * Per process group (flight recorder) or communicator (NCCL RAS, Inspector): each rank's last
 * enqueued, started and completed collective, as numbers and as a bar against the group's furthest
 * rank; ranks behind the furthest are highlighted. Built off the FX thread (a thousand dumps of
 * 2,000 entries take a while); a click on a rank is handed to {@link #setOnRank}.
 */
public final class CollectiveTimeline extends VBox {
    /** One rank of one group; -1 where the source has no such number. */
    public record Row(int rank, long enqueued, long started, long completed, long behind, double fraction) {
    }

    /** One process group or communicator, its rows in rank order. */
    public record Group(String label, String from, List<Row> rows) {
        @Override
        public String toString() {
            long behind = rows.stream().filter(r -> r.behind() > 0).count();
            return label + " · " + from + " · " + Plural.of(rows.size(), "rank") + (behind > 0 ? " · " + behind + " behind" : "");
        }
    }

    private final ComboBox<Group> groups = new ComboBox<>();
    private final TableView<Row> table = new TableView<>();
    private IntConsumer onRank = r -> { };
    private long generation;

    public CollectiveTimeline() {
        setSpacing(4);
        groups.setId("timelineGroups");
        groups.setPromptText("No flight recorder dumps or RAS reports");
        groups.setMaxWidth(Double.MAX_VALUE);
        groups.valueProperty().addListener((o, was, g) -> {
            // sorted as the table's header says (by lag, most behind first, unless the user clicks another column)
            javafx.collections.transformation.SortedList<Row> sorted = new javafx.collections.transformation.SortedList<>(
                    FXCollections.observableArrayList(g == null ? List.of() : g.rows()));
            sorted.comparatorProperty().bind(table.comparatorProperty());
            table.setItems(sorted);
        });
        table.setId("timeline");
        table.setPlaceholder(new Label("Open flight recorder dumps (nccl_trace_rank_N) or ncclras output"));
        table.setColumnResizePolicy(TableView.UNCONSTRAINED_RESIZE_POLICY);
        table.setPrefHeight(220);
        table.setMinHeight(170);
        TableColumn<Row, String> rankColumn = number("Rank", Row::rank, 48);
        table.getColumns().add(rankColumn);
        table.getColumns().add(number("Enqueued", Row::enqueued, 80));
        table.getColumns().add(number("Started", Row::started, 70));
        table.getColumns().add(number("Completed", Row::completed, 80));
        TableColumn<Row, String> lag = number("Lag", Row::behind, 60);
        lag.setId("lagColumn");
        table.getColumns().add(lag);
        TableColumn<Row, Row> bar = new TableColumn<>("Progress");
        bar.setCellValueFactory(cd -> new ReadOnlyObjectWrapper<>(cd.getValue()));
        bar.setPrefWidth(180);
        bar.setCellFactory(c -> new TableCell<>() {
            private final Region fill = new Region();

            {
                fill.getStyleClass().add(Styles.TIMELINE_BAR);
            }

            @Override
            protected void updateItem(Row r, boolean empty) {
                super.updateItem(r, empty);
                fill.getStyleClass().remove(Styles.BEHIND);
                if (empty || r == null) {
                    setGraphic(null);
                    return;
                }
                if (r.behind() > 0) {
                    fill.getStyleClass().add(Styles.BEHIND);
                }
                fill.setPrefWidth(Math.max(2, 160 * r.fraction()));
                fill.setMaxWidth(Region.USE_PREF_SIZE);
                setGraphic(fill);
            }
        });
        table.getColumns().add(bar);
        table.setRowFactory(tv -> {
            TableRow<Row> row = new TableRow<>() {
                @Override
                protected void updateItem(Row r, boolean empty) {
                    super.updateItem(r, empty);
                    getStyleClass().remove(Styles.ROW_DANGER);
                    if (!empty && r != null && r.behind() > 0) {
                        getStyleClass().add(Styles.ROW_DANGER);
                    }
                }
            };
            row.setOnMouseClicked(e -> {
                if (row.getItem() != null) {
                    onRank.accept(row.getItem().rank());
                }
            });
            return row;
        });
        table.setTooltip(new Tooltip("Lag: collectives behind the group's furthest rank; most behind first (click a header to "
                + "sort by it). Click a rank to show it on the map; red: behind the group's furthest rank"));
        lag.setSortType(TableColumn.SortType.DESCENDING);
        table.getSortOrder().setAll(List.of(lag, rankColumn)); // the most behind first; ties in rank order
        HBox top = new HBox(6, new Label("Collectives"), groups);
        HBox.setHgrow(groups, javafx.scene.layout.Priority.ALWAYS);
        getChildren().addAll(top, table);
    }

    public void setOnRank(IntConsumer onRank) {
        this.onRank = onRank;
    }

    /** Recomputes the groups of this model off the FX thread; the first group with a rank behind is shown. */
    public void show(FabricModel model) {
        long gen = ++generation;
        CompletableFuture.supplyAsync(() -> groups(model)).whenComplete((list, err) -> Platform.runLater(() -> {
            if (gen != generation) {
                return;
            }
            List<Group> shown = err != null || list == null ? List.of() : list;
            groups.setItems(FXCollections.observableArrayList(shown));
            groups.setValue(shown.stream().filter(g -> g.rows().stream().anyMatch(r -> r.behind() > 0)).findFirst()
                    .orElse(shown.isEmpty() ? null : shown.get(0)));
        }));
    }

    /** The flight recorder's process groups, then RAS and Inspector communicators. */
    public static List<Group> groups(FabricModel model) {
        List<Group> out = new ArrayList<>();
        for (ProcessGroupProgress p : FlightRecorderAnalysis.progress(model.forensics().flightRecorder())) {
            long max = p.maxEnqueued();
            List<Row> rows = new ArrayList<>();
            for (RankProgress r : p.ranks().values()) {
                rows.add(new Row(r.rank(), r.lastEnqueued(), r.lastStarted(), r.lastCompleted(),
                        max - r.lastEnqueued(), 0));
            }
            out.add(new Group(p.label(), "flight recorder", scaled(rows)));
        }
        for (ForensicsSummary.Collective c : ForensicsSummary.collectives(model)) {
            if (c.from().equals("flight-recorder")) {
                continue;
            }
            long max = c.lastSequence().values().stream().mapToLong(Long::longValue).max().orElse(-1);
            List<Row> rows = new ArrayList<>();
            for (Map.Entry<String, Long> e : c.lastSequence().entrySet()) {
                long seq = e.getValue();
                rows.add(new Row(Integer.parseInt(e.getKey()), seq, -1, c.lastCompleted().getOrDefault(e.getKey(), -1L),
                        max - seq, 0));
            }
            out.add(new Group(c.name().isEmpty() ? c.communicator() : c.name() + " " + c.communicator(),
                    c.from().equals("ras") ? "NCCL RAS" : "NCCL Inspector", scaled(rows)));
        }
        return out;
    }

    /**
     * Rank order, and each bar's length over a window that makes a lag visible: from as far below the
     * slowest rank as the spread (at least one collective) up to the furthest rank.
     */
    static List<Row> scaled(List<Row> rows) {
        long max = rows.stream().mapToLong(Row::enqueued).max().orElse(-1);
        long min = rows.stream().mapToLong(Row::enqueued).filter(v -> v >= 0).min().orElse(max);
        long lo = Math.max(-1, min - Math.max(1, max - min));
        List<Row> out = new ArrayList<>();
        for (Row r : rows) {
            double f = r.enqueued() < 0 || max <= lo ? 0 : (double) (r.enqueued() - lo) / (max - lo);
            out.add(new Row(r.rank(), r.enqueued(), r.started(), r.completed(), r.behind(), f));
        }
        out.sort(java.util.Comparator.comparingInt(Row::rank));
        return out;
    }

    public List<Group> shownGroups() {
        return groups.getItems();
    }

    public Group shownGroup() {
        return groups.getValue();
    }

    public TableView<Row> table() {
        return table;
    }

    private static TableColumn<Row, String> number(String name, java.util.function.ToLongFunction<Row> f, double w) {
        TableColumn<Row, String> c = new TableColumn<>(name);
        c.setCellValueFactory(cd -> {
            long v = f.applyAsLong(cd.getValue());
            return new ReadOnlyObjectWrapper<>(v < 0 ? "" : String.valueOf(v));
        });
        c.setComparator(CollectiveTimeline::compareNumbers); // 10 after 9, and "" (no such number) lowest
        c.setPrefWidth(w);
        return c;
    }

    /** Orders the number columns' texts by value; an empty text (the source has no such number) sorts lowest. */
    static int compareNumbers(String a, String b) {
        return Long.compare(a == null || a.isEmpty() ? Long.MIN_VALUE : Long.parseLong(a),
                b == null || b.isEmpty() ? Long.MIN_VALUE : Long.parseLong(b));
    }
}
