package org.fabricscope.app.ui;

import java.io.File;
import java.nio.file.Path;
import java.util.List;

import org.fabricscope.app.live.LiveJob;
import org.fabricscope.app.nav.Navigation;
import org.fabricscope.app.prefs.UserState;
import org.fabricscope.app.task.TaskExecutor;
import org.fabricscope.importers.ImportResult;
import org.fabricscope.app.live.source.LogLine;
import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.core.Vertex;
import org.fabricscope.model.fabric.Host;

import javafx.fxml.FXML;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.control.ProgressBar;
import javafx.scene.control.Tab;
import javafx.scene.control.TabPane;
import javafx.scene.input.DragEvent;
import javafx.scene.input.TransferMode;
import javafx.scene.layout.BorderPane;
import javafx.stage.Stage;
import javafx.stage.Window;

/**
 * The main window, declared in {@code MainView.fxml}: this thin controller binds the controls to the
 * {@link MainViewModel} and does what only a view can (file choosers, dialogs, moving the map, marking
 * a navigation's subjects on it, opening the host drill-down window).
 */
public final class MainView extends BorderPane {
    private final MainViewModel vm;
    private final FxDialogs dialogs = new FxDialogs(this::window);
    @FXML private MainMenu menuBar;
    @FXML private MainToolBar toolBar;
    @FXML private javafx.scene.layout.HBox legendRow;
    @FXML private FabricMapView map;
    @FXML private MapHighlights highlights;
    @FXML private CompareMarks compareMarks;
    @FXML private CompareView compareView;
    @FXML private MapNotice mapNotice;
    @FXML private TabPane side;
    @FXML private TabPane centre;
    @FXML private Tab mapTab;
    @FXML private Tab jobTab;
    @FXML private JobView job;
    @FXML private Tab findingsTab;
    @FXML private Tab timelineTab;
    @FXML private Tab pairsTab;
    @FXML private Tab trainingTab;
    @FXML private Tab clusterTab;
    @FXML private Tab diagnosticsTab;
    @FXML private InspectorView inspector;
    @FXML private FindingsView findingsView;
    @FXML private TimelineView timeline;
    @FXML private PairMatrixView pairs;
    @FXML private TroubleshootView troubleshoot;
    @FXML private TrainingView training;
    @FXML private ClusterView cluster;
    @FXML private LogConsole logs;
    @FXML private ListView<Diagnostic> diagnostics;
    @FXML private Label status;
    @FXML private javafx.scene.layout.HBox liveBanner;
    @FXML private Label liveBannerText;
    @FXML private javafx.scene.control.SplitPane split;
    @FXML private ProgressBar progress;
    @FXML private Button cancelImport;
    private javafx.scene.control.ContextMenu mapMenu;
    /** True while the map reveals a navigation's first subject: its selection event is then not the user's. */
    private boolean revealing;

    public MainView() {
        this(new FxTaskExecutor());
    }

    MainView(TaskExecutor executor) {
        this(executor, UserState.none());
    }

