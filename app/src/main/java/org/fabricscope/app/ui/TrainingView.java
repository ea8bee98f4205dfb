package org.fabricscope.app.ui;

import java.util.List;
import java.util.function.Consumer;

import org.fabricscope.model.core.Plural;
import org.fabricscope.model.FabricModel;
import org.fabricscope.model.core.Vertex;
import org.fabricscope.model.ranks.RankMap;
import org.fabricscope.model.ranks.RankSite;
import org.fabricscope.model.training.NcclEvent;

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
 * The training view: one row per rank with where it ran (pod, node, GPU, HCA, leaf port) and its
 * NCCL state, and the NCCL/PyTorch events (WARNs, completion errors, watchdog timeouts, exits)
 * with their file and line. Double-click a rank to show its HCA (or host) on the map.
 */
public final class TrainingView extends VBox {
    private final TableView<RankSite> ranks = new TableView<>();
    private final ListView<NcclEvent> events = new ListView<>();
    private final Label heading = new Label("No NCCL or PyTorch logs loaded");
    private final CollectiveTimeline timeline = new CollectiveTimeline();
    private final NcclTestsChart ncclTests = new NcclTestsChart();
    private RankMap rankMap;
    private Consumer<Vertex> onReveal = v -> { };
    private FabricModel model;

    public TrainingView() {
        setSpacing(6);
        heading.getStyleClass().add(Styles.INSPECTOR_TITLE);
        ranks.setId("ranks");
        ranks.setPlaceholder(new Label("Open NCCL_DEBUG=INFO logs (files, kubectl logs, torchrun output)"));
        ranks.setColumnResizePolicy(TableView.UNCONSTRAINED_RESIZE_POLICY);
        ranks.getColumns().add(column("Rank", s -> String.valueOf(s.rank().rank()), 48));
        ranks.getColumns().add(column("Pod / host", s -> s.pod() != null ? s.pod() : s.rank().host(), 150));
        ranks.getColumns().add(column("Node", s -> s.host() != null ? s.host() : s.k8sNode() != null ? s.k8sNode() : "", 100));
        ranks.getColumns().add(column("GPU", TrainingView::gpuText, 100));
        ranks.getColumns().add(column("HCA", s -> s.hca() == null ? "" : FabricMapView.shortName(s.hca()), 70));
        ranks.getColumns().add(column("Leaf port", s -> s.leafPort() == null ? ""
                : FabricMapView.shortName(s.leafPort().node()) + " [" + s.leafPort().number() + "]", 130));
        ranks.getColumns().add(column("NCCL", s -> s.rank().ncclVersion() == null ? "" : s.rank().ncclVersion(), 60));
        ranks.getColumns().add(column("Init", s -> s.rank().initCompleted() ? "complete" : "started", 70));
        ranks.setRowFactory(tv -> {
            TableRow<RankSite> row = new TableRow<>() {
                @Override
                protected void updateItem(RankSite s, boolean empty) {
                    super.updateItem(s, empty);
                    String note = empty || s == null || notes == null ? null : notes.text(SubjectNotes.key(rankSubject(s)));
                    setTooltip(note == null ? null : new Tooltip("Note: " + note));
                }
            };
            row.setOnMouseClicked(e -> {
                if (e.getClickCount() == 2) {
                    reveal(row.getItem());
                }
            });
            return row;
        });
        timeline.setId("collectiveTimeline");
        timeline.setOnRank(this::selectRank);
        ranks.setTooltip(new Tooltip("Double-click a rank to show its HCA on the map"));
        ranks.getSelectionModel().setSelectionMode(javafx.scene.control.SelectionMode.MULTIPLE);
        events.setId("ncclEvents");
        events.setPlaceholder(new Label("No WARN lines, errors or timeouts"));
        events.setPrefHeight(200);
        events.setCellFactory(lv -> new javafx.scene.control.ListCell<>() {
            @Override
            protected void updateItem(NcclEvent ev, boolean empty) {
                super.updateItem(ev, empty);
                getStyleClass().removeAll(Styles.SEV_ERROR, Styles.SEV_WARNING);
                if (empty || ev == null) {
                    setText(null);
                    setTooltip(null);
                    return;
                }
                String who = ev.rank() >= 0 ? "rank " + ev.rank() : ev.host() == null || ev.host().isEmpty() ? "" : ev.host();
                setText(ev.kind().name().toLowerCase().replace('_', ' ') + (who.isEmpty() ? "" : " · " + who) + "\n"
                        + abbreviate(ev.message(), 160));
                getStyleClass().add(ev.kind() == NcclEvent.Kind.WARN ? Styles.SEV_WARNING : Styles.SEV_ERROR);
                setTooltip(ev.evidence() == null ? null : new Tooltip(ev.evidence().toString()));
            }
        });
        VBox.setVgrow(ranks, Priority.ALWAYS);
        getChildren().addAll(heading, ranks, timeline, ncclTests, new Label("Events"), events);
    }

    /** Shows a rank's HCA (or host) on the map. */
    private void reveal(RankSite s) {
        if (s == null || model == null) {
            return;
        }
        Vertex v = s.hca() != null ? s.hca() : s.host() != null ? model.host(s.host()) : null;
        if (v != null) {
            onReveal.accept(v);
        }
    }

