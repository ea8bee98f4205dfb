package org.fabricscope.app.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import javax.imageio.ImageIO;

import org.fabricscope.app.nav.Samples;
import org.fabricscope.app.prefs.UserState;
import org.fabricscope.model.core.Guids;
import org.fabricscope.model.core.Vertex;
import org.fabricscope.model.fabric.FabricNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import javafx.embed.swing.SwingFXUtils;
import javafx.scene.Scene;
import javafx.scene.control.ListView;
import javafx.scene.control.Menu;
import javafx.scene.control.MenuItem;
import javafx.scene.input.Clipboard;
import javafx.scene.input.KeyCode;
import javafx.scene.input.MouseButton;
import javafx.stage.Stage;
import javafx.stage.Window;

/**
 * The desktop basics in a real window: recent files across a restart, F1's list, Esc on a secondary
 * window, search that shows every match verbatim, and Copy from a map item's context menu.
 */
@ExtendWith(ApplicationExtension.class)
class DesktopBasicsTest {
    @TempDir
    Path dir;
    private MainView view;
    private Stage stage;
    private Path config;

    @Start
    void start(Stage s) throws Exception {
        stage = s;
        config = Files.createTempDirectory("fabricscope-desktop-test");
        view = new MainView(new FxTaskExecutor(), UserState.in(config));
        Scene scene = new Scene(view, 1200, 800);
        scene.getStylesheets().add(FabricScopeApp.class.getResource("app.css").toExternalForm());
        s.setScene(scene);
        s.show();
    }

    private Path fixture(String name) throws Exception {
        Path p = dir.resolve(name);
        if (!Files.exists(p)) {
            try (InputStream in = getClass().getResourceAsStream("/fabrics/" + name)) {
                Files.copy(in, p);
            }
        }
        return p;
    }

