package org.fabricscope.app.ui;

import javafx.scene.canvas.Canvas;
import javafx.scene.control.Tooltip;
import javafx.scene.input.MouseButton;
import javafx.scene.input.MouseEvent;
import javafx.scene.input.ScrollEvent;
import javafx.util.Duration;

/**
 * The map's mouse gestures: drag to pan (a press that moves more than {@link #DRAG_SLOP} pixels is a drag, not a
 * click), click to select, double-click to zoom in, the wheel to zoom about the pointer, hover for a tooltip; in the
 * minimap, press or drag to move the view there.
 */
final class MapPointer {
    /** Pixels a press may move and still be a click. */
    static final double DRAG_SLOP = 2;
    /** Zoom factor of one wheel step. */
    static final double WHEEL_STEP = 1.15;

    private final Tooltip tooltip = new Tooltip();
    private FabricMapView map;
    private double dragX;
    private double dragY;
    private boolean dragged;

    MapPointer() {
        tooltip.setShowDelay(Duration.millis(250));
    }

    void attach(FabricMapView view, Canvas minimap) {
        this.map = view;
        view.addEventHandler(MouseEvent.MOUSE_PRESSED, this::pressed);
        view.addEventHandler(MouseEvent.MOUSE_DRAGGED, this::dragged);
        view.addEventHandler(MouseEvent.MOUSE_RELEASED, this::released);
        view.addEventHandler(MouseEvent.MOUSE_MOVED, e -> hover(view.hoverAt(e.getX(), e.getY(), true)));
        // the pointer left the map: nothing under it is hovered any more
        view.addEventHandler(MouseEvent.MOUSE_EXITED, e -> hover(view.hoverAt(0, 0, false)));
        view.addEventHandler(ScrollEvent.SCROLL, this::scrolled);
        minimap.addEventHandler(MouseEvent.MOUSE_PRESSED, this::minimapPan);
        minimap.addEventHandler(MouseEvent.MOUSE_DRAGGED, this::minimapPan);
        minimap.addEventHandler(MouseEvent.MOUSE_RELEASED, MouseEvent::consume);
        minimap.addEventHandler(MouseEvent.MOUSE_MOVED, e -> {
            Tooltip.uninstall(view, tooltip);
            e.consume();
        });
    }

    /** The hover text shown now (tests). */
    String tooltipText() {
        return tooltip.getText();
    }

    private void hover(String text) {
        if (text == null) {
            Tooltip.uninstall(map, tooltip);
        } else if (!text.equals(tooltip.getText()) || !map.getProperties().containsValue(tooltip)) {
            tooltip.setText(text);
            Tooltip.install(map, tooltip);
        }
    }

    private void pressed(MouseEvent e) {
        map.requestFocus();
        dragX = e.getX();
        dragY = e.getY();
        dragged = false;
    }

    private void dragged(MouseEvent e) {
        double dx = e.getX() - dragX;
        double dy = e.getY() - dragY;
        if (Math.abs(dx) + Math.abs(dy) > DRAG_SLOP) {
            dragged = true;
        }
        dragX = e.getX();
        dragY = e.getY();
        map.panBy(dx, dy);
    }

    private void released(MouseEvent e) {
        if (!dragged && e.getButton() == MouseButton.PRIMARY) {
            map.clickAt(e.getX(), e.getY(), e.getClickCount());
        }
    }

    private void scrolled(ScrollEvent e) {
        if (e.getDeltaY() == 0) {
            return;
        }
        map.zoomAt(e.getDeltaY() > 0 ? WHEEL_STEP : 1 / WHEEL_STEP, e.getX(), e.getY());
        e.consume();
    }

    private void minimapPan(MouseEvent e) {
        e.consume();
        map.minimapPan(e.getX(), e.getY());
    }
}
