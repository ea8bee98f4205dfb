package org.fabricscope.app.ui;

import java.nio.file.Path;
import java.util.List;

import org.fabricscope.app.common.DesktopLauncher;

/**
 * The desktop window as the CLI's {@code gui} command reaches it (through {@code ServiceLoader};
 * registered in {@code META-INF/services/org.fabricscope.app.common.DesktopLauncher}). Not a JavaFX
 * class itself: the toolkit loads when {@link #launch} runs.
 */
public final class FabricScopeDesktop implements DesktopLauncher {
    @Override
    public void launch(List<Path> paths, String find) {
        FabricScopeApp.launchWith(paths, find);
    }
}
