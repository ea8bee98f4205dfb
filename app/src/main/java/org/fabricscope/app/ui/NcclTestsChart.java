package org.fabricscope.app.ui;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.fabricscope.model.FabricModel;
import org.fabricscope.model.analysis.ForensicsSummary;

import javafx.scene.chart.LineChart;
import javafx.scene.chart.NumberAxis;
import javafx.scene.chart.XYChart;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.image.PixelReader;
import javafx.scene.image.WritableImage;
import javafx.scene.layout.HBox;
import javafx.scene.layout.VBox;
import javafx.stage.FileChooser;
import javafx.util.StringConverter;

/**
 * nccl-tests results: bus bandwidth (GB/s, out of place, else in place) against message size on a
 * log2 axis, one series per run (several runs overlaid), exportable as PNG. Where the loaded inputs give a
 * run its expected bus bandwidth (the slowest hop of its path, {@code BusBwExpectations}), a dashed
 * horizontal line at that value, one per distinct expectation, named with the number and where it came
 * from; the caption under the chart says the same per run, or why there is none. The PNG is written with
 * {@code javax.imageio} from the snapshot's pixels (javafx-swing is not on the runtime path).
 */
public final class NcclTestsChart extends VBox {
    private final NumberAxis x = new NumberAxis();
    private final NumberAxis y = new NumberAxis();
    private final LineChart<Number, Number> chart = new LineChart<>(x, y);
    private final Button export = new Button("Export PNG…");
    private final Label title = new Label("nccl-tests");
    private final Label expected = new Label();
    private final List<XYChart.Series<Number, Number>> expectedSeries = new ArrayList<>();

    public NcclTestsChart() {
        setSpacing(4);
        chart.setId("ncclTestsChart");
        x.setLabel("message size (bytes, log2)");
        y.setLabel("bus bandwidth (GB/s)");
        x.setForceZeroInRange(false);
        x.setAutoRanging(false);
        x.setMinorTickVisible(false);
        x.setTickLabelFormatter(new StringConverter<>() {
            @Override
            public String toString(Number n) {
                return bytes(Math.round(Math.pow(2, n.doubleValue())));
            }

            @Override
            public Number fromString(String s) {
                return 0;
            }
        });
        chart.setCreateSymbols(true);
        chart.setAnimated(false);
        chart.setPrefHeight(260);
        export.setId("exportNcclTests");
        export.setDisable(true);
        export.setOnAction(e -> {
            FileChooser fc = new FileChooser();
            fc.setInitialFileName("nccl-tests.png");
            fc.getExtensionFilters().add(new FileChooser.ExtensionFilter("PNG", "*.png"));
            java.io.File f = fc.showSaveDialog(getScene() == null ? null : getScene().getWindow());
            if (f != null) {
                try {
                    writePng(f.toPath());
                } catch (IOException ex) {
                    title.setText("nccl-tests: PNG not written to " + f + ": " + org.fabricscope.app.report.OutputFile.reason(ex));
                }
            }
        });
        HBox top = new HBox(8, title, export);
        expected.setId("ncclTestsExpected");
        expected.setWrapText(true);
        expected.setMaxWidth(Double.MAX_VALUE);
        expected.setMinHeight(javafx.scene.layout.Region.USE_PREF_SIZE); // wrap onto more lines rather than cut it short
        getChildren().addAll(top, chart, expected);
        setVisible(false);
        setManaged(false);
    }

