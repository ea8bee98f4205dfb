package org.fabricscope.app.ui;

import org.fabricscope.app.render.ColourMode;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.BiConsumer;

import org.fabricscope.app.task.BackgroundTask;
import org.fabricscope.app.task.TaskContext;
import org.fabricscope.app.task.TaskExecutor;
import org.fabricscope.importers.FabricImporter;
import org.fabricscope.importers.core.ImportCancelledException;
import org.fabricscope.importers.ImportResult;
import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.core.Vertex;
import org.fabricscope.model.fabric.FabricNode;
import org.fabricscope.model.fabric.Host;

import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyDoubleProperty;
import javafx.beans.property.ReadOnlyDoubleWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleObjectProperty;

/**
 * The main view model's background work and map style: imports, redraws (colour mode, collapsed
 * hosts, the picked job) and live rebuilds, each building a {@link Snapshot} off the UI thread
 * through the {@link TaskExecutor}; one import or redraw at a time (a new one cancels the last), with
 * progress and cancel. Results go to {@link MainViewModel#apply}.
 */
public final class Loader {
    /** How the map is drawn; what a background rebuild of a live model needs of the window. */
    private record Style(ColourMode mode, Set<String> collapsed, boolean collapseAll, String job) {
    }

    private final MainViewModel main;
    private final TaskExecutor executor;
    private final Dialogs dialogs;
    private final ReadOnlyDoubleWrapper progress = new ReadOnlyDoubleWrapper(-1);
    private final ReadOnlyBooleanWrapper busy = new ReadOnlyBooleanWrapper();
    private final ObjectProperty<ColourMode> colourMode = new SimpleObjectProperty<>(ColourMode.ERRORS);
    private final BooleanProperty collapseAll = new SimpleBooleanProperty();
    private final ReadOnlyStringWrapper job = new ReadOnlyStringWrapper();
    private final Set<String> collapsed = new HashSet<>();
    /** The style live rebuilds draw with: written on the UI thread when the style changes, read by the live job's thread. */
    private static final Style DEFAULT_STYLE = new Style(ColourMode.ERRORS, Set.of(), false, null);
    private volatile Style published = DEFAULT_STYLE;
    private BackgroundTask<?> running;

    Loader(MainViewModel main, TaskExecutor executor, Dialogs dialogs) {
        this.main = main;
        this.executor = executor;
        this.dialogs = dialogs;
        colourMode.addListener((o, a, b) -> restyle());
        collapseAll.addListener((o, a, b) -> restyle());
    }

    private Style style() {
        return new Style(colourMode.get(), Set.copyOf(collapsed), collapseAll.get(), job.get());
    }

    /** Imports in the background; {@code add} merges with what is loaded, then finds {@code find} when not null. */
    void open(List<Path> paths, boolean add, String find) {
        List<Path> all = new ArrayList<>();
        if (add && main.snapshot() != null) {
            all.addAll(main.snapshot().paths());
        }
        all.addAll(paths);
        Style st = style();
        EarlyImport early = EarlyImport.take(all);
        BackgroundTask.Work<Snapshot> work;
        if (early != null && st.equals(DEFAULT_STYLE)) {
            work = early::await; // started at launch, before the window: wait for it here
        } else {
            if (early != null) {
                early.cancel();
            }
            work = ctx -> importAndBuild(all, st, ctx);
        }
        start(BackgroundTask.of(work).onSuccess(s -> loaded(s, paths, find))
                .onCancelled(() -> main.statusProperty().set("Import cancelled; kept what was loaded"))
                .onFailure(e -> {
                    main.statusProperty().set("Import failed; kept what was loaded");
                    dialogs.error("Import failed", e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage());
                }));
    }

    /**
     * Past this many bytes of input the import is not started before the window (the system property
     * {@code fabricscope.earlyImportMaxBytes} overrides it, for benchmarks). With the launcher's C1-only
     * JIT and class-data archive for such inputs, ten times Selene (27 MB) gets its map 0.8 s sooner
     * started early, for a window 1.2 s later; past 64 MiB (a thousand flight recorder dumps) the
     * launcher keeps C2 and the import would only hold the window back on two cores (BENCHMARKS.md).
     */
    static final long EARLY_IMPORT_MAX_BYTES = Long.getLong("fabricscope.earlyImportMaxBytes", 64L << 20);

    /**
     * Starts importing the paths named at launch before the window exists (on a thread of its own, in the
     * default style); the window's first {@link #open} of the same paths takes it over. Only for inputs
     * up to {@link #EARLY_IMPORT_MAX_BYTES}; returns whether it started.
     */
    static boolean openEarly(List<Path> paths) {
        if (paths.isEmpty() || bytesUpTo(paths, EARLY_IMPORT_MAX_BYTES + 1) > EARLY_IMPORT_MAX_BYTES) {
            return false;
        }
        List<Path> all = List.copyOf(paths);
        EarlyImport.start(all, ctx -> importAndBuild(all, DEFAULT_STYLE, ctx));
        return true;
    }

