package org.fabricscope.app.ui;

import java.util.Collection;
import java.util.List;

import org.fabricscope.app.live.source.LogLine;

import javafx.animation.AnimationTimer;
import javafx.css.PseudoClass;
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
 * A console of log lines streamed from pods, or of a loaded log file (the source picker): filters
 * by pod, rank and level, NCCL lines highlighted, follow-the-tail on by default for live lines, line
 * numbers for a file. The lines, filters and the queue they arrive through are its
 * {@link LogConsoleViewModel}'s; this view takes the waiting lines once per frame (an
 * {@link AnimationTimer} that runs while a live job streams) and keeps the newest row in view.
 */
public final class LogConsole extends VBox {
    public static final int MAX_LINES = LogConsoleViewModel.MAX_LINES;
    public static final int MAX_ROWS = LogConsoleViewModel.MAX_ROWS;

    /**
     * One line of one pod's log. {@code rank} is -1 when the line names none; {@code container} and
     * {@code number} (1-based line of the container's stream) are null and 0 when not known.
     */
    public record Line(String pod, String container, int number, String text, int rank, Level level) {
        public enum Level { ERROR, WARN, NCCL, OTHER }

        /** Classifies a raw line: NCCL WARN / PyTorch [E…] / error words, NCCL INFO, anything else. */
        public static Line of(String pod, String text) {
            return new Line(pod, null, 0, text, rankOf(text), levelOf(text));
        }

        /** A line of a loaded log file: {@code pod} is the file's name, {@code number} its 1-based line. */
        public static Line ofFile(String fileName, int number, String text) {
            return new Line(fileName, null, number, text, rankOf(text), levelOf(text));
        }

        /** Whether it is a line of a loaded file (shown with its line number), not of a pod's stream. */
        public boolean fromFile() {
            return container == null && number > 0;
        }

        /** A streamed line, with its container and line number (what evidence cites). */
        public static Line of(LogLine l) {
            return new Line(l.pod(), l.container(), l.lineNumber(), l.text(), rankOf(l.text()), levelOf(l.text()));
        }

