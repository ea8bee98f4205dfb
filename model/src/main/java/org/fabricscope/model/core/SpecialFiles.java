package org.fabricscope.model.core;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Names the kind of a path that is neither a regular file nor a folder, for the messages that refuse to
 * read one (a FIFO would block a run, {@code /dev/zero} would never end). One place, so that every refusal
 * says it the same way.
 */
public final class SpecialFiles {
    private SpecialFiles() {
    }

    /** {@code a FIFO}, {@code a character device}, {@code a block device}, {@code a socket}, else {@code a special file}. */
    public static String kind(Path p) {
        try {
            if (Files.getAttribute(p, "unix:mode") instanceof Integer m) {
                return switch (m & 0170000) {
                    case 0010000 -> "a FIFO";
                    case 0020000 -> "a character device";
                    case 0060000 -> "a block device";
                    case 0140000 -> "a socket";
                    default -> "a special file";
                };
            }
        } catch (IOException | RuntimeException e) {
            // not a Unix file system: no finer name
        }
        return "a special file";
    }
}
