package org.fabricscope.app.ui;

import static org.fabricscope.app.nav.Samples.RAIL;
import static org.fabricscope.app.nav.Samples.paths;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import javax.imageio.ImageIO;

import org.fabricscope.app.render.Viewport;
import org.fabricscope.app.task.CurrentThreadTaskExecutor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** File › Export picture…'s view model without a stage: formats, where it writes, what it says on failure. */
class ExportPictureViewModelTest {
    private final RecordingDialogs dialogs = new RecordingDialogs();
    private final MainViewModel main = new MainViewModel(new CurrentThreadTaskExecutor(), dialogs);
    private final ExportPictureViewModel vm = main.pictures();

    @TempDir
    Path dir;

    private Viewport view() {
        return Viewport.fit(main.snapshot().layout(), 800, 500);
    }

    @Test
    void disabledUntilSomethingIsLoaded() {
        assertTrue(vm.disabledProperty().get());
        vm.export(dir.resolve("map.png"), new Viewport(800, 500, 1, 0, 0), false);
        assertEquals("Nothing to export: load some inputs first", main.statusProperty().get());
        assertEquals(List.of(), dialogs.shown);
        main.open(paths(RAIL), false, null);
        assertFalse(vm.disabledProperty().get());
    }

    @Test
    void anEmptyMapIsRefusedNotReportedAsWritten() throws IOException {
        main.open(paths(org.fabricscope.app.nav.Samples.K8S), false, null); // Kubernetes objects, no fabric
        assertTrue(main.snapshot().layout().items().isEmpty());
        assertTrue(vm.disabledProperty().get(), "nothing on the map, nothing to export");
        vm.export(dir.resolve("map.png"), new Viewport(800, 500, 1, 0, 0), false);
        assertEquals("Nothing exported: the map is empty", main.statusProperty().get());
        assertEquals(List.of("error: Nothing to export"), dialogs.shown);
        assertEquals(List.of(), list(dir), "no file written");
    }

    @Test
    void theWholeFabricFitsTheViewsSizeWithItsTitleAndLegend() throws Exception {
        main.open(paths(RAIL), false, null);
        Path file = dir.resolve("whole.svg");
        vm.export(file, new Viewport(800, 500, 9, -4000, -3000), false, true);
        String svg = Files.readString(file);
        assertTrue(svg.contains("width=\"800\" height=\"500\""), "the view's size");
        assertTrue(svg.contains("<g class=\"legend\""), "the legend");
        assertTrue(svg.matches("(?s).*<text x=\"10\" y=\"18\"[^>]*>rail-2su-hdr · files of [0-9: -]+ UTC · Error counters "
                + "· whole fabric</text>.*"), "the title names the capture and its time");
        assertTrue(main.statusProperty().get().startsWith("Exported the whole fabric (Error counters, 800 × 500 px) to "),
                main.statusProperty().get());
    }

    @Test
    void writesAPngOfTheViewsSizeAndSaysWhatItWrote() throws IOException {
        main.open(paths(RAIL), false, null);
        Path file = dir.resolve("map.PNG");
        vm.export(file, view(), true);
        BufferedImage img = ImageIO.read(file.toFile());
        assertNotNull(img, "a PNG ImageIO reads, whatever the extension's case");
        assertEquals(800, img.getWidth());
        // the view's 500 px, with the title band above and the legend's one line below
        assertEquals(500 + 26 + 26, img.getHeight());
        assertEquals("Exported the map as shown (Error counters, problems only, 800 × 552 px) to " + file.toAbsolutePath(),
                main.statusProperty().get());
        assertEquals(List.of(), dialogs.shown);
        assertEquals(List.of(file), list(dir), "no part file left behind");
        if (Files.getFileStore(dir).supportsFileAttributeView("posix")) {
            Path plain = Files.createFile(Files.createDirectories(dir.resolve("probe")).resolve("plain"));
            assertEquals(Files.getPosixFilePermissions(plain), Files.getPosixFilePermissions(file),
                    "readable as any new file is, not owner-only like a temp file");
            Files.delete(plain);
            Files.delete(plain.getParent());
        }
        assertEquals(dir.toAbsolutePath().resolve("rail-2su-hdr-errors.png"), vm.suggestedFile(), "the next one starts here");
    }

