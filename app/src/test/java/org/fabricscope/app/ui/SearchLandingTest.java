package org.fabricscope.app.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.concurrent.TimeUnit;

import org.fabricscope.app.nav.Samples;
import org.fabricscope.model.fabric.FabricNode;
import org.fabricscope.model.fabric.Host;
import org.fabricscope.model.layout.MapLayout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.scene.control.TextField;
import javafx.scene.input.KeyCode;
import javafx.stage.Stage;

/**
 * The find field on Monocle: typing offers suggestions with how many match, the typing staying in the
 * field; Enter on a host lands on the host: all its HCAs marked, the faulty one first (selected and in
 * the inspector), the map zoomed to show them all.
 */
@ExtendWith(ApplicationExtension.class)
class SearchLandingTest {
    private MainView view;

    @Start
    void start(Stage stage) {
        view = new MainView();
        Scene scene = new Scene(view, 1280, 800);
        scene.getStylesheets().add(FabricScopeApp.class.getResource("app.css").toExternalForm());
        stage.setScene(scene);
        stage.show();
    }

    private String matchCount(FxRobot robot) {
        return robot.lookup("#searchMatchCount").tryQuery().map(n -> ((Label) n).getText()).orElse("");
    }

    @Test
    void aHostLandsAsAllItsHcasTheFaultyOneFirst(FxRobot robot) throws Exception {
        robot.interact(() -> view.open(Samples.paths(Samples.RAIL), false));
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> view.snapshot() != null);
        WaitForAsyncUtils.waitForFxEvents();
        robot.clickOn("#search").write("dgx-su1-h1");
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> matchCount(robot).startsWith("63 matches for \"dgx-su1-h1\""));
        assertTrue(matchCount(robot).endsWith("the first 12 listed, Enter lists them all"), matchCount(robot));
        TextField field = robot.lookup("#search").queryAs(TextField.class);
        assertTrue(field.isFocused(), "the typing stays in the field while suggestions show");
        Shots.save(view, "search-suggestions.png");
        robot.write("2");
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> matchCount(robot).startsWith("9 matches"));
        assertEquals("dgx-su1-h12", field.getText());
        robot.type(KeyCode.ENTER);
        WaitForAsyncUtils.waitForFxEvents();

        Host host = view.snapshot().model().host("dgx-su1-h12");
        FabricNode faulty = host.adapters().stream().filter(a -> a.displayName().endsWith("mlx5_5")).findFirst().orElseThrow();
        assertEquals(new HashSet<>(host.adapters()), new HashSet<>(view.highlights().markedItems().stream()
                .map(MapLayout.Item::vertex).toList()), "all its HCAs are marked");
        assertEquals(faulty, view.map().selection(), "the faulty one (its link trained at 1x) is the one selected");
        assertEquals("dgx-su1-h12 mlx5_5", view.inspector().titleText());
        for (FabricNode hca : host.adapters()) {
            double[] at = view.map().screenPosition(hca);
            assertTrue(at != null && at[0] >= 0 && at[0] <= view.map().getWidth() && at[1] >= 0 && at[1] <= view.map().getHeight(),
                    "zoomed to show every HCA: " + hca.displayName());
        }
        assertEquals("Host dgx-su1-h12: 8 HCAs marked, dgx-su1-h12 mlx5_5 has a problem (shown first)",
                robot.lookup("#status").queryAs(Label.class).getText());
        Shots.save(view, "search-host.png");
    }
}
