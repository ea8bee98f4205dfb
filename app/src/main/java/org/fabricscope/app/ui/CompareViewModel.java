package org.fabricscope.app.ui;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;

import org.fabricscope.app.common.CaptureName;
import org.fabricscope.app.nav.Navigation;
import org.fabricscope.app.nav.SubjectResolver;
import org.fabricscope.app.session.SessionFile;
import org.fabricscope.app.task.BackgroundTask;
import org.fabricscope.app.task.TaskContext;
import org.fabricscope.app.task.TaskExecutor;
import org.fabricscope.importers.FabricImporter;
import org.fabricscope.importers.ImportResult;
import org.fabricscope.importers.ReaderFailure;
import org.fabricscope.importers.core.ImportCancelledException;
import org.fabricscope.model.analysis.Analysis;
import org.fabricscope.model.compare.Comparison;
import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.core.Severity;
import org.fabricscope.model.diagnosis.ErrorThresholds;

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
 * The Compare tab's state and work (File › Compare with capture…): the loaded capture against another one (files,
 * a folder, a bundle or a saved session's inputs), the loaded one being the new side unless {@link #loadedIsOld}.
 * The other capture is read, diagnosed and compared off the UI thread, with progress and cancel; the result is
 * {@link CompareRows} (the tab's tree and the map's marks). A capture that cannot be read is one message naming the
 * file (and the line, where a reader said one); what is loaded is never touched.
 */
public final class CompareViewModel {
    private final MainViewModel main;
    private final TaskExecutor executor;
    private final Dialogs dialogs;
    private final Consumer<Navigation> show;
    private final ObjectProperty<CompareRows> rows = new SimpleObjectProperty<>();
    private final BooleanProperty loadedIsOld = new SimpleBooleanProperty(false);
    private final ReadOnlyBooleanWrapper busy = new ReadOnlyBooleanWrapper();
    private final ReadOnlyDoubleWrapper progress = new ReadOnlyDoubleWrapper(-1);
    private final ReadOnlyStringWrapper heading = new ReadOnlyStringWrapper("");
    private BackgroundTask<Result> running;

    /** A comparison done: the rows and the names of its two sides. */
    record Result(CompareRows rows, String oldName, String newName) {
    }

    CompareViewModel(MainViewModel main, TaskExecutor executor, Dialogs dialogs, Consumer<Navigation> show) {
        this.main = main;
        this.executor = executor;
        this.dialogs = dialogs;
        this.show = show;
    }

    /** Compares the loaded capture with {@code other} (files, a folder, a bundle, or one session file). */
    public void compareWith(List<Path> other) {
        Snapshot loaded = main.snapshot();
        if (loaded == null) {
            dialogs.info("Compare with capture", "Load a capture first: the comparison is between the loaded one and another.");
            return;
        }
        if (running != null) {
            running.cancel();
        }
        boolean loadedOld = loadedIsOld.get();
        busy.set(true);
        progress.set(-1);
        heading.set("Reading " + CaptureName.of(other) + "…");
        BackgroundTask<Result> task = BackgroundTask.of(ctx -> compare(loaded, other, loadedOld, ctx));
        running = task;
        executor.execute(task
                .onProgress((f, m) -> {
                    progress.set(f == null ? -1 : f);
                    if (m != null) {
                        heading.set(m);
                    }
                })
                .onSuccess(r -> {
                    rows.set(r.rows());
                    heading.set("Old: " + r.oldName() + "   New: " + r.newName() + "   " + r.rows().summary());
                    main.statusProperty().set("Compared " + r.oldName() + " (old) with " + r.newName() + " (new): " + r.rows().summary());
                    main.tabs().selectedProperty().set(SideTabs.Tab.COMPARE);
                })
                .onFailure(e -> {
                    String why = e instanceof Unreadable ? e.getMessage() : CaptureName.of(other) + ": " + ReaderFailure.describe(e);
                    heading.set("Not compared: " + why);
                    main.statusProperty().set("Not compared: " + why + "; what is loaded stays");
                    dialogs.error("Compare with capture", "Not compared: " + why + "\n\nWhat is loaded stays as it was.");
                })
                .onCancelled(() -> {
                    if (running == task) { // not when a newer comparison took its place
                        heading.set("Compare cancelled");
                        main.statusProperty().set("Compare cancelled; what is loaded stays");
                    }
                })
                .onFinished(() -> {
                    if (running == task) {
                        running = null;
                        busy.set(false);
                    }
                }));
    }

