package org.fabricscope.app.ui;

import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Collectors;

import org.fabricscope.app.render.MapPalette;
import org.fabricscope.app.render.PairHeat;
import org.fabricscope.app.report.PairMatrixReport;
import org.fabricscope.model.pairwise.PairCell;
import org.fabricscope.model.pairwise.PairMatrix;
import org.fabricscope.model.pairwise.PairVerdict;

import javafx.geometry.VPos;
import javafx.scene.canvas.Canvas;
import javafx.scene.canvas.GraphicsContext;
import javafx.scene.control.Tooltip;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyEvent;
import javafx.scene.input.MouseButton;
import javafx.scene.input.MouseEvent;
import javafx.scene.layout.Region;
import javafx.scene.text.Font;
import javafx.scene.text.FontWeight;
import javafx.scene.text.TextAlignment;
import javafx.util.Duration;

/**
 * A pair matrix as a heat map on one canvas ({@link PairMatrixLayout}): a row and a column per node, each
 * measured pair's cell coloured by its value as a fraction of the best pair's ({@link PairHeat}) with the
 * value in it, the diagonal and pairs not measured left plain, the nodes the verdict found slow labelled in
 * the danger colour, the focused cell ringed. Hover a cell for its evidence; click to select, double-click to
 * open; the arrows move the focus, Enter opens it. Focusable.
 */
public final class PairMatrixChart extends Region {
    private static final Font PLAIN = Font.font(12);
    private static final Font BOLD = Font.font(null, FontWeight.BOLD, 12);
    private final Canvas canvas = new Canvas();
    private final Tooltip tip = new Tooltip();
    private final MapPalette palette = UiPalette.current();
    private PairMatrix matrix;
    private PairMatrixLayout layout = new PairMatrixLayout(List.of());
    private PairMatrixViewModel.At focus;
    private PairMatrixViewModel.At hovered;
    private Consumer<PairMatrixViewModel.At> onSelect = a -> { };
    private Consumer<PairMatrixViewModel.At> onOpen = a -> { };
    private java.util.function.BiConsumer<Integer, Integer> onMove = (r, c) -> { };

    public PairMatrixChart() {
        setId(Styles.Id.PAIR_CHART);
        getStyleClass().add(Styles.PAIR_CHART);
        setFocusTraversable(true);
        getChildren().add(canvas);
        tip.setShowDelay(Duration.millis(250));
        tip.setShowDuration(Duration.seconds(30));
        tip.setWrapText(true);
        tip.setMaxWidth(720);
        canvas.setOnMouseMoved(this::hover);
        canvas.setOnMouseExited(e -> setHovered(null));
        canvas.setOnMousePressed(this::pressed);
        addEventHandler(KeyEvent.KEY_PRESSED, this::key);
        focusedProperty().addListener((o, a, f) -> redraw());
    }

    /** What a click selects, a double-click or Enter opens, and the arrows ask. */
    void setActions(Consumer<PairMatrixViewModel.At> select, Consumer<PairMatrixViewModel.At> open,
                    java.util.function.BiConsumer<Integer, Integer> move) {
        this.onSelect = select;
        this.onOpen = open;
        this.onMove = move;
    }

    /** A matrix to draw (null: none). */
    public void show(PairMatrix m) {
        matrix = m;
        layout = new PairMatrixLayout(m == null ? List.of() : m.nodes());
        hovered = null;
        focus = null;
        requestLayout();
        redraw();
    }

    /** The grid position in focus (null: none), ringed. */
    public void focus(PairMatrixViewModel.At at) {
        focus = at;
        redraw();
    }

    /** The layout as drawn (tests find cells through it). */
    public PairMatrixLayout drawnLayout() {
        return layout;
    }

    /** The centre of a grid position, in this control's coordinates. */
    public javafx.geometry.Point2D centre(PairMatrixViewModel.At at) {
        return new javafx.geometry.Point2D(layout.x(at.col()) + layout.cellWidth() / 2, layout.y(at.row()) + PairMatrixLayout.CELL_HEIGHT / 2);
    }

    @Override
    protected double computePrefWidth(double height) {
        return Math.max(200, layout.width());
    }

    @Override
    protected double computePrefHeight(double width) {
        return Math.max(60, layout.height());
    }

    @Override
    protected void layoutChildren() {
        canvas.setWidth(Math.max(0, getWidth()));
        canvas.setHeight(Math.max(0, getHeight()));
        redraw();
    }

