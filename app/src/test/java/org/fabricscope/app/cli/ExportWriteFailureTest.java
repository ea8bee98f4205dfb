package org.fabricscope.app.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import javax.imageio.ImageIO;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hostile places to write an export: a full disk ({@code /dev/full}: every write fails with ENOSPC, as
 * a full disk does, no root needed), a folder that does not exist, a temporary folder that cannot be
 * written. One line naming the file and the reason; no stack trace, no {@code imageio*.tmp} file left,
 * no empty or partial output; what was there before stays.
 */
class ExportWriteFailureTest {
    @TempDir
    Path dir;

    private Path fabric() throws IOException {
        Path p = dir.resolve("two-tier.ibnetdiscover.txt");
        try (InputStream in = ExportWriteFailureTest.class.getResourceAsStream("/fabrics/two-tier.ibnetdiscover.txt")) {
            Files.copy(in, p);
        }
        return p;
    }

    private static void assertOneCleanLine(CliTest.Run r, String file, String reason) {
        assertEquals(1, r.status(), r.err());
        List<String> lines = r.err().lines().toList();
        assertEquals(1, lines.size(), r.err());
        assertTrue(lines.get(0).startsWith("fabricscope: cannot write " + file + ": " + reason), r.err());
        assertFalse(r.err().contains("Exception") || r.err().contains("\tat ") || r.err().contains("java."), r.err());
    }

    @Test
    void pngToAFullDiskIsOneLineAndLeavesNoImageioCacheFile() throws IOException {
        assumeTrue(Files.exists(Path.of("/dev/full")), "Linux's /dev/full");
        Path cache = Files.createDirectory(dir.resolve("imageio-cache"));
        ImageIO.setCacheDirectory(cache.toFile()); // where ImageIO.write(image, "png", stream) would put imageio*.tmp
        try {
            CliTest.Run r = CliTest.run("export", "-f", "png", "-o", "/dev/full", fabric().toString());
            assertOneCleanLine(r, "/dev/full", "no space left on device");
            try (Stream<Path> left = Files.list(cache)) {
                assertEquals(List.of(), left.toList(), "no imageio cache file");
            }
        } finally {
            ImageIO.setCacheDirectory(null);
        }
    }

    @Test
    void textFormatsToAFullDiskAreOneLine() throws IOException {
        assumeTrue(Files.exists(Path.of("/dev/full")), "Linux's /dev/full");
        Path fabric = fabric();
        for (String f : List.of("graphml", "dot", "json", "svg")) {
            CliTest.Run r = CliTest.run("export", "-f", f, "-o", "/dev/full", fabric.toString());
            assertOneCleanLine(r, "/dev/full", "no space left on device");
        }
    }

    @Test
    void aMissingFolderIsNamedAndNothingIsWritten() throws IOException {
        Path out = dir.resolve("no-such-folder").resolve("map.png");
        CliTest.Run r = CliTest.run("export", "-f", "png", "-o", out.toString(), fabric().toString());
        assertOneCleanLine(r, out.toString(), "the folder ");
        assertFalse(Files.exists(out.getParent()));
    }

    @Test
    void aFolderAsTheTargetIsRefusedAndKept() throws IOException {
        Path out = Files.createDirectory(dir.resolve("out.graphml"));
        CliTest.Run r = CliTest.run("export", "-o", out.toString(), fabric().toString());
        assertOneCleanLine(r, out.toString(), "it is a folder");
        assertTrue(Files.isDirectory(out));
    }

    @Test
    void aFailedWriteLeavesThePreviousFileAndNoPartFile() throws IOException {
        Path out = dir.resolve("map.png");
        byte[] before = "the previous picture".getBytes(StandardCharsets.UTF_8);
        Files.write(out, before);
        // an absurd size fails before anything is drawn; the file stays as it was
        CliTest.Run r = CliTest.run("export", "-f", "png", "--width", "100000", "--height", "100000", "-o", out.toString(),
                fabric().toString());
        assertEquals(2, r.status(), r.err());
        assertTrue(r.err().contains("past the limit of 100,000,000 pixels (OutputLimits.MAX_PIXELS); nothing written"), r.err());
        assertFalse(r.err().contains("Exception"), r.err());
        assertArrayEquals(before, Files.readAllBytes(out));
        try (Stream<Path> files = Files.list(dir)) {
            assertEquals(List.of(), files.filter(p -> p.getFileName().toString().endsWith(".part")).toList());
        }
    }

    @Test
    void aGraphPastTheElementLimitIsRefusedByName() throws IOException {
        var model = new org.fabricscope.importers.FabricImporter().importPaths(List.of(fabric()),
                org.fabricscope.importers.ImportProgress.NONE, org.fabricscope.importers.core.Cancellation.NEVER).model();
        int elements = model.nodes().size() + model.cables().size();
        assertEquals(null, ExportCommand.graphTooLarge(model, ExportCommand.Kind.graphml, 0));
        String refused = ExportCommand.graphTooLarge(model, ExportCommand.Kind.dot,
                org.fabricscope.app.render.OutputLimits.MAX_ELEMENTS - elements + 1L);
        assertEquals("the dot export would hold 1,000,001 elements, past the limit of 1,000,000 (OutputLimits.MAX_ELEMENTS): "
                + "the file would run to gigabytes", refused);
    }

    /**
     * A temporary folder that cannot be written (java.io.tmpdir names a plain file, which even root cannot
     * create files in): ImageIO's disk cache used to fail there after the output had been opened, leaving
     * it empty. A fresh JVM, since the temporary folder is read once per JVM.
     */
    @Test
    void pngWithAnUnwritableTemporaryFolderIsWritten() throws Exception {
        Path notAFolder = Files.writeString(dir.resolve("tmp-is-a-file"), "x");
        Path out = dir.resolve("map.png");
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process p = new ProcessBuilder(java.toString(), "-Djava.io.tmpdir=" + notAFolder, "-Djava.awt.headless=true",
                "-cp", System.getProperty("java.class.path"), "org.fabricscope.app.Main", "export", "-f", "png",
                "-o", out.toString(), fabric().toString())
                .redirectErrorStream(true).start();
        String said = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "finished");
        assertEquals(0, p.exitValue(), said);
        assertFalse(said.contains("Exception"), said);
        assertNotNull(ImageIO.read(out.toFile()), "a whole PNG");
    }
}