    /** {@code userState}: where recent files are remembered (the app: the user's config folder; tests: a temp one). */
    MainView(TaskExecutor executor, UserState userState) {
        vm = new MainViewModel(executor, dialogs, LiveConnection.REGISTRY, userState);
        ViewLoader.load(this);
        inspector.bind(vm.inspector());
        findingsView.bind(vm.findings(), this::openEvidence);
        findingsView.bindNotes(vm.inspector().notes());
        training.bindNotes(vm.inspector().notes());
        timeline.bind(vm.timeline(), this::openEvidence);
        pairs.bind(vm.pairs(), this::openEvidence);
        job.bind(vm.job());
        troubleshoot.bind(vm.troubleshoot(), this::openEvidence);
        cluster.bind(vm.cluster());
        logs.bind(vm.logs());
        highlights.attach(map);
        menuBar.bind(vm, map, toolBar::focusSearch, dialogs);
        compareMarks.attach(map);
        compareView.bind(vm.compare(), menuBar::compareWithCapture, menuBar::compareWithFolder);
        vm.compare().rowsProperty().addListener((o, a, rows) -> compareMarks.show(rows == null ? List.of() : rows.marks(),
                vm.snapshot() == null ? null : vm.snapshot().model()));
        menuBar.bindCentre(() -> centre.getSelectionModel().select(mapTab), () -> centre.getSelectionModel().select(jobTab));
        toolBar.bind(vm, map, legendRow);
        bindStatus();
        bindTabs();
        for (Tab t : side.getTabs()) {
            if (t.getContent() != null) {
                CopyMenus.installUnder(t.getContent()); // Copy on every table and list row; columns fit their content
            }
        }
        // on the map's stack, so a request through the highlights layer above the map reaches it too
        map.getParent().addEventHandler(javafx.scene.input.ContextMenuEvent.CONTEXT_MENU_REQUESTED, e -> {
            javafx.geometry.Point2D at = map.sceneToLocal(e.getSceneX(), e.getSceneY());
            var item = at == null ? null : map.pick(at.getX(), at.getY());
            if (mapMenu != null) {
                mapMenu.hide();
            }
            if (item != null) {
                mapMenu = CopyMenus.forVertex(item.vertex());
                mapMenu.show(map, e.getScreenX(), e.getScreenY());
                e.consume();
            }
        });
        vm.snapshotProperty().addListener((o, before, s) -> show(before, s));
        map.problemsOnlyProperty().addListener((o, a, only) -> mapNotice.show(vm.snapshot(), only));
        // an invalidation listener: going to an equal navigation again (the same subject twice) shows it again
        vm.navigationProperty().addListener(o -> show(vm.navigationProperty().get()));
        vm.inspector().setOnOpenHost(f -> HostView.openWindow(f.topology(), getScene()).focus(f.gpu(), f.net()));
        training.setOnReveal(vm::reveal);
        job.setOnRank(rank -> {
            training.selectWorldRank(rank);
            vm.tabs().selectedProperty().set(SideTabs.Tab.TRAINING);
        });
        map.setOnSelect(v -> {
            if (!revealing) {
                highlights.clear(); // the user picked something else
            }
            vm.mapSelected(v, !revealing);
        });
        map.setOnSelectCable(c -> {
            if (!revealing) {
                highlights.clear();
            }
            vm.cableSelected(c, !revealing);
        });
        map.setCableText(vm::cableText);
        sceneProperty().addListener((o, a, scene) -> {
            if (scene != null) {
                scene.windowProperty().addListener((w, b, window) -> {
                    if (window instanceof Stage st) {
                        vm.titleProperty().addListener((t, before, title) -> st.setTitle(title)); // a new load names its files
                    }
                });
            }
        });
    }

    private void bindStatus() {
        status.textProperty().bind(vm.statusProperty());
        progress.progressProperty().bind(vm.loader().progressProperty());
        progress.visibleProperty().bind(vm.loader().busyProperty());
        cancelImport.visibleProperty().bind(vm.loader().busyProperty());
        liveBannerText.textProperty().bind(vm.liveProblemProperty());
        liveBanner.visibleProperty().bind(vm.liveProblemProperty().isNotEmpty());
        liveBanner.managedProperty().bind(liveBanner.visibleProperty());
    }

    @FXML private void dismissLiveProblem() {
        vm.dismissLiveProblem();
    }

    private void bindTabs() {
        findingsTab.textProperty().bind(vm.findings().titleProperty());
        timelineTab.textProperty().bind(vm.timeline().titleProperty());
        pairsTab.textProperty().bind(vm.pairs().titleProperty());
        SideTabs tabs = vm.tabs();
        trainingTab.textProperty().bind(tabs.trainingTitleProperty());
        clusterTab.textProperty().bind(tabs.clusterTitleProperty());
        diagnosticsTab.textProperty().bind(tabs.diagnosticsTitleProperty());
        diagnostics.setItems(tabs.diagnostics());
        side.getSelectionModel().select(tabs.selectedProperty().get().ordinal());
        tabs.selectedProperty().addListener((o, a, t) -> side.getSelectionModel().select(t.ordinal()));
        side.getSelectionModel().selectedIndexProperty().addListener((o, a, i) -> {
            if (i.intValue() >= 0) {
                tabs.selectedProperty().set(SideTabs.Tab.values()[i.intValue()]);
            }
        });
    }

    /** A new snapshot: the map draws it; new data also refills the training tab and re-inspects the selection. */
    private void show(Snapshot before, Snapshot s) {
        map.show(s.layout(), s.colouring(), vm.fitOnShow());
        mapNotice.show(s, map.problemsOnlyProperty().get()); // what the map cannot show (no counters read)
        if (before == null || before.result() != s.result()) {
            training.show(s.model(), s.ranks());
            if (before == null || JobViewModel.opensOnJob(before.model()) != JobViewModel.opensOnJob(s.model())) {
                // logs and pods without a fabric open on the job, not on an empty map
                centre.getSelectionModel().select(JobViewModel.opensOnJob(s.model()) ? jobTab : mapTab);
                if (JobViewModel.opensOnJob(s.model())) {
                    vm.tabs().selectedProperty().set(SideTabs.Tab.FINDINGS); // what was found, not "click a switch"
                }
            }
            if (map.selectedCable() != null) {
                vm.inspector().showCable(map.selectedCable());
            } else {
                vm.inspector().show(map.selection());
            }
        }
    }

