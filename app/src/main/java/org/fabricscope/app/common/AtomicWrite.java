package org.fabricscope.app.common;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * Writes a file so that a reader never sees half of it: the bytes go to a new hidden file beside the
 * target, which then replaces the target in one move (a plain move where the file system cannot do it
 * atomically). A failed write leaves the target as it was and no part file behind. The part file is an
 * ordinary new file, not a temp file, so the result gets the permissions any new file would.
 */
public final class AtomicWrite {
    /** What writes the content. */
    @FunctionalInterface
    public interface Content {
        void writeTo(OutputStream out) throws IOException;
    }

    private AtomicWrite() {
    }

    /** Writes {@code content} to {@code target}, whose folder must exist. */
    public static void write(Path target, Content content) throws IOException {
        Path folder = target.toAbsolutePath().getParent();
        if (folder == null || !Files.isDirectory(folder)) {
            throw new IOException("the folder " + folder + " does not exist");
        }
        Path part = folder.resolve("." + target.getFileName() + "." + Long.toHexString(System.nanoTime()) + ".part");
        try {
            try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(part, StandardOpenOption.CREATE_NEW,
                    StandardOpenOption.WRITE))) {
                content.writeTo(out);
            }
            try {
                Files.move(part, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(part, target, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(part);
        }
    }
}
