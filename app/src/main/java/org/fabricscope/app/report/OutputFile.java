package org.fabricscope.app.report;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;

import org.fabricscope.app.common.AtomicWrite;

/**
 * Where an export, a report or a picture is written, and why that failed in words. A file is written
 * whole or not at all ({@link AtomicWrite}: a part file beside it, moved into place only once every
 * byte is written; a full disk or a failed encoder leaves the target as it was and no part file). A
 * target that exists and is not a regular file (a device such as {@code /dev/stdout}, a named pipe) is
 * written in place: it cannot be replaced, and must not be. A link is followed, so that the file it
 * names is the one replaced, not the link.
 */
public final class OutputFile {
    private OutputFile() {
    }

    /** Writes {@code content} to {@code target}; the IOException's {@link #reason} says why it failed. */
    public static void write(Path target, AtomicWrite.Content content) throws IOException {
        Path to = target;
        if (Files.isSymbolicLink(target) && Files.exists(target)) {
            to = target.toRealPath();
        }
        if (Files.isDirectory(to)) {
            throw new FileSystemException(target.toString(), null, "it is a folder");
        }
        if (Files.exists(to) && !Files.isRegularFile(to)) {
            try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(to, StandardOpenOption.WRITE))) {
                content.writeTo(out);
            }
            return;
        }
        AtomicWrite.write(to, content);
    }

    /** {@code cannot write FILE: REASON}, one line. */
    public static String failure(Path target, Throwable e) {
        return "cannot write " + target + ": " + reason(e);
    }

    /**
     * Why writing failed, in words and one line: the operating system's reason ({@code no space left on
     * device}, {@code permission denied}, {@code read-only file system}) found under any wrapping (the PNG
     * writer wraps the disk's error in its own), never a Java class name.
     */
    public static String reason(Throwable e) {
        Throwable deepest = e;
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof OutOfMemoryError) {
                return "not enough memory for an output this size";
            }
            if (t instanceof AccessDeniedException) {
                return "permission denied";
            }
            if (t instanceof NoSuchFileException) {
                return "no such file or folder";
            }
            if (t instanceof FileSystemException f && f.getReason() != null && !f.getReason().isBlank()) {
                return words(f.getReason());
            }
            if (!(t instanceof UncheckedIOException) && t.getMessage() != null && !t.getMessage().isBlank()) {
                deepest = t;
            }
        }
        String m = deepest.getMessage();
        return m == null || m.isBlank() ? "an unexpected failure while writing" : words(m);
    }

    /** One line, lower-case first letter ("No space left on device" as the C library says it). */
    private static String words(String s) {
        String one = s.replaceAll("[\\p{Cntrl}\\s]+", " ").strip();
        if (one.length() > 1 && Character.isUpperCase(one.charAt(0)) && !Character.isUpperCase(one.charAt(1))) {
            one = one.substring(0, 1).toLowerCase(Locale.ROOT) + one.substring(1);
        }
        return one;
    }
}
