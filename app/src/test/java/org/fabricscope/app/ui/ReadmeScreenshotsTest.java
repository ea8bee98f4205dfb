package org.fabricscope.app.ui;

import static org.fabricscope.app.nav.Samples.RAIL;
import static org.fabricscope.app.nav.Samples.TRAINING;
import static org.fabricscope.app.nav.Samples.paths;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import javax.imageio.ImageIO;

import org.fabricscope.app.prefs.UserState;
import org.fabricscope.app.render.ColourMode;
import org.fabricscope.model.fabric.Cable;
import org.fabricscope.model.fabric.Port;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import javafx.embed.swing.SwingFXUtils;
import javafx.scene.Scene;
import javafx.scene.control.TableView;
import javafx.scene.input.KeyCode;
import javafx.stage.Stage;
import javafx.stage.Window;

/**
 * The README's pictures of the window, taken the way the README says to get there (the bundled
 * sample's files, a search, a colour mode, a menu), each after checking that the window shows what
 * its caption says. They land in target/screenshots; copying them to docs/screenshots is by hand.
 * The window is 1280 x 800, the headless test screen's size.
 */
@ExtendWith(ApplicationExtension.class)
class ReadmeScreenshotsTest {
    /** Where the export writes, as a user's incident folder. */
    @TempDir
    Path incident;
    private MainView view;
    private Stage stage;

    @Start
    void start(Stage s) throws IOException {
        stage = s;
        view = new MainView(new FxTaskExecutor(), UserState.in(Files.createTempDirectory("fabricscope-shots")));
        Scene scene = new Scene(view, 1280, 800);
        scene.getStylesheets().add(FabricScopeApp.class.getResource("app.css").toExternalForm());
        s.setScene(scene);
        s.sizeToScene();
        s.show();
    }

    /** What {@code ./fabricscope} opens: the rail capture's dumps and its hosts' topologies. */
    private static List<Path> bundledIncident() throws IOException {
        Path rail = paths(RAIL).get(0);
        List<Path> files = new ArrayList<>(List.of(rail.resolve("ibnetdiscover.txt"), rail.resolve("iblinkinfo.txt"),
                rail.resolve("ibqueryerrors.txt")));
        try (Stream<Path> s = Files.list(rail)) {
            s.filter(p -> p.getFileName().toString().matches("perfquery-.*\\.txt")).sorted().forEach(files::add);
        }
        files.add(rail.resolve("hosts"));
        return files;
    }

