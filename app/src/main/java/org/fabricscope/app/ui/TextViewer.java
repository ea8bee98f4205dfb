package org.fabricscope.app.ui;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import org.fabricscope.app.task.BackgroundTask;
import org.fabricscope.app.task.TaskExecutor;

import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.stage.Stage;
import javafx.stage.Window;

/**
 * A window showing one input file, read off the UI thread, in a virtualised list with line numbers;
 * the cited line is selected and scrolled to. Esc or Ctrl+W closes it. Opened by clicking an evidence
 * line (the findings pane, the Troubleshoot panel).
 */
public final class TextViewer {
    private final Stage stage = new Stage();
    private final ListView<String> lines = new ListView<>();

    private TextViewer(Window owner, String title) {
        stage.initOwner(owner);
        stage.setTitle(title);
        lines.getStyleClass().add("text-viewer");
        lines.setPlaceholder(new Label("Reading…"));
        lines.setCellFactory(lv -> new ListCell<>() {
            @Override
            protected void updateItem(String s, boolean empty) {
                super.updateItem(s, empty);
                setText(empty || s == null ? null : String.format("%6d  %s", getIndex() + 1, s));
            }
        });
        Scene scene = new Scene(lines, 900, 560);
        if (owner != null && owner.getScene() != null) {
            scene.getStylesheets().addAll(owner.getScene().getStylesheets());
            if (owner.getScene().getRoot() != null) {
                scene.getStylesheets().addAll(owner.getScene().getRoot().getStylesheets());
            }
        }
        SecondaryWindows.closeOnEscape(scene, stage);
        stage.setScene(scene);
    }

    /** Opens {@code source} at {@code line} (1-based); a source that is no file on disk says so. */
    public static TextViewer open(Window owner, TaskExecutor executor, String source, int line) {
        TextViewer v = new TextViewer(owner, source + ":" + line);
        v.stage.show();
        executor.execute(BackgroundTask.of(ctx -> read(Path.of(source)))
                .onSuccess(all -> v.show(all, line))
                .onFailure(e -> v.lines.setPlaceholder(new Label("Cannot show " + source + ": "
                        + (e instanceof java.nio.file.NoSuchFileException ? "no such file (a member of a bundle?)" : e.getMessage())))));
        return v;
    }

    static List<String> read(Path file) throws java.io.IOException {
        String text = new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
        return Arrays.asList(text.split("\\R", -1));
    }

    private void show(List<String> all, int line) {
        lines.getItems().setAll(all);
        int i = Math.max(0, Math.min(all.size() - 1, line - 1));
        lines.getSelectionModel().select(i);
        lines.scrollTo(Math.max(0, i - 5));
        lines.requestFocus();
    }

    public Stage stage() {
        return stage;
    }

    /** The lines shown (tests). */
    public ListView<String> list() {
        return lines;
    }
}
