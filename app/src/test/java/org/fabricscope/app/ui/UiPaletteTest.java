package org.fabricscope.app.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ExecutionException;

import org.fabricscope.app.render.MapPalette;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import javafx.stage.Stage;

/** The palette JavaFX's CSS engine reads from app.css is the one the CLI reads from the same file as text. */
@ExtendWith(ApplicationExtension.class)
class UiPaletteTest {
    @TempDir
    Path dir;

    @Start
    void start(Stage stage) {
        // no window: the palette is read under a throwaway scene
    }

    @Test
    void theCssEngineAndTheTextReaderAgreeOnAppCss() throws Exception {
        MapPalette fx = WaitForAsyncUtils.asyncFx(() -> UiPalette.read(UiPalette.stylesheet())).get();
        assertEquals(MapPalette.defaults(), fx);
        assertSame(WaitForAsyncUtils.asyncFx(UiPalette::current).get(), WaitForAsyncUtils.asyncFx(UiPalette::current).get(),
                "read once");
        assertEquals(fx, WaitForAsyncUtils.asyncFx(UiPalette::current).get());
    }

    /** Every colour form the text reader accepts reads the same through JavaFX (alpha rounding included). */
    @Test
    void theyAgreeOnEveryColourFormTheTextReaderAccepts() throws Exception {
        String css = appCss()
                .replace("-fs-faint: #dde1e6;", "-fs-faint: rgba(10, 20, 30, 0.5);")
                .replace("-fs-unknown: #b8bec7;", "-fs-unknown: #abc;")
                .replace("-fs-job: #0969da;", "-fs-job: #11223380;")
                .replace("-fs-other-job: #9cc3f5;", "-fs-other-job: rgb(10%, 50%, 100%);")
                .replace("-fs-tier-host: #4b5563;", "-fs-tier-host: rgb(1, 2, 3);")
                .replace("-fs-map-hint: #808080;", "-fs-map-hint: -fs-tier-host;")
                .replace("-fs-map-badge: -fs-bg-default;", "-fs-map-badge: rgba(255, 255, 255, 0.9);");
        Path file = dir.resolve("variant.css");
        Files.writeString(file, css);
        MapPalette fx = WaitForAsyncUtils.asyncFx(() -> UiPalette.read(file.toUri().toString())).get();
        MapPalette text = MapPalette.parse(css);
        assertEquals(text, fx);
        assertEquals(0x800A141E, fx.faint());
        assertEquals(0xFF010203, fx.hint());
        assertEquals(0xE5FFFFFF, fx.badge());
    }

    @Test
    void aVariableMissingFromTheStylesheetIsNamed() throws IOException {
        Path file = dir.resolve("missing.css");
        Files.writeString(file, appCss().replace("-fs-tier-leaf: #2a9d8f;", ""));
        ExecutionException e = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class,
                () -> WaitForAsyncUtils.asyncFx(() -> UiPalette.read(file.toUri().toString())).get());
        assertInstanceOf(IllegalStateException.class, e.getCause());
        assertTrue(e.getCause().getMessage().contains("[-fs-tier-leaf]"), e.getCause().getMessage());
    }

    private static String appCss() throws IOException {
        try (InputStream in = UiPalette.class.getResourceAsStream("app.css")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
