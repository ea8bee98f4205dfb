package org.fabricscope.app.ui;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;
import java.util.function.Predicate;

import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import javafx.scene.control.Button;
import javafx.scene.control.ChoiceBox;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.scene.control.TextField;
import javafx.scene.control.ToggleButton;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;

/**
 * A console of log lines streamed from pods: filters by pod, rank and level, NCCL lines
 * highlighted, follow-the-tail on by default. Lines arrive in batches on the FX thread (at most one
 * batch per frame, see {@link #append(Collection)}); the buffer keeps the newest
 * {@value #MAX_LINES} lines, so a long job cannot exhaust memory.
 */
public final class LogConsole extends VBox {
    public static final int MAX_LINES = 200_000;
    /**
     * Rows in the list at most: the newest lines that pass the filters. JavaFX's virtual flow sums
     * its row sizes on each layout, so a list of all 200,000 lines would cost milliseconds a frame;
     * the filters search all the kept lines.
     */
    public static final int MAX_ROWS = 20_000;

    /** One line of one pod's log. {@code rank} is -1 when the line names none. */
    public record Line(String pod, String text, int rank, Level level) {
        public enum Level { ERROR, WARN, NCCL, OTHER }

        /** Classifies a raw line: NCCL WARN / PyTorch [E…] / error words, NCCL INFO, anything else. */
        public static Line of(String pod, String text) {
            return new Line(pod, text, rankOf(text), levelOf(text));
        }

        static Level levelOf(String t) {
            if (t.contains(" NCCL WARN ") || t.contains("]:[E") || t.startsWith("[E") || t.contains("Error")
                    || t.contains("exitcode") || t.contains("Watchdog caught")) {
                return t.contains(" NCCL WARN ") && !t.contains("failed") && !t.contains("completion")
                        && !t.contains("closed") ? Level.WARN : Level.ERROR;
            }
            return t.contains(" NCCL INFO ") ? Level.NCCL : Level.OTHER;
        }

        /** The rank a line names: PyTorch's {@code [rankN]:} / {@code [Rank N]} or NCCL's {@code rank N nranks}. */
        static int rankOf(String t) {
            int at = t.indexOf("[rank");
            int from = at >= 0 ? at + 5 : -1;
            if (from < 0 && (at = t.indexOf("[Rank ")) >= 0) {
                from = at + 6;
            }
            if (from < 0 && (at = t.indexOf(" rank ")) >= 0 && t.indexOf(" nranks ", at) > 0) {
                from = at + 6;
            }
            if (from < 0) {
                return -1;
            }
            int r = 0;
            int i = from;
            while (i < t.length() && Character.isDigit(t.charAt(i)) && i - from < 7) {
                r = r * 10 + (t.charAt(i++) - '0');
            }
            return i == from ? -1 : r;
        }
    }

    /** Every line kept (the newest MAX_LINES), oldest first. Not observed: only {@link #shown} is. */
    private final ArrayDeque<Line> lines = new ArrayDeque<>();
    /** The lines passing the filters, oldest first; a plain list, so appending and trimming are array copies. */
    private final ObservableList<Line> shown = FXCollections.observableArrayList();
    private final ListView<Line> view = new ListView<>(shown);
    private Predicate<Line> filter = l -> true;
    private final ComboBox<String> pod = new ComboBox<>(); // virtualised popup: a job may have thousands of pods
    private final ChoiceBox<String> level = new ChoiceBox<>();
    private final TextField rank = new TextField();
    private final TextField text = new TextField();
    private final ToggleButton follow = new ToggleButton("Follow");
    private final Label count = new Label("0 lines");
    private final TreeSet<String> pods = new TreeSet<>();
    private long dropped;

    public LogConsole() {
        setSpacing(4);
        view.setId("logConsole");
        // one line per row at a fixed height: the virtual flow then never measures rows, which with
        // 200,000 of them would cost every frame
        view.setFixedCellSize(20);
        view.setPlaceholder(new Label("Connect to a cluster (Ctrl+K) and follow a job's logs"));
        view.setCellFactory(lv -> new ListCell<>() {
            @Override
            protected void updateItem(Line l, boolean empty) {
                super.updateItem(l, empty);
                getStyleClass().removeAll("log-error", "log-warn", "log-nccl");
                if (empty || l == null) {
                    setText(null);
                    return;
                }
                setText(l.pod() + " │ " + l.text());
                switch (l.level()) {
                    case ERROR -> getStyleClass().add("log-error");
                    case WARN -> getStyleClass().add("log-warn");
                    case NCCL -> getStyleClass().add("log-nccl");
                    default -> { }
                }
            }
        });
        pod.getItems().add("all pods");
        pod.setValue("all pods");
        pod.setId("logPod");
        level.getItems().addAll("all lines", "NCCL lines", "warnings and errors", "errors");
        level.setValue("all lines");
        level.setId("logLevel");
        rank.setPromptText("rank");
        rank.setPrefColumnCount(4);
        rank.setId("logRank");
        text.setPromptText("contains…");
        text.setId("logText");
        follow.setSelected(true);
        follow.setTooltip(new Tooltip("Keep the newest line in view"));
        Button clear = new Button("Clear");
        clear.setOnAction(e -> clear());
        pod.valueProperty().addListener((o, a, b) -> refilter());
        level.valueProperty().addListener((o, a, b) -> refilter());
        rank.textProperty().addListener((o, a, b) -> refilter());
        text.textProperty().addListener((o, a, b) -> refilter());
        HBox bar = new HBox(6, pod, level, rank, text, follow, clear, count);
        HBox.setHgrow(text, Priority.ALWAYS);
        VBox.setVgrow(view, Priority.ALWAYS);
        getChildren().addAll(bar, view);
    }

    /** Adds a batch of lines (FX thread); drops the oldest beyond {@link #MAX_LINES}. */
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
            pod.getItems().addAll(newPods); // one change for the batch
        }
        count.setText(lines.size() + " lines kept" + (dropped > 0 ? ", " + dropped + " older dropped" : "")
                + (shown.size() >= MAX_ROWS ? "; the newest " + MAX_ROWS + " matches listed" : ""));
        if (follow.isSelected() && !shown.isEmpty()) {
            view.scrollTo(shown.size() - 1);
        }
    }

    public void clear() {
        lines.clear();
        shown.clear();
        dropped = 0;
        count.setText("0 lines");
    }

    private void refilter() {
        String p = pod.getValue();
        String lv = level.getValue();
        int r = -2;
        try {
            r = rank.getText().isBlank() ? -2 : Integer.parseInt(rank.getText().strip());
        } catch (NumberFormatException e) {
            r = -3; // matches nothing: the field is red-flagged below
        }
        rank.setStyle(r == -3 ? "-fx-border-color: -fs-danger;" : "");
        String needle = text.getText().toLowerCase(Locale.ROOT);
        int wantRank = r;
        Predicate<Line> f = l -> (p == null || p.equals("all pods") || p.equals(l.pod()))
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
        for (java.util.Iterator<Line> it = lines.descendingIterator(); it.hasNext() && pass.size() < MAX_ROWS; ) {
            Line l = it.next();
            if (f.test(l)) {
                pass.addFirst(l);
            }
        }
        shown.setAll(pass);
    }

    public List<Line> shownLines() {
        return shown;
    }

    public int size() {
        return lines.size();
    }

}
