package org.fabricscope.app.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;

import javafx.scene.Scene;
import javafx.scene.control.Menu;
import javafx.scene.control.MenuBar;
import javafx.scene.control.MenuItem;
import javafx.scene.control.SeparatorMenuItem;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyCodeCombination;
import javafx.scene.input.KeyCombination;
import javafx.stage.Stage;

/** The menus declared in FXML carry every item and accelerator the window had when it was built in code. */
@ExtendWith(ApplicationExtension.class)
class MainMenuTest {
    private MainView view;

    @Start
    void start(Stage stage) {
        view = new MainView();
        stage.setScene(new Scene(view, 800, 600));
        stage.show();
    }

    private static KeyCombination key(KeyCode code, KeyCombination.Modifier... m) {
        return new KeyCodeCombination(code, m);
    }

    @Test
    void everyMenuItemKeepsItsAccelerator() {
        KeyCombination.Modifier ctrl = KeyCombination.SHORTCUT_DOWN;
        KeyCombination.Modifier shift = KeyCombination.SHIFT_DOWN;
        Map<String, KeyCombination> expected = new LinkedHashMap<>();
        expected.put("Open files…", key(KeyCode.O, ctrl));
        expected.put("Add files to this fabric…", key(KeyCode.O, ctrl, KeyCombination.ALT_DOWN));
        expected.put("Open folder…", key(KeyCode.O, ctrl, shift));
        expected.put("Open Recent", null); // a submenu: its items are the recent inputs
        expected.put("Reload", key(KeyCode.F5));
        expected.put("Open session…", key(KeyCode.S, ctrl, KeyCombination.ALT_DOWN));
        expected.put("Save session…", key(KeyCode.S, ctrl));
        expected.put("Compare with capture…", key(KeyCode.D, ctrl));
        expected.put("Connect to cluster…", key(KeyCode.K, ctrl));
        expected.put("Connect to Prometheus…", null);
        expected.put("Disconnect from cluster", null);
        expected.put("Watch fabric from this node", key(KeyCode.W, ctrl, shift));
        expected.put("Pause / resume watch", key(KeyCode.W, ctrl, shift, KeyCombination.ALT_DOWN));
        expected.put("Export incident report…", key(KeyCode.E, ctrl, shift));
        expected.put("Export picture…", key(KeyCode.S, ctrl, shift));
        expected.put("Quit", key(KeyCode.Q, ctrl));
        expected.put("Find…", key(KeyCode.F, ctrl));
        expected.put("Fit to window", key(KeyCode.DIGIT0, ctrl));
        expected.put("Zoom in", key(KeyCode.EQUALS, ctrl));
        expected.put("Zoom out", key(KeyCode.MINUS, ctrl));
        expected.put("Problems only", key(KeyCode.P, ctrl));
        expected.put("Colour by error counters", key(KeyCode.DIGIT1, ctrl));
        expected.put("Colour by speed/width", key(KeyCode.DIGIT2, ctrl));
        expected.put("Colour by transport of training ranks", key(KeyCode.DIGIT3, ctrl));
        expected.put("Colour by Kubernetes node readiness and jobs", key(KeyCode.DIGIT4, ctrl));
        expected.put("Collapse/expand all hosts", key(KeyCode.H, ctrl));
        expected.put("Collapse/expand selected host", key(KeyCode.H, ctrl, shift));
        expected.put("Host topology of the selection…", key(KeyCode.T, ctrl));
        expected.put("Fabric map", key(KeyCode.M, ctrl, shift));
        expected.put("Job: nodes, pods, ranks", key(KeyCode.J, ctrl, shift));
        expected.put("Findings", key(KeyCode.F, ctrl, shift));
        expected.put("Incident timeline", key(KeyCode.I, ctrl, shift));
        expected.put("Pairwise tests", key(KeyCode.P, ctrl, shift));
        expected.put("Training ranks and events", key(KeyCode.R, ctrl, shift));
        expected.put("Kubernetes resources", key(KeyCode.K, ctrl, shift));
        expected.put("Live logs", key(KeyCode.L, ctrl, shift));
        expected.put("Troubleshoot", key(KeyCode.T, ctrl, shift));
        expected.put("Keyboard shortcuts", key(KeyCode.F1));
        expected.put("What's wrong? (guided troubleshooting)", null);
        expected.put("About FabricScope", null);
        MenuBar bar = (MenuBar) view.lookup("#menuBar");
        Map<String, KeyCombination> actual = new LinkedHashMap<>();
        for (Menu m : bar.getMenus()) {
            for (MenuItem i : m.getItems()) {
                if (!(i instanceof SeparatorMenuItem)) {
                    actual.put(i.getText(), i.getAccelerator());
                }
            }
        }
        assertEquals(expected, actual);
        assertEquals(java.util.List.of("_File", "_View", "_Help"), bar.getMenus().stream().map(Menu::getText).toList());
    }
}
