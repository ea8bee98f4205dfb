package org.fabricscope.app.common;

import java.nio.file.Path;
import java.util.List;

/**
 * Opens the desktop window. The UI ({@code app.ui}) implements it and registers the
 * implementation in {@code META-INF/services}; the CLI finds it with {@link java.util.ServiceLoader},
 * so the CLI has no compile-time reference to the UI and loads no JavaFX class until a user asks
 * for the window.
 */
public interface DesktopLauncher {
    /**
     * Starts the UI toolkit, opens the window on these files, folders or bundles (then finds and
     * selects {@code find}, which may be null) and blocks until the window closes.
     */
    void launch(List<Path> paths, String find);
}
