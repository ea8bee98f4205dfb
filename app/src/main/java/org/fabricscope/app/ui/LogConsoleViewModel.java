package org.fabricscope.app.ui;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.Executor;
import java.util.function.Predicate;

import org.fabricscope.app.logs.LogFile;
import org.fabricscope.app.task.BackgroundTask;
import org.fabricscope.app.task.TaskExecutor;
import org.fabricscope.app.ui.LogConsole.Line;
import org.fabricscope.app.live.source.LogLine;
import org.fabricscope.model.core.Subject;

import javafx.beans.property.BooleanProperty;
import javafx.beans.property.IntegerProperty;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.SimpleIntegerProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * The log console's state: pods' lines arrive on any thread into a bounded queue ({@link #offer});
 * the view takes them once per frame ({@link #drain}) into the kept lines, the newest
 * {@value #MAX_LINES}; the rows shown are the newest {@value #MAX_ROWS} that pass the pod, level, rank
 * and text filters. If the UI falls behind, the oldest waiting lines are skipped for display only
 * (the live job's parser has them all).
 *
 * <p>The source picker also lists the loaded log files ({@link #setFiles}: NCCL/PyTorch logs,
 * nccl-tests output, other {@code *.log} inputs). A file is read on a background task into a
 * {@link LogFile} (a mapping and a sparse line index, never a list of strings) and shown as
 * {@link LogFileRows}, all of its lines; the level, rank and text filters scan it on a background
 * task into the matching line numbers (at most {@value #MAX_FILE_MATCHES}). An evidence line of a
 * loaded file ({@link #reveal}) picks the file and selects that line.
 */
public final class LogConsoleViewModel {
    public static final int MAX_LINES = 200_000;
    /**
     * Rows in the list at most: the newest lines that pass the filters. JavaFX's virtual flow sums
     * its row sizes on each layout, so a list of all 200,000 lines would cost milliseconds a frame;
     * the filters search all the kept lines.
     */
    public static final int MAX_ROWS = 20_000;
    public static final String ALL_PODS = "all pods";
    public static final List<String> LEVELS = List.of("all lines", "NCCL lines", "warnings and errors", "errors");
    private static final int MAX_BATCH = 50_000;
    /** The source that shows the live pods' lines. */
    public static final String LIVE = "live pod logs";
    /** The most filter matches listed for one file (an int each). */
    public static final int MAX_FILE_MATCHES = 2_000_000;
    private static final int OPEN_FILES = 8;

    private final Executor uiThread;
    private final LiveLineQueue waiting = new LiveLineQueue(MAX_LINES);
    private final ReadOnlyBooleanWrapper draining = new ReadOnlyBooleanWrapper();
    /** Every line kept (the newest MAX_LINES), oldest first. Not observed: only {@link #shown} is. */
    private final ArrayDeque<Line> lines = new ArrayDeque<>();
    /** The lines passing the filters, oldest first; a plain list, so appending and trimming are array copies. */
    private final ObservableList<Line> shown = FXCollections.observableArrayList();
    private final ObservableList<String> podChoices = FXCollections.observableArrayList(ALL_PODS);
    private final TreeSet<String> pods = new TreeSet<>();
    private final StringProperty pod = new SimpleStringProperty(ALL_PODS);
    private final StringProperty level = new SimpleStringProperty(LEVELS.get(0));
    private final StringProperty rank = new SimpleStringProperty("");
    private final StringProperty text = new SimpleStringProperty("");
    private final BooleanProperty follow = new SimpleBooleanProperty(true);
    private final ReadOnlyBooleanWrapper rankInvalid = new ReadOnlyBooleanWrapper();
    private final ReadOnlyStringWrapper count = new ReadOnlyStringWrapper("0 lines");
    private final ObjectProperty<Line> selected = new SimpleObjectProperty<>();
    private Predicate<Line> filter = l -> true;
    private long dropped;
    private final ObservableList<String> sources = FXCollections.observableArrayList(LIVE);
    private final StringProperty source = new SimpleStringProperty(LIVE);
    private final ReadOnlyObjectWrapper<ObservableList<Line>> rows = new ReadOnlyObjectWrapper<>(shown);
    private final ReadOnlyBooleanWrapper fileMode = new ReadOnlyBooleanWrapper();
    private final IntegerProperty selectedRow = new SimpleIntegerProperty(-1);
    /** Files read, the most recently used last; a few stay open so switching back is instant. */
    private final Map<String, LogFile> files = new LinkedHashMap<>(OPEN_FILES, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, LogFile> e) {
            return size() > OPEN_FILES;
        }
    };
    private final TaskExecutor executor;
    private BackgroundTask<?> fileTask;
    private long fileGeneration;
    /** A 1-based line of the shown file to select once it is read and filtered; -1 none. */
    private int pendingLine = -1;
    private String liveCount = "0 lines";
    private boolean clearingFilters;

    LogConsoleViewModel(Executor uiThread) {
        this(uiThread, null);
    }

    /** {@code executor} reads and filters log files off the UI thread (null: only live lines). */
    LogConsoleViewModel(Executor uiThread, TaskExecutor executor) {
        this.uiThread = uiThread;
        this.executor = executor;
        pod.addListener((o, a, b) -> refilter());
        level.addListener((o, a, b) -> refilter());
        rank.addListener((o, a, b) -> refilter());
        text.addListener((o, a, b) -> refilter());
        source.addListener((o, a, b) -> sourceChanged());
    }

    /**
     * The inputs that are logs, by the format each was read as: NCCL/PyTorch logs, nccl-tests and
     * perftest output, and unrecognised inputs named {@code *.log}, {@code *.out} or {@code *.err}.
     */
    static List<String> logSources(Map<String, String> formats) {
        List<String> out = new ArrayList<>();
        formats.forEach((name, format) -> {
            String lower = name.toLowerCase(Locale.ROOT);
            if ("nccl-log".equals(format) || "nccl-tests".equals(format) || "perftest".equals(format) || ("unknown".equals(format)
                    && (lower.endsWith(".log") || lower.endsWith(".out") || lower.endsWith(".err")))) {
                out.add(name);
            }
        });
        return out;
    }

    /** The loaded log files (a new load): the picker lists them after the live source; what was read is read again. */
    void setFiles(List<String> names) {
        files.clear();
        sources.setAll(LIVE);
        sources.addAll(names);
        if (!sources.contains(source.get())) {
            source.set(LIVE);
        } else if (fileMode.get()) {
            sourceChanged();
        }
    }

    private void sourceChanged() {
        String name = source.get();
        if (fileTask != null) {
            fileTask.cancel();
        }
        fileGeneration++;
        if (name == null || name.equals(LIVE) || executor == null) {
            fileMode.set(false);
            rows.set(shown);
            count.set(liveCount);
            return;
        }
        fileMode.set(true);
        selectedRow.set(-1);
        LogFile f = files.get(name);
        if (f != null) {
            showFile(f);
            return;
        }
        rows.set(FXCollections.observableArrayList());
        count.set("Reading " + name + "…");
        long gen = fileGeneration;
        fileTask = executor.execute(BackgroundTask.of(ctx -> LogFile.load(name, ctx::isCancelled))
                .onSuccess(file -> {
                    files.put(name, file);
                    if (gen == fileGeneration) {
                        showFile(file);
                    }
                })
                .onFailure(e -> {
                    if (gen == fileGeneration) {
                        count.set("Cannot show " + name + ": " + (e instanceof java.nio.file.NoSuchFileException n
                                ? (n.getReason() == null ? "no such file" : n.getReason()) : e.getMessage()));
                    }
                }));
    }

    private boolean filtersActive() {
        return !(level.get() == null || level.get().equals(LEVELS.get(0))) || !rank.get().isBlank() || !text.get().isEmpty();
    }

    /** Shows a read file: every line, or (filters set) the lines a background scan matches. */
    private void showFile(LogFile f) {
        long gen = ++fileGeneration;
        if (!filtersActive()) {
            setFileRows(new LogFileRows(f, null, 0), f.lineCount() + " lines · " + f.source());
            return;
        }
        Predicate<Line> match = buildFilter(true);
        count.set("Filtering " + f.lineCount() + " lines…");
        String name = LogFileRows.nameOf(f.source());
        fileTask = executor.execute(BackgroundTask.of(ctx -> {
            int[][] found = {new int[1024]};
            int[] n = {0};
            f.forEach((i, t) -> {
                if (match.test(Line.ofFile(name, i + 1, t))) {
                    if (n[0] == found[0].length) {
                        found[0] = java.util.Arrays.copyOf(found[0], found[0].length * 2);
                    }
                    found[0][n[0]++] = i;
                }
                return n[0] < MAX_FILE_MATCHES;
            }, ctx::isCancelled);
            return new LogFileRows(f, found[0], n[0]);
        }).onSuccess(r -> {
            if (gen == fileGeneration) {
                setFileRows(r, r.size() + " of " + f.lineCount() + " lines match"
                        + (r.size() >= MAX_FILE_MATCHES ? " (the first " + MAX_FILE_MATCHES + " listed)" : "")
                        + " · " + f.source());
            }
        }));
    }

    private void setFileRows(LogFileRows r, String what) {
        String note = r.file().note();
        rows.set(r);
        count.set(what + (note.isEmpty() ? "" : "; " + note));
        if (pendingLine > 0) {
            int row = r.rowOf(pendingLine);
            if (row < 0 && filtersActive()) {
                clearFilters(); // the filters hide the cited line: show it
                return;
            }
            pendingLine = -1;
            selectedRow.set(-1);
            selectedRow.set(row);
        }
    }

    private void clearFilters() {
        clearingFilters = true;
        try {
            pod.set(ALL_PODS);
            level.set(LEVELS.get(0));
            rank.set("");
            text.set("");
        } finally {
            clearingFilters = false;
        }
        refilter();
    }

    /** Live log lines (any thread): queued for the next frame; the first batch starts the draining. */
    void offer(List<LogLine> batch) {
        if (waiting.offer(batch)) {
            uiThread.execute(() -> draining.set(true));
        }
    }

    /** Takes the waiting lines (UI thread, once per frame) into the console; false when none waited. */
    public boolean drain() {
        List<Line> batch = waiting.take(MAX_BATCH);
        if (batch.isEmpty()) {
            return false;
        }
        append(batch);
        return true;
    }

    /** The live job stopped: the view stops taking lines each frame. */
    void stopDraining() {
        waiting.stop();
        draining.set(false);
    }

    /** Lines waiting for the next frame. */
    public int waitingCount() {
        return waiting.size();
    }

    /** Adds a batch of lines (UI thread); drops the oldest beyond {@link #MAX_LINES}. */
    public void append(Collection<Line> batch) {
        if (batch.isEmpty()) {
            return;
        }
        List<Line> add = new ArrayList<>(batch);
        if (add.size() > MAX_LINES) {
            dropped += add.size() - MAX_LINES;
            add = add.subList(add.size() - MAX_LINES, add.size());
        }
        List<Line> pass = new ArrayList<>();
        List<String> newPods = new ArrayList<>();
        for (Line l : add) {
            if (pods.add(l.pod())) {
                newPods.add(l.pod());
            }
            lines.addLast(l);
            if (filter.test(l)) {
                pass.add(l);
            }
        }
        while (lines.size() > MAX_LINES) {
            lines.removeFirst();
            dropped++;
        }
        shown.addAll(pass);
        // ObservableList removes a range one element at a time (an array copy each), so the shown
        // list is trimmed in one go when it is a quarter over the limit: amortised, one copy per
        // MAX_ROWS / 4 lines
        if (shown.size() > MAX_ROWS + MAX_ROWS / 4) {
            shown.setAll(new ArrayList<>(shown.subList(shown.size() - MAX_ROWS, shown.size())));
        }
        if (!newPods.isEmpty()) {
            podChoices.addAll(newPods); // one change for the batch
        }
        liveCount = lines.size() + " lines kept" + (dropped > 0 ? ", " + dropped + " older dropped" : "")
                + (shown.size() >= MAX_ROWS ? "; the newest " + MAX_ROWS + " matches listed" : "");
        if (!fileMode.get()) {
            count.set(liveCount);
        }
    }

    public void clear() {
        lines.clear();
        shown.clear();
        dropped = 0;
        liveCount = "0 lines";
        if (!fileMode.get()) {
            count.set(liveCount);
        }
    }

    private void refilter() {
        if (clearingFilters) {
            return;
        }
        Predicate<Line> f = buildFilter(false);
        filter = f;
        ArrayDeque<Line> pass = new ArrayDeque<>();
        for (Iterator<Line> it = lines.descendingIterator(); it.hasNext() && pass.size() < MAX_ROWS; ) {
            Line l = it.next();
            if (f.test(l)) {
                pass.addFirst(l);
            }
        }
        shown.setAll(pass);
        if (fileMode.get()) {
            LogFile file = files.get(source.get());
            if (file != null) {
                if (fileTask != null) {
                    fileTask.cancel();
                }
                showFile(file);
            }
        }
    }

    /** The filters as a test; {@code forFile}: a file's lines, where the pod filter does not apply. */
    private Predicate<Line> buildFilter(boolean forFile) {
        LogLineFilter f = LogLineFilter.of(forFile ? ALL_PODS : pod.get(), level.get(), rank.get(), text.get());
        rankInvalid.set(f.rankInvalid());
        return f.test();
    }

    /**
     * Selects the kept line an evidence cites ({@code .../pods/<pod>/<container>}, 1-based line),
     * clearing the filters when they hide it; or, for a line of a loaded log file, picks the file and
     * selects the line once it is read (clearing the filters if they hide it). False when the console
     * holds neither.
     */
    public boolean reveal(Subject.LineRef ref) {
        if (revealLive(ref)) {
            if (fileMode.get()) {
                Line l = selected.get();
                source.set(LIVE); // the live rows are shown again: select the line among them
                selected.set(null);
                selected.set(l);
            }
            return true;
        }
        if (executor == null || !sources.contains(ref.source()) || LIVE.equals(ref.source())) {
            return false;
        }
        pendingLine = Math.max(1, ref.line());
        if (ref.source().equals(source.get()) && rows.get() instanceof LogFileRows r) {
            setFileRows(r, count.get());
        } else {
            source.set(ref.source()); // read, then the pending line is selected
        }
        return true;
    }

    private boolean revealLive(Subject.LineRef ref) {
        for (Iterator<Line> it = lines.descendingIterator(); it.hasNext(); ) {
            Line l = it.next();
            if (l.container() != null && l.number() == ref.line() && (ref.source().equals(l.source())
                    || ref.source().endsWith("/" + l.source()))) {
                if (!filter.test(l)) {
                    pod.set(ALL_PODS);
                    level.set(LEVELS.get(0));
                    rank.set("");
                    text.set("");
                }
                selected.set(l);
                return true;
            }
        }
        return false;
    }

    public ObservableList<Line> shown() {
        return shown;
    }

    /** The rows the list shows: the live lines, or the picked file's (all, or the filter's matches). */
    public ReadOnlyObjectProperty<ObservableList<Line>> rowsProperty() {
        return rows.getReadOnlyProperty();
    }

    /** The live source and the loaded log files. */
    public ObservableList<String> sources() {
        return sources;
    }

    /** The picked source: {@link #LIVE} or a log file's name as it was loaded. */
    public StringProperty sourceProperty() {
        return source;
    }

    /** Whether a file is shown (the pod filter and follow do not apply). */
    public ReadOnlyBooleanProperty fileModeProperty() {
        return fileMode.getReadOnlyProperty();
    }

    /** The row of a file to select and scroll to (an evidence line), -1 for none; set again to move again. */
    public IntegerProperty selectedRowProperty() {
        return selectedRow;
    }

    public int size() {
        return lines.size();
    }

    public ReadOnlyBooleanProperty drainingProperty() {
        return draining.getReadOnlyProperty();
    }

    public ObservableList<String> podChoices() {
        return podChoices;
    }

    public StringProperty podProperty() {
        return pod;
    }

    public StringProperty levelProperty() {
        return level;
    }

    public StringProperty rankProperty() {
        return rank;
    }

    public StringProperty textProperty() {
        return text;
    }

    public BooleanProperty followProperty() {
        return follow;
    }

    public ReadOnlyBooleanProperty rankInvalidProperty() {
        return rankInvalid.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty countProperty() {
        return count.getReadOnlyProperty();
    }

    /** The line a finding's evidence points at, or null. */
    public ObjectProperty<Line> selectedProperty() {
        return selected;
    }
}
