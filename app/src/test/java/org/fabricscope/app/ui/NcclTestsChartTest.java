package org.fabricscope.app.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import javax.imageio.ImageIO;

import org.fabricscope.app.nav.Samples;
import org.fabricscope.model.analysis.Analysis;
import org.fabricscope.model.analysis.ForensicsSummary;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import javafx.scene.Scene;
import javafx.stage.Stage;

/** The real nccl-tests capture folder: one series per run, each with its sizes; the PNG export writes a picture. */
@ExtendWith(ApplicationExtension.class)
class NcclTestsChartTest {
    private static final Path NCCL_TESTS = Path.of("..", "sample-fabrics", "gpu-captures", "h200x2-forensics-nccl-2.28.9",
            "nccl-tests");
    private NcclTestsChart view;

    @Start
    void start(Stage stage) {
        view = new NcclTestsChart();
        Scene scene = new Scene(view, 900, 400);
        scene.getStylesheets().add(FabricScopeApp.class.getResource("app.css").toExternalForm());
        stage.setScene(scene);
        stage.show();
    }

    @Test
    void oneSeriesPerRunAndPngExport(FxRobot robot, @TempDir Path dir) throws Exception {
        Analysis a = Samples.analysis(NCCL_TESTS);
        List<ForensicsSummary.NcclTest> runs = ForensicsSummary.ncclTests(a.model());
        assertTrue(runs.size() >= 9, runs.toString());
        robot.interact(() -> view.show(a.model()));
        WaitForAsyncUtils.waitForFxEvents();
        assertTrue(view.isVisible());
        var series = view.chart().getData();
        assertEquals(runs.size(), series.size());
        for (int i = 0; i < runs.size(); i++) {
            assertFalse(series.get(i).getData().isEmpty(), series.get(i).getName());
            assertTrue(series.get(i).getName().startsWith(runs.get(i).test()), series.get(i).getName());
        }
        Path png = dir.resolve("chart.png");
        AtomicReference<Exception> err = new AtomicReference<>();
        robot.interact(() -> {
            try {
                view.writePng(png);
            } catch (Exception e) {
                err.set(e);
            }
        });
        if (err.get() != null) {
            throw err.get();
        }
        var img = ImageIO.read(png.toFile());
        assertTrue(img.getWidth() > 100 && img.getHeight() > 100, img.getWidth() + "x" + img.getHeight());
        assertEquals("1K", NcclTestsChart.bytes(1024));
    }
}
