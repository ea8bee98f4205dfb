package org.fabricscope.app.common;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The name of what was loaded, for the window's title and the report: the capture, by its folder or
 * bundle, not every file in it. A folder or bundle names itself; a file alone names itself; files of one
 * folder name that folder ({@code rail-2su-hdr}, not seventeen file names). Several captures read
 * {@code a, b} and past two {@code a + 3 more}. Files written by the window itself (a pasted answer,
 * under a {@code fabricscope-} temporary folder) never name the capture.
 */
public final class CaptureName {
    private CaptureName() {
    }

    public static String of(List<Path> paths) {
        List<Path> own = paths.stream().filter(p -> !written(p)).toList();
        if (own.isEmpty()) {
            own = paths;
        }
        if (own.isEmpty()) {
            return "";
        }
        if (own.size() == 1) {
            return name(own.get(0));
        }
        Set<String> captures = new LinkedHashSet<>();
        for (Path p : own) {
            Path parent = p.toAbsolutePath().normalize().getParent();
            captures.add(Files.isRegularFile(p) && !bundle(p) && parent != null ? name(parent) : name(p));
        }
        List<String> names = new ArrayList<>(captures);
        if (names.size() <= 2) {
            return String.join(", ", names);
        }
        return names.get(0) + " + " + (names.size() - 1) + " more";
    }

    private static String name(Path p) {
        Path n = p.toAbsolutePath().normalize().getFileName();
        return n == null ? p.toString() : n.toString();
    }

    private static boolean bundle(Path p) {
        String n = p.getFileName() == null ? "" : p.getFileName().toString().toLowerCase(java.util.Locale.ROOT);
        return n.endsWith(".tar.gz") || n.endsWith(".tgz") || n.endsWith(".tar") || n.endsWith(".zip") || n.endsWith(".tar.xz");
    }

    /** A file the window wrote (a pasted answer), under a {@code fabricscope-} temporary folder. */
    private static boolean written(Path p) {
        for (Path x = p.toAbsolutePath().normalize().getParent(); x != null; x = x.getParent()) {
            if (x.getFileName() != null && x.getFileName().toString().startsWith("fabricscope-")
                    && x.getParent() != null && x.getParent().equals(Path.of(System.getProperty("java.io.tmpdir")).toAbsolutePath().normalize())) {
                return true;
            }
        }
        return false;
    }
}
