package org.fabricscope.app.cli;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

import org.fabricscope.model.core.SpecialFiles;

/**
 * The files that options name ({@code --thresholds FILE}, {@code --kubeconfig FILE}, {@code --flows DIR}),
 * checked before they are read: a FIFO would block the run and {@code /dev/zero} would fill the memory, so
 * a file option takes a regular file (links followed) of at most a stated size, and a folder option a
 * folder. Anything else fails with one line naming the option, the path and what it is (status 1).
 */
final class OptionFiles {
    /** The largest {@code --thresholds} file read: 1 MiB (infiniband-diags' own is under 2 KiB). */
    static final int MAX_THRESHOLDS_BYTES = 1 << 20;

    private OptionFiles() {
    }

    /** The bytes of a regular file of at most {@code max} bytes, or a failure naming the option. */
    static byte[] read(String option, Path p, int max) {
        requireRegular(option, p);
        try (InputStream in = Files.newInputStream(p)) {
            byte[] b = in.readNBytes(max + 1);
            if (b.length > max) {
                throw new CliFailure(1, option + " " + p + ": larger than " + max + " bytes, the most this option reads");
            }
            return b;
        } catch (IOException e) {
            throw new CliFailure(1, option + " " + p + ": cannot read: " + why(e));
        }
    }

    /** Fails unless the path is a regular file (links followed). */
    static void requireRegular(String option, Path p) {
        String what = what(p);
        if (!"a regular file".equals(what)) {
            throw new CliFailure(1, option + " " + p + ": not a regular file (" + what + ")");
        }
    }

    /** Fails unless the path is a folder (links followed). */
    static void requireFolder(String option, Path p) {
        String what = what(p);
        if (!"a folder".equals(what)) {
            throw new CliFailure(1, option + " " + p + ": not a folder (" + what + ")");
        }
    }

    /** What a path is, in words: a regular file, a folder, a FIFO, a character device, a dangling link... */
    static String what(Path p) {
        BasicFileAttributes a;
        try {
            a = Files.readAttributes(p, BasicFileAttributes.class);
        } catch (NoSuchFileException e) {
            return Files.isSymbolicLink(p) ? "a symbolic link that leads nowhere" : "no such file";
        } catch (FileSystemException e) {
            return Files.isSymbolicLink(p) ? "a symbolic link that cannot be followed (" + why(e) + ")" : "unreadable (" + why(e) + ")";
        } catch (IOException | RuntimeException e) {
            return "unreadable (" + why(e) + ")";
        }
        if (a.isRegularFile()) {
            return "a regular file";
        }
        if (a.isDirectory()) {
            return "a folder";
        }
        return SpecialFiles.kind(p);
    }

    private static String why(Exception e) {
        if (e instanceof FileSystemException f && f.getReason() != null) {
            return f.getReason();
        }
        return e.getMessage() == null ? "an I/O error" : e.getMessage();
    }
}
