package org.fabricscope.app.ui;

import java.util.function.Supplier;

import javafx.scene.control.Alert;
import javafx.stage.Window;

/** {@link Dialogs} as JavaFX alerts owned by the main window; shown without waiting. */
final class FxDialogs implements Dialogs {
    private final Supplier<Window> owner;

    FxDialogs(Supplier<Window> owner) {
        this.owner = owner;
    }

    @Override
    public void error(String title, String text) {
        show(Alert.AlertType.ERROR, title, text);
    }

    @Override
    public void info(String title, String text) {
        show(Alert.AlertType.INFORMATION, title, text);
    }

    private void show(Alert.AlertType type, String title, String text) {
        Alert a = new Alert(type, text);
        a.setTitle(title);
        a.setHeaderText(title);
        a.initOwner(owner.get());
        a.show();
    }
}
