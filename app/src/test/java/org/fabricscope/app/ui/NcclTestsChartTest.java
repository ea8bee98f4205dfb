package org.fabricscope.app.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import javax.imageio.ImageIO;

import org.fabricscope.app.nav.Samples;
import org.fabricscope.importers.core.Cancellation;
import org.fabricscope.importers.FabricImporter;
import org.fabricscope.importers.ImportProgress;
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

/**
 * The real nccl-tests capture folders: one series per run, each with its sizes; the PNG export writes a
 * picture; with the host's topology loaded, one dashed expected line at 450 GB/s named with its source,
 * and without it none, and a caption that says why.
 */
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
        // one series per run, then one dashed line per distinct expectation: these runs name their GPUs (NVIDIA H200),
        // which sets the NVLink rate without a topology file
        assertEquals(runs.size() + 1, series.size(), series.stream().map(s -> s.getName()).toList().toString());
        assertTrue(series.get(runs.size()).getName().contains("450"), series.get(runs.size()).getName());
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
        assertEquals(1, view.expectedSeries().size(), "no topology loaded: the two-GPU runs' GPU name sets one line");
        assertTrue(view.expectedSeries().get(0).getName().contains("from the GPU name \"NVIDIA H200\""),
                view.expectedSeries().get(0).getName());
        assertTrue(view.expectedCaption().getText().contains("without an expected bus bandwidth"), view.expectedCaption().getText());
    }

    @Test
    void expectedLineFromTheHostsTopology(FxRobot robot) {
        Path dir = Path.of("..", "sample-fabrics", "gpu-captures", "h200x2-busbw-nccl-2.28.9");
        Samples.paths(dir);
        var r = new FabricImporter().importPaths(List.of(dir.resolve("all_reduce_perf-g2-healthy.txt"),
                dir.resolve("all_reduce_perf-g2-p2p-disabled.txt"), dir.resolve("vm.topo.xml")), ImportProgress.NONE,
                Cancellation.NEVER);
        Analysis a = Analysis.of(r.model(), r.thresholds());
        robot.interact(() -> view.show(a.model()));
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals(3, view.chart().getData().size(), "two runs and one expected line shared by both");
        var line = view.expectedSeries();
        assertEquals(1, line.size());
        assertTrue(line.get(0).getName().startsWith("expected 450 GB/s: NVLink4 x 18 links x 25 GB/s"), line.get(0).getName());
        assertEquals(450.0, line.get(0).getData().get(0).getYValue().doubleValue(), 1e-9);
        assertEquals(line.get(0).getData().get(0).getYValue(), line.get(0).getData().get(1).getYValue());
        assertTrue(line.get(0).getNode().getStyleClass().contains(Styles.EXPECTED_LINE));
        assertTrue(view.expectedCaption().getText().startsWith("Expected (dashed) for runs 1, 2: 450 GB/s: NVLink4"),
                view.expectedCaption().getText());
        assertTrue(view.expectedCaption().getText().contains("vm.topo.xml of host vm"), view.expectedCaption().getText());
    }
}
