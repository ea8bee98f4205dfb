package org.fabricscope.app.ui;

import java.util.function.Supplier;

import javafx.event.ActionEvent;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonBar;
import javafx.scene.control.ButtonType;
import javafx.scene.control.Dialog;

/**
 * The buttons of a dialog whose OK button only closes it on a valid choice: the connect dialogs. Pressing
 * OK asks the view model for its choice; while that is {@code null} the dialog stays open and its message
 * line (bound by the dialog) says what is wrong. Cancel closes it with no result.
 */
final class ValidatedDialog {
    private static final double PREF_WIDTH = 640;

    private ValidatedDialog() {
    }

    /** Puts {@code content} in {@code dialog} with an OK button labelled {@code okLabel} that returns {@code choice}. */
    static <T> void install(Dialog<T> dialog, Node content, String okLabel, Supplier<T> choice) {
        dialog.getDialogPane().setContent(content);
        dialog.getDialogPane().setPrefWidth(PREF_WIDTH);
        ButtonType ok = new ButtonType(okLabel, ButtonBar.ButtonData.OK_DONE);
        dialog.getDialogPane().getButtonTypes().addAll(ok, ButtonType.CANCEL);
        Button button = (Button) dialog.getDialogPane().lookupButton(ok);
        button.addEventFilter(ActionEvent.ACTION, e -> {
            if (choice.get() == null) {
                e.consume(); // stay open: the message says what is wrong
            }
        });
        dialog.setResultConverter(b -> b == ok ? choice.get() : null);
    }
}
