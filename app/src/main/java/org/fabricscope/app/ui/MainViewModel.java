package org.fabricscope.app.ui;

import java.nio.file.Path;
import java.util.List;

import org.fabricscope.app.common.CaptureName;
import org.fabricscope.app.live.LiveJob;
import org.fabricscope.app.nav.Navigation;
import org.fabricscope.app.prefs.UserState;
import org.fabricscope.app.task.BackgroundTask;
import org.fabricscope.app.task.TaskExecutor;
import org.fabricscope.importers.ImportResult;
import org.fabricscope.model.core.Vertex;

import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.ObservableList;

/**
 * The main window's state and actions, with no controls: the one current {@link Snapshot} (model,
 * analysis, layout, colours) and the status line; loading, redrawing and the live connection (through
 * the {@link TaskExecutor}, see {@link Loader} and {@link LiveConnection}); search; where the user
 * navigated to; and the view models of the inspector, findings, timeline, Kubernetes tab and log console.
 */
public final class MainViewModel {
    private final ReadOnlyObjectWrapper<Snapshot> snapshot = new ReadOnlyObjectWrapper<>();
    private final StringProperty status = new SimpleStringProperty("Ready");
    /** Why the live cluster cannot be read, for the banner over the map; empty when it can (or was dismissed). */
    private final ReadOnlyStringWrapper liveProblem = new ReadOnlyStringWrapper("");
    private String dismissedProblem;
    private final ReadOnlyObjectWrapper<Navigation> navigation = new ReadOnlyObjectWrapper<>(Navigation.NONE);
    private final SideTabs tabs = new SideTabs();
    private final ReadOnlyStringWrapper title = new ReadOnlyStringWrapper("FabricScope");
    private final Loader loader;
    private final SearchViewModel search;
    private final InspectorViewModel inspector = new InspectorViewModel();
    // a finding selected marks its subjects and keeps the Findings tab (its detail stays in view); a subject row goes there
    private final FindingsViewModel findings = new FindingsViewModel(n -> go(n, false), this::navigate);
    private final ClusterViewModel cluster;
    private final LogConsoleViewModel logs;
    private final LiveConnection live;
    private final TaskExecutor executor;
    private final TroubleshootViewModel troubleshoot;
    private final TimelineViewModel timeline;
    private final PairMatrixViewModel pairs;
    private final JobViewModel job;
    private final UserState userState;
    private final ExportPictureViewModel pictures;
    private final CompareViewModel compare;
    private final RecentFilesModel recent;
    private boolean fitNext;
    private String summaryLine = "Ready";
    /** Appended to each load's summary while some flow files did not load (empty when all did). */
    private String flowProblems = "";

    public MainViewModel(TaskExecutor executor, Dialogs dialogs) {
        this(executor, dialogs, LiveConnection.REGISTRY, UserState.none());
    }

    MainViewModel(TaskExecutor executor, Dialogs dialogs, LiveConnection.Starter starter) {
        this(executor, dialogs, starter, UserState.none());
    }

    /** {@code userState}: where recent files are remembered (read already; written off the UI thread). */
    MainViewModel(TaskExecutor executor, Dialogs dialogs, LiveConnection.Starter starter, UserState userState) {
        this.executor = executor;
        this.search = new SearchViewModel(executor, snapshot::get, status::set, this::navigate);
        this.userState = userState;
        this.recent = new RecentFilesModel(userState.recentFiles(), executor, status::set);
        this.loader = new Loader(this, executor, dialogs);
        this.timeline = new TimelineViewModel(executor, n -> go(n, false));
        this.pairs = new PairMatrixViewModel(executor, n -> go(n, false));
        this.job = new JobViewModel(executor);
        this.pictures = new ExportPictureViewModel(executor, snapshot.getReadOnlyProperty(), status, dialogs);
        this.cluster = new ClusterViewModel(loader::showJob, this::reveal);
        this.logs = new LogConsoleViewModel(executor.uiThread(), executor);
        this.compare = new CompareViewModel(this, executor, dialogs, n -> go(n, false));
        this.live = new LiveConnection(this, executor, logs, starter);
        UserFlows flows = new UserFlows(userState.directory() == null ? null : userState.directory().resolve("flows"));
        this.troubleshoot = new TroubleshootViewModel(executor, this::navigate, p -> open(p, true, null), flows);
        findings.setFlows(troubleshoot::flowExplaining, this::troubleshoot);
        // the user's flow files are read now, off the UI thread; those that do not load are shown, not dropped
        executor.execute(BackgroundTask.of(ctx -> flows.get())
                .onSuccess(this::flowsLoaded)
                .onFailure(e -> status.set("Could not read the flow folder " + flows.folder() + ": " + e.getMessage())));
    }