    /** Marks every subject of a navigation on the map, centres the first, and selects the rank rows. */
    private void show(Navigation n) {
        highlights.show(n.vertices(), n.cables());
        vm.job().mark(n.subjects()); // and on the job view
        training.select(n.ranks());
        Vertex first = n.primary();
        if (n.primaryCable() != null && vm.snapshot() != null) {
            revealing = true;
            try {
                if (!map.revealCable(n.primaryCable()) && first != null) {
                    map.reveal(first); // no drawn line carries it: centre its first end, keep the cable view
                    vm.inspector().showCable(n.primaryCable());
                }
                highlights.keepInView();
            } finally {
                revealing = false;
            }
        } else if (first != null && vm.snapshot() != null) {
            Vertex target = first;
            if (first instanceof Host h && !h.adapters().isEmpty() && vm.snapshot().layout().item(h) == null) {
                target = h.adapters().get(0); // drawn as its HCAs
            }
            revealing = true;
            try {
                if (n.frame() ? !map.frame(n.vertices()) : !map.reveal(target)) {
                    vm.notOnMap(first);
                }
                highlights.keepInView();
            } finally {
                revealing = false;
            }
        }
    }

    /** Opens an evidence line: a log's in the Logs tab at that line, any other file's in a viewer window. */
    private void openEvidence(org.fabricscope.model.core.Evidence e) {
        if (!vm.openEvidenceInLogs(e)) {
            TextViewer.open(window(), vm.executor(), e.source(), e.line());
        }
    }

    @FXML private void cancel() {
        vm.loader().cancel();
    }

    @FXML private void dragOver(DragEvent e) {
        if (e.getDragboard().hasFiles()) {
            e.acceptTransferModes(TransferMode.COPY);
        }
        e.consume();
    }

    @FXML private void dragDropped(DragEvent e) {
        List<Path> paths = e.getDragboard().getFiles().stream().map(File::toPath).toList();
        e.setDropCompleted(!paths.isEmpty());
        if (!paths.isEmpty()) {
            vm.open(paths, e.getAcceptedTransferMode() == TransferMode.LINK, null);
        }
        e.consume();
    }

    private Window window() {
        return getScene() == null ? null : getScene().getWindow();
    }

    // what tests, the benchmark and the application call

    /** Imports in the background; {@code add} merges with what is loaded. What is loaded stays if nothing new can be read. */
    public void open(List<Path> paths, boolean add) {
        vm.open(paths, add, null);
    }

    /** Imports, then finds {@code find} (a host, switch, GUID or LID) when it is not null. */
    public void open(List<Path> paths, boolean add, String find) {
        vm.open(paths, add, find);
    }

    public void connect(ConnectDialogViewModel.Choice choice) {
        vm.connect(choice);
    }

    public void disconnect() {
        vm.disconnect();
    }

    public LiveJob liveJob() {
        return vm.liveJob();
    }

    /** A live rebuild (background thread), as the live job delivers it. */
    void liveModel(List<Path> files, ImportResult result) {
        vm.liveModel(files, result);
    }

    /** Live log lines (background thread), as the live job delivers them. */
    void liveLines(List<LogLine> lines) {
        vm.logs().offer(lines);
    }

    /** Lines waiting for the console's next frame (for the live benchmark). */
    int pendingLineCount() {
        return vm.logs().waitingCount();
    }

    /** Where the map/side-pane divider sits (0..1), to remember it. */
    public double dividerPosition() {
        return split.getDividerPositions().length == 0 ? 0.64 : split.getDividerPositions()[0];
    }

    public void setDividerPosition(double position) {
        split.setDividerPositions(position);
    }

    public MainMenu menu() {
        return menuBar;
    }

    MainToolBar toolBar() {
        return toolBar;
    }

    public MainViewModel viewModel() {
        return vm;
    }

    public LogConsole logConsole() {
        return logs;
    }

    public FabricMapView map() {
        return map;
    }

    /** The Compare tab's marks on the map (tests). */
    public CompareMarks compareMarks() {
        return compareMarks;
    }

    /** The Compare tab (tests). */
    CompareView compareView() {
        return compareView;
    }

    public MapHighlights highlights() {
        return highlights;
    }

    public InspectorView inspector() {
        return inspector;
    }

    public FindingsView findings() {
        return findingsView;
    }

    public TimelineView timeline() {
        return timeline;
    }

    /** The Job tab beside the map (tests read its boxes and marks). */
    public JobView job() {
        return job;
    }

    /** Whether the job, not the fabric map, is in front. */
    public boolean jobInFront() {
        return centre.getSelectionModel().getSelectedItem() == jobTab;
    }

    /** The Pairs tab (tests reach its heat map through it). */
    public PairMatrixView pairs() {
        return pairs;
    }

    public TroubleshootView troubleshoot() {
        return troubleshoot;
    }

    public TrainingView training() {
        return training;
    }

    public Snapshot snapshot() {
        return vm.snapshot();
    }

    public void dispose() {
        vm.dispose();
        map.dispose();
    }
}
