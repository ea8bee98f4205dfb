package org.fabricscope.model.core;

import java.nio.file.Path;
import java.util.Map;

/**
 * The user's FabricScope folder, where their own flows and failure signatures live:
 * {@code $XDG_CONFIG_HOME/fabricscope} when that variable is an absolute path, else
 * {@code ~/.config/fabricscope} (the XDG Base Directory Specification's default).
 */
public final class UserConfig {
    private UserConfig() {
    }

    /** The folder {@code name} of the user's FabricScope folder, or null when neither the variable nor a home is known. */
    public static Path directory(Map<String, String> env, String userHome, String name) {
        String xdg = env.get("XDG_CONFIG_HOME");
        if (xdg != null && !xdg.isBlank() && Path.of(xdg).isAbsolute()) {
            return Path.of(xdg, "fabricscope", name);
        }
        if (userHome == null || userHome.isBlank()) {
            return null;
        }
        return Path.of(userHome, ".config", "fabricscope", name);
    }
}
