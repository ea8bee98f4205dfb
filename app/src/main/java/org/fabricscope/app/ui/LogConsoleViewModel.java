package org.fabricscope.app.ui;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

import org.fabricscope.app.ui.LogConsole.Line;
import org.fabricscope.importers.kube.LogLine;
import org.fabricscope.model.core.Subject;

import javafx.beans.property.BooleanProperty;
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

    private final Executor uiThread;
    private final ConcurrentLinkedQueue<Line> waiting = new ConcurrentLinkedQueue<>();
    private final AtomicInteger waitingCount = new AtomicInteger();
    private final AtomicBoolean drainRequested = new AtomicBoolean();
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

    LogConsoleViewModel(Executor uiThread) {
        this.uiThread = uiThread;
        pod.addListener((o, a, b) -> refilter());
        level.addListener((o, a, b) -> refilter());
        rank.addListener((o, a, b) -> refilter());
        text.addListener((o, a, b) -> refilter());
    }

    /** Live log lines (any thread): queued for the next frame; the first batch starts the draining. */
    void offer(List<LogLine> batch) {
        for (LogLine l : batch) {
            waiting.add(Line.of(l));
        }
        int over = waitingCount.addAndGet(batch.size()) - MAX_LINES;
        for (int i = 0; i < over && waiting.poll() != null; i++) {
            waitingCount.decrementAndGet();
        }
        if (drainRequested.compareAndSet(false, true)) {
            uiThread.execute(() -> draining.set(true));
        }
    }

    /** Takes the waiting lines (UI thread, once per frame) into the console; false when none waited. */
    public boolean drain() {
        if (waiting.isEmpty()) {
            return false;
        }
        List<Line> batch = new ArrayList<>();
        Line l;
        while (batch.size() < MAX_BATCH && (l = waiting.poll()) != null) {
            batch.add(l);
        }
        waitingCount.addAndGet(-batch.size());
        append(batch);
        return true;
    }

    /** The live job stopped: the view stops taking lines each frame. */
    void stopDraining() {
        drainRequested.set(false);
        draining.set(false);
    }

    /** Lines waiting for the next frame. */
    public int waitingCount() {
        return waitingCount.get();
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
        count.set(lines.size() + " lines kept" + (dropped > 0 ? ", " + dropped + " older dropped" : "")
                + (shown.size() >= MAX_ROWS ? "; the newest " + MAX_ROWS + " matches listed" : ""));
    }

    public void clear() {
        lines.clear();
        shown.clear();
        dropped = 0;
        count.set("0 lines");
    }

    private void refilter() {
        String p = pod.get();
        String lv = level.get();
        int r;
        try {
            r = rank.get().isBlank() ? -2 : Integer.parseInt(rank.get().strip());
        } catch (NumberFormatException e) {
            r = -3; // matches nothing: the field is flagged
        }
        rankInvalid.set(r == -3);
        String needle = text.get().toLowerCase(Locale.ROOT);
        int wantRank = r;
        Predicate<Line> f = l -> (p == null || p.equals(ALL_PODS) || p.equals(l.pod()))
                && (wantRank == -2 || l.rank() == wantRank)
                && switch (lv == null ? "" : lv) {
                    case "NCCL lines" -> l.level() != Line.Level.OTHER || l.text().contains("NCCL");
                    case "warnings and errors" -> l.level() == Line.Level.WARN || l.level() == Line.Level.ERROR;
                    case "errors" -> l.level() == Line.Level.ERROR;
                    default -> true;
                }
                && (needle.isEmpty() || l.text().toLowerCase(Locale.ROOT).contains(needle));
        filter = f;
        ArrayDeque<Line> pass = new ArrayDeque<>();
        for (Iterator<Line> it = lines.descendingIterator(); it.hasNext() && pass.size() < MAX_ROWS; ) {
            Line l = it.next();
            if (f.test(l)) {
                pass.addFirst(l);
            }
        }
        shown.setAll(pass);
    }

    /**
     * Selects the kept line an evidence cites ({@code .../pods/<pod>/<container>}, 1-based line),
     * clearing the filters when they hide it. False when the console does not hold it.
     */
    public boolean reveal(Subject.LineRef ref) {
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
