package org.fabricscope.app.ui;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;
import java.util.function.Predicate;

import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import javafx.collections.transformation.FilteredList;
import javafx.scene.control.Button;
import javafx.scene.control.ChoiceBox;
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

    private final ObservableList<Line> lines = FXCollections.observableArrayList();
    private final FilteredList<Line> shown = new FilteredList<>(lines, l -> true);
    private final ListView<Line> view = new ListView<>(shown);
    private final ChoiceBox<String> pod = new ChoiceBox<>();
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
        for (Line l : add) {
            if (pods.add(l.pod())) {
                pod.getItems().add(l.pod());
            }
        }
        int over = lines.size() + add.size() - MAX_LINES;
        if (over > 0) {
            int fromBatch = Math.max(0, over - lines.size());
            lines.remove(0, Math.min(over, lines.size()));
            if (fromBatch > 0) {
                add = add.subList(fromBatch, add.size());
            }
            dropped += over;
        }
        lines.addAll(add);
        count.setText(lines.size() + " lines" + (dropped > 0 ? " (" + dropped + " older dropped from view)" : ""));
        if (follow.isSelected() && !shown.isEmpty()) {
            view.scrollTo(shown.size() - 1);
        }
    }

    public void clear() {
        lines.clear();
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
        shown.setPredicate(f);
    }

    public List<Line> shownLines() {
        return shown;
    }

    public int size() {
        return lines.size();
    }

}
