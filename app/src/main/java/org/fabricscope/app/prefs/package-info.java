/**
 * What the desktop app remembers between runs (recent files, window geometry), as small text files
 * in the user's config folder ({@code $XDG_CONFIG_HOME/fabricscope}, else {@code ~/.config/fabricscope},
 * beside the user's flows). No JavaFX: the stores are plain blocking code, tested with a temp folder,
 * and the window places itself with {@link org.fabricscope.app.prefs.WindowGeometry#place}.
 */
package org.fabricscope.app.prefs;
