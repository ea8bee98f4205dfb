package org.fabricscope.app.ui;

import static org.fabricscope.app.nav.Samples.RAIL;
import static org.fabricscope.app.nav.Samples.paths;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import javax.imageio.ImageIO;
import javax.xml.parsers.DocumentBuilderFactory;

import org.fabricscope.app.prefs.UserState;
import org.fabricscope.app.render.ColourMode;
import org.fabricscope.app.render.MapPalette;
import org.fabricscope.app.render.Viewport;
import org.fabricscope.model.fabric.Cable;
import org.fabricscope.model.fabric.LinkSpeed;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;
import org.w3c.dom.Document;

import javafx.scene.Scene;
import javafx.scene.control.DialogPane;
import javafx.scene.control.MenuItem;
import javafx.scene.image.PixelReader;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyCodeCombination;
import javafx.scene.input.KeyCombination;
import javafx.stage.Stage;

/**
 * File › Export picture… in the real window: disabled with nothing loaded, and with a fabric loaded
 * it writes the map as shown (the view's size, zoom and pan, colour mode and problems-only filter)
 * as PNG or SVG, through the menu item, with a path given in place of the save dialog.
 */
@ExtendWith(ApplicationExtension.class)
class ExportPictureTest {
    /** The title band's height: the view starts below it in the picture. */
    private static final int TOP = (int) org.fabricscope.app.render.PictureCaption.TOP;

    @TempDir
    Path dir;
    private MainView view;
    private final List<Path> asked = new CopyOnWriteArrayList<>();

    @Start
    void start(Stage stage) throws Exception {
        view = new MainView(new FxTaskExecutor(), UserState.in(Files.createTempDirectory("fabricscope-export-test")));
        Scene scene = new Scene(view, 1200, 800);
        scene.getStylesheets().add(FabricScopeApp.class.getResource("app.css").toExternalForm());
        stage.setScene(scene);
        stage.show();
    }