    private void redraw() {
        GraphicsContext g = canvas.getGraphicsContext2D();
        double w = canvas.getWidth();
        double h = canvas.getHeight();
        g.setFill(UiPalette.fx(palette.badge()));
        g.fillRect(0, 0, w, h);
        if (matrix == null || layout.size() == 0) {
            return;
        }
        PairVerdict v = matrix.verdict();
        Set<String> slow = v.slowNodes().stream().map(PairVerdict.SlowNode::node).collect(Collectors.toSet());
        List<String> nodes = matrix.nodes();
        g.setTextBaseline(VPos.CENTER);
        for (int i = 0; i < nodes.size(); i++) {
            String n = nodes.get(i);
            boolean bad = slow.contains(n);
            g.setFont(bad ? BOLD : PLAIN);
            g.setFill(UiPalette.fx(bad ? palette.danger() : palette.label()));
            g.setTextAlign(TextAlignment.CENTER);
            g.fillText(PairMatrixLayout.fit(n, layout.cellWidth()), layout.x(i) + layout.cellWidth() / 2, PairMatrixLayout.HEADER_HEIGHT / 2);
            g.setTextAlign(TextAlignment.RIGHT);
            g.fillText(PairMatrixLayout.fit(n, layout.labelWidth()), layout.labelWidth() - PairMatrixLayout.PAD,
                    layout.y(i) + PairMatrixLayout.CELL_HEIGHT / 2);
        }
        g.setTextAlign(TextAlignment.CENTER);
        for (int r = 0; r < nodes.size(); r++) {
            for (int c = 0; c < nodes.size(); c++) {
                cell(g, r, c, r == c ? null : matrix.cell(nodes.get(r), nodes.get(c)));
            }
        }
        if (focus != null && focus.row() < nodes.size() && focus.col() < nodes.size()) {
            g.setStroke(UiPalette.fx(palette.selection()));
            g.setLineWidth(isFocused() ? 3 : 2);
            g.strokeRect(layout.x(focus.col()) + 1.5, layout.y(focus.row()) + 1.5, layout.cellWidth() - 3, PairMatrixLayout.CELL_HEIGHT - 3);
        }
    }

    private void cell(GraphicsContext g, int r, int c, PairCell cell) {
        double x = layout.x(c);
        double y = layout.y(r);
        double w = layout.cellWidth();
        double h = PairMatrixLayout.CELL_HEIGHT;
        g.setFont(PLAIN);
        if (cell == null) {
            g.setFill(UiPalette.fx(r == c ? palette.faint() : palette.background()));
            g.fillRect(x, y, w, h);
            g.setFill(UiPalette.fx(palette.labelMuted()));
            g.fillText(r == c ? PairMatrixReport.SELF : PairMatrixReport.NONE, x + w / 2, y + h / 2);
        } else {
            int bg = PairHeat.argb(palette, matrix.fractionOfBest(cell), cell.failed());
            g.setFill(UiPalette.fx(bg));
            g.fillRect(x, y, w, h);
            g.setFill(UiPalette.fx(PairHeat.text(palette, bg)));
            g.fillText(cell.failed() ? "failed" : PairMatrixReport.number(cell.value()), x + w / 2, y + h / 2);
        }
        g.setStroke(UiPalette.fx(palette.badge()));
        g.setLineWidth(1);
        g.strokeRect(x + 0.5, y + 0.5, w - 1, h - 1);
        if (hovered != null && hovered.row() == r && hovered.col() == c) {
            g.setStroke(UiPalette.fx(palette.selection(), 0.5));
            g.setLineWidth(2);
            g.strokeRect(x + 1, y + 1, w - 2, h - 2);
        }
    }

    private void hover(MouseEvent e) {
        setHovered(layout.pick(e.getX(), e.getY()));
    }

    private void setHovered(PairMatrixViewModel.At at) {
        if (java.util.Objects.equals(at, hovered)) {
            return;
        }
        hovered = at;
        PairCell c = at == null || matrix == null || at.row() == at.col() ? null
                : matrix.cell(matrix.nodes().get(at.row()), matrix.nodes().get(at.col()));
        if (c == null) {
            Tooltip.uninstall(canvas, tip);
        } else {
            tip.setText(PairMatrixViewModel.tooltip(matrix, c));
            Tooltip.install(canvas, tip);
        }
        redraw();
    }

    /** The text of the tooltip the pointer shows (tests read it). */
    String tooltipText() {
        return tip.getText();
    }

    private void pressed(MouseEvent e) {
        requestFocus();
        e.consume(); // the scroll pane around would take the focus, and with it the arrows
        PairMatrixViewModel.At at = layout.pick(e.getX(), e.getY());
        if (e.getButton() != MouseButton.PRIMARY || at == null) {
            return;
        }
        if (e.getClickCount() == 2) {
            onOpen.accept(at);
        } else {
            onSelect.accept(at);
        }
    }

    private void key(KeyEvent e) {
        switch (e.getCode()) {
            case LEFT -> onMove.accept(0, -1);
            case RIGHT -> onMove.accept(0, 1);
            case UP -> onMove.accept(-1, 0);
            case DOWN -> onMove.accept(1, 0);
            case ENTER -> {
                if (focus != null) {
                    onOpen.accept(focus);
                }
            }
            default -> {
                return;
            }
        }
        e.consume();
    }

    /** Whether a key is the shortcut for copy (Ctrl+C, Cmd+C). */
    static boolean isCopy(KeyEvent e) {
        return e.getCode() == KeyCode.C && e.isShortcutDown();
    }
}
