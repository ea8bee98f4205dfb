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
import javafx.scene.control.ContextMenu;
import javafx.scene.control.MenuItem;
import javafx.scene.control.TableView;
import javafx.scene.input.ContextMenuEvent;
import javafx.stage.Stage;
import javafx.stage.Window;

/**
 * A note on a port in the real window: the port row's menu holds its Copy items and "Note on … port N…" in one
 * menu (a row's own menu would hide the Copy items); a note on the port shows in the inspector's note label.
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

    @Test
    void aPortRowsMenuWritesANoteShownInTheInspector(FxRobot robot) throws Exception {
        Path fabric = Path.of("src", "test", "resources", "fabrics", "two-tier.ibnetdiscover.txt");
        org.junit.jupiter.api.Assumptions.assumeTrue(java.nio.file.Files.exists(fabric), "run from the app module");
        robot.interact(() -> view.open(List.of(fabric), false));
        WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> view.snapshot() != null);
        FabricNode leaf = (FabricNode) view.snapshot().model().search("leaf-01", 1).get(0);
        robot.interact(() -> view.viewModel().reveal(leaf));
        WaitForAsyncUtils.waitForFxEvents();
        TableView<?> ports = robot.lookup("#portTable").queryAs(TableView.class);
        Port first = (Port) ports.getItems().get(0);
        javafx.scene.Node row = robot.lookup("#portTable .table-row-cell").nth(0).queryAs(javafx.scene.Node.class);
        robot.interact(() -> {
            javafx.geometry.Bounds b = row.localToScene(row.getBoundsInLocal());
            javafx.event.Event.fireEvent(row, new ContextMenuEvent(ContextMenuEvent.CONTEXT_MENU_REQUESTED, b.getMinX() + 20,
                    b.getCenterY(), 0, 0, false, new javafx.scene.input.PickResult(row, b.getMinX() + 20, b.getCenterY())));
        });
        WaitForAsyncUtils.waitForFxEvents();
        ContextMenu menu = Window.getWindows().stream().filter(w -> w instanceof ContextMenu && w.isShowing()).map(w -> (ContextMenu) w)
                .findFirst().orElseThrow();
        List<String> items = menu.getItems().stream().map(MenuItem::getText).filter(t -> t != null).toList();
        assertTrue(items.contains("Copy row"), items.toString());
        String noteText = "Note on " + first.label() + "…";
        assertTrue(items.contains(noteText), items.toString());
        robot.interact(menu::hide);
        // what the dialog's Save note does (the dialog itself waits for a person's answer)
        robot.interact(() -> view.viewModel().inspector().notes().put(SubjectNotes.key(SubjectNotes.subjectOf(first)), first.label(),
                "reseated 11/26"));
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals("Note on " + first.label() + ": reseated 11/26", view.viewModel().inspector().noteProperty().get());
        javafx.scene.control.Label shown = robot.lookup(".inspector-note").queryAs(javafx.scene.control.Label.class);
        assertTrue(shown.isVisible() && shown.getText().contains("reseated 11/26"), shown.getText());
    }
}
