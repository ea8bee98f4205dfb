package org.fabricscope.app.ui;

import org.fabricscope.model.layout.MapLayout;

import javafx.scene.layout.Pane;

/**
 * A mouse-transparent layer over the {@link FabricMapView} whose marks follow pans and zooms: after each layout
 * pulse it checks whether the map's layout, scale, a reference point or its own size moved, and only then places
 * its marks again ({@link #place}). Built on the map's public API only. The finding highlights and the Compare
 * tab's marks are two such layers.
 */
abstract class MapOverlay extends Pane {
    /** The map whose items are marked; null until {@link #attach}. */
    protected FabricMapView map;
    private final Runnable pulse = this::follow;
    private MapLayout placedLayout;
    private double placedScale = Double.NaN;
    private double[] placedAt;
    private double placedWidth;
    private double placedHeight;

    MapOverlay(String styleClass) {
        getStyleClass().add(styleClass);
        setMouseTransparent(true); // clicks reach the map: a marked cable is still picked there
        setPickOnBounds(false);
        sceneProperty().addListener((o, before, after) -> {
            if (before != null) {
                before.removePostLayoutPulseListener(pulse);
            }
            if (after != null) {
                after.addPostLayoutPulseListener(pulse);
            }
        });
    }

    /** The map whose items are marked. */
    void attach(FabricMapView fabricMap) {
        this.map = fabricMap;
    }

    /** What is marked changed: place it now, whether or not the map moved. */
    protected final void marksChanged() {
        placedLayout = null;
        follow();
    }

    /** Whether there is nothing to mark. */
    protected abstract boolean nothingToMark();

    /** The screen position of a point that moves with the marks (one of their items), or null. */
    protected abstract double[] anchor(MapLayout layout);

    /** Places the marks for {@code layout} at the map's present transform (children replaced). */
    protected abstract void place(MapLayout layout);

    /** Called when the marks are taken off (no layout, or nothing to mark), after the children are cleared. */
    protected void cleared() {
    }

    /** After a layout pulse: re-place the marks when the map moved, zoomed, resized or changed layout. */
    private void follow() {
        if (map == null) {
            return;
        }
        MapLayout layout = map.mapLayout();
        if (layout == null || nothingToMark()) {
            if (!getChildren().isEmpty()) {
                getChildren().clear();
            }
            cleared();
            placedLayout = null;
            return;
        }
        double[] at = anchor(layout);
        if (layout == placedLayout && map.scale() == placedScale && at != null && placedAt != null && at[0] == placedAt[0]
                && at[1] == placedAt[1] && getWidth() == placedWidth && getHeight() == placedHeight) {
            return;
        }
        placedLayout = layout;
        placedScale = map.scale();
        placedAt = at;
        placedWidth = getWidth();
        placedHeight = getHeight();
        place(layout);
    }
}