    /** The flow library was read: its bad files go to the Import diagnostics tab and the status line (UI thread). */
    private void flowsLoaded(org.fabricscope.model.flows.FlowLibrary lib) {
        List<org.fabricscope.model.core.Diagnostic> errors = UserFlows.diagnostics(lib);
        tabs.showFlowErrors(errors);
        flowProblems = errors.isEmpty() ? "" : " · " + (errors.size() == 1 ? "1 flow file error" : errors.size() + " flow file errors")
                + " (Import diagnostics)";
        if (!errors.isEmpty()) {
            org.fabricscope.model.flows.FlowError first = lib.errors().get(0);
            summaryLine += flowProblems;
            status.set("Flow file " + first.source() + " not loaded: " + UserFlows.problem(first)
                    + (errors.size() > 1 ? " (and " + (errors.size() - 1) + " more in Import diagnostics)" : ""));
        }
    }

    /** Imports in the background; {@code add} merges with what is loaded. What is loaded stays if nothing new can be read. */
    public void open(List<Path> paths, boolean add, String find) {
        loader.open(paths, add, find);
    }

    /** Inputs were loaded (UI thread): they go to the top of File › Open Recent, written off the UI thread. */
    void opened(List<Path> paths) {
        recent.opened(paths);
    }

    /** File › Open Recent: the inputs opened together, newest first. */
    public ObservableList<List<Path>> recentFiles() {
        return recent.list();
    }

    /** File › Open Recent › Clear. */
    public void clearRecentFiles() {
        recent.clear();
    }

    /** Where the window's geometry is remembered (null: nowhere). */
    public Path userStateDirectory() {
        return userState.directory();
    }

    public void reload() {
        if (snapshot.get() != null) {
            open(snapshot.get().paths(), false, null);
        }
    }

    /** Swaps in a snapshot built in the background (UI thread); {@code fit}: fit the map to the window. */
    void apply(Snapshot s, boolean fit) {
        Snapshot before = snapshot.get();
        boolean newData = before == null || before.result() != s.result();
        fitNext = fit;
        inspector.setContext(s.colouring().degraded(), s.thresholds());
        inspector.setLayers(s.model(), s.ranks());
        inspector.setFindings(s.findings());
        if (newData) {
            navigation.set(Navigation.NONE); // it named the old model's objects
            compare.loadedChanged();
        }
        snapshot.set(s);
        if (newData) {
            findings.show(s.analysis());
            timeline.show(s.analysis()); // the incident is worked out in the background
            pairs.show(s.analysis()); // so are the pairwise matrices
            job.show(s.analysis()); // and the job view's layout
            troubleshoot.show(s.analysis(), s.paths());
            tabs.show(s);
            cluster.show(s.model());
            logs.setFiles(LogConsoleViewModel.logSources(s.result().formats()));
            summaryLine = summaryLine(s) + flowProblems;
            title.set("FabricScope — " + CaptureName.of(s.paths())); // the capture, not each of its files
        }
        status.set(summaryLine);
    }

    private static String summaryLine(Snapshot s) {
        return StatusLine.of(s.summary(), s.findings());
    }

    /** A live rebuild (the live job's thread); the UI thread only swaps it in. */
    void liveModel(List<Path> files, ImportResult result) {
        loader.liveModel(files, result, (s, restyleIfStale) -> {
            apply(s, snapshot.get() == null || snapshot.get().layout().items().isEmpty());
            restyleIfStale.run();
        });
    }

    /** The live job's status line (UI thread): shown unless an import or redraw is reporting. */
    void liveStatus(String message) {
        summaryLine = message;
        if (!loader.isRunning()) {
            status.set(message);
        }
    }

    /**
     * The live connection's problem (UI thread): null when the cluster answers again, which also
     * forgets a dismissal; a problem the user dismissed comes back only when it changes.
     */
    void liveProblem(String problem) {
        if (problem == null) {
            dismissedProblem = null;
            liveProblem.set("");
        } else if (!problem.equals(dismissedProblem)) {
            liveProblem.set(problem);
        }
    }

    /** Hides the banner until the problem changes. */
    public void dismissLiveProblem() {
        dismissedProblem = liveProblem.get();
        liveProblem.set("");
    }

    /** Why the live cluster cannot be read (unreachable, TLS, 401/403, 404, a bad kubeconfig); empty when nothing to say. */
    public ReadOnlyStringProperty liveProblemProperty() {
        return liveProblem.getReadOnlyProperty();
    }

    /** Starts watching a cluster: the loaded files stay, its nodes, pods, events (and logs) join them. */
    public void connect(ConnectDialogViewModel.Choice choice) {
        loader.publish();
        live.connect(choice);
    }