    /** The other capture had nothing readable: its first problem, naming the file and line. */
    static final class Unreadable extends Exception {
        private static final long serialVersionUID = 1L;

        Unreadable(String why) {
            super(why);
        }
    }

    private static Result compare(Snapshot loaded, List<Path> other, boolean loadedOld, TaskContext ctx) throws Exception {
        List<Path> inputs = sessionSources(other);
        ImportResult r = new FabricImporter().importPaths(inputs, (done, total, what) -> {
            ctx.updateProgress(done, Math.max(1, total));
            ctx.updateMessage("Reading " + what);
        }, ctx::isCancelled);
        if (ctx.isCancelled()) {
            throw new ImportCancelledException();
        }
        if (!r.readAnything()) {
            String why = r.model().diagnostics().stream().filter(d -> d.severity() != Severity.INFO).findFirst()
                    .map(Diagnostic::toString).orElse(CaptureName.of(inputs) + ": no dump FabricScope reads");
            throw new Unreadable("nothing readable in " + CaptureName.of(inputs) + " (" + why + ")");
        }
        ctx.updateMessage("Diagnosing " + CaptureName.of(inputs));
        ErrorThresholds t = r.thresholds() != null ? r.thresholds() : loaded.thresholds();
        Analysis theirs = Analysis.of(r.model(), t);
        Analysis ours = loaded.analysis();
        Analysis before = loadedOld ? ours : theirs;
        Analysis after = loadedOld ? theirs : ours;
        ctx.updateMessage("Comparing");
        Comparison c = Comparison.of(before.model(), before.findings(), after.model(), after.findings());
        String oursName = CaptureName.of(loaded.paths());
        String theirsName = CaptureName.of(inputs);
        return new Result(CompareRows.of(c, before.model(), after.model()), loadedOld ? oursName : theirsName,
                loadedOld ? theirsName : oursName);
    }

    /** A single session file stands for the inputs it names (those that still exist); anything else is itself. */
    static List<Path> sessionSources(List<Path> other) throws Unreadable {
        if (other.size() == 1 && Files.isRegularFile(other.get(0)) && other.get(0).getFileName().toString().endsWith(".json")) {
            try {
                List<Path> in = SessionFile.read(other.get(0)).sources().stream().map(Path::of).filter(Files::exists).toList();
                if (in.isEmpty()) {
                    throw new Unreadable(other.get(0) + ": none of the session's inputs exists here");
                }
                return in;
            } catch (SessionFile.Invalid notASession) {
                return other; // a JSON dump (kubectl get -o json, ...): read as one
            }
        }
        return other;
    }

    /** Stops the comparison under way; what is loaded and the last result stay. */
    public void cancel() {
        if (running != null) {
            running.cancel();
        }
    }

    /** A row selected: its subjects are marked and selected on the map, found by their keys in the loaded capture. */
    public void select(CompareRows.Row row) {
        Snapshot s = main.snapshot();
        if (row == null || s == null || row.subjects().isEmpty()) {
            return;
        }
        Navigation n = new SubjectResolver(s.analysis()).resolveAll(row.subjects());
        if (n.isEmpty()) {
            main.statusProperty().set(row.subject() + " is not in the loaded capture (it is only in the other one)");
            return;
        }
        show.accept(n);
    }

    /** The loaded capture changed: the comparison named the old one, so it goes. */
    void loadedChanged() {
        if (rows.get() != null) {
            rows.set(null);
            heading.set("Another capture was loaded: compare again (File › Compare with capture…)");
        }
    }

    /** Clears the result and the map's marks. */
    public void clear() {
        rows.set(null);
        heading.set("");
    }

    public ObjectProperty<CompareRows> rowsProperty() {
        return rows;
    }

    /** Whether the loaded capture is the old side (the other the new); false: the loaded one is new. */
    public BooleanProperty loadedIsOldProperty() {
        return loadedIsOld;
    }

    public ReadOnlyBooleanProperty busyProperty() {
        return busy.getReadOnlyProperty();
    }

    public ReadOnlyDoubleProperty progressProperty() {
        return progress.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty headingProperty() {
        return heading.getReadOnlyProperty();
    }
}
