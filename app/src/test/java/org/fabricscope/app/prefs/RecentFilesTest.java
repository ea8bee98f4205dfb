package org.fabricscope.app.prefs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RecentFilesTest {
    @TempDir
    Path dir;

    @Test
    void entriesPersistNewestFirstWithoutDuplicatesAndAtMostTen() throws Exception {
        Path a = dir.resolve("a.txt");
        Path b = dir.resolve("sample folder");
        RecentFiles r = new RecentFiles(dir.resolve("cfg"));
        r.record(List.of(a));
        r.record(List.of(b, a));
        r.record(List.of(a)); // again: moves to the top
        assertEquals(List.of(List.of(a), List.of(b, a)), r.entries());
        assertEquals(List.of(List.of(a), List.of(b, a)), new RecentFiles(dir.resolve("cfg")).entries(), "read back by a new store");
        IntStream.range(0, 12).forEach(i -> {
            try {
                r.record(List.of(dir.resolve("f" + i)));
            } catch (java.io.IOException e) {
                throw new AssertionError(e);
            }
        });
        List<List<Path>> e = new RecentFiles(dir.resolve("cfg")).entries();
        assertEquals(RecentFiles.MAX, e.size());
        assertEquals(List.of(dir.resolve("f11")), e.get(0));
        r.clear();
        assertEquals(List.of(), new RecentFiles(dir.resolve("cfg")).entries());
    }

    @Test
    void relativePathsAreRecordedAbsoluteAndUnwritablePathsAreSkipped() throws Exception {
        RecentFiles r = new RecentFiles(dir);
        r.record(List.of(Path.of("x", "..", "y.txt")));
        assertEquals(List.of(List.of(Path.of("y.txt").toAbsolutePath())), r.entries());
        r.record(List.of(dir.resolve("tab\there")));
        assertEquals(1, r.entries().size(), "a path with a tab would break the line format");
    }

    @Test
    void aDamagedOrMissingFileIsAnEmptyListAndNoFolderPersistsNothing() throws Exception {
        Files.write(dir.resolve(RecentFiles.FILE), new byte[] {(byte) 0xff, (byte) 0xfe, 0, 1});
        assertEquals(List.of(), new RecentFiles(dir).entries());
        RecentFiles memory = new RecentFiles(null);
        memory.record(List.of(dir.resolve("a")));
        assertEquals(1, memory.entries().size());
    }

    @Test
    void labelsNameTheFirstPathAndHowManyMore() {
        assertEquals("ibnetdiscover.txt  (/data/x)", RecentFiles.label(List.of(Path.of("/data/x/ibnetdiscover.txt"))));
        assertEquals("ibnetdiscover.txt and 2 more  (/data/x)", RecentFiles.label(List.of(Path.of("/data/x/ibnetdiscover.txt"),
                Path.of("/a"), Path.of("/b"))));
    }
}
