package org.fabricscope.app.ui;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import org.fabricscope.app.render.ColourMode;
import org.fabricscope.app.render.MapPalette;
import org.fabricscope.importers.FabricImporter;
import org.fabricscope.importers.core.ImportCancelledException;
import org.fabricscope.importers.ImportResult;
import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.fabric.FabricNode;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.analysis.FabricSummary;
import org.fabricscope.model.fabric.Host;
import org.fabricscope.model.core.Severity;
import org.fabricscope.model.core.Vertex;

import javafx.application.Platform;
import javafx.concurrent.Task;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.Scene;
import javafx.scene.control.Alert;
import javafx.scene.control.Button;
import javafx.scene.control.ChoiceBox;
import javafx.scene.control.ContextMenu;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.scene.control.Menu;
import javafx.scene.control.MenuBar;
import javafx.scene.control.MenuItem;
import javafx.scene.control.ProgressBar;
import javafx.scene.control.SeparatorMenuItem;
import javafx.scene.control.SplitPane;
import javafx.scene.control.Tab;
import javafx.scene.control.TabPane;
import javafx.scene.control.TextField;
import javafx.scene.control.ToggleButton;
import javafx.scene.control.ToolBar;
import javafx.scene.control.Tooltip;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyCodeCombination;
import javafx.scene.input.KeyCombination;
import javafx.scene.input.TransferMode;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.stage.DirectoryChooser;
import javafx.stage.FileChooser;
import javafx.stage.Window;

/**
 * The main window's content: menus and toolbar, the fabric map, the inspector / findings /
 * diagnostics tabs, and a status bar with import progress and cancel. Imports and re-layouts run
 * on a background executor and hand back a {@link Snapshot}; the FX thread only swaps it in.
 */
