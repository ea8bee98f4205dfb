package org.fabricscope.app.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import javax.imageio.IIOException;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OutputFileTest {
    @TempDir
    Path dir;

    private List<String> names() throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void aWriteThatFailsHalfWayLeavesTheOldFileAndNoPart() throws IOException {
        Path out = Files.writeString(dir.resolve("report.md"), "old");
        IOException e = assertThrows(IOException.class, () -> OutputFile.write(out, o -> {
            o.write("half of the new".getBytes(StandardCharsets.UTF_8));
            throw new FileSystemException(null, null, "No space left on device");
        }));
        assertEquals("no space left on device", OutputFile.reason(e));
        assertEquals("old", Files.readString(out));
        assertEquals(List.of("report.md"), names());
    }

    @Test
    void aNewFileThatFailsIsNotCreated() {
        Path out = dir.resolve("map.png");
        assertThrows(IOException.class, () -> OutputFile.write(out, o -> {
            throw new IOException("disk gone");
        }));
        assertTrue(Files.notExists(out));
    }

    @Test
    void aLinkIsFollowedAndKept() throws IOException {
        Path real = Files.writeString(dir.resolve("real.svg"), "old");
        Path link = Files.createSymbolicLink(dir.resolve("link.svg"), real.getFileName());
        OutputFile.write(link, o -> o.write("new".getBytes(StandardCharsets.UTF_8)));
        assertTrue(Files.isSymbolicLink(link));
        assertEquals("new", Files.readString(real));
    }

    @Test
    void aDeviceIsWrittenInPlaceAndNeverReplaced() throws IOException {
        Path full = Path.of("/dev/full");
        assumeTrue(Files.exists(full), "Linux's /dev/full");
        IOException e = assertThrows(IOException.class, () -> OutputFile.write(full, o -> o.write(new byte[1 << 16])));
        assertEquals("no space left on device", OutputFile.reason(e));
        assertTrue(!Files.isRegularFile(full), "still the device");
        try (Stream<Path> s = Files.list(Path.of("/dev"))) {
            assertEquals(List.of(), s.filter(p -> p.getFileName().toString().startsWith(".full.")).toList(), "no part file in /dev");
        }
    }

    @Test
    void reasonsAreTheSystemsWordsUnderAnyWrapping() {
        assertEquals("no space left on device",
                OutputFile.reason(new IIOException("I/O error writing PNG file!", new IOException("No space left on device"))));
        assertEquals("permission denied", OutputFile.reason(new AccessDeniedException("/x/.map.png.1f.part")));
        assertEquals("read-only file system", OutputFile.reason(new FileSystemException("/x", null, "Read-only file system")));
        assertEquals("not enough memory for an output this size", OutputFile.reason(new OutOfMemoryError("Java heap space")));
        assertEquals("an unexpected failure while writing", OutputFile.reason(new IllegalStateException()));
        assertEquals("cannot write /x/map.png: permission denied",
                OutputFile.failure(Path.of("/x/map.png"), new AccessDeniedException("/x/map.png")));
    }
}