    /** One series per nccl-tests run of this model; hidden when there is none. */
    public void show(FabricModel model) {
        List<XYChart.Series<Number, Number>> all = new ArrayList<>();
        List<ForensicsSummary.NcclTest> tests = ForensicsSummary.ncclTests(model);
        for (ForensicsSummary.NcclTest t : tests) {
            XYChart.Series<Number, Number> s = new XYChart.Series<>();
            String src = t.source() == null ? "" : t.source().replaceAll(".*[/\\\\]", "");
            s.setName(t.test() + " · " + t.ranks() + " ranks" + (src.isEmpty() ? "" : " · " + src) + " (" + (all.size() + 1) + ")");
            for (ForensicsSummary.NcclTestRow r : t.rows()) {
                ForensicsSummary.NcclTestResult res = r.outOfPlace() != null && r.outOfPlace().busBw() >= 0
                        ? r.outOfPlace() : r.inPlace();
                if (r.bytes() > 0 && res != null && res.busBw() >= 0) {
                    s.getData().add(new XYChart.Data<>(Math.log(r.bytes()) / Math.log(2), res.busBw()));
                }
            }
            all.add(s);
        }
        // whole powers of two on the axis: a tick every 1, 2, 4... doublings, at most about 10 ticks
        double lo = all.stream().flatMap(s -> s.getData().stream()).mapToDouble(d -> d.getXValue().doubleValue()).min().orElse(0);
        double hi = all.stream().flatMap(s -> s.getData().stream()).mapToDouble(d -> d.getXValue().doubleValue()).max().orElse(30);
        int step = 1;
        while ((Math.ceil(hi) - Math.floor(lo)) / step > 10) {
            step *= 2;
        }
        x.setLowerBound(Math.floor(Math.floor(lo) / step) * step);
        x.setUpperBound(Math.ceil(Math.ceil(hi) / step) * step);
        x.setTickUnit(step);
        int runs = all.size();
        expectedSeries.clear();
        java.util.Map<String, List<String>> byExpectation = new java.util.LinkedHashMap<>();
        java.util.Map<String, Double> values = new java.util.LinkedHashMap<>();
        for (int i = 0; i < tests.size(); i++) {
            ForensicsSummary.NcclTest t = tests.get(i);
            if (t.expectedBusBw() != null) {
                String key = gbs(t.expectedBusBw()) + " GB/s: " + t.expectedSource();
                byExpectation.computeIfAbsent(key, k -> new ArrayList<>()).add(String.valueOf(i + 1));
                values.put(key, t.expectedBusBw());
            }
        }
        for (java.util.Map.Entry<String, List<String>> e : byExpectation.entrySet()) {
            XYChart.Series<Number, Number> s = new XYChart.Series<>();
            s.setName("expected " + e.getKey());
            s.getData().add(new XYChart.Data<>(x.getLowerBound(), values.get(e.getKey())));
            s.getData().add(new XYChart.Data<>(x.getUpperBound(), values.get(e.getKey())));
            expectedSeries.add(s);
            all.add(s);
        }
        chart.getData().setAll(all);
        for (XYChart.Series<Number, Number> s : expectedSeries) {
            if (s.getNode() != null) {
                s.getNode().getStyleClass().add(Styles.EXPECTED_LINE);
            }
            for (XYChart.Data<Number, Number> d : s.getData()) {
                if (d.getNode() != null) {
                    d.getNode().setVisible(false); // a line, not two measurements
                }
            }
        }
        StringBuilder caption = new StringBuilder();
        for (java.util.Map.Entry<String, List<String>> e : byExpectation.entrySet()) {
            caption.append(caption.length() == 0 ? "" : "\n").append("Expected (dashed) for run")
                    .append(e.getValue().size() == 1 ? " " : "s ").append(String.join(", ", e.getValue()))
                    .append(": ").append(e.getKey());
        }
        int without = runs - byExpectation.values().stream().mapToInt(List::size).sum();
        if (without > 0 && runs > 0) {
            caption.append(caption.length() == 0 ? "" : "\n").append(without).append(" run").append(without == 1 ? "" : "s")
                    .append(" without an expected bus bandwidth: load the host's NCCL topology (NCCL_TOPO_DUMP_FILE) or "
                            + "nvidia-smi topo -m, and for runs across hosts the fabric or each host's topology.");
        }
        expected.setText(caption.toString());
        title.setText("nccl-tests: bus bandwidth, " + runs + " run" + (runs == 1 ? "" : "s"));
        export.setDisable(runs == 0);
        setVisible(runs > 0);
        setManaged(runs > 0);
    }

    /** The expected lines drawn now, one per distinct expectation. */
    public List<XYChart.Series<Number, Number>> expectedSeries() {
        return List.copyOf(expectedSeries);
    }

    public Label expectedCaption() {
        return expected;
    }

    static String gbs(double v) {
        return v == Math.rint(v) ? String.valueOf((long) v) : String.format(java.util.Locale.ROOT, "%.1f", v);
    }

    public LineChart<Number, Number> chart() {
        return chart;
    }

    /** Writes the chart as it is drawn now (call on the FX thread). */
    public void writePng(Path file) throws IOException {
        WritableImage img = chart.snapshot(null, null);
        org.fabricscope.app.report.OutputFile.write(file, out -> writePng(img, out)); // whole or not at all
    }

    static void writePng(WritableImage img, OutputStream out) throws IOException {
        int w = (int) img.getWidth();
        int h = (int) img.getHeight();
        BufferedImage b = new BufferedImage(w, h, BufferedImage.TYPE_INT_ARGB);
        PixelReader pr = img.getPixelReader();
        for (int j = 0; j < h; j++) {
            for (int i = 0; i < w; i++) {
                b.setRGB(i, j, pr.getArgb(i, j));
            }
        }
        org.fabricscope.app.render.PngEncoder.write(b, out); // in memory: no imageio*.tmp file
    }

    static String bytes(long n) {
        String[] units = {"B", "K", "M", "G", "T"};
        int u = 0;
        double v = n;
        while (v >= 1024 && u < units.length - 1) {
            v /= 1024;
            u++;
        }
        return (v == Math.rint(v) ? String.valueOf((long) v) : String.format(java.util.Locale.ROOT, "%.1f", v)) + units[u];
    }
}
