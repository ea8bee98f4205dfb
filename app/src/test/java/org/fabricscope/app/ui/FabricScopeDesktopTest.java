package org.fabricscope.app.ui;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.util.ServiceLoader;

import org.fabricscope.app.common.DesktopLauncher;
import org.junit.jupiter.api.Test;

/** {@code fabricscope gui} reaches the window through the service registration, not a reference from the CLI. */
class FabricScopeDesktopTest {
    @Test
    void theCliFindsTheWindowThroughTheServiceLoader() {
        DesktopLauncher launcher = ServiceLoader.load(DesktopLauncher.class).findFirst().orElseThrow();
        assertInstanceOf(FabricScopeDesktop.class, launcher);
    }
}
