package org.fabricscope.app.ui;

import java.nio.file.Path;
import java.util.List;

import java.util.Optional;

import org.fabricscope.app.prefs.UserState;
import org.fabricscope.app.prefs.WindowGeometry;
import org.fabricscope.importers.core.LineImporter;

import javafx.application.Application;
import javafx.geometry.Rectangle2D;
import javafx.scene.Scene;
import javafx.stage.Screen;
import javafx.stage.Stage;

/** The JavaFX application: one window with a {@link MainView}, opening the paths it was started with. */
public final class FabricScopeApp extends Application {
    private static volatile List<Path> initialPaths = List.of();
    private static volatile String initialFind;
    private MainView view;
    private UserState userState = UserState.none();
    private Optional<WindowGeometry> savedGeometry = Optional.empty();
    /** The window's last place while not maximised: what a maximised window returns to. */
    private double[] unmaximized;

    /** Starts the toolkit and blocks until the window closes. */
    public static void launchWith(List<Path> paths, String find) {
        initialPaths = List.copyOf(paths);
        initialFind = find;
        // java.awt draws pictures off screen only (the map's PNG export, its text): no AWT toolkit beside JavaFX's
        if (System.getProperty("java.awt.headless") == null) {
            System.setProperty("java.awt.headless", "true");
        }
        leaveACoreForTheWindow();
        Loader.openEarly(initialPaths); // reads the files while the toolkit and the window start
        Application.launch(FabricScopeApp.class);
    }

    /**
     * Imports in the window read ahead on one thread fewer than there are processors (unless the user said how many,
     * {@link LineImporter#READ_AHEAD_THREADS}): on two cores a second reading thread competed with the window's start
     * and showed the window about a second later, with the map no sooner (BENCHMARKS.md, seventh session).
     */
    static void leaveACoreForTheWindow() {
        if (System.getProperty(LineImporter.READ_AHEAD_THREADS) == null) {
            int cpus = Runtime.getRuntime().availableProcessors();
            System.setProperty(LineImporter.READ_AHEAD_THREADS, String.valueOf(Math.max(1, cpus - 1)));
        }
    }

    /** Reads what the app remembers (recent files, window geometry) on the launcher thread, before the window. */
    @Override
    public void init() {
        userState = UserState.forUser(System.getenv(), System.getProperty("user.home"));
        savedGeometry = WindowGeometry.load(userState.directory());
    }

    @Override
    public void start(Stage stage) {
        UiPalette.current(); // the map's colours, read from app.css once, here on the FX thread
        view = new MainView(new FxTaskExecutor(), userState);
        Screen primary = Screen.getPrimary();
        WindowGeometry g = WindowGeometry.place(savedGeometry, Screen.getScreens().stream().map(s -> bounds(s)).toList(),
                bounds(primary));
        // the scene and the stage both get the size: a window manager then has no reason to pick 200 x 200
        Scene scene = new Scene(view, g.width(), g.height());
        scene.getStylesheets().add(UiPalette.stylesheet());
        stage.setTitle("FabricScope");
        stage.setScene(scene);
        stage.setMinWidth(Math.min(WindowGeometry.MIN_WIDTH, primary.getVisualBounds().getWidth()));
        stage.setMinHeight(Math.min(WindowGeometry.MIN_HEIGHT, primary.getVisualBounds().getHeight()));
        stage.setX(g.x());
        stage.setY(g.y());
        stage.setWidth(g.width());
        stage.setHeight(g.height());
        stage.setMaximized(g.maximized());
        view.setDividerPosition(g.divider());
        stage.setOnHiding(e -> remember(stage));
        javafx.beans.InvalidationListener track = o -> {
            if (!stage.isMaximized() && stage.isShowing()) {
                unmaximized = new double[] {stage.getX(), stage.getY(), stage.getWidth(), stage.getHeight()};
            }
        };
        for (var p : List.of(stage.xProperty(), stage.yProperty(), stage.widthProperty(), stage.heightProperty())) {
            p.addListener(track);
        }
        unmaximized = new double[] {g.x(), g.y(), g.width(), g.height()}; // the size a maximised window returns to
        stage.show();
        if (!initialPaths.isEmpty()) {
            view.open(initialPaths, false, initialFind);
        }
    }

    private static WindowGeometry.Bounds bounds(Screen s) {
        Rectangle2D b = s.getVisualBounds();
        return new WindowGeometry.Bounds(b.getMinX(), b.getMinY(), b.getWidth(), b.getHeight());
    }

    /** The window's place as it closes; written on a background thread (the window is going anyway). */
    private void remember(Stage stage) {
        if (unmaximized == null || !stage.isMaximized()) {
            unmaximized = new double[] {stage.getX(), stage.getY(), stage.getWidth(), stage.getHeight()};
        }
        WindowGeometry g = new WindowGeometry(unmaximized[0], unmaximized[1], unmaximized[2], unmaximized[3],
                stage.isMaximized(), view.dividerPosition());
        Thread t = new Thread(() -> {
            try {
                g.save(userState.directory());
            } catch (java.io.IOException | RuntimeException e) {
                System.err.println("fabricscope: could not remember the window's size in " + userState.directory() + ": "
                        + e.getMessage());
            }
        }, "fabricscope-save-window");
        t.start(); // not a daemon: the JVM waits for this small write before it exits
    }

    @Override
    public void stop() {
        if (view != null) {
            view.dispose();
        }
    }
}