    private void open(FxRobot robot, List<Path> inputs, String find) throws Exception {
        robot.interact(() -> view.open(inputs, false, find));
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> view.snapshot() != null && !view.viewModel().loader().isRunning());
        settle(robot);
    }

    private void colour(FxRobot robot, ColourMode mode) throws Exception {
        robot.interact(() -> view.viewModel().loader().colourModeProperty().set(mode));
        WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> view.snapshot().mode() == mode && !view.viewModel().loader().isRunning());
        settle(robot);
    }

    /** Until the map's frame is of the view as it is (renders follow 60 ms after it settles). */
    private void settle(FxRobot robot) throws Exception {
        WaitForAsyncUtils.waitForFxEvents();
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> WaitForAsyncUtils.asyncFx(() -> view.map().frameIsCurrent())
                .get(5, TimeUnit.SECONDS));
        WaitForAsyncUtils.waitForFxEvents();
    }

    private Cable degradedCable() {
        return view.snapshot().model().cables().stream().filter(c -> "1xHDR".equals(c.rateToken())).findFirst().orElseThrow();
    }

    @Test
    void speedMode(FxRobot robot) throws Exception {
        open(robot, bundledIncident(), null);
        colour(robot, ColourMode.SPEED);
        var layout = view.snapshot().layout();
        var colours = view.snapshot().colouring();
        Cable degraded = degradedCable();
        int link = layout.links().indexOf(layout.links().stream().filter(k -> k.cables().contains(degraded)).findFirst().orElseThrow());
        assertEquals(UiPalette.current().degraded(), colours.linkColour(link), "the 1x host link in magenta");
        assertEquals(2, layout.items().stream().filter(it -> colours.itemDownPorts(it.index()) > 0).count(),
                "badges on the two ends of the unplugged cable");
        Shots.save(view, "map-speed-mode.png");
    }

    @Test
    void inspectALeaf(FxRobot robot) throws Exception {
        open(robot, bundledIncident(), "leaf-su1-r3");
        assertEquals("leaf-su1-r3", view.inspector().titleText());
        Port p23 = view.inspector().shownPorts().stream().filter(p -> p.number() == 23).findFirst().orElseThrow();
        assertEquals(1873, p23.counter("SymbolErrorCounter"));
        TableView<?> ports = robot.lookup("#portTable").queryAs(TableView.class);
        robot.interact(() -> {
            view.setDividerPosition(0.5); // room for the Counters column
            ports.scrollTo(Math.max(0, view.inspector().shownPorts().indexOf(p23) - 12));
        });
        settle(robot);
        Shots.save(view, "inspect-leaf.png");
    }

    @Test
    void hostDrillDown(FxRobot robot) throws Exception {
        open(robot, bundledIncident(), "dgx-su2-h03");
        robot.clickOn("#openHost");
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> robot.lookup("#gpuPaths").tryQuery().isPresent());
        TableView<?> paths = robot.lookup("#gpuPaths").queryAs(TableView.class);
        assertEquals(8, paths.getItems().size(), "eight GPUs, each to its nearest NIC and leaf port");
        WaitForAsyncUtils.waitForFxEvents();
        screen("host-drilldown.png"); // the host window over the main window
    }

    @Test
    void transportModeWithRanks(FxRobot robot) throws Exception {
        Path rail = paths(RAIL).get(0);
        open(robot, List.of(rail.resolve("ibnetdiscover.txt"), rail.resolve("ibqueryerrors.txt"), rail.resolve("hosts"),
                paths(TRAINING).get(0)), "dgx-su2-h07");
        colour(robot, ColourMode.TRANSPORT);
        robot.interact(view.map()::fit); // the whole fabric, the found HCA still selected
        settle(robot);
        assertTrue(view.map().selection() != null && view.map().selection().displayName().startsWith("dgx-su2-h07"),
                "the found host is selected: its ranks' pairs are drawn");
        assertTrue(view.snapshot().ranks().sites().size() >= 16, "the training job's ranks are placed");
        assertTrue(view.inspector().titleText().startsWith("dgx-su2-h07"), view.inspector().titleText());
        Shots.save(view, "map-transport-ranks.png");
    }

    @Test
    void exportPicture(FxRobot robot) throws Exception {
        open(robot, bundledIncident(), null);
        Cable degraded = degradedCable();
        robot.interact(() -> {
            view.map().revealCable(degraded);
            view.map().zoom(1.25);
            view.map().problemsOnlyProperty().set(true);
        });
        settle(robot);
        Path written = incident.resolve("rail-incident-map.png");
        view.menu().setPictureChooser((owner, suggestion) -> written);
        robot.interact(() -> view.menu().exportPictureItem().fire());
        WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> view.viewModel().statusProperty().get().startsWith("Exported"));
        assertNotNull(ImageIO.read(written.toFile()), "what the export wrote: " + written);
        Files.copy(written, Files.createDirectories(Path.of("target", "screenshots")).resolve("export-picture-result.png"),
                java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        // the File menu, open on the item
        robot.clickOn("File");
        robot.moveTo("Export picture…");
        WaitForAsyncUtils.waitForFxEvents();
        assertTrue(Window.getWindows().stream().anyMatch(w -> w instanceof javafx.scene.control.ContextMenu && w.isShowing()),
                "the File menu is open");
        screen("export-picture-menu.png");
        robot.type(KeyCode.ESCAPE);
    }

    /**
     * The main window with the windows and menus over it, as a screen shows them: the headless
     * platform cannot read its screen back, so each showing window's scene is drawn at its place.
     */
    private void screen(String name) throws Exception {
        java.awt.image.BufferedImage shot = WaitForAsyncUtils.asyncFx(() -> {
            java.awt.image.BufferedImage out = SwingFXUtils.fromFXImage(stage.getScene().snapshot(null), null);
            java.awt.Graphics2D g = out.createGraphics();
            for (Window w : Window.getWindows()) {
                if (w != stage && w.isShowing() && w.getScene() != null) {
                    g.drawImage(SwingFXUtils.fromFXImage(w.getScene().snapshot(null), null),
                            (int) Math.round(w.getX() + w.getScene().getX() - stage.getX() - stage.getScene().getX()),
                            (int) Math.round(w.getY() + w.getScene().getY() - stage.getY() - stage.getScene().getY()), null);
                }
            }
            g.dispose();
            return out;
        }).get(10, TimeUnit.SECONDS);
        Path out = Files.createDirectories(Path.of("target", "screenshots"));
        ImageIO.write(shot, "png", out.resolve(name).toFile());
    }
}
