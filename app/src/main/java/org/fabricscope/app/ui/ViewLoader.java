package org.fabricscope.app.ui;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URL;

import javafx.fxml.FXMLLoader;

/** Loads {@code Foo.fxml} beside class {@code Foo} into a view that is both its root ({@code fx:root}) and its controller. */
final class ViewLoader {
    private ViewLoader() {
    }

    static void load(Object view) {
        String name = view.getClass().getSimpleName() + ".fxml";
        URL fxml = view.getClass().getResource(name);
        if (fxml == null) {
            throw new IllegalStateException(name + " is not on the class path"); // a packaging bug, not a user's
        }
        FXMLLoader loader = new FXMLLoader(fxml);
        loader.setRoot(view);
        loader.setController(view);
        try {
            loader.load();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot load " + fxml, e);
        }
    }
}
