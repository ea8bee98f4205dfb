package org.fabricscope.app.ui;

import java.util.function.BiConsumer;
import java.util.function.Consumer;

import org.fabricscope.model.incident.reasoning.IncidentEvent;

import javafx.geometry.Orientation;
import javafx.scene.canvas.Canvas;
import javafx.scene.control.ScrollBar;
import javafx.scene.control.Tooltip;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyEvent;
import javafx.scene.input.MouseButton;
import javafx.scene.input.MouseEvent;
import javafx.scene.input.ScrollEvent;
import javafx.scene.layout.Region;
import javafx.util.Duration;

/**
 * The incident drawn on one clock axis, a lane per node or pod (one canvas, painted by
 * {@link TimelinePainter} from a {@link TimelineLayout}; no node per mark). Hover a mark for its
 * tooltip; click it to open it; the arrows move the selection (left/right in time, up/down to the
 * next lane), Home/End go to the first/last event, Enter opens the selected one. The scroll wheel
 * over the axis (or with Ctrl) zooms the time around the pointer, dragging the axis pans it,
 * double-clicking it shows every event again; the wheel over the lanes scrolls them.
 */
public final class TimelineChart extends Region {
    private final Canvas canvas = new Canvas();
    private final ScrollBar scroll = new ScrollBar();
    private final Tooltip tip = new Tooltip();
    private final TimelinePainter painter = new TimelinePainter(UiPalette.current());
    private TimelineData data = TimelineData.EMPTY;
    private IncidentEvent selected;
    private IncidentEvent hovered;
    private long from;
    private long to = 1;
    private TimelineLayout layout;
    private double dragX = Double.NaN;
    private Consumer<IncidentEvent> onOpen = e -> { };
    private BiConsumer<Integer, Integer> onMove = (steps, lanes) -> { };
    private Consumer<Boolean> onEnd = last -> { };
    private java.util.function.Function<IncidentEvent, String> tooltipText = IncidentEvent::line;

    public TimelineChart() {
        setId(Styles.Id.TIMELINE_CHART);
        getStyleClass().add(Styles.TIMELINE_CHART);
        setFocusTraversable(true);
        scroll.setOrientation(Orientation.VERTICAL);
        scroll.setVisible(false);
        scroll.valueProperty().addListener((o, a, v) -> redraw());
        getChildren().addAll(canvas, scroll);
        setMinHeight(120);
        tip.setShowDelay(Duration.millis(250));
        tip.setShowDuration(Duration.seconds(30));
        tip.setWrapText(true);
        tip.setMaxWidth(640);
        canvas.setOnMouseMoved(this::hover);
        canvas.setOnMouseExited(e -> setHovered(null));
        canvas.setOnMousePressed(this::pressed);
        canvas.setOnMouseDragged(this::dragged);
        canvas.setOnMouseReleased(e -> dragX = Double.NaN);
        canvas.setOnScroll(this::scrolled);
        addEventHandler(KeyEvent.KEY_PRESSED, this::key);
    }

    /** What a click on a mark (or Enter on the selection) does, what the arrows and Home/End ask, and each mark's hover text. */
    void setActions(Consumer<IncidentEvent> open, BiConsumer<Integer, Integer> move, Consumer<Boolean> end,
                    java.util.function.Function<IncidentEvent, String> tooltip) {
        this.onOpen = open;
        this.onMove = move;
        this.onEnd = end;
        this.tooltipText = tooltip;
    }

    /** A new incident: every event in view, scrolled to the top. */
    public void show(TimelineData d) {
        data = d;
        hovered = null;
        long[] full = TimelineLayout.fullWindow(d);
        from = full[0];
        to = full[1];
        scroll.setValue(0);
        requestLayout();
        redraw();
    }

    /** The selected event (null: none): ringed, its time and lane brought into view. */
    public void select(IncidentEvent e) {
        selected = e;
        reveal(e);
        redraw();
    }

    private void reveal(IncidentEvent e) {
        if (e == null || layout == null) {
            return;
        }
        if (e.stamp().known() && (e.stamp().millis() < from || e.stamp().millis() > to)) {
            long span = to - from;
            from = e.stamp().millis() - span / 2;
            to = from + span;
            redraw();
        }
        TimelineLayout.Mark m = layout.markOf(e);
        if (m != null && scroll.isVisible()) {
            double y = m.y();
            if (y < TimelineLayout.AXIS_HEIGHT + 10 || y > getHeight() - 10) {
                scroll.setValue(clampScroll(scroll.getValue() + y - (TimelineLayout.AXIS_HEIGHT + getHeight()) / 2));
            }
        }
    }

    private double clampScroll(double v) {
        return Math.max(scroll.getMin(), Math.min(scroll.getMax(), v));
    }

    /** The layout as last drawn (tests pick marks through it). */
    TimelineLayout drawnLayout() {
        return layout;
    }