    /** A rank's box clicked in the Job tab (its world rank): its row is selected here and its HCA or host on the map. */
    public void selectWorldRank(int world) {
        if (rankMap == null) {
            return;
        }
        List<RankSite> sites = rankMap.sites().stream()
                .filter(s -> Integer.valueOf(world).equals(rankMap.worldRanks().get(s.rank().process()))).limit(1).toList();
        if (!sites.isEmpty()) {
            select(sites);
            reveal(sites.get(0));
        }
    }

    /** A rank clicked in the collective timeline: its row is selected here and its HCA or host on the map. */
    private void selectRank(int rank) {
        if (rankMap == null) {
            return;
        }
        List<RankSite> sites = rankMap.sites().stream().filter(s -> s.rank().rank() == rank).limit(1).toList();
        if (!sites.isEmpty()) {
            select(sites);
            reveal(sites.get(0));
        }
    }

    public NcclTestsChart ncclTests() {
        return ncclTests;
    }

    public CollectiveTimeline timeline() {
        return timeline;
    }

    private static String abbreviate(String s, int max) {
        return s == null ? "" : s.length() <= max ? s : s.substring(0, max - 1) + "…";
    }

    public void setOnReveal(Consumer<Vertex> onReveal) {
        this.onReveal = onReveal;
    }

    public void show(FabricModel m, RankMap map) {
        this.model = m;
        this.rankMap = map;
        timeline.show(m);
        ncclTests.show(m);
        var log = m.trainingLog();
        heading.setText(log.isEmpty() ? "No NCCL or PyTorch logs loaded"
                : Plural.of(map.sites().size(), "rank") + " · NCCL " + String.join(", ", log.ncclVersions()) + " · pairs "
                + log.transportsByPair());
        ranks.setItems(FXCollections.observableArrayList(map.sites()));
        events.setItems(FXCollections.observableArrayList(log.events().stream()
                .filter(e -> e.kind() != NcclEvent.Kind.WATCHDOG_PROGRESS)
                .sorted(java.util.Comparator.comparingInt(TrainingView::importance)).limit(5000).toList()));
    }

    /** Causes before symptoms: transport errors, then timeouts, then exits, then other WARNs (stable within each). */
    private static int importance(NcclEvent e) {
        return switch (e.kind().name()) {
            case "IB_COMPLETION_ERROR", "VERBS_FAILURE" -> 0;
            case "SOCKET_CLOSED" -> 1;
            case "WATCHDOG_TIMEOUT" -> 3;
            case "PROCESS_FAILED" -> 4;
            case "WARN" -> 6;
            default -> 5;
        };
    }

    /** Selects the rows of these ranks (a finding's subjects), the first as the selected item, and scrolls to it. */
    public void select(List<RankSite> sites) {
        ClusterView.select(ranks, sites);
    }

    public List<RankSite> selectedRanks() {
        return ranks.getSelectionModel().getSelectedItems();
    }

    public List<RankSite> shownRanks() {
        return ranks.getItems();
    }

    public List<NcclEvent> shownEvents() {
        return events.getItems();
    }

    private static TableColumn<RankSite, String> column(String name, java.util.function.Function<RankSite, String> f, double w) {
        TableColumn<RankSite, String> c = new TableColumn<>(name);
        c.setCellValueFactory(cd -> new ReadOnlyObjectWrapper<>(f.apply(cd.getValue())));
        c.setPrefWidth(w);
        return c;
    }

    /**
     * A rank's GPU by its physical index (nvidia-smi's and NVML's: the topology's GPU, else the Init line's
     * nvmlDev) beside the CUDA index the process sees (CUDA_VISIBLE_DEVICES renumbers them), and its bus id:
     * {@code GPU4 (CUDA 0) 0000:a0:00.0}.
     */
    static String gpuText(org.fabricscope.model.ranks.RankSite s) {
        int cuda = s.rank().cudaDev();
        String physical = s.gpu() != null ? s.gpu().label() : s.rank().nvmlDev() >= 0 ? "GPU" + s.rank().nvmlDev() : "GPU ?";
        return (physical + " (CUDA " + (cuda >= 0 ? String.valueOf(cuda) : "?") + ") " + s.rank().busId()).strip();
    }

    private SubjectNotes notes;

    /** The user's notes: a rank row shows its note as its tooltip; its menu writes one. */
    void bindNotes(SubjectNotes userNotes) {
        this.notes = userNotes;
        userNotes.all().addListener((javafx.collections.MapChangeListener<String, org.fabricscope.app.session.Session.Note>) c -> ranks.refresh());
        CopyMenus.addItems(ranks, this::noteItems);
    }

    /** A rank as a note's subject: its number and host (a communicator id differs from run to run). */
    static org.fabricscope.model.core.Subject rankSubject(RankSite s) {
        return new org.fabricscope.model.core.Subject.RankRef("", s.rank().rank(), s.rank().host(), s.describe());
    }

    private java.util.List<javafx.scene.control.MenuItem> noteItems(int index) {
        if (notes == null || index < 0 || index >= ranks.getItems().size()) {
            return java.util.List.of();
        }
        RankSite s = ranks.getItems().get(index);
        javafx.scene.control.MenuItem item = new javafx.scene.control.MenuItem("Note on rank " + s.rank().rank() + "…");
        item.setOnAction(e -> {
            org.fabricscope.model.core.Subject subject = rankSubject(s);
            String key = SubjectNotes.key(subject);
            NoteDialog.ask(getScene() == null ? null : getScene().getWindow(), subject.label(), notes.text(key))
                    .ifPresent(text -> notes.put(key, subject.label(), text));
        });
        return java.util.List.of(item);
    }
}
