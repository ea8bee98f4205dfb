package org.fabricscope.app.ui;

import java.util.Optional;

import javafx.scene.control.ButtonBar;
import javafx.scene.control.ButtonType;
import javafx.scene.control.Dialog;
import javafx.scene.control.Label;
import javafx.scene.control.TextArea;
import javafx.scene.layout.VBox;
import javafx.stage.Window;

/**
 * Asks for the note on one subject: a few lines of text, prefilled with the note it has; OK with empty text
 * removes the note. Returns the text, or empty when cancelled. Notes are saved with the session.
 */
final class NoteDialog {
    private NoteDialog() {
    }

    static Optional<String> ask(Window owner, String subject, String current) {
        Dialog<String> d = new Dialog<>();
        if (owner != null) {
            d.initOwner(owner);
        }
        d.setTitle("Note on " + subject);
        TextArea text = new TextArea(current == null ? "" : current);
        text.setPrefRowCount(5);
        text.setWrapText(true);
        text.setPromptText("What you found, did or want to check (saved with the session; empty removes the note)");
        Label about = new Label("Note on " + subject + " (at most " + SubjectNotes.MAX_CHARS + " characters)");
        about.setWrapText(true);
        d.getDialogPane().setContent(new VBox(6, about, text));
        ButtonType ok = new ButtonType("Save note", ButtonBar.ButtonData.OK_DONE);
        d.getDialogPane().getButtonTypes().addAll(ok, ButtonType.CANCEL);
        d.setResultConverter(b -> b == ok ? text.getText() : null);
        text.textProperty().addListener((o, a, t) -> d.getDialogPane().lookupButton(ok).setDisable(t.length() > SubjectNotes.MAX_CHARS));
        javafx.application.Platform.runLater(text::requestFocus);
        return d.showAndWait();
    }
}