    /** Where an event's mark is drawn, in this control's coordinates; null when it is not in view. */
    public javafx.geometry.Point2D markPosition(IncidentEvent e) {
        TimelineLayout.Mark m = layout == null ? null : layout.markOf(e);
        return m == null || !m.inView() ? null : new javafx.geometry.Point2D(canvas.getLayoutX() + m.x(), m.y());
    }

    /** The time window shown: {from, to} in ms since the epoch. */
    long[] window() {
        return new long[] {from, to};
    }

    @Override
    protected void layoutChildren() {
        double w = getWidth();
        double h = getHeight();
        double content = new TimelineLayout(data, w, h, from, to, 0).contentHeight();
        boolean bar = content > h + 0.5;
        double sw = bar ? scroll.prefWidth(-1) : 0;
        scroll.setVisible(bar);
        scroll.resizeRelocate(w - sw, 0, sw, h);
        scroll.setMax(Math.max(0, content - h));
        scroll.setVisibleAmount(h);
        if (!bar) {
            scroll.setValue(0);
        }
        canvas.setWidth(Math.max(0, w - sw));
        canvas.setHeight(Math.max(0, h));
        redraw();
    }

    @Override
    protected double computePrefHeight(double width) {
        double w = width > 0 ? width : 520;
        return Math.min(460, new TimelineLayout(data, w, 0, from, to, 0).contentHeight() + 4);
    }

    @Override
    protected double computePrefWidth(double height) {
        return 520;
    }

    private void redraw() {
        double w = canvas.getWidth();
        double h = canvas.getHeight();
        if (w <= 0 || h <= 0) {
            return;
        }
        layout = new TimelineLayout(data, w, h, from, to, scroll.isVisible() ? scroll.getValue() : 0);
        painter.paint(canvas.getGraphicsContext2D(), layout, selected, hovered);
    }

    private void hover(MouseEvent e) {
        TimelineLayout.Mark m = layout == null ? null : layout.pick(e.getX(), e.getY());
        setHovered(m == null ? null : m.event());
    }

    private void setHovered(IncidentEvent e) {
        if (e == hovered) {
            return;
        }
        hovered = e;
        if (e == null) {
            Tooltip.uninstall(canvas, tip);
        } else {
            tip.setText(tooltipText.apply(e));
            Tooltip.install(canvas, tip);
        }
        redraw();
    }

    private void pressed(MouseEvent e) {
        requestFocus();
        if (e.getButton() != MouseButton.PRIMARY || layout == null) {
            return;
        }
        if (e.getY() < TimelineLayout.AXIS_HEIGHT) {
            if (e.getClickCount() == 2) {
                long[] full = TimelineLayout.fullWindow(data);
                from = full[0];
                to = full[1];
                redraw();
            } else {
                dragX = e.getX();
            }
            return;
        }
        TimelineLayout.Mark m = layout.pick(e.getX(), e.getY());
        if (m != null) {
            onOpen.accept(m.event());
        }
    }

    private void dragged(MouseEvent e) {
        if (Double.isNaN(dragX) || layout == null || !data.hasTimes()) {
            return;
        }
        long shift = layout.time(dragX) - layout.time(e.getX());
        from += shift;
        to += shift;
        dragX = e.getX();
        redraw();
    }

    private void scrolled(ScrollEvent e) {
        if (layout == null) {
            return;
        }
        boolean zoom = e.getY() < TimelineLayout.AXIS_HEIGHT || e.isControlDown() || e.isShortcutDown();
        if (zoom && data.hasTimes() && e.getDeltaY() != 0) {
            zoom(Math.pow(1.2, -e.getDeltaY() / 40), layout.time(Math.max(layout.plotLeft(), Math.min(layout.plotRight(), e.getX()))));
        } else if (scroll.isVisible()) {
            scroll.setValue(clampScroll(scroll.getValue() - e.getDeltaY()));
        }
        e.consume();
    }

    /** Scales the window by {@code factor} (below 1: zoom in) around {@code at}; never below 10 ms nor past 100 times every event. */
    void zoom(double factor, long at) {
        long[] full = TimelineLayout.fullWindow(data);
        double span = Math.max(10, Math.min(100.0 * (full[1] - full[0]), (to - from) * factor));
        double left = (at - from) / (double) (to - from);
        from = at - Math.round(span * left);
        to = from + Math.round(span);
        redraw();
    }

    private void key(KeyEvent e) {
        KeyCode c = e.getCode();
        switch (c) {
            case LEFT -> onMove.accept(-1, 0);
            case RIGHT -> onMove.accept(1, 0);
            case UP -> onMove.accept(0, -1);
            case DOWN -> onMove.accept(0, 1);
            case HOME -> onEnd.accept(false);
            case END -> onEnd.accept(true);
            case ENTER -> {
                if (selected != null) {
                    onOpen.accept(selected);
                }
            }
            default -> {
                return;
            }
        }
        e.consume();
    }
}
