package org.fabricscope.app.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import javafx.application.Platform;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonBar;
import javafx.scene.control.ButtonType;
import javafx.scene.Scene;
import javafx.scene.layout.StackPane;
import javafx.stage.Stage;

/**
 * The connect dialogs' Connect button, in a real window: it closes the dialog only on a valid choice, and
 * until then the dialog stays open with the message line saying why.
 */
@ExtendWith(ApplicationExtension.class)
class ValidatedDialogTest {
    private Stage owner;

    @Start
    void start(Stage stage) {
        owner = stage;
        stage.setScene(new Scene(new StackPane(), 400, 300)); // a dialog's owner needs a scene for its stylesheets
        stage.show();
    }

    private static Button connect(PromConnectDialog d) {
        ButtonType t = d.getDialogPane().getButtonTypes().stream()
                .filter(b -> b.getButtonData() == ButtonBar.ButtonData.OK_DONE).findFirst().orElseThrow();
        return (Button) d.getDialogPane().lookupButton(t);
    }

    @Test
    void connectStaysOpenOnAnInvalidChoiceAndClosesWithAValidOne(FxRobot robot) throws Exception {
        PromConnectDialogViewModel vm = new PromConnectDialogViewModel(null);
        CompletableFuture<PromConnectDialog> shown = new CompletableFuture<>();
        CompletableFuture<Object> result = new CompletableFuture<>();
        Platform.runLater(() -> {
            PromConnectDialog d = new PromConnectDialog(owner, vm);
            d.setOnShown(e -> shown.complete(d));
            d.resultProperty().addListener((o, was, now) -> result.complete(now));
            d.show();
        });
        PromConnectDialog d = shown.get(10, TimeUnit.SECONDS);

        robot.interact(() -> connect(d).fire()); // no URL given
        WaitForAsyncUtils.waitForFxEvents();
        assertTrue(d.isShowing(), "an invalid choice keeps the dialog open");
        assertTrue(vm.messageProperty().get().contains("URL"), vm.messageProperty().get());
        assertFalse(result.isDone());

        robot.interact(() -> {
            vm.urlProperty().set("http://127.0.0.1:9090");
            connect(d).fire();
        });
        WaitForAsyncUtils.waitForFxEvents();
        assertFalse(d.isShowing(), "a valid choice closes it");
        Object chosen = result.get(10, TimeUnit.SECONDS);
        assertEquals(vm.choice(), chosen);
        assertEquals("", vm.messageProperty().get());
    }

    @Test
    void cancelClosesWithNoChoice(FxRobot robot) throws Exception {
        PromConnectDialogViewModel vm = new PromConnectDialogViewModel(null);
        vm.urlProperty().set("http://127.0.0.1:9090");
        CompletableFuture<PromConnectDialog> shown = new CompletableFuture<>();
        Platform.runLater(() -> {
            PromConnectDialog d = new PromConnectDialog(owner, vm);
            d.setOnShown(e -> shown.complete(d));
            d.show();
        });
        PromConnectDialog d = shown.get(10, TimeUnit.SECONDS);
        robot.interact(() -> ((Button) d.getDialogPane().lookupButton(ButtonType.CANCEL)).fire());
        WaitForAsyncUtils.waitForFxEvents();
        assertFalse(d.isShowing());
        assertNull(d.getResult());
    }
}
