package org.fabricscope.app.ui;

import java.nio.file.Path;
import java.util.List;

import javafx.application.Application;
import javafx.scene.Scene;
import javafx.stage.Stage;

/** The JavaFX application: one window with a {@link MainView}, opening the paths it was started with. */
public final class FabricScopeApp extends Application {
    private static volatile List<Path> initialPaths = List.of();
    private static volatile String initialFind;
    private MainView view;

    /** Starts the toolkit and blocks until the window closes. */
    public static void launchWith(List<Path> paths, String find) {
        initialPaths = List.copyOf(paths);
        initialFind = find;
        Application.launch(FabricScopeApp.class);
    }

    @Override
    public void start(Stage stage) {
        UiPalette.current(); // the map's colours, read from app.css once, here on the FX thread
        view = new MainView();
        Scene scene = new Scene(view, 1440, 900);
        scene.getStylesheets().add(UiPalette.stylesheet());
        stage.setTitle("FabricScope");
        stage.setScene(scene);
        stage.show();
        if (!initialPaths.isEmpty()) {
            view.open(initialPaths, false, initialFind);
        }
    }

    @Override
    public void stop() {
        if (view != null) {
            view.dispose();
        }
    }
}