    /** The size of the files under {@code paths}, counted until it passes {@code stop}; unreadable ones count 0. */
    static long bytesUpTo(List<Path> paths, long stop) {
        long total = 0;
        for (Path p : paths) {
            if (java.nio.file.Files.isDirectory(p)) {
                try (java.util.stream.Stream<Path> s = java.nio.file.Files.walk(p, 16)) {
                    java.util.Iterator<Path> it = s.iterator();
                    while (it.hasNext() && total < stop) {
                        Path f = it.next();
                        if (java.nio.file.Files.isRegularFile(f)) {
                            total += size(f);
                        }
                    }
                } catch (java.io.IOException | java.io.UncheckedIOException e) {
                    // unreadable: the import will say so
                }
            } else {
                total += size(p);
            }
            if (total >= stop) {
                return total;
            }
        }
        return total;
    }

    private static long size(Path f) {
        try {
            return java.nio.file.Files.size(f);
        } catch (java.io.IOException e) {
            return 0;
        }
    }

    /** Reads, checks and lays out {@code all}: the whole of an import, off the UI thread. */
    private static Snapshot importAndBuild(List<Path> all, Style st, TaskContext ctx) {
        ctx.updateMessage("Reading " + all);
        ImportResult r = new FabricImporter().importPaths(all, (done, total, what) -> {
            ctx.updateProgress(done, Math.max(1, total));
            ctx.updateMessage("Reading " + what);
        }, ctx::isCancelled);
        if (ctx.isCancelled()) {
            throw new ImportCancelledException();
        }
        ctx.updateMessage("Checking and laying out " + r.model().nodes().size() + " nodes");
        return Snapshot.build(all, r, st.mode(), st.collapsed(), st.collapseAll(), st.job());
    }

    private void loaded(Snapshot s, List<Path> paths, String find) {
        if (!s.result().readAnything()) {
            main.tabs().showImported(s.model().diagnostics());
            main.statusProperty().set("Nothing readable in " + paths + "; kept what was loaded");
            dialogs.error("Nothing to import", "None of " + paths + " is a fabric dump FabricScope reads.\n\n"
                    + s.model().diagnostics().stream().limit(8).map(Diagnostic::toString).reduce("", (x, y) -> x + y + "\n"));
            return;
        }
        main.apply(s, true);
        main.opened(s.paths());
        if (find != null && !find.isBlank()) {
            main.search().textProperty().set(find);
            main.search().search();
        }
    }

    /** Cancels the running import or redraw; what is loaded stays. */
    public void cancel() {
        if (running != null) {
            running.cancel();
        }
    }

    private void start(BackgroundTask<?> task) {
        if (running != null) {
            running.cancel();
        }
        running = task;
        busy.set(true);
        progress.set(-1);
        task.onProgress((f, m) -> {
            progress.set(f);
            if (m != null) {
                main.statusProperty().set(m);
            }
        }).onFinished(() -> {
            if (running == task) {
                running = null;
                busy.set(false);
            }
        });
        executor.execute(task);
    }

    /** Draws the same data with the current colour mode, collapsed hosts and job, in the background. */
    void restyle() {
        published = style();
        Snapshot current = main.snapshot();
        if (current == null) {
            return;
        }
        Style st = published;
        start(BackgroundTask.of(ctx -> {
            ctx.updateMessage("Redrawing");
            return current.restyle(st.mode(), st.collapsed(), st.collapseAll(), st.job());
        }).onSuccess(s -> main.apply(s, false)));
    }

    /** Before a live job starts: its rebuilds draw with the style now. */
    void publish() {
        published = style();
    }

    /**
     * A live rebuild (the live job's thread): layout and colours here, only the swap on the UI thread,
     * {@code swap} called with the snapshot there; redrawn if the style changed meanwhile.
     */
    void liveModel(List<Path> files, ImportResult result, BiConsumer<Snapshot, Runnable> swap) {
        Style st = published;
        Snapshot s = Snapshot.build(files, result, st.mode(), st.collapsed(), st.collapseAll(), st.job());
        executor.uiThread().execute(() -> swap.accept(s, () -> {
            if (!style().equals(st)) {
                restyle();
            }
        }));
    }

    /** Whether an import or redraw is running (its messages own the status line). */
    boolean isRunning() {
        return running != null;
    }

    /** Collapses or expands the host of the selected HCA or host. */
    void toggleHost(Vertex selection) {
        Host h = selection instanceof Host host ? host : selection instanceof FabricNode n ? n.host() : null;
        if (h == null) {
            main.statusProperty().set("Select an HCA or host first");
            return;
        }
        if (!collapsed.remove(h.name())) {
            collapsed.add(h.name());
        }
        restyle();
    }

    /** The Kubernetes colours pick out this training job ({@code namespace/name}), or all jobs (null). */
    void showJob(String key) {
        job.set(key);
        if (colourMode.get() != ColourMode.KUBERNETES) {
            colourMode.set(ColourMode.KUBERNETES); // restyles
        } else {
            restyle();
        }
    }

    public ReadOnlyDoubleProperty progressProperty() {
        return progress.getReadOnlyProperty();
    }

    public ReadOnlyBooleanProperty busyProperty() {
        return busy.getReadOnlyProperty();
    }

    public ObjectProperty<ColourMode> colourModeProperty() {
        return colourMode;
    }

    public BooleanProperty collapseAllProperty() {
        return collapseAll;
    }

    /** The training job the Kubernetes colours pick out ({@code namespace/name}), or null for all. */
    public ReadOnlyStringProperty jobProperty() {
        return job.getReadOnlyProperty();
    }
}