    private void load(FxRobot robot) throws Exception {
        List<Path> inputs = paths(RAIL);
        robot.interact(() -> view.open(inputs, false));
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> view.snapshot() != null && !view.viewModel().loader().isRunning());
        WaitForAsyncUtils.waitForFxEvents();
    }

    /** Exports through the menu item to {@code file}, as if the save dialog had returned it; waits for the outcome. */
    private void export(FxRobot robot, Path file) throws Exception {
        asked.clear();
        view.menu().setPictureChooser((owner, suggestion) -> {
            asked.add(suggestion);
            return file;
        });
        robot.interact(() -> view.menu().exportPictureItem().fire());
        WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> status().startsWith("Exported the map") || status().startsWith("Could not"));
        assertEquals(1, asked.size(), "the save dialog was asked once");
    }

    private String status() {
        return view.viewModel().statusProperty().get();
    }

    /** Waits until the map's frame is rendered for the view as it is now (renders run 60 ms after the view settles). */
    private void settled() throws Exception {
        WaitForAsyncUtils.waitForFxEvents();
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> WaitForAsyncUtils.asyncFx(() -> view.map().frameIsCurrent())
                .get(5, TimeUnit.SECONDS));
    }

    private Cable degradedCable() {
        return view.snapshot().model().cables().stream().filter(c -> "1xHDR".equals(c.rateToken())).findFirst()
                .orElseThrow(() -> new AssertionError("the rail sample's 1xHDR cable"));
    }

    @Test
    void theMenuItemIsDisabledWithNothingLoaded(FxRobot robot) throws Exception {
        MenuItem item = view.menu().exportPictureItem();
        assertEquals("Export picture…", item.getText());
        assertEquals(new KeyCodeCombination(KeyCode.S, KeyCombination.SHORTCUT_DOWN, KeyCombination.SHIFT_DOWN), item.getAccelerator());
        assertTrue(view.menu().shortcutsText().lines().anyMatch(l -> l.startsWith(item.getAccelerator().getDisplayText() + " ")
                && l.endsWith("File › Export picture…")), "in F1's list:\n" + view.menu().shortcutsText());
        assertTrue(item.isDisable(), "no model, no picture");
        view.menu().setPictureChooser((owner, suggestion) -> {
            asked.add(suggestion);
            return null; // the user cancels
        });
        robot.clickOn(view.map()).press(KeyCode.CONTROL, KeyCode.SHIFT).type(KeyCode.S).release(KeyCode.SHIFT, KeyCode.CONTROL);
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals(List.of(), asked, "the shortcut does nothing while the item is disabled");

        load(robot);
        assertFalse(item.isDisable());
        robot.clickOn(view.map()).press(KeyCode.CONTROL, KeyCode.SHIFT).type(KeyCode.S).release(KeyCode.SHIFT, KeyCode.CONTROL);
        WaitForAsyncUtils.waitFor(5, TimeUnit.SECONDS, () -> asked.size() == 1);
        assertEquals(Path.of("rail-2su-hdr-errors.png"), asked.get(0), "a name after the inputs and the colour mode");
        assertFalse(status().startsWith("Export"), "cancelled: nothing exported: " + status());
    }

    @Test
    void thePngIsTheMapAsShownWithTheDegradedLinkInTheErrorColour(FxRobot robot) throws Exception {
        load(robot);
        Cable degraded = degradedCable();
        // zoomed and panned away from the fit: centred on the degraded cable, then closer
        robot.interact(() -> {
            view.map().revealCable(degraded);
            view.map().zoom(1.5);
        });
        settled();
        Viewport shown = WaitForAsyncUtils.asyncFx(() -> view.map().viewport()).get(5, TimeUnit.SECONDS);
        assertNotEquals(Viewport.fit(view.snapshot().layout(), shown.width(), shown.height()).scale(), shown.scale(), "not the fit");
        Path file = dir.resolve("shown.png");
        export(robot, file);
        BufferedImage png = ImageIO.read(file.toFile());
        assertNotNull(png, "a PNG ImageIO decodes");
        assertTrue(status().startsWith("Exported the map as shown (Error counters, " + shown.width() + " × " + png.getHeight()
                + " px) to " + file), status());
        assertEquals((int) Math.ceil(view.map().getWidth()), png.getWidth(), "the map's width");
        // the view as shown, with the title band above it and the legend below, covering none of it
        assertTrue(png.getHeight() > (int) Math.ceil(view.map().getHeight()) + TOP, "the map's height and the bands: " + png.getHeight());
        MapPalette p = UiPalette.current();
        double[] at = WaitForAsyncUtils.asyncFx(() -> view.map().cableScreenPosition(degraded)).get(5, TimeUnit.SECONDS);
        assertTrue(near(png, at[0], at[1] + TOP, p.danger()), "the error colour where the view draws the 1xHDR link, at " + at[0] + ", " + at[1]);
        // and everywhere else the picture is the view's own frame, but for the text drawn over it
        PixelReader frame = WaitForAsyncUtils.asyncFx(() -> view.map().frameImage().getPixelReader()).get(5, TimeUnit.SECONDS);
        double same = WaitForAsyncUtils.asyncFx(() -> sameFraction(png, frame, (int) Math.ceil(view.map().getHeight()))).get(30, TimeUnit.SECONDS);
        assertTrue(same > 0.97, "the export matches the view's frame at " + same);
    }

    @Test
    void theColourModeAndProblemsOnlyFilterAreTheViews(FxRobot robot) throws Exception {
        load(robot);
        robot.interact(() -> view.viewModel().loader().colourModeProperty().set(ColourMode.SPEED));
        WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> view.snapshot().mode() == ColourMode.SPEED
                && !view.viewModel().loader().isRunning());
        settled();
        MapPalette p = UiPalette.current();
        int hdr = p.speed(LinkSpeed.HDR);
        Path all = dir.resolve("speed.png");
        export(robot, all);
        robot.interact(() -> view.map().problemsOnlyProperty().set(true));
        settled();
        Path problems = dir.resolve("speed-problems.png");
        export(robot, problems);
        assertTrue(status().contains("(Speed / width, problems only, "), status());

        BufferedImage a = ImageIO.read(all.toFile());
        BufferedImage b = ImageIO.read(problems.toFile());
        assertTrue(count(a, hdr) > 1000, "the healthy HDR cables in their speed colour: " + count(a, hdr));
        // problems only: the healthy cables are left out; the problem cables stay (the symbol errors' one is HDR too)
        assertTrue(count(b, hdr) * 5 < count(a, hdr), "problems only: " + count(b, hdr) + " of " + count(a, hdr) + " HDR pixels");
        double[] at = WaitForAsyncUtils.asyncFx(() -> view.map().cableScreenPosition(degradedCable())).get(5, TimeUnit.SECONDS);
        assertTrue(near(a, at[0], at[1] + TOP, p.degraded()) && near(b, at[0], at[1] + TOP, p.degraded()),
                "the 1x link in the degraded colour of the speed mode");
    }

    @Test
    void theSvgIsValidXmlWithTheMapsElements(FxRobot robot) throws Exception {
        load(robot);
        Path file = dir.resolve("map.svg");
        export(robot, file);
        assertTrue(status().startsWith("Exported the map as shown"), status());
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        Document doc = f.newDocumentBuilder().parse(new ByteArrayInputStream(Files.readAllBytes(file)));
        assertEquals("svg", doc.getDocumentElement().getTagName());
        assertEquals(String.valueOf((int) Math.ceil(view.map().getWidth())), doc.getDocumentElement().getAttribute("width"));
        assertTrue(doc.getElementsByTagName("path").getLength() >= 2, "cables, one path per colour");
        assertTrue(doc.getElementsByTagName("rect").getLength() > 24, "glyphs");
        assertTrue(doc.getElementsByTagName("text").getLength() >= 3, "the rows' names at least");
        String danger = String.format("#%06x", UiPalette.current().danger() & 0xFFFFFF);
        assertTrue(Files.readString(file).contains("stroke=\"" + danger + "\""), "the degraded link in the error colour");
        assertTrue(Files.readString(file).contains("<g class=\"title\"") && Files.readString(file).contains("<g class=\"legend\""),
                "the title and the legend");
    }

    @Test
    void aFailedExportSaysWhyInWords(FxRobot robot) throws Exception {
        load(robot);
        Path file = dir.resolve("gone").resolve("map.png");
        export(robot, file);
        assertTrue(status().startsWith("Could not export the map picture to " + file), status());
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> robot.lookup(".dialog-pane").tryQuery().isPresent());
        DialogPane pane = robot.lookup(".dialog-pane").queryAs(DialogPane.class);
        assertEquals("Export picture failed", pane.getHeaderText());
        assertTrue(pane.getContentText().contains("the folder " + file.getParent() + " does not exist"), pane.getContentText());
        assertFalse(pane.getContentText().contains("Exception") || pane.getContentText().contains("\tat "), "no stack trace");
        robot.type(KeyCode.ESCAPE);
        assertFalse(Files.exists(file.getParent()));
    }

    /** The colour within a pixel of (x, y). */
    private static boolean near(BufferedImage img, double x, double y, int argb) {
        for (int dy = -1; dy <= 1; dy++) {
            for (int dx = -1; dx <= 1; dx++) {
                int px = (int) Math.round(x) + dx;
                int py = (int) Math.round(y) + dy;
                if (px >= 0 && py >= 0 && px < img.getWidth() && py < img.getHeight()
                        && (img.getRGB(px, py) & 0xFFFFFF) == (argb & 0xFFFFFF)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static int count(BufferedImage img, int argb) {
        int n = 0;
        for (int y = 0; y < img.getHeight(); y++) {
            for (int x = 0; x < img.getWidth(); x++) {
                n += (img.getRGB(x, y) & 0xFFFFFF) == (argb & 0xFFFFFF) ? 1 : 0;
            }
        }
        return n;
    }

    /** The share of the view's pixels, below the title band, that are the frame's (FX thread). */
    private static double sameFraction(BufferedImage png, PixelReader frame, int height) {
        long same = 0;
        for (int y = 0; y < height; y++) {
            for (int x = 0; x < png.getWidth(); x++) {
                same += (png.getRGB(x, y + TOP) & 0xFFFFFF) == (frame.getArgb(x, y) & 0xFFFFFF) ? 1 : 0;
            }
        }
        return same / (double) ((long) png.getWidth() * height);
    }
}
