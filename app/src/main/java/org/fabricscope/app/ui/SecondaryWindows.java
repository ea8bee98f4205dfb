package org.fabricscope.app.ui;

import javafx.scene.Scene;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyCodeCombination;
import javafx.scene.input.KeyCombination;
import javafx.scene.input.KeyEvent;
import javafx.stage.Stage;

/** What every window besides the main one does: Esc or Ctrl+W closes it. */
final class SecondaryWindows {
    private static final KeyCombination CLOSE = new KeyCodeCombination(KeyCode.W, KeyCombination.SHORTCUT_DOWN);

    private SecondaryWindows() {
    }

    /** Esc or Ctrl+W in {@code scene} closes {@code stage} (a filter: a focused table does not swallow Esc first). */
    static void closeOnEscape(Scene scene, Stage stage) {
        scene.addEventFilter(KeyEvent.KEY_PRESSED, e -> {
            if (e.getCode() == KeyCode.ESCAPE || CLOSE.match(e)) {
                stage.close();
                e.consume();
            }
        });
    }
}
