package org.fabricscope.app.ui;

import java.util.function.Consumer;

import org.fabricscope.app.render.PairHeat;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.pairwise.PairMatrix;

import javafx.collections.ListChangeListener;
import javafx.fxml.FXML;
import javafx.scene.control.ComboBox;
import javafx.scene.control.ContextMenu;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.MenuItem;
import javafx.scene.control.ScrollPane;
import javafx.scene.input.KeyEvent;
import javafx.scene.layout.FlowPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import javafx.util.StringConverter;

/**
 * The Pairs tab, declared in {@code PairMatrixView.fxml}: which test (when there are several), what its
 * matrix is, the {@link PairMatrixChart} heat map, its colour scale, the verdict (the slow node or link,
 * else that none is, or that too few pairs were measured to judge) and the runs on no known pair. Copy
 * (Ctrl+C, or the chart's context menu) puts the matrix on the clipboard as tab-separated values. The
 * state is {@link PairMatrixViewModel}'s.
 */
public final class PairMatrixView extends VBox {
    @FXML private HBox testRow;
    @FXML private ComboBox<PairMatrix> pairTest;
    @FXML private Label pairHeader;
    @FXML private ScrollPane scroll;
    @FXML private PairMatrixChart pairChart;
    @FXML private FlowPane legend;
    @FXML private Label verdict;
    @FXML private Label unplaced;
    @FXML private Label help;
    private PairMatrixViewModel model;
    private Consumer<Evidence> openLine = e -> { };

    public PairMatrixView() {
        ViewLoader.load(this);
        pairTest.setId(Styles.Id.PAIR_TEST);
        pairHeader.setId(Styles.Id.PAIR_HEADER);
    }

    void bind(PairMatrixViewModel vm, Consumer<Evidence> openEvidence) {
        this.model = vm;
        this.openLine = openEvidence;
        pairHeader.textProperty().bind(vm.headerProperty());
        unplaced.textProperty().bind(vm.unplacedProperty());
        unplaced.visibleProperty().bind(vm.unplacedProperty().isNotEmpty());
        unplaced.managedProperty().bind(unplaced.visibleProperty());
        pairTest.setItems(vm.matrices());
        pairTest.setConverter(new StringConverter<>() {
            @Override
            public String toString(PairMatrix m) {
                return m == null ? "" : m.title() + " — " + m.nodes().size() + " nodes, " + m.cells().size() + " pairs";
            }

            @Override
            public PairMatrix fromString(String s) {
                return null;
            }
        });
        pairTest.setButtonCell(new ListCell<>() {
            @Override
            protected void updateItem(PairMatrix m, boolean empty) {
                super.updateItem(m, empty);
                setText(empty || m == null ? "" : pairTest.getConverter().toString(m));
            }
        });
        vm.matrices().addListener((ListChangeListener<PairMatrix>) c -> showTestRow());
        showTestRow();
        pairTest.valueProperty().addListener((o, a, m) -> {
            if (m != null && m != vm.shownProperty().get()) {
                vm.choose(m);
            }
        });
        vm.shownProperty().addListener((o, a, m) -> {
            pairTest.setValue(m);
            pairChart.show(m);
            // as tall as the grid (a scroll bar's height more), or what the tab has left, then it scrolls
            scroll.setPrefViewportHeight(pairChart.drawnLayout().height() + 16);
            showLegend(m != null);
        });
        showLegend(false);
        vm.verdict().addListener((ListChangeListener<String>) c -> verdict.setText(String.join("\n", vm.verdict())));
        vm.slowProperty().addListener((o, a, s) -> verdictStyle(s));
        pairChart.setActions(vm::focus, this::open, vm::move);
        vm.focusProperty().addListener((o, a, at) -> {
            pairChart.focus(at);
            reveal(at);
        });
        pairChart.addEventHandler(KeyEvent.KEY_PRESSED, k -> {
            if (PairMatrixChart.isCopy(k)) {
                CopyMenus.copy(vm.tsv());
                k.consume();
            }
        });
        MenuItem copy = new MenuItem("Copy matrix as TSV");
        copy.setOnAction(e -> CopyMenus.copy(vm.tsv()));
        ContextMenu menu = new ContextMenu(copy);
        pairChart.setOnContextMenuRequested(e -> {
            menu.show(pairChart, e.getScreenX(), e.getScreenY());
            e.consume();
        });
        fillLegend();
    }

    private void showLegend(boolean show) {
        for (javafx.scene.Node n : new javafx.scene.Node[] {legend, help}) {
            n.setVisible(show);
            n.setManaged(show);
        }
    }

    private void showTestRow() {
        boolean several = model.matrices().size() > 1;
        testRow.setVisible(several);
        testRow.setManaged(several);
    }

    private void verdictStyle(boolean slow) {
        verdict.getStyleClass().remove(Styles.PAIR_SLOW);
        if (slow) {
            verdict.getStyleClass().add(Styles.PAIR_SLOW);
        }
    }

    private void open(PairMatrixViewModel.At at) {
        Evidence e = model.open(at);
        if (e != null) {
            openLine.accept(e);
        }
    }

    /** Scrolls the focused cell into view. */
    private void reveal(PairMatrixViewModel.At at) {
        if (at == null) {
            return;
        }
        PairMatrixLayout l = pairChart.drawnLayout();
        double cw = pairChart.getWidth() - scroll.getViewportBounds().getWidth();
        double ch = pairChart.getHeight() - scroll.getViewportBounds().getHeight();
        if (cw > 0) {
            scroll.setHvalue(Math.max(0, Math.min(1, (l.x(at.col()) - scroll.getViewportBounds().getWidth() / 2) / cw)));
        }
        if (ch > 0) {
            scroll.setVvalue(Math.max(0, Math.min(1, (l.y(at.row()) - scroll.getViewportBounds().getHeight() / 2) / ch)));
        }
    }

    /** The colour scale as the chart draws it. */
    private void fillLegend() {
        var p = UiPalette.current();
        for (double f : new double[] {1, 0.75, 0.5, 0.25}) {
            legend.getChildren().add(swatch(PairHeat.argb(p, f, false), Math.round(f * 100) + "% of the best"));
        }
        legend.getChildren().add(swatch(PairHeat.argb(p, 0, true), "failed"));
    }

    private static Label swatch(int argb, String text) {
        Region r = new Region();
        r.getStyleClass().add(Styles.PAIR_SWATCH);
        r.setBackground(new javafx.scene.layout.Background(new javafx.scene.layout.BackgroundFill(UiPalette.fx(argb), new javafx.scene.layout.CornerRadii(2), null)));
        Label l = new Label(text, r);
        l.getStyleClass().add(Styles.TIMELINE_HELP);
        return l;
    }

    /** The heat map (tests find cells through it). */
    public PairMatrixChart chart() {
        return pairChart;
    }
}