    private void load(FxRobot robot, MainView v, List<Path> paths) throws Exception {
        robot.interact(() -> v.open(paths, false));
        WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> v.snapshot() != null && !v.viewModel().loader().isRunning());
        WaitForAsyncUtils.waitForFxEvents();
    }

    @Test
    void recentFilesPersistAcrossARestart(FxRobot robot) throws Exception {
        Path fabric = fixture("two-tier.ibnetdiscover.txt");
        load(robot, view, List.of(fabric));
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> Files.exists(config.resolve("recent-files.txt")));
        Menu recent = view.menu().openRecentMenu();
        assertTrue(recent.getItems().get(0).getText().startsWith("two-tier.ibnetdiscover.txt"), recent.getItems().get(0).getText());
        // a second app instance on the same store: the list is there, and its item opens the file
        MainView[] second = new MainView[1];
        robot.interact(() -> {
            view.dispose();
            second[0] = new MainView(new FxTaskExecutor(), UserState.in(config));
            stage.getScene().setRoot(second[0]);
        });
        MainView restarted = second[0];
        assertTrue(restarted.snapshot() == null, "a fresh window");
        MenuItem first = restarted.menu().openRecentMenu().getItems().get(0);
        assertEquals(recent.getItems().get(0).getText(), first.getText());
        assertFalse(first.isMnemonicParsing(), "names verbatim");
        robot.interact(first::fire);
        WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> restarted.snapshot() != null);
        assertEquals(List.of(fabric.toAbsolutePath().normalize()), restarted.snapshot().paths());
        // Clear empties the menu and the store
        MenuItem clear = restarted.menu().openRecentMenu().getItems().get(restarted.menu().openRecentMenu().getItems().size() - 1);
        assertEquals("Clear recent files", clear.getText());
        robot.interact(clear::fire);
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> UserState.in(config).recentFiles().entries().isEmpty());
        assertTrue(restarted.menu().openRecentMenu().getItems().get(0).isDisable(), "(no recent files)");
        robot.interact(restarted::dispose);
        view = restarted;
    }

    @Test
    void f1ListsEveryMenuAcceleratorAndTheShortcutsOutsideMenus(FxRobot robot) {
        String text = view.menu().shortcutsText();
        List<String> accelerators = new ArrayList<>();
        for (Menu m : view.menu().getMenus()) {
            collect(m, accelerators);
        }
        assertTrue(accelerators.size() >= 20, accelerators.toString());
        for (String a : accelerators) {
            assertTrue(text.lines().anyMatch(l -> l.startsWith(a + " ")), a + " missing from F1's list:\n" + text);
        }
        for (String k : List.of("Ctrl+3", "Ctrl+4", "Ctrl+K", "Ctrl+Shift+R", "Ctrl+Shift+K", "Ctrl+Shift+L", "F1")) {
            assertTrue(text.lines().anyMatch(l -> l.startsWith(k + " ")), k + " missing:\n" + text);
        }
        assertTrue(text.contains("Esc, Ctrl+W"), "the shortcuts no menu holds");
    }

    private static void collect(Menu m, List<String> out) {
        for (MenuItem i : m.getItems()) {
            if (i instanceof Menu sub) {
                collect(sub, out);
            } else if (i.getAccelerator() != null) {
                out.add(i.getAccelerator().getDisplayText());
            }
        }
    }

    @Test
    void escAndCtrlWCloseTheHostWindow(FxRobot robot) throws Exception {
        load(robot, view, List.of(fixture("two-tier.ibnetdiscover.txt"), fixture("gpu-01.topo.xml")));
        robot.clickOn("#search").write("gpu-01").type(KeyCode.ENTER);
        WaitForAsyncUtils.waitForFxEvents();
        robot.clickOn("#openHost");
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> hostWindow() != null);
        Window host = hostWindow();
        robot.interact(host::requestFocus);
        robot.clickOn("#gpuPaths"); // a focused table must not swallow Esc
        robot.type(KeyCode.ESCAPE);
        WaitForAsyncUtils.waitFor(5, TimeUnit.SECONDS, () -> !host.isShowing());
        robot.clickOn("#openHost");
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> hostWindow() != null);
        Window again = hostWindow();
        robot.clickOn("#gpuPaths");
        robot.press(KeyCode.CONTROL).type(KeyCode.W).release(KeyCode.CONTROL);
        WaitForAsyncUtils.waitFor(5, TimeUnit.SECONDS, () -> !again.isShowing());
        assertTrue(stage.isShowing(), "the main window stays");
    }

    private static Window hostWindow() {
        return Window.getWindows().stream().filter(w -> w instanceof Stage s && s.getTitle() != null
                && s.getTitle().startsWith("FabricScope — host ") && s.isShowing()).findFirst().orElse(null);
    }

    @Test
    void searchListsEveryMatchWithItsNameVerbatim(FxRobot robot) throws Exception {
        Path rail = Samples.RAIL;
        List<Path> inputs = List.of(rail.resolve("ibnetdiscover.txt"));
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.exists(inputs.get(0)), "run from the app module");
        load(robot, view, inputs);
        robot.clickOn("#search").write("mlx5_0").type(KeyCode.ENTER);
        WaitForAsyncUtils.waitFor(5, TimeUnit.SECONDS, () -> robot.lookup("#searchMatches").tryQuery().isPresent());
        ListView<?> list = robot.lookup("#searchMatches").queryAs(ListView.class);
        long expected = view.snapshot().model().search("mlx5_0", Integer.MAX_VALUE).size();
        assertTrue(expected > 30, "the sample has an mlx5_0 on each of its 32 hosts: " + expected);
        assertEquals(expected, list.getItems().size(), "every match, not the first 30");
        assertEquals(expected + " matches for \"mlx5_0\"", robot.lookup("#searchMatchCount").queryLabeled().getText());
        List<String> shown = robot.lookup("#searchMatches .list-cell").queryAllAs(javafx.scene.control.ListCell.class).stream()
                .map(c -> c.getText()).filter(t -> t != null).toList();
        assertFalse(shown.isEmpty());
        assertTrue(shown.stream().allMatch(t -> t.contains("mlx5_0")), "verbatim, underscore kept: " + shown);
        saveScreenshot(robot, "search-matches.png");
        // Enter goes to the selected match
        Vertex firstMatch = (Vertex) list.getItems().get(0);
        robot.type(KeyCode.ENTER);
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals(firstMatch, view.map().selection());
    }

    @Test
    void aMapItemsContextMenuCopiesItsGuid(FxRobot robot) throws Exception {
        load(robot, view, List.of(fixture("two-tier.ibnetdiscover.txt")));
        FabricNode leaf = (FabricNode) view.snapshot().model().search("leaf-01", 1).get(0);
        double[] at = view.map().screenPosition(leaf);
        javafx.geometry.Point2D screen = view.map().localToScreen(at[0], at[1]);
        robot.moveTo(screen).clickOn(MouseButton.SECONDARY);
        WaitForAsyncUtils.waitForFxEvents();
        contextMenuIfNoneShown(robot, view.map().getParent(), at[0], at[1], screen);
        assertTrue(Window.getWindows().stream().anyMatch(w -> w instanceof javafx.scene.control.ContextMenu && w.isShowing()),
                "a context menu on the map item");
        String guid = Guids.format(leaf.guid());
        saveScreenshot(robot, "map-context-menu.png");
        robot.clickOn("Copy GUID  " + guid);
        WaitForAsyncUtils.waitForFxEvents();
        String copied = WaitForAsyncUtils.asyncFx(() -> Clipboard.getSystemClipboard().getString()).get(5, TimeUnit.SECONDS);
        assertEquals(guid, copied);
    }

    @Test
    void aTableRowsContextMenuCopiesACell(FxRobot robot) throws Exception {
        load(robot, view, List.of(fixture("two-tier.ibnetdiscover.txt")));
        FabricNode leaf = (FabricNode) view.snapshot().model().search("leaf-01", 1).get(0);
        robot.interact(() -> view.viewModel().reveal(leaf));
        WaitForAsyncUtils.waitForFxEvents();
        javafx.scene.control.TableView<?> ports = robot.lookup("#portTable").queryAs(javafx.scene.control.TableView.class);
        assertFalse(ports.getItems().isEmpty());
        javafx.scene.Node row = robot.lookup("#portTable .table-row-cell").nth(0).queryAs(javafx.scene.Node.class);
        robot.rightClickOn(row);
        WaitForAsyncUtils.waitForFxEvents();
        javafx.geometry.Bounds b = row.localToScreen(row.getBoundsInLocal());
        javafx.geometry.Point2D p = new javafx.geometry.Point2D(b.getMinX() + 20, b.getCenterY());
        javafx.geometry.Point2D local = ports.screenToLocal(p);
        contextMenuIfNoneShown(robot, ports, local.getX(), local.getY(), p);
        robot.clickOn("Copy row");
        WaitForAsyncUtils.waitForFxEvents();
        String copied = WaitForAsyncUtils.asyncFx(() -> Clipboard.getSystemClipboard().getString()).get(5, TimeUnit.SECONDS);
        assertTrue(copied != null && copied.contains("\t") && copied.startsWith(
                String.valueOf(((javafx.scene.control.TableColumn<?, ?>) ports.getColumns().get(0)).getCellData(0))), copied);
        // every column is at least as wide as its widest value (the Counters and Peer columns were cut off)
        for (var c : ports.getColumns()) {
            for (int i = 0; i < ports.getItems().size(); i++) {
                String v = String.valueOf(c.getCellData(i));
                double w = new javafx.scene.text.Text(v).getLayoutBounds().getWidth();
                assertTrue(c.getPrefWidth() >= w, c.getText() + " is " + c.getPrefWidth() + " px, \"" + v + "\" needs " + w);
            }
        }
    }

    /**
     * Monocle, the headless toolkit, turns a right click into mouse events but no context-menu
     * request (a desktop's toolkit sends both): then the request is fired as the toolkit would,
     * at the same point, so the handler under test is the one a user's right click reaches.
     */
    private static void contextMenuIfNoneShown(FxRobot robot, javafx.scene.Node target, double x, double y,
                                               javafx.geometry.Point2D screen) {
        boolean shown = Window.getWindows().stream().anyMatch(w -> w instanceof javafx.scene.control.ContextMenu && w.isShowing());
        if (!shown) {
            robot.interact(() -> {
                javafx.scene.input.PickResult pick = new javafx.scene.input.PickResult(target, x, y);
                javafx.scene.Node hit = target;
                // the deepest node under the point, as a real request carries it
                javafx.geometry.Point2D sp = screen;
                for (javafx.scene.Node n : target.lookupAll("*")) {
                    if (n.isVisible() && n.localToScreen(n.getBoundsInLocal()) != null
                            && n.localToScreen(n.getBoundsInLocal()).contains(sp) && depth(n) > depth(hit)) {
                        hit = n;
                    }
                }
                javafx.geometry.Point2D scene = hit.localToScene(hit.screenToLocal(sp));
                pick = new javafx.scene.input.PickResult(hit, scene.getX(), scene.getY());
                // an event made without a source takes its x, y as scene coordinates; firing it makes them local
                javafx.event.Event.fireEvent(hit, new javafx.scene.input.ContextMenuEvent(
                        javafx.scene.input.ContextMenuEvent.CONTEXT_MENU_REQUESTED, scene.getX(), scene.getY(),
                        sp.getX(), sp.getY(), false, pick));
            });
            WaitForAsyncUtils.waitForFxEvents();
        }
    }

    private static int depth(javafx.scene.Node n) {
        int d = 0;
        for (javafx.scene.Node x = n; x != null; x = x.getParent()) {
            d++;
        }
        return d;
    }

    private void saveScreenshot(FxRobot robot, String name) {
        try {
            var img = WaitForAsyncUtils.asyncFx(() -> new javafx.scene.robot.Robot().getScreenCapture(null,
                    stage.getX(), stage.getY(), stage.getWidth(), stage.getHeight())).get(10, TimeUnit.SECONDS);
            Path out = Path.of("target", "screenshots");
            Files.createDirectories(out);
            ImageIO.write(SwingFXUtils.fromFXImage(img, null), "png", out.resolve(name).toFile());
        } catch (Exception e) {
            System.err.println("screenshot not saved: " + e); // a by-product for the docs; the assertions are the test
        }
    }
}