    /**
     * Watches the fabric from this node (the {@code fabric-poll} live source: iblinkinfo and perfquery every
     * {@link #WATCH_INTERVAL}, counters never reset) through the same live job as a cluster connection.
     */
    public void watchFabric() {
        connect(new ConnectDialogViewModel.Choice(org.fabricscope.app.live.poll.FabricPollTarget.every(WATCH_INTERVAL), false));
    }

    /** How often the window's fabric watch polls. */
    static final java.time.Duration WATCH_INTERVAL = java.time.Duration.ofSeconds(15);

    /** Pauses or resumes the live source (the fabric watch). */
    public void toggleLivePause() {
        live.togglePause();
    }

    public void disconnect() {
        live.disconnect();
    }

    /** Shows one switch, HCA or host on the map and in the inspector. */
    public void reveal(Vertex v) {
        navigate(Navigation.toVertex(v));
    }

    /**
     * Goes to some subjects: the window marks {@code n}'s vertices and cables on the map and centres
     * the first; the inspector shows it; the Training and Kubernetes rows are selected; the tab of the
     * first placed subject comes to front (a line: the Logs tab when it holds the line, else the
     * finding's evidence stays in view).
     */
    public void navigate(Navigation n) {
        go(n, true);
    }

    /** {@code bringTab}: whether the tab of the first placed subject comes to front (the timeline keeps its own). */
    private void go(Navigation n, boolean bringTab) {
        if (n.primaryCable() != null) {
            inspector.showCable(n.primaryCable());
        } else if (n.primary() != null) {
            inspector.show(n.primary());
        }
        if (navigation.get() == n) {
            navigation.set(Navigation.NONE); // the same again (a subject clicked twice): the window shows it again
        }
        navigation.set(n); // the map selects the first (a host: its first HCA) and the inspector follows it
        inspector.focus(n.gpus(), n.nets());
        inspector.focusPorts(n.ports()); // the row of the port a finding names, its counters in view
        cluster.select(n.nodes(), n.pods());
        if (!bringTab) {
            return;
        }
        ObjectProperty<SideTabs.Tab> tab = tabs.selectedProperty();
        switch (n.place()) {
            case MAP -> tab.set(SideTabs.Tab.INSPECTOR);
            case TRAINING -> tab.set(SideTabs.Tab.TRAINING);
            case KUBERNETES -> tab.set(SideTabs.Tab.KUBERNETES);
            case LINES -> tab.set(logs.reveal(n.lines().get(0)) ? SideTabs.Tab.LOGS : tab.get());
            default -> { }
        }
    }

    /** The map selected a vertex: the inspector follows; a user's click also brings the inspector to front. */
    public void mapSelected(Vertex v, boolean byUser) {
        inspector.show(v);
        if (byUser) {
            tabs.selectedProperty().set(SideTabs.Tab.INSPECTOR);
        }
    }

    /**
     * An evidence line clicked (a finding's, a flow step's): a line of a loaded log file or a live
     * stream opens in the Logs tab, selected; false for other inputs (the window shows those in a viewer).
     */
    public boolean openEvidenceInLogs(org.fabricscope.model.core.Evidence e) {
        if (e == null || e.source() == null || e.source().isEmpty() || !logs.reveal(org.fabricscope.model.core.Subject.LineRef.of(e))) {
            return false;
        }
        tabs.selectedProperty().set(SideTabs.Tab.LOGS);
        return true;
    }

    /** The map selected a cable: the inspector shows its cable view; a user's click also brings it to front. */
    public void cableSelected(org.fabricscope.model.fabric.Cable c, boolean byUser) {
        inspector.showCable(c);
        if (byUser) {
            tabs.selectedProperty().set(SideTabs.Tab.INSPECTOR);
        }
    }

    /** The hover text of a cable on the map: both ends, rates, error counters, findings and ranks on it. */
    public String cableText(org.fabricscope.model.fabric.Cable c, int parallel) {
        Snapshot s = snapshot.get();
        return s == null ? c.toString()
                : org.fabricscope.app.nav.CableFacts.tooltip(c, parallel, s.thresholds(), s.findings(), s.ranks());
    }

    /** The map could not draw this vertex (e.g. a SHARP node): the inspector shows it. */
    public void notOnMap(Vertex v) {
        status.set(v.displayName() + " is not drawn on the map (e.g. a SHARP node); showing it in the inspector");
        inspector.show(v);
    }

    /** Collapses or expands the host of the selected HCA or host. */
    public void toggleHost(Vertex selection) {
        loader.toggleHost(selection);
    }