        /** {@code pod/container}, as evidence from this stream names its source; null when the container is not known. */
        public String source() {
            return container == null ? null : pod + "/" + container;
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

    private final ListView<Line> view = new ListView<>();
    private final ComboBox<String> source = new ComboBox<>();
    private final ComboBox<String> pod = new ComboBox<>(); // virtualised popup: a job may have thousands of pods
    private final ChoiceBox<String> level = new ChoiceBox<>();
    private final TextField rank = new TextField();
    private final TextField text = new TextField();
    private final ToggleButton follow = new ToggleButton("Follow");
    private final Label count = new Label("0 lines");
    private final AnimationTimer drainer = new AnimationTimer() {
        @Override
        public void handle(long now) {
            // at most one console update per frame, however fast the pods write
            if (vm.drain()) {
                followTail();
            }
        }
    };
    /** A rank filter that is not a number (views.css draws it). */
    private static final PseudoClass INVALID = PseudoClass.getPseudoClass("invalid");
    private LogConsoleViewModel vm;

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
                getStyleClass().removeAll(Styles.LOG_ERROR, Styles.LOG_WARN, Styles.LOG_NCCL);
                if (empty || l == null) {
                    setText(null);
                    return;
                }
                setText(l.fromFile() ? String.format("%6d │ %s", l.number(), l.text()) : l.pod() + " │ " + l.text());
                switch (l.level()) {
                    case ERROR -> getStyleClass().add(Styles.LOG_ERROR);
                    case WARN -> getStyleClass().add(Styles.LOG_WARN);
                    case NCCL -> getStyleClass().add(Styles.LOG_NCCL);
                    default -> { }
                }
            }
        });
        source.setId("logSource");
        source.setTooltip(new Tooltip("Live pod logs, or a loaded log file (NCCL/PyTorch logs, nccl-tests output, *.log)"));
        source.setPrefWidth(220);
        pod.setId("logPod");
        level.setId("logLevel");
        rank.setPromptText("rank");
        rank.setPrefColumnCount(4);
        rank.setId("logRank");
        text.setPromptText("contains…");
        text.setId("logText");
        follow.setTooltip(new Tooltip("Keep the newest line in view"));
        Button clear = new Button("Clear");
        clear.setOnAction(e -> vm.clear());
        clear.disableProperty().bind(follow.disableProperty());
        // two rows: the side pane is narrow, and one row squeezed the pickers to nothing
        HBox top = new HBox(6, source, count);
        top.setAlignment(javafx.geometry.Pos.CENTER_LEFT);
        HBox bar = new HBox(6, pod, level, rank, text, follow, clear);
        bar.setAlignment(javafx.geometry.Pos.CENTER_LEFT);
        source.setMinWidth(160);
        count.setMinWidth(0); // a long file name ellipsises; it must not widen the console past the pane
        count.setMaxWidth(Double.MAX_VALUE);
        HBox.setHgrow(count, Priority.ALWAYS);
        pod.setMinWidth(110);
        level.setMinWidth(javafx.scene.layout.Region.USE_PREF_SIZE);
        rank.setMinWidth(50);
        text.setMinWidth(80);
        HBox.setHgrow(text, Priority.ALWAYS);
        VBox.setVgrow(view, Priority.ALWAYS);
        getChildren().addAll(top, bar, view);
    }

    /** Binds the controls to the console's state. */
    void bind(LogConsoleViewModel model) {
        this.vm = model;
        view.itemsProperty().bind(model.rowsProperty());
        source.setItems(model.sources());
        source.valueProperty().bindBidirectional(model.sourceProperty());
        pod.disableProperty().bind(model.fileModeProperty());
        follow.disableProperty().bind(model.fileModeProperty());
        Label placeholder = (Label) view.getPlaceholder();
        placeholder.textProperty().bind(javafx.beans.binding.Bindings.when(model.fileModeProperty())
                .then("No lines (reading, or none match the filters)")
                .otherwise("Connect to a cluster (Ctrl+K) and follow a job's logs, or pick a loaded log file"));
        model.selectedRowProperty().addListener((o, a, row) -> {
            int r = row.intValue();
            if (r >= 0 && r < view.getItems().size()) {
                view.getSelectionModel().clearAndSelect(r);
                view.scrollTo(Math.max(0, r - 5));
                // new items reset the flow's position at the next layout: scroll again after it
                javafx.application.Platform.runLater(() -> view.scrollTo(Math.max(0, r - 5)));
                view.requestFocus(); // the user asked for this line: it shows selected, and the keys move from it
            }
        });
        pod.setItems(model.podChoices());
        pod.valueProperty().bindBidirectional(model.podProperty());
        level.getItems().setAll(LogConsoleViewModel.LEVELS);
        level.valueProperty().bindBidirectional(model.levelProperty());
        rank.textProperty().bindBidirectional(model.rankProperty());
        text.textProperty().bindBidirectional(model.textProperty());
        follow.selectedProperty().bindBidirectional(model.followProperty());
        count.textProperty().bind(model.countProperty());
        model.rankInvalidProperty().addListener((o, a, bad) -> rank.pseudoClassStateChanged(INVALID, bad));
        model.drainingProperty().addListener((o, a, on) -> {
            if (on) {
                drainer.start();
            } else {
                drainer.stop();
            }
        });
        model.selectedProperty().addListener((o, a, l) -> {
            if (l != null) {
                view.getSelectionModel().select(l);
                view.scrollTo(l);
            }
        });
    }

    private void followTail() {
        if (vm.followProperty().get() && !vm.fileModeProperty().get() && !vm.shown().isEmpty()) {
            view.scrollTo(vm.shown().size() - 1);
        }
    }

    /** Adds a batch of lines (FX thread); drops the oldest beyond {@link #MAX_LINES}. */
    public void append(Collection<Line> batch) {
        vm.append(batch);
        followTail();
    }

    public void clear() {
        vm.clear();
    }

    public List<Line> shownLines() {
        return vm.shown();
    }

    /** The rows in the list now: live lines, or the picked file's. */
    public List<Line> listedLines() {
        return view.getItems();
    }

    /** The selected row's line, or null. */
    public Line selectedLine() {
        return view.getSelectionModel().getSelectedItem();
    }

    public int size() {
        return vm.size();
    }
}
