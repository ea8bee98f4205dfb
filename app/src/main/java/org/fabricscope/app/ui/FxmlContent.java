package org.fabricscope.app.ui;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URL;

import javafx.fxml.FXMLLoader;

/** Loads an FXML file whose {@code fx:root} is a given node and whose controller is another object (a dialog). */
final class FxmlContent {
    private FxmlContent() {
    }

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