    public void openHostOfSelection() {
        if (!inspector.openHost()) {
            status.set("Select a host or HCA whose NCCL topology is loaded (open its topo.xml with the fabric)");
        }
    }

    /** Whether the snapshot just set should be fitted to the window (a new load). */
    public boolean fitOnShow() {
        return fitNext;
    }

    public void dispose() {
        live.disconnect();
        recent.dispose();
        executor.shutdown();
    }

    public Snapshot snapshot() {
        return snapshot.get();
    }

    public ReadOnlyObjectProperty<Snapshot> snapshotProperty() {
        return snapshot.getReadOnlyProperty();
    }

    public StringProperty statusProperty() {
        return status;
    }

    public ReadOnlyObjectProperty<Navigation> navigationProperty() {
        return navigation.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty titleProperty() {
        return title.getReadOnlyProperty();
    }

    /** The tabs beside the map: which is in front, titles, import diagnostics. */
    public SideTabs tabs() {
        return tabs;
    }

    /** Imports, redraws, progress and cancel, and the map's colour mode, collapsed hosts and job. */
    public Loader loader() {
        return loader;
    }

    public SearchViewModel search() {
        return search;
    }

    public InspectorViewModel inspector() {
        return inspector;
    }

    public FindingsViewModel findings() {
        return findings;
    }

    /** The Timeline tab: the incident's events in time order, its root cause, the event selected. */
    public TimelineViewModel timeline() {
        return timeline;
    }

    /** The Job tab: the job's nodes, pods and ranks, and the boxes a finding marks. */
    public JobViewModel job() {
        return job;
    }

    /** The Pairs tab: the pairwise tests' matrices, the one shown, the pair in focus. */
    public PairMatrixViewModel pairs() {
        return pairs;
    }

    /** The Troubleshoot panel: flows walked over the analysis, the one shown, the user's answers. */
    public TroubleshootViewModel troubleshoot() {
        return troubleshoot;
    }

    /** Opens the Troubleshoot panel on a flow (null: "What's wrong?"). */
    public void troubleshoot(String flowId) {
        tabs.selectedProperty().set(SideTabs.Tab.TROUBLESHOOT);
        if (flowId == null) {
            if (troubleshoot.flowIdProperty().get() == null) {
                troubleshoot.whatsWrong();
            }
        } else {
            troubleshoot.open(flowId);
        }
    }

    /**
     * Writes the incident report (HTML when the name ends in .htm or .html, else Markdown) off the UI
     * thread: the findings, the flows as walked with the user's answers, and the map picture when given.
     */
    public void exportReport(Path file, byte[] mapPng) {
        Snapshot s = snapshot.get();
        if (s == null) {
            status.set("Load some inputs first: the report describes what is loaded");
            return;
        }
        var report = new org.fabricscope.app.report.IncidentReport("FabricScope incident report — " + title.get()
                .replaceFirst("^FabricScope — ", ""), s.paths().stream().map(Path::toString).toList(), s.findings(),
                troubleshoot.walked(), mapPng, java.time.Instant.now())
                .withTimeline(org.fabricscope.model.incident.reasoning.IncidentReasoner.of(s.model()));
        String name = file.getFileName() == null ? "" : file.getFileName().toString().toLowerCase(java.util.Locale.ROOT);
        boolean html = name.endsWith(".html") || name.endsWith(".htm");
        executor.execute(org.fabricscope.app.task.BackgroundTask.of(ctx -> {
            var full = report.withPairs(org.fabricscope.model.pairwise.PairMatrices.of(s.model())); // off the UI thread
            byte[] text = (html ? full.html() : full.markdown()).getBytes(java.nio.charset.StandardCharsets.UTF_8);
            org.fabricscope.app.report.OutputFile.write(file, out -> out.write(text)); // whole or not at all
            return file;
        }).onSuccess(f -> status.set("Wrote the incident report to " + f))
                .onFailure(e -> status.set("Could not write " + file + ": " + org.fabricscope.app.report.OutputFile.reason(e)
                        + "; nothing written")));
    }

    /** File › Export picture…: the map as shown, as PNG or SVG. */
    public ExportPictureViewModel pictures() {
        return pictures;
    }

    public ClusterViewModel cluster() {
        return cluster;
    }

    /** The Compare tab: the loaded capture against another. */
    public CompareViewModel compare() {
        return compare;
    }

    public LogConsoleViewModel logs() {
        return logs;
    }

    /** Runs the window's background work (the connect dialog lists contexts through it too). */
    TaskExecutor executor() {
        return executor;
    }

    public LiveJob liveJob() {
        return live.job();
    }

    ConnectDialogViewModel.Choice lastChoice() {
        return live.lastChoice();
    }
}
