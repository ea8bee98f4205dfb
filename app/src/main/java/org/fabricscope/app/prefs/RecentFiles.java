package org.fabricscope.app.prefs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import org.fabricscope.app.common.AtomicWrite;

/**
 * File › Open Recent: the inputs opened together, newest first, at most {@link #MAX}; one entry a
 * line in {@code recent-files.txt}, its paths separated by tabs (a path with a tab or a line break is
 * not remembered). Opening the same inputs again moves them to the top. Thread-safe; every change is
 * written at once (a temp file moved over the old one), so a crash loses nothing. A store without a
 * folder keeps its list in memory only.
 */
public final class RecentFiles {
    public static final int MAX = 10;
    static final String FILE = "recent-files.txt";

    private final Path file;
    private final List<List<Path>> entries = new ArrayList<>();

    /** Reads the list from {@code directory} (null: nothing is persisted); an unreadable file is an empty list. */
    public RecentFiles(Path directory) {
        this.file = directory == null ? null : directory.resolve(FILE);
        if (file != null && Files.isRegularFile(file)) {
            try {
                for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                    List<Path> paths = parse(line);
                    if (!paths.isEmpty() && entries.size() < MAX && !entries.contains(paths)) {
                        entries.add(paths);
                    }
                }
            } catch (IOException | RuntimeException e) {
                entries.clear(); // a damaged list is forgotten, not shown half-read
            }
        }
    }

    private static List<Path> parse(String line) {
        List<Path> out = new ArrayList<>();
        for (String p : line.split("\t")) {
            if (!p.isBlank()) {
                try {
                    out.add(Path.of(p));
                } catch (InvalidPathException e) {
                    return List.of();
                }
            }
        }
        return List.copyOf(out);
    }

    /** The entries, newest first. */
    public synchronized List<List<Path>> entries() {
        return List.copyOf(entries);
    }

    /**
     * Puts {@code paths} (made absolute) at the top and writes the list; returns the new list. Paths a
     * line cannot hold are not recorded.
     */
    public synchronized List<List<Path>> record(List<Path> paths) throws IOException {
        List<Path> abs = paths.stream().map(p -> p.toAbsolutePath().normalize()).toList();
        if (abs.isEmpty() || abs.stream().map(Path::toString).anyMatch(s -> s.contains("\t") || s.contains("\n")
                || s.contains("\r"))) {
            return entries();
        }
        entries.remove(abs);
        entries.add(0, abs);
        while (entries.size() > MAX) {
            entries.remove(entries.size() - 1);
        }
        write();
        return entries();
    }

    /** Forgets every entry (and writes the empty list). */
    public synchronized void clear() throws IOException {
        entries.clear();
        write();
    }

    private void write() throws IOException {
        if (file == null) {
            return;
        }
        Files.createDirectories(file.getParent());
        String text = entries.stream().map(e -> e.stream().map(Path::toString).collect(Collectors.joining("\t")))
                .collect(Collectors.joining("\n", "", entries.isEmpty() ? "" : "\n"));
        AtomicWrite.write(file, out -> out.write(text.getBytes(StandardCharsets.UTF_8)));
    }

    /** How an entry reads in the menu: the first path's name, with how many more. */
    public static String label(List<Path> entry) {
        Path first = entry.get(0);
        String name = first.getFileName() == null ? first.toString() : first.getFileName().toString();
        return entry.size() == 1 ? name + "  (" + (first.getParent() == null ? first : first.getParent()) + ")"
                : name + " and " + (entry.size() - 1) + " more  (" + (first.getParent() == null ? first : first.getParent()) + ")";
    }
}
