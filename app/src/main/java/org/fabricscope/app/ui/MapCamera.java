package org.fabricscope.app.ui;

import org.fabricscope.app.render.Viewport;
import org.fabricscope.model.layout.MapLayout;

/**
 * Where the map looks: its zoom ({@code scale}, pixels per world unit) and pan ({@code tx}, {@code ty}: the screen
 * position of the world's origin), and the moves the map offers — fit, zoom about a point, pan, centre on a point,
 * frame a box. It remembers the view the last fit set, so the map can follow the window's size while the user has not
 * moved it.
 */
final class MapCamera {
    /** Below this zoom, centring on a glyph or cable first zooms to {@link #CLOSE_UP}. */
    static final double FAR = 0.8;
    static final double CLOSE_UP = 1.2;
    static final double MIN_SCALE = 1e-4;
    static final double MAX_SCALE = 40;
    /** Framing a set of glyphs zooms at most this far, with this margin in pixels. */
    static final double FRAME_MAX_SCALE = 3;
    static final double FRAME_MARGIN = 80;

    private double scale = 1;
    private double tx;
    private double ty;
    private double[] fitted;

    double scale() {
        return scale;
    }

    double tx() {
        return tx;
    }

    double ty() {
        return ty;
    }

    /** The whole layout in a {@code w} x {@code h} view, with room for the row names. */
    void fit(MapLayout layout, double w, double h) {
        Viewport v = Viewport.fit(layout, w, h);
        scale = v.scale();
        tx = v.tx();
        ty = v.ty();
        fitted = new double[] {scale, tx, ty};
    }

    /** Whether the view is still the one the last fit set. */
    boolean atFit() {
        return fitted != null && fitted[0] == scale && fitted[1] == tx && fitted[2] == ty;
    }

    /** Zooms by a factor about a point of the view, as the wheel does. */
    void zoomAt(double factor, double sx, double sy) {
        double ns = Math.max(MIN_SCALE, Math.min(MAX_SCALE, scale * factor));
        double f = ns / scale;
        tx = sx - (sx - tx) * f;
        ty = sy - (sy - ty) * f;
        scale = ns;
    }

    void panBy(double dx, double dy) {
        tx += dx;
        ty += dy;
    }

    /** Puts a world point at the centre of a {@code w} x {@code h} view; {@code closeUp}: zoomed out far, zoom in first. */
    void centreOn(double wx, double wy, double w, double h, boolean closeUp) {
        if (closeUp && scale < FAR) {
            scale = CLOSE_UP;
        }
        tx = w / 2 - wx * scale;
        ty = h / 2 - wy * scale;
    }

    /** Shows the world box {@code x0,y0 - x1,y1} whole, centred, zoomed in at most {@link #FRAME_MAX_SCALE}. */
    void frame(double x0, double y0, double x1, double y1, double w, double h) {
        scale = Math.max(MIN_SCALE, Math.min(FRAME_MAX_SCALE, Math.min((w - 2 * FRAME_MARGIN) / Math.max(1, x1 - x0),
                (h - 2 * FRAME_MARGIN) / Math.max(1, y1 - y0))));
        tx = w / 2 - (x0 + x1) / 2 * scale;
        ty = h / 2 - (y0 + y1) / 2 * scale;
    }

    double screenX(double wx) {
        return wx * scale + tx;
    }

    double screenY(double wy) {
        return wy * scale + ty;
    }

    double worldX(double sx) {
        return (sx - tx) / scale;
    }

    double worldY(double sy) {
        return (sy - ty) / scale;
    }

    /** The view of a {@code w} x {@code h} map in whole pixels, as a frame is rendered. */
    Viewport viewport(double w, double h) {
        return new Viewport((int) Math.ceil(w), (int) Math.ceil(h), scale, tx, ty);
    }
}
