package org.fabricscope.model.flows;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;

import org.fabricscope.model.core.SpecialFiles;

/**
 * Reads the flow files of a folder without trusting what the folder holds: only regular files are read
 * (a FIFO would block the run, a device such as {@code /dev/zero} never ends), each at most
 * {@link FlowLoader#MAX_BYTES} (read with that bound, whatever size the file claims), and at most
 * {@link #MAX_FILES} of a folder. A link that leads nowhere, a loop of links, a folder named
 * {@code x.json}: each is skipped with an error naming it, and the other files load.
 */
final class FlowFiles {
    /** The most flow files read from one folder (in name order); the rest are named in one error. */
    static final int MAX_FILES = 1000;

    private FlowFiles() {
    }

    /** One file's bytes, or why it was not read. */
    record Read(Path path, byte[] content, FlowError error) {
    }

    /** The {@code *.json} of a folder in name order, read; errors for the folder itself go first. */
    static List<Read> folder(Path dir) {
        List<Read> out = new ArrayList<>();
        List<Path> files = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, "*.json")) {
            ds.forEach(files::add);
        } catch (IOException | RuntimeException e) {
            out.add(new Read(dir, null, new FlowError(dir.toString(), "", "cannot list the folder: " + why(e))));
            return out;
        }
        files.sort(null);
        if (files.size() > MAX_FILES) {
            out.add(new Read(dir, null, new FlowError(dir.toString(), "", files.size() + " flow files; at most " + MAX_FILES
                    + " are read from one folder (FlowFiles.MAX_FILES), in name order: those from "
                    + files.get(MAX_FILES).getFileName() + " on are skipped")));
            files = files.subList(0, MAX_FILES);
        }
        for (Path p : files) {
            out.add(read(p));
        }
        return out;
    }

    /** One flow file: a regular file (links followed) of at most {@link FlowLoader#MAX_BYTES}. */
    static Read read(Path p) {
        String problem = notRegular(p);
        if (problem != null) {
            return new Read(p, null, new FlowError(p.toString(), "", problem + ": skipped"));
        }
        try (InputStream in = Files.newInputStream(p)) {
            byte[] content = in.readNBytes(FlowLoader.MAX_BYTES + 1);
            if (content.length > FlowLoader.MAX_BYTES) {
                return new Read(p, null, new FlowError(p.toString(), "", "too large: more than " + FlowLoader.MAX_BYTES
                        + " bytes; a flow file is at most " + FlowLoader.MAX_BYTES + " bytes (FlowLoader.MAX_BYTES): skipped"));
            }
            return new Read(p, content, null);
        } catch (IOException | RuntimeException e) {
            return new Read(p, null, new FlowError(p.toString(), "", "cannot read: " + why(e)));
        }
    }

    /**
     * Why a path is not a regular file to read, in words ({@code a FIFO}, {@code a link that leads
     * nowhere}); null when it is one. Links are followed.
     */
    static String notRegular(Path p) {
        BasicFileAttributes a;
        try {
            a = Files.readAttributes(p, BasicFileAttributes.class);
        } catch (NoSuchFileException e) {
            return Files.isSymbolicLink(p) ? "a symbolic link that leads nowhere" : "no such file";
        } catch (FileSystemException e) {
            if (Files.isSymbolicLink(p)) {
                return "a symbolic link that cannot be followed (a loop of links?): " + why(e);
            }
            return "cannot read: " + why(e);
        } catch (IOException | RuntimeException e) {
            return "cannot read: " + why(e);
        }
        if (a.isRegularFile()) {
            return null;
        }
        if (a.isDirectory()) {
            return "a folder, not a flow file";
        }
        String kind = SpecialFiles.kind(p);
        return "not a regular file (" + kind + ")";
    }

    /** An I/O failure in words: the message, without the Java class name. */
    static String why(Exception e) {
        if (e instanceof FileSystemException f && f.getReason() != null) {
            return f.getReason();
        }
        String m = e.getMessage();
        return m == null || m.isBlank() ? "an I/O error" : m;
    }

    /** Whether a path exists as a link or file, links not followed (a dangling link exists). */
    static boolean present(Path p) {
        return Files.exists(p, LinkOption.NOFOLLOW_LINKS);
    }
}
