package org.fabricscope.app.logs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPOutputStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A log file read through a sparse line index: every line found again, terminators dropped, bundles re-read. */
class LogFileTest {
    @TempDir
    Path dir;

    private static String numbered(int n, String eol) {
        StringBuilder b = new StringBuilder();
        for (int i = 1; i <= n; i++) {
            b.append("line ").append(i).append(" ü").append(eol);
        }
        return b.toString();
    }

    private LogFile write(String name, String text) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, text, StandardCharsets.UTF_8);
        return LogFile.load(p.toString(), () -> false);
    }

    @Test
    void everyLineAcrossBlocksIsFoundInAnyOrder() throws IOException {
        int n = LogFile.BLOCK * 3 + 7;
        LogFile f = write("a.log", numbered(n, "\n"));
        assertEquals(n, f.lineCount());
        for (int i : new int[] {n - 1, 0, LogFile.BLOCK, LogFile.BLOCK - 1, 2 * LogFile.BLOCK + 5, 1}) {
            assertEquals("line " + (i + 1) + " ü", f.line(i));
        }
        assertThrows(IndexOutOfBoundsException.class, () -> f.line(n));
        assertEquals("", f.note());
    }

    @Test
    void crlfAndAMissingLastTerminatorAndEmptyLines() throws IOException {
        LogFile f = write("b.log", "first\r\n\r\nthird");
        assertEquals(3, f.lineCount());
        assertEquals(List.of("first", "", "third"), List.of(f.line(0), f.line(1), f.line(2)));
        assertEquals(0, write("empty.log", "").lineCount());
        assertEquals(1, write("one.log", "\n").lineCount());
    }

    @Test
    void aScanVisitsEveryLineInOrderAndStopsWhenAsked() throws IOException {
        LogFile f = write("c.log", numbered(200, "\n"));
        List<String> seen = new ArrayList<>();
        f.forEach((i, t) -> {
            assertEquals("line " + (i + 1) + " ü", t);
            seen.add(t);
            return true;
        }, () -> false);
        assertEquals(200, seen.size());
        List<Integer> first = new ArrayList<>();
        f.forEach((i, t) -> {
            first.add(i);
            return first.size() < 3;
        }, () -> false);
        assertEquals(List.of(0, 1, 2), first);
    }

    @Test
    void aVeryLongLineIsCutWithAMark() throws IOException {
        LogFile f = write("d.log", "x".repeat(LogFile.MAX_LINE_CHARS + 50) + "\nnext\n");
        assertTrue(f.line(0).endsWith(" …[line cut]"));
        assertEquals(LogFile.MAX_LINE_CHARS + " …[line cut]".length(), f.line(0).length());
        assertEquals("next", f.line(1));
    }

    @Test
    void aMemberOfAGzipIsReadFromItsArchiveAndAMissingSourceSaysSo() throws IOException {
        Path gz = dir.resolve("rank0.log.gz");
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(gz))) {
            out.write(numbered(70, "\n").getBytes(StandardCharsets.UTF_8));
        }
        String source = dir.resolve("rank0.log").toString(); // how the importer names a .gz's content
        LogFile f = LogFile.load(source, () -> false);
        assertEquals(70, f.lineCount());
        assertEquals("line 70 ü", f.line(69));
        NoSuchFileException e = assertThrows(NoSuchFileException.class,
                () -> LogFile.load(dir.resolve("gone.log").toString(), () -> false));
        assertTrue(e.getMessage().contains("gone.log"), e.getMessage());
    }

    @Test
    void indexingStopsWhenCancelled() throws IOException {
        Path p = dir.resolve("e.log");
        Files.writeString(p, numbered(1000, "\n"));
        assertThrows(java.util.concurrent.CancellationException.class, () -> LogFile.open(p, p.toString(), () -> true));
    }
}