public final class MainView extends BorderPane {
    private final FabricMapView map = new FabricMapView();
    private final InspectorView inspector = new InspectorView();
    private final ListView<Finding> findings = new ListView<>();
    private final ListView<Diagnostic> diagnostics = new ListView<>();
    private final TextField search = new TextField();
    private final ChoiceBox<ColourMode> colourMode = new ChoiceBox<>();
    private final ToggleButton collapseHosts = new ToggleButton("Collapse hosts");
    private final HBox legend = new HBox(10);
    private final Label status = new Label("Ready");
    private final ProgressBar progress = new ProgressBar();
    private final Button cancel = new Button("Cancel");
    private final TabPane side = new TabPane();
    private final Tab findingsTab = new Tab("Findings");
    private final Tab diagnosticsTab = new Tab("Import diagnostics");
    private final ClusterView cluster = new ClusterView();
    private final TrainingView training = new TrainingView();
    private final Tab clusterTab = new Tab("Kubernetes", cluster);
    private final Tab trainingTab = new Tab("Training", training);
    private final LogConsole logs = new LogConsole();
    private final Tab logsTab = new Tab("Logs", logs);
    private final java.util.concurrent.ConcurrentLinkedQueue<LogConsole.Line> pendingLines = new java.util.concurrent.ConcurrentLinkedQueue<>();
    private final javafx.animation.AnimationTimer drainLines = new javafx.animation.AnimationTimer() {
        @Override
        public void handle(long now) {
            // at most one console update per frame, however fast the pods write
            if (pendingLines.isEmpty()) {
                return;
            }
            List<LogConsole.Line> batch = new ArrayList<>();
            LogConsole.Line l;
            while (batch.size() < 50_000 && (l = pendingLines.poll()) != null) {
                batch.add(l);
            }
            pendingCount.addAndGet(-batch.size());
            logs.append(batch);
        }
    };
    private org.fabricscope.app.live.LiveJob live;
    private ConnectDialog.Choice lastChoice;
    /** What a background rebuild needs of the view, updated on the FX thread. */
    private volatile ColourMode liveMode = ColourMode.ERRORS;
    private volatile Set<String> liveCollapsed = Set.of();
    private volatile boolean liveCollapseAll;
    private volatile String liveJobKey;
    /** The training job the Kubernetes colours pick out (namespace/name), or null for all. */
    private String highlightJob;
    private final ExecutorService worker = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "fabricscope-worker");
        t.setDaemon(true);
        return t;
    });
    private final Set<String> collapsed = new HashSet<>();
    private Snapshot snapshot;
    private Task<?> running;
    private String summaryLine = "Ready";

    public MainView() {
        getStyleClass().add("main-view");
        setTop(new javafx.scene.layout.VBox(menus(), toolbar()));
        findings.setId("findings");
        findings.setPlaceholder(new Label("No findings"));
        findings.setCellFactory(lv -> new ListCell<>() {
            @Override
            protected void updateItem(Finding f, boolean empty) {
                super.updateItem(f, empty);
                getStyleClass().removeAll("sev-error", "sev-warning", "sev-info");
                if (empty || f == null) {
                    setText(null);
                    setTooltip(null);
                } else {
                    setText(f.severity().label().toUpperCase() + "  " + f.id() + "\n" + f.title());
                    getStyleClass().add("sev-" + f.severity().label());
                    setTooltip(new Tooltip(String.join("\n", f.subjects()) + "\n\nWhat to do:\n- "
                            + String.join("\n- ", f.remedies())));
                }
            }
        });
        findings.getSelectionModel().selectedItemProperty().addListener((o, a, f) -> revealFinding(f));
        diagnostics.setId("diagnostics");
        diagnostics.setPlaceholder(new Label("Every line was understood"));
        findingsTab.setContent(findings);
        diagnosticsTab.setContent(diagnostics);
        Tab inspectorTab = new Tab("Inspector", inspector);
        side.getTabs().addAll(inspectorTab, findingsTab, trainingTab, clusterTab, logsTab, diagnosticsTab);
        logsTab.setTooltip(new Tooltip("Live pod logs, filtered by pod, rank and level (Ctrl+Shift+L)"));
        clusterTab.setTooltip(new Tooltip("Nodes: requested / allocatable; pending pods and where they could fit (Ctrl+Shift+K)"));
        trainingTab.setTooltip(new Tooltip("Ranks: pod, node, GPU, HCA, leaf port; NCCL/PyTorch events (Ctrl+Shift+R)"));
        cluster.setOnShowHost(this::revealVertex);
        cluster.setOnJob(key -> {
            highlightJob = key;
            liveJobKey = key;
            if (colourMode.getValue() != ColourMode.KUBERNETES) {
                colourMode.setValue(ColourMode.KUBERNETES); // restyles
            } else {
                restyle();
            }
        });
        training.setOnReveal(this::revealVertex);
        side.setTabClosingPolicy(TabPane.TabClosingPolicy.UNAVAILABLE);
        side.setMinWidth(420);
        SplitPane split = new SplitPane(map, side);
        split.setDividerPositions(0.64);
        SplitPane.setResizableWithParent(side, false);
        setCenter(split);
        setBottom(statusBar());
        inspector.setHostTopologies(name -> snapshot == null ? null : snapshot.model().hostTopology(name), this::openHostView);
        map.setOnSelect(v -> {
            inspector.show(v);
            side.getSelectionModel().select(inspectorTab);
        });
        setOnDragOver(e -> {
            if (e.getDragboard().hasFiles()) {
                e.acceptTransferModes(TransferMode.COPY);
            }
            e.consume();
        });
        setOnDragDropped(e -> {
            List<Path> paths = e.getDragboard().getFiles().stream().map(File::toPath).toList();
            e.setDropCompleted(!paths.isEmpty());
            if (!paths.isEmpty()) {
                open(paths, e.getAcceptedTransferMode() == TransferMode.LINK);
            }
            e.consume();
        });
        updateLegend();
    }

    private MenuBar menus() {
        MenuItem open = item("Open files…", new KeyCodeCombination(KeyCode.O, KeyCombination.SHORTCUT_DOWN), () -> chooseFiles(false));
        MenuItem add = item("Add files to this fabric…", new KeyCodeCombination(KeyCode.O, KeyCombination.SHORTCUT_DOWN,
                KeyCombination.ALT_DOWN), () -> chooseFiles(true));
        MenuItem folder = item("Open folder…", new KeyCodeCombination(KeyCode.O, KeyCombination.SHORTCUT_DOWN,
                KeyCombination.SHIFT_DOWN), this::chooseFolder);
        MenuItem reload = item("Reload", new KeyCodeCombination(KeyCode.F5), () -> {
            if (snapshot != null) {
                open(snapshot.paths(), false);
            }
        });
        MenuItem connect = item("Connect to cluster…", new KeyCodeCombination(KeyCode.K, KeyCombination.SHORTCUT_DOWN),
                this::askConnect);
        MenuItem disconnect = item("Disconnect from cluster", null, this::disconnect);
        MenuItem quit = item("Quit", new KeyCodeCombination(KeyCode.Q, KeyCombination.SHORTCUT_DOWN), Platform::exit);
        Menu file = new Menu("_File", null, open, add, folder, reload, new SeparatorMenuItem(), connect, disconnect,
                new SeparatorMenuItem(), quit);
        MenuItem fit = item("Fit to window", new KeyCodeCombination(KeyCode.DIGIT0, KeyCombination.SHORTCUT_DOWN), map::fit);
        MenuItem zin = item("Zoom in", new KeyCodeCombination(KeyCode.EQUALS, KeyCombination.SHORTCUT_DOWN), () -> map.zoom(1.5));
        MenuItem zout = item("Zoom out", new KeyCodeCombination(KeyCode.MINUS, KeyCombination.SHORTCUT_DOWN), () -> map.zoom(1 / 1.5));
        MenuItem errors = item("Colour by error counters", new KeyCodeCombination(KeyCode.DIGIT1, KeyCombination.SHORTCUT_DOWN),
                () -> colourMode.setValue(ColourMode.ERRORS));
        MenuItem speed = item("Colour by speed/width", new KeyCodeCombination(KeyCode.DIGIT2, KeyCombination.SHORTCUT_DOWN),
                () -> colourMode.setValue(ColourMode.SPEED));
        MenuItem transport = item("Colour by transport of training ranks", new KeyCodeCombination(KeyCode.DIGIT3,
                KeyCombination.SHORTCUT_DOWN), () -> colourMode.setValue(ColourMode.TRANSPORT));
        MenuItem kube = item("Colour by Kubernetes node readiness and jobs", new KeyCodeCombination(KeyCode.DIGIT4,
                KeyCombination.SHORTCUT_DOWN), () -> colourMode.setValue(ColourMode.KUBERNETES));
        MenuItem hosts = item("Collapse/expand all hosts", new KeyCodeCombination(KeyCode.H, KeyCombination.SHORTCUT_DOWN),
                () -> collapseHosts.setSelected(!collapseHosts.isSelected()));
        MenuItem hostToggle = item("Collapse/expand selected host", new KeyCodeCombination(KeyCode.H,
                KeyCombination.SHORTCUT_DOWN, KeyCombination.SHIFT_DOWN), this::toggleSelectedHost);
        MenuItem hostView = item("Host topology of the selection…", new KeyCodeCombination(KeyCode.T, KeyCombination.SHORTCUT_DOWN),
                () -> {
                    if (!inspector.openHost()) {
                        status.setText("Select a host or HCA whose NCCL topology is loaded (open its topo.xml with the fabric)");
                    }
                });
        MenuItem showCluster = item("Kubernetes resources", new KeyCodeCombination(KeyCode.K, KeyCombination.SHORTCUT_DOWN,
                KeyCombination.SHIFT_DOWN), () -> side.getSelectionModel().select(clusterTab));
        MenuItem showTraining = item("Training ranks and events", new KeyCodeCombination(KeyCode.R, KeyCombination.SHORTCUT_DOWN,
                KeyCombination.SHIFT_DOWN), () -> side.getSelectionModel().select(trainingTab));
        MenuItem showLogs = item("Live logs", new KeyCodeCombination(KeyCode.L, KeyCombination.SHORTCUT_DOWN,
                KeyCombination.SHIFT_DOWN), () -> side.getSelectionModel().select(logsTab));
        MenuItem find = item("Find…", new KeyCodeCombination(KeyCode.F, KeyCombination.SHORTCUT_DOWN), search::requestFocus);
        Menu view = new Menu("_View", null, find, new SeparatorMenuItem(), fit, zin, zout, new SeparatorMenuItem(), errors,
                speed, transport, kube, new SeparatorMenuItem(), hosts, hostToggle, hostView, new SeparatorMenuItem(), showTraining,
                showCluster, showLogs);
        MenuItem keys = item("Keyboard shortcuts", new KeyCodeCombination(KeyCode.F1), this::showShortcuts);
        MenuItem about = item("About FabricScope", null, () -> info("About FabricScope", "FabricScope "
                + org.fabricscope.app.common.Version.get() + "\nFabric topology visualizer and troubleshooting assistant\n"
                + "for multi-node GPU training clusters."));
        Menu help = new Menu("_Help", null, keys, about);
        MenuBar bar = new MenuBar(file, view, help);
        bar.setUseSystemMenuBar(true);
        return bar;
    }

    private static MenuItem item(String text, KeyCombination key, Runnable action) {
        MenuItem m = new MenuItem(text);
        if (key != null) {
            m.setAccelerator(key);
        }
        m.setOnAction(e -> action.run());
        return m;
    }

    private ToolBar toolbar() {
        search.setId("search");
        search.setPromptText("Find host, switch, GUID or LID (Ctrl+F)");
        search.setPrefColumnCount(26);
        search.setOnAction(e -> runSearch());
        search.setTooltip(new Tooltip("Host name, switch name, node/port/system-image GUID (with or without 0x) or LID; Enter to go"));
        colourMode.getItems().addAll(ColourMode.values());
        colourMode.setValue(ColourMode.ERRORS);
        colourMode.setId("colourMode");
        colourMode.setTooltip(new Tooltip("What link colours mean: error counters (Ctrl+1), speed/width (Ctrl+2), "
                + "transport of the training ranks (Ctrl+3), Kubernetes node readiness and jobs (Ctrl+4)"));
        colourMode.valueProperty().addListener((o, a, b) -> restyle());
        collapseHosts.setId("collapseHosts");
        collapseHosts.setTooltip(new Tooltip("Draw each host as one glyph instead of its HCAs (Ctrl+H)"));
        collapseHosts.selectedProperty().addListener((o, a, b) -> restyle());
        Button fit = new Button("Fit");
        fit.setTooltip(new Tooltip("Fit the whole fabric in the window (Ctrl+0)"));
        fit.setOnAction(e -> map.fit());
        Region grow = new Region();
        HBox.setHgrow(grow, Priority.ALWAYS);
        legend.setAlignment(Pos.CENTER_LEFT);
        legend.getStyleClass().add("legend");
        return new ToolBar(search, new Label("Colour:"), colourMode, collapseHosts, fit, grow, legend);
    }

    private HBox statusBar() {
        progress.setVisible(false);
        progress.setPrefWidth(180);
        cancel.setVisible(false);
        cancel.setId("cancelImport");
        cancel.setCancelButton(true);
        cancel.setOnAction(e -> {
            if (running != null) {
                running.cancel(false);
            }
        });
        status.setId("status");
        HBox bar = new HBox(10, status, new Region(), progress, cancel);
        HBox.setHgrow(bar.getChildren().get(1), Priority.ALWAYS);
        bar.setAlignment(Pos.CENTER_LEFT);
        bar.setPadding(new Insets(3, 8, 3, 8));
        bar.getStyleClass().add("status-bar");
        return bar;
    }

    private void updateLegend() {
        legend.getChildren().clear();
        if (colourMode.getValue() == ColourMode.ERRORS) {
            legend.getChildren().addAll(swatch(UiPalette.current().ok(), "within thresholds"), swatch(UiPalette.current().warning(), "over threshold"),
                    swatch(UiPalette.current().danger(), "far over (error)"), swatch(UiPalette.current().unknown(), "no counters read"));
        } else if (colourMode.getValue() == ColourMode.TRANSPORT) {
            for (org.fabricscope.model.training.Transport t : org.fabricscope.model.training.Transport.values()) {
                String label = switch (t) {
                    case P2P -> "NVLink/P2P";
                    case SHM -> "SHM";
                    case NET_IB_GDR -> "IB + GPUDirect RDMA";
                    case NET_IB -> "IB (no GDR)";
                    case NET_OTHER -> "other NET";
                    case NET_SOCKET -> "TCP socket";
                };
                legend.getChildren().add(swatch(UiPalette.current().transport(t), label));
            }
            legend.getChildren().add(swatch(UiPalette.current().faint(), "no ranks"));
            if (snapshot != null && snapshot.ranks().isEmpty()) {
                legend.getChildren().add(new Label("(no NCCL logs loaded)"));
            }
        } else if (colourMode.getValue() == ColourMode.KUBERNETES) {
            legend.getChildren().addAll(swatch(UiPalette.current().job(), highlightJob == null ? "runs training pods" : "runs " + highlightJob),
                    highlightJob == null ? new Label() : swatch(UiPalette.current().otherJob(), "other jobs"), swatch(UiPalette.current().ok(), "node Ready"),
                    swatch(UiPalette.current().danger(), "NotReady / cordoned"), swatch(UiPalette.current().unknown(), "readiness unknown"),
                    swatch(UiPalette.current().faint(), "no Kubernetes node"));
        } else {
            var speeds = org.fabricscope.model.fabric.LinkSpeed.values();
            Set<String> present = snapshot == null ? Set.of() : snapshot.summary().cablesBySpeed().keySet();
            for (var s : speeds) {
                if (present.stream().anyMatch(token -> token.endsWith("x" + s.name()))) {
                    legend.getChildren().add(swatch(UiPalette.current().speed(s), s.name()));
                }
            }
            legend.getChildren().addAll(swatch(UiPalette.current().degraded(), "degraded (narrow/slow)"), swatch(UiPalette.current().unknown(), "unknown rate"),
                    swatch(UiPalette.current().danger(), "corner badge: a port lost its link"));
        }
    }

    private static Label swatch(int argb, String text) {
        Label l = new Label(text);
        Region box = new Region();
        box.setMinSize(14, 6);
        box.setStyle("-fx-background-color: " + MapPalette.css(argb) + ";");
        l.setGraphic(box);
        return l;
    }

    private void chooseFiles(boolean add) {
        FileChooser fc = new FileChooser();
        fc.setTitle(add ? "Add dumps to this fabric" : "Open fabric dumps");
        fc.getExtensionFilters().addAll(new FileChooser.ExtensionFilter("Dumps and bundles", "*.txt", "*.log", "*.out",
                "*.tar.gz", "*.tgz", "*.tar", "*.zip", "*.gz", "*"), new FileChooser.ExtensionFilter("All files", "*"));
        List<File> files = fc.showOpenMultipleDialog(window());
        if (files != null && !files.isEmpty()) {
            open(files.stream().map(File::toPath).toList(), add);
        }
    }

    private void chooseFolder() {
        DirectoryChooser dc = new DirectoryChooser();
        dc.setTitle("Open a folder of fabric dumps");
        File dir = dc.showDialog(window());
        if (dir != null) {
            open(List.of(dir.toPath()), false);
        }
    }

    private Window window() {
        return getScene() == null ? null : getScene().getWindow();
    }

    /** Imports in the background; {@code add} merges with what is loaded. What is loaded stays if nothing new can be read. */
    public void open(List<Path> paths, boolean add) {
        open(paths, add, null);
    }

    /** Imports, then finds {@code find} (a host, switch, GUID or LID) when it is not null. */
    public void open(List<Path> paths, boolean add, String find) {
        List<Path> all = new ArrayList<>();
        if (add && snapshot != null) {
            all.addAll(snapshot.paths());
        }
        all.addAll(paths);
        ColourMode mode = colourMode.getValue();
        Set<String> folded = Set.copyOf(collapsed);
        boolean foldAll = collapseHosts.isSelected();
        String job = highlightJob;
        Task<Snapshot> task = new Task<>() {
            @Override
            protected Snapshot call() {
                updateMessage("Reading " + all);
                ImportResult r = new FabricImporter().importPaths(all,
                        (done, total, what) -> {
                            updateProgress(done, Math.max(1, total));
                            updateMessage("Reading " + what);
                        }, this::isCancelled);
                if (isCancelled()) {
                    throw new ImportCancelledException();
                }
                updateMessage("Checking and laying out " + r.model().nodes().size() + " nodes");
                return Snapshot.build(all, r, mode, folded, foldAll, job);
            }
        };
        task.setOnSucceeded(e -> {
            Snapshot s = task.getValue();
            finished();
            if (!s.result().readAnything()) {
                diagnostics.getItems().setAll(s.model().diagnostics());
                status.setText("Nothing readable in " + paths + "; kept what was loaded");
                error("Nothing to import", "None of " + paths + " is a fabric dump FabricScope reads.\n\n"
                        + s.model().diagnostics().stream().limit(8).map(Diagnostic::toString).reduce("", (x, y) -> x + y + "\n"));
                return;
            }
            apply(s, true);
            if (find != null && !find.isBlank()) {
                search.setText(find);
                runSearch();
            }
        });
        task.setOnCancelled(e -> {
            finished();
            status.setText("Import cancelled; kept what was loaded");
        });
        task.setOnFailed(e -> {
            finished();
            Throwable ex = task.getException();
            status.setText("Import failed; kept what was loaded");
            error("Import failed", String.valueOf(ex == null ? "unknown error" : ex.getMessage()));
        });
        startTask(task);
    }

    private void startTask(Task<?> task) {
        if (running != null) {
            running.cancel(false);
        }
        running = task;
        progress.progressProperty().bind(task.progressProperty());
        status.textProperty().bind(task.messageProperty());
        progress.setVisible(true);
        cancel.setVisible(true);
        worker.submit(task);
    }

    private void finished() {
        running = null;
        progress.progressProperty().unbind();
        status.textProperty().unbind();
        progress.setVisible(false);
        cancel.setVisible(false);
    }

    private void restyle() {
        liveMode = colourMode.getValue();
        liveCollapsed = Set.copyOf(collapsed);
        liveCollapseAll = collapseHosts.isSelected();
        updateLegend();
        if (snapshot == null) {
            return;
        }
        Snapshot current = snapshot;
        String job = highlightJob;
        ColourMode mode = colourMode.getValue();
        Set<String> folded = Set.copyOf(collapsed);
        boolean foldAll = collapseHosts.isSelected();
        Task<Snapshot> task = new Task<>() {
            @Override
            protected Snapshot call() {
                updateMessage("Redrawing");
                return current.restyle(mode, folded, foldAll, job);
            }
        };
        task.setOnSucceeded(e -> {
            finished();
            apply(task.getValue(), false);
        });
        task.setOnFailed(e -> finished());
        task.setOnCancelled(e -> finished());
        startTask(task);
    }

    private void apply(Snapshot s, boolean fit) {
        boolean newData = snapshot == null || snapshot.result() != s.result();
        snapshot = s;
        inspector.setContext(s.colouring().degraded(), s.thresholds());
        inspector.setLayers(s.model(), s.ranks());
        map.show(s.layout(), s.colouring(), fit);
        if (newData) {
            findings.getItems().setAll(s.findings());
            diagnostics.getItems().setAll(s.model().diagnostics());
            cluster.show(s.model());
            training.show(s.model(), s.ranks());
            clusterTab.setText(s.model().k8sNodes().isEmpty() ? "Kubernetes" : "Kubernetes (" + s.model().k8sNodes().size() + ")");
            trainingTab.setText(s.ranks().isEmpty() ? "Training" : "Training (" + s.ranks().sites().size() + ")");
            long errors = s.findings().stream().filter(f -> f.severity() == Severity.ERROR).count();
            findingsTab.setText("Findings (" + s.findings().size() + ")");
            diagnosticsTab.setText("Import diagnostics (" + s.model().diagnostics().size() + ")");
            FabricSummary sum = s.summary();
            summaryLine = String.format("%d switches (%d leaf, %d spine, %d core) · %d host HCAs on %d hosts · %d cables · "
                            + "%d degraded · %d ports with errors · %d findings (%d errors)", sum.switches(),
                    sum.switchTiers().get("leaf"), sum.switchTiers().get("spine"), sum.switchTiers().get("core"), sum.hostCas(),
                    sum.hosts(), sum.cables(), sum.cablesDegraded(), sum.portsWithErrors(), s.findings().size(), errors);
            inspector.show(map.selection());
            if (getScene() != null && getScene().getWindow() instanceof javafx.stage.Stage st) {
                st.setTitle("FabricScope — " + s.paths().stream().map(p -> p.getFileName() == null ? p.toString()
                        : p.getFileName().toString()).reduce((a, b) -> a + ", " + b).orElse(""));
            }
        }
        status.setText(summaryLine);
        updateLegend();
    }

    private void askConnect() {
        ConnectDialog.ask(window(), lastChoice).ifPresent(this::connect);
    }

    /**
     * Starts watching a cluster: the loaded files stay, the cluster's nodes, pods and events (and the
     * logs, when followed) join them, and the map is rebuilt as they change. A previous live job stops.
     */
    public void connect(ConnectDialog.Choice choice) {
        disconnect();
        lastChoice = choice;
        List<Path> files = snapshot == null ? List.of() : snapshot.paths();
        liveMode = colourMode.getValue();
        liveCollapsed = Set.copyOf(collapsed);
        liveCollapseAll = collapseHosts.isSelected();
        status.setText("Connecting to " + (choice.target().context() == null ? "the current context" : choice.target().context()) + "…");
        Task<org.fabricscope.app.live.LiveJob> task = new Task<>() {
            @Override
            protected org.fabricscope.app.live.LiveJob call() throws Exception {
                return org.fabricscope.app.live.LiveJob.start(new org.fabricscope.importers.kube.KubeConnector(),
                        choice.target(), files, choice.followLogs(), liveListener(files));
            }
        };
        task.setOnSucceeded(e -> {
            live = task.getValue();
            status.setText(live.statusLine());
            if (choice.followLogs()) {
                logs.clear();
            }
        });
        task.setOnFailed(e -> {
            String why = task.getException() == null ? "unknown error" : task.getException().getMessage();
            status.setText("Not connected: " + why);
            error("Cannot connect", why);
        });
        Thread t = new Thread(task, "fabricscope-connect");
        t.setDaemon(true);
        t.start();
    }

    private org.fabricscope.app.live.LiveJob.Listener liveListener(List<Path> files) {
        return new org.fabricscope.app.live.LiveJob.Listener() {
            @Override
            public void model(ImportResult result, org.fabricscope.importers.kube.ClusterSnapshot cluster) {
                liveModel(files, result);
            }

            @Override
            public void lines(List<org.fabricscope.importers.kube.LogLine> lines) {
                liveLines(lines);
            }

            @Override
            public void status(String message) {
                Platform.runLater(() -> {
                    summaryLine = message;
                    if (running == null) {
                        status.setText(message);
                    }
                });
            }

            @Override
            public void error(String message) {
                Platform.runLater(() -> status.setText("Live: " + message));
            }
        };
    }

    /** A live rebuild (background thread): layout and colours here, only the swap on the FX thread. */
    void liveModel(List<Path> files, ImportResult result) {
        Snapshot s = Snapshot.build(files, result, liveMode, liveCollapsed, liveCollapseAll, liveJobKey);
        Platform.runLater(() -> apply(s, snapshot == null || snapshot.layout().items().isEmpty()));
    }

    /** Live log lines (background thread): queued for the console, which takes them once per frame. */
    void liveLines(List<org.fabricscope.importers.kube.LogLine> lines) {
        for (var l : lines) {
            pendingLines.add(LogConsole.Line.of(l.pod(), l.text()));
        }
        // the console shows the newest lines: if the FX thread falls behind, the oldest waiting ones
        // are skipped for display (the parser has them all, through the live job's LogKeeper)
        int over = pendingCount.addAndGet(lines.size()) - LogConsole.MAX_LINES;
        for (int i = 0; i < over && pendingLines.poll() != null; i++) {
            pendingCount.decrementAndGet();
        }
        if (!draining) {
            draining = true;
            Platform.runLater(drainLines::start);
        }
    }

    private volatile boolean draining;
    private final java.util.concurrent.atomic.AtomicInteger pendingCount = new java.util.concurrent.atomic.AtomicInteger();

    /** Lines waiting for the console's next frame (for the live benchmark). */
    int pendingLineCount() {
        return pendingCount.get();
    }

    /** Stops the live job, if any; what it loaded stays on screen. */
    public void disconnect() {
        if (live != null) {
            org.fabricscope.app.live.LiveJob j = live;
            live = null;
            drainLines.stop();
            draining = false;
            worker.submit(j::close);
            status.setText("Disconnected; the last model stays");
        }
    }

    /** The running live job, or null. */
    public org.fabricscope.app.live.LiveJob liveJob() {
        return live;
    }

    public LogConsole logConsole() {
        return logs;
    }

    private void runSearch() {
        if (snapshot == null) {
            return;
        }
        List<Vertex> hits = snapshot.model().search(search.getText(), 30);
        if (hits.isEmpty()) {
            status.setText("No match for \"" + search.getText() + "\"");
            return;
        }
        String q = search.getText().strip();
        boolean exactFirst = hits.get(0).displayName().equalsIgnoreCase(q)
                && (hits.size() == 1 || !hits.get(1).displayName().equalsIgnoreCase(q));
        if (hits.size() == 1 || exactFirst) {
            revealVertex(hits.get(0));
            status.setText(hits.size() == 1 ? "Found " + hits.get(0).displayName()
                    : "Showing " + hits.get(0).displayName() + " (" + (hits.size() - 1) + " more partial matches)");
            return;
        }
        ContextMenu menu = new ContextMenu();
        for (Vertex v : hits) {
            MenuItem m = new MenuItem(v.displayName() + (v instanceof FabricNode n ? "  (" + (n.isSwitch() ? n.tier().label()
                    : "HCA") + ", LID " + n.lid() + ")" : "  (host)"));
            m.setOnAction(e -> revealVertex(v));
            menu.getItems().add(m);
        }
        menu.show(search, javafx.geometry.Side.BOTTOM, 0, 0);
        status.setText(hits.size() + (hits.size() == 30 ? "+" : "") + " matches for \"" + search.getText() + "\"");
    }

    private void revealVertex(Vertex v) {
        Vertex target = v;
        if (v instanceof Host h && !h.adapters().isEmpty() && snapshot.layout().item(h) == null) {
            target = h.adapters().get(0);
        }
        if (!map.reveal(target)) {
            status.setText(v.displayName() + " is not drawn on the map (e.g. a SHARP node); showing it in the inspector");
            inspector.show(v);
        }
    }

    private void revealFinding(Finding f) {
        if (f == null || snapshot == null || f.subjects().isEmpty()) {
            return;
        }
        String subject = f.subjects().get(0);
        int at = subject.indexOf(" port ");
        String name = at > 0 ? subject.substring(0, at) : subject;
        List<Vertex> hits = snapshot.model().search(name, 1);
        if (!hits.isEmpty()) {
            map.reveal(hits.get(0));
        }
    }

    private void toggleSelectedHost() {
        Vertex v = map.selection();
        Host h = v instanceof Host host ? host : v instanceof FabricNode n ? n.host() : null;
        if (h == null) {
            status.setText("Select an HCA or host first");
            return;
        }
        if (!collapsed.remove(h.name())) {
            collapsed.add(h.name());
        }
        restyle();
    }

    /** A window with one host's PCIe tree, affinity matrix and GPU-to-fabric paths. */
    public HostView openHostView(org.fabricscope.model.host.HostTopology t) {
        HostView hv = new HostView();
        hv.show(t);
        javafx.stage.Stage stage = new javafx.stage.Stage();
        stage.setTitle("FabricScope — host " + t.name());
        Scene scene = new Scene(hv, 1150, 720);
        if (getScene() != null) {
            scene.getStylesheets().addAll(getScene().getStylesheets());
            stage.initOwner(getScene().getWindow());
        }
        stage.setScene(scene);
        stage.show();
        return hv;
    }

    private void showShortcuts() {
        info("Keyboard shortcuts", String.join("\n",
                "Ctrl+O  open files          Ctrl+Shift+O  open folder",
                "Ctrl+Alt+O  add files to the loaded fabric      F5  reload",
                "Ctrl+F  find host, switch, GUID or LID (Enter to go)",
                "Ctrl+0  fit    Ctrl+=  zoom in    Ctrl+-  zoom out",
                "Mouse: drag to pan, wheel to zoom, click to inspect, double-click to zoom in",
                "Ctrl+1  colour by error counters    Ctrl+2  colour by speed/width",
                "Ctrl+H  collapse all hosts    Ctrl+Shift+H  collapse the selected host",
                "Ctrl+T  host topology (PCIe tree, GPU/NIC affinity, GPU to fabric) of the selected host",
                "Esc  cancel a running import"));
    }

    private void info(String title, String text) {
        Alert a = new Alert(Alert.AlertType.INFORMATION, text);
        a.setTitle(title);
        a.setHeaderText(title);
        a.initOwner(window());
        a.show();
    }

    private void error(String title, String text) {
        Alert a = new Alert(Alert.AlertType.ERROR, text);
        a.setTitle(title);
        a.setHeaderText(title);
        a.initOwner(window());
        a.show();
    }

    public FabricMapView map() {
        return map;
    }

    public InspectorView inspector() {
        return inspector;
    }

    public Snapshot snapshot() {
        return snapshot;
    }

    public void dispose() {
        worker.shutdownNow();
        map.dispose();
    }
}
