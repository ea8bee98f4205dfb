package org.fabricscope.app.prefs;

import java.nio.file.Path;
import java.util.Map;

import org.fabricscope.model.flows.FlowLibrary;

/**
 * The folder the desktop app remembers things in, and its stores. {@link #forUser} is the user's
 * config folder; {@link #none()} remembers nothing past the process (tests, and a user without a
 * home); tests pass a temp folder to {@link #in}.
 */
public final class UserState {
    private final Path directory;
    private final RecentFiles recent;

    private UserState(Path directory) {
        this.directory = directory;
        this.recent = new RecentFiles(directory);
    }

    /** {@code $XDG_CONFIG_HOME/fabricscope}, else {@code ~/.config/fabricscope}: where the user's flows live too. Reads the recent list. */
    public static UserState forUser(Map<String, String> env, String home) {
        Path flows = FlowLibrary.userDirectory(env, home);
        return new UserState(flows == null ? null : flows.getParent());
    }

    /** Stores in {@code directory} (reads the recent list, blocking). */
    public static UserState in(Path directory) {
        return new UserState(directory);
    }

    /** Nothing is written; the recent list lives as long as the process. */
    public static UserState none() {
        return new UserState(null);
    }

    /** Null when nothing is persisted. */
    public Path directory() {
        return directory;
    }

    public RecentFiles recentFiles() {
        return recent;
    }
}