    @Test
    void replacesAnExistingFileWithAnSvg() throws IOException {
        main.open(paths(RAIL), false, null);
        Path file = dir.resolve("map.svg");
        Files.writeString(file, "old");
        vm.export(file, view(), false);
        String svg = Files.readString(file);
        assertTrue(svg.startsWith("<?xml") && svg.contains("<svg ") && svg.trim().endsWith("</svg>"), svg.substring(0, 80));
        assertEquals(List.of(file), list(dir));
    }

    @Test
    void aNameWithoutAPictureExtensionIsRefused() throws IOException {
        main.open(paths(RAIL), false, null);
        vm.export(dir.resolve("map.jpg"), view(), false);
        assertEquals(List.of("error: Export picture failed"), dialogs.shown);
        assertTrue(main.statusProperty().get().contains("must end in .png or .svg"), main.statusProperty().get());
        assertEquals(List.of(), list(dir));
    }

    @Test
    void aMissingFolderIsNamedInTheErrorAndNothingIsWritten() throws IOException {
        main.open(paths(RAIL), false, null);
        Path file = dir.resolve("no-such-folder").resolve("map.png");
        vm.export(file, view(), false);
        assertEquals(List.of("error: Export picture failed"), dialogs.shown);
        assertEquals("Could not export the map picture to " + file.toAbsolutePath() + ": the folder "
                + file.toAbsolutePath().getParent() + " does not exist", main.statusProperty().get());
        assertEquals(List.of(), list(dir));
        assertEquals(Path.of("rail-2su-hdr-errors.png"), vm.suggestedFile(), "a failed export moves no folder");
    }

    /** A link named map.png to /dev/full: the picture is encoded, and every byte written fails as on a full disk. */
    @Test
    void aFullDiskIsNamedInWordsAndTheLinkKept() throws IOException {
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.exists(Path.of("/dev/full")), "Linux's /dev/full");
        main.open(paths(RAIL), false, null);
        Path file = Files.createSymbolicLink(dir.resolve("map.png"), Path.of("/dev/full"));
        vm.export(file, view(), false);
        assertEquals(List.of("error: Export picture failed"), dialogs.shown);
        assertEquals("Could not export the map picture to " + file.toAbsolutePath() + ": No space left on device",
                main.statusProperty().get());
        assertTrue(Files.isSymbolicLink(file), "the link is not replaced by a file");
        assertEquals(List.of(file), list(dir));
    }

    @Test
    void theIncidentReportToAFullDiskSaysWhy() throws IOException {
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.exists(Path.of("/dev/full")), "Linux's /dev/full");
        main.open(paths(RAIL), false, null);
        Path file = Files.createSymbolicLink(dir.resolve("report.md"), Path.of("/dev/full"));
        main.exportReport(file, null);
        assertTrue(main.statusProperty().get().startsWith("Could not write " + file + ": no space left on device"),
                main.statusProperty().get());
    }

    @Test
    void reasonsAreWordsNotExceptionNames() {
        assertEquals("permission denied (/x/map.png)", ExportPictureViewModel.reason(new AccessDeniedException("/x/map.png")));
        assertEquals("no space left on device (/x/map.png)", ExportPictureViewModel.reason(
                new java.nio.file.FileSystemException("/x/map.png", null, "No space left on device")));
        assertEquals("an unexpected IllegalStateException", ExportPictureViewModel.reason(new IllegalStateException()));
    }

    @Test
    void theFormatIsTheExtension() {
        assertEquals(ExportPictureViewModel.Format.PNG, ExportPictureViewModel.Format.of(Path.of("a/b.png")));
        assertEquals(ExportPictureViewModel.Format.SVG, ExportPictureViewModel.Format.of(Path.of("b.SVG")));
        assertNull(ExportPictureViewModel.Format.of(Path.of("png")));
        assertNull(ExportPictureViewModel.Format.of(Path.of("b.svg.txt")));
    }

    private static List<Path> list(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.sorted().toList();
        }
    }
}
