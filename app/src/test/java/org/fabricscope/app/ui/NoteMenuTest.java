package org.fabricscope.app.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.fabricscope.model.fabric.FabricNode;
import org.fabricscope.model.fabric.Port;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.ContextMenu;
import javafx.scene.control.DialogPane;
import javafx.scene.control.MenuItem;
import javafx.scene.control.TableView;
import javafx.scene.control.TextArea;
import javafx.scene.input.ContextMenuEvent;
import javafx.stage.Stage;
import javafx.stage.Window;

/**
 * A note on a port in the real window: the port row's menu holds its Copy items and "Note on … port N…" in one
 * menu (a row's own menu would hide the Copy items); a note on the port shows in the inspector's note label; the
 * note dialog saves what is typed and refuses a note past the limit.
 */
@ExtendWith(ApplicationExtension.class)
class NoteMenuTest {
    private MainView view;

    @Start
    void start(Stage stage) {
        view = new MainView();
        stage.setScene(new Scene(view, 1200, 800));
        stage.show();
    }

    /** A test that failed with the dialog up leaves no modal window over the next one. */
    @org.junit.jupiter.api.AfterEach
    void closeDialogs() throws Exception {
        WaitForAsyncUtils.asyncFx(() -> Window.getWindows().stream().filter(Window::isShowing)
                .filter(w -> w.getScene() != null && w.getScene().getRoot() instanceof DialogPane).toList()
                .forEach(Window::hide)).get(10, TimeUnit.SECONDS);
    }

    /** The leaf's first port shown in the inspector; its row's menu open. */
    private ContextMenu portRowMenu(FxRobot robot) throws Exception {
        Path fabric = Path.of("src", "test", "resources", "fabrics", "two-tier.ibnetdiscover.txt");
        org.junit.jupiter.api.Assumptions.assumeTrue(java.nio.file.Files.exists(fabric), "run from the app module");
        robot.interact(() -> view.open(List.of(fabric), false));
        WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> view.snapshot() != null);
        FabricNode leaf = (FabricNode) view.snapshot().model().search("leaf-01", 1).get(0);
        robot.interact(() -> view.viewModel().reveal(leaf));
        WaitForAsyncUtils.waitForFxEvents();
        javafx.scene.Node row = robot.lookup("#portTable .table-row-cell").nth(0).queryAs(javafx.scene.Node.class);
        robot.interact(() -> {
            javafx.geometry.Bounds b = row.localToScene(row.getBoundsInLocal());
            javafx.event.Event.fireEvent(row, new ContextMenuEvent(ContextMenuEvent.CONTEXT_MENU_REQUESTED, b.getMinX() + 20,
                    b.getCenterY(), 0, 0, false, new javafx.scene.input.PickResult(row, b.getMinX() + 20, b.getCenterY())));
        });
        WaitForAsyncUtils.waitForFxEvents();
        return Window.getWindows().stream().filter(w -> w instanceof ContextMenu && w.isShowing()).map(w -> (ContextMenu) w)
                .findFirst().orElseThrow();
    }

    private Port firstPort(FxRobot robot) {
        return (Port) robot.lookup("#portTable").queryAs(TableView.class).getItems().get(0);
    }

    @Test
    void aPortRowsMenuWritesANoteShownInTheInspector(FxRobot robot) throws Exception {
        ContextMenu menu = portRowMenu(robot);
        Port first = firstPort(robot);
        List<String> items = menu.getItems().stream().map(MenuItem::getText).filter(t -> t != null).toList();
        assertTrue(items.contains("Copy row"), items.toString());
        String noteText = "Note on " + first.label() + "…";
        assertTrue(items.contains(noteText), items.toString());
        robot.interact(menu::hide);
        // what the dialog's Save note does (the dialog itself: the test below)
        robot.interact(() -> view.viewModel().inspector().notes().put(SubjectNotes.key(SubjectNotes.subjectOf(first)), first.label(),
                "reseated 11/26"));
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals("Note on " + first.label() + ": reseated 11/26", view.viewModel().inspector().noteProperty().get());
        javafx.scene.control.Label shown = robot.lookup(".inspector-note").queryAs(javafx.scene.control.Label.class);
        assertTrue(shown.isVisible() && shown.getText().contains("reseated 11/26"), shown.getText());
    }

    @Test
    void theNoteDialogSavesWhatIsTypedAndRefusesANoteTooLong(FxRobot robot) throws Exception {
        ContextMenu menu = portRowMenu(robot);
        Port first = firstPort(robot);
        MenuItem note = menu.getItems().stream().filter(i -> ("Note on " + first.label() + "…").equals(i.getText())).findFirst()
                .orElseThrow();
        robot.interact(menu::hide);
        javafx.application.Platform.runLater(note::fire); // the dialog waits for an answer: not inside interact()
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> dialog() != null);
        DialogPane pane = dialog();
        TextArea text = (TextArea) pane.lookup(".text-area");
        Button save = (Button) pane.lookupButton(pane.getButtonTypes().stream().filter(b -> b.getText().equals("Save note"))
                .findFirst().orElseThrow());
        assertTrue(((Stage) pane.getScene().getWindow()).getTitle().startsWith("Note on " + first.label()));
        robot.interact(() -> text.setText("x".repeat(SubjectNotes.MAX_CHARS + 1)));
        assertTrue(save.isDisabled(), "a note past the limit cannot be saved");
        robot.interact(() -> text.setText(""));
        assertTrue(!save.isDisabled());
        robot.clickOn(text).write("cable reseated, counters cleared");
        assertEquals("cable reseated, counters cleared", text.getText());
        saveScreenshot(pane, "note-dialog.png");
        robot.clickOn(save);
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> dialog() == null);
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals("cable reseated, counters cleared",
                view.viewModel().inspector().notes().text(SubjectNotes.key(SubjectNotes.subjectOf(first))));
        javafx.scene.control.Label shown = robot.lookup(".inspector-note").queryAs(javafx.scene.control.Label.class);
        assertTrue(shown.isVisible() && shown.getText().contains("cable reseated"), shown.getText());
    }

    /** The note dialog's pane while it shows, else null (looked for on the FX thread). */
    private static DialogPane dialog() throws Exception {
        return WaitForAsyncUtils.asyncFx(() -> Window.getWindows().stream().filter(Window::isShowing).map(Window::getScene)
                .filter(sc -> sc != null && sc.getRoot() instanceof DialogPane).map(sc -> (DialogPane) sc.getRoot()).findFirst()
                .orElse(null)).get(10, TimeUnit.SECONDS);
    }

    private static void saveScreenshot(DialogPane pane, String name) {
        try {
            var img = WaitForAsyncUtils.asyncFx(() -> pane.getScene().snapshot(null)).get(10, TimeUnit.SECONDS);
            Path out = Path.of("target", "screenshots");
            java.nio.file.Files.createDirectories(out);
            javax.imageio.ImageIO.write(javafx.embed.swing.SwingFXUtils.fromFXImage(img, null), "png", out.resolve(name).toFile());
        } catch (Exception e) {
            System.err.println("screenshot not saved: " + e); // a by-product for the docs; the assertions are the test
        }
    }
}
