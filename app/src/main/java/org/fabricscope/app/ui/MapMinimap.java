package org.fabricscope.app.ui;

import java.nio.IntBuffer;
import java.util.concurrent.ExecutorService;
import java.util.function.Supplier;

import org.fabricscope.app.render.MapOverview;
import org.fabricscope.app.render.MapPalette;
import org.fabricscope.app.render.MapRasterizer;
import org.fabricscope.app.render.Viewport;
import org.fabricscope.model.layout.MapLayout;

import javafx.application.Platform;
import javafx.scene.canvas.Canvas;
import javafx.scene.canvas.GraphicsContext;
import javafx.scene.image.PixelBuffer;
import javafx.scene.image.PixelFormat;
import javafx.scene.image.WritableImage;

/**
 * The map's minimap: the whole fabric, fitted and rasterised off the FX thread, with the viewport drawn over it. It is
 * shown only while part of the fabric is out of view (at fit it would cover a corner of the map for nothing). The map
 * turns a press in it into a pan through {@link #worldAt}.
 */
final class MapMinimap {
    static final double W = 220;
    static final double H = 110;
    static final double MARGIN = 10;

    private final Canvas canvas = new Canvas(W, H);
    private final MapPalette palette;
    private WritableImage frame;
    /** World to minimap pixels. */
    private double scale;
    private double tx;
    private double ty;

    MapMinimap(MapPalette palette) {
        this.palette = palette;
        canvas.getStyleClass().add("minimap");
        canvas.setVisible(false);
    }

    Canvas canvas() {
        return canvas;
    }

    /**
     * Renders the whole fabric of {@code o} into the minimap on {@code renderer}; the result is kept only if
     * {@code current} still gives {@code o} when it arrives, then {@code redraw} runs (on the FX thread).
     */
    void render(MapLayout layout, MapOverview o, boolean problemsOnly, ExecutorService renderer, Supplier<MapOverview> current,
                Runnable redraw) {
        if (o == null || layout.items().isEmpty()) {
            frame = null;
            canvas.setVisible(false);
            return;
        }
        double w = layout.maxX() - layout.minX();
        double h = layout.maxY() - layout.minY();
        double ms = Math.min((W - 8) / Math.max(1, w), (H - 8) / Math.max(1, h));
        double mx = (W - w * ms) / 2 - layout.minX() * ms;
        double my = (H - h * ms) / 2 - layout.minY() * ms;
        renderer.submit(() -> {
            MapRasterizer r = MapRasterizer.render(o, (int) W, (int) H, ms, mx, my, problemsOnly);
            Platform.runLater(() -> {
                if (current.get() != o) {
                    return;
                }
                PixelBuffer<IntBuffer> pb = new PixelBuffer<>((int) W, (int) H, IntBuffer.wrap(r.pixels()),
                        PixelFormat.getIntArgbPreInstance());
                frame = new WritableImage(pb);
                scale = ms;
                tx = mx;
                ty = my;
                redraw.run();
            });
        });
    }

    /** Draws the fabric and the viewport; shows the minimap only while part of the fabric is out of {@code view}. */
    void draw(MapLayout layout, Viewport view) {
        GraphicsContext g = canvas.getGraphicsContext2D();
        g.clearRect(0, 0, W, H);
        canvas.setVisible(frame != null && !wholeInView(layout, view));
        if (frame == null) {
            return;
        }
        g.drawImage(frame, 0, 0);
        g.setStroke(UiPalette.fx(palette.labelMuted()));
        g.setLineWidth(1);
        g.strokeRect(0.5, 0.5, W - 1, H - 1);
        double[] v = viewportRect(view);
        if (v != null) {
            double x0 = Math.max(1, v[0]);
            double y0 = Math.max(1, v[1]);
            double x1 = Math.min(W - 1, v[0] + v[2]);
            double y1 = Math.min(H - 1, v[1] + v[3]);
            g.setFill(UiPalette.fx(palette.selection(), 0.12));
            g.fillRect(x0, y0, Math.max(2, x1 - x0), Math.max(2, y1 - y0));
            g.setStroke(UiPalette.fx(palette.selection()));
            g.setLineWidth(1.5);
            g.strokeRect(x0, y0, Math.max(2, x1 - x0), Math.max(2, y1 - y0));
        }
    }

    /** The view as a rectangle in the minimap's pixels (x, y, width, height), or null while the minimap is hidden. */
    double[] viewportRect(Viewport view) {
        if (!canvas.isVisible() || scale <= 0 || view == null) {
            return null;
        }
        double x0 = ((0 - view.tx()) / view.scale()) * scale + tx;
        double y0 = ((0 - view.ty()) / view.scale()) * scale + ty;
        double x1 = ((view.width() - view.tx()) / view.scale()) * scale + tx;
        double y1 = ((view.height() - view.ty()) / view.scale()) * scale + ty;
        return new double[] {x0, y0, x1 - x0, y1 - y0};
    }

    /** The world point under a point of the minimap, or null before it is rendered. */
    double[] worldAt(double x, double y) {
        return scale <= 0 ? null : new double[] {(x - tx) / scale, (y - ty) / scale};
    }

    /** Whether every glyph is inside the view (at fit, or zoomed out further). */
    static boolean wholeInView(MapLayout layout, Viewport view) {
        if (layout == null || view == null || view.scale() <= 0) {
            return true;
        }
        return layout.minX() * view.scale() + view.tx() >= -1 && layout.maxX() * view.scale() + view.tx() <= view.width() + 1
                && layout.minY() * view.scale() + view.ty() >= -1 && layout.maxY() * view.scale() + view.ty() <= view.height() + 1;
    }
}
