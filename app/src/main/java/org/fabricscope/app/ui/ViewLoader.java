package org.fabricscope.app.ui;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URL;

import javafx.fxml.FXMLLoader;

/** Loads the FXML of a view: {@code Foo.fxml} beside class {@code Foo}, whose {@code fx:root} and controller the view is. */
final class ViewLoader {
    private ViewLoader() {
    }

    static void load(Object view) {
        load(view, view, view.getClass().getSimpleName() + ".fxml");
    }

    /** An FXML file beside {@code controller}'s class whose {@code fx:root} is {@code root} (a dialog's content). */
    static void load(Object controller, Object root, String name) {
        URL fxml = controller.getClass().getResource(name);
        if (fxml == null) {
            throw new IllegalStateException(name + " is not on the class path"); // a packaging bug, not a user's
        }
        FXMLLoader loader = new FXMLLoader(fxml);
        loader.setRoot(root);
        loader.setController(controller);
        try {
            loader.load();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot load " + fxml, e);
        }
    }
}
