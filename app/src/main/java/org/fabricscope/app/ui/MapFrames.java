package org.fabricscope.app.ui;

import java.nio.IntBuffer;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

import org.fabricscope.app.render.MapOverview;
import org.fabricscope.app.render.MapRasterizer;
import org.fabricscope.app.render.Viewport;

import javafx.application.Platform;
import javafx.scene.canvas.GraphicsContext;
import javafx.scene.image.PixelBuffer;
import javafx.scene.image.PixelFormat;
import javafx.scene.image.WritableImage;

/**
 * The map's frames: rasterised on one background thread ({@link MapRasterizer}), the newest request only (a request
 * overtaken by a later one is dropped before and after it runs), handed to the FX thread as a pixel buffer. While the
 * user pans or zooms, the last frame is drawn moved and scaled to the view until the next one arrives.
 */
final class MapFrames {
    private final ExecutorService renderer = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "map-render");
        t.setDaemon(true);
        return t;
    });
    private final AtomicLong generation = new AtomicLong();
    private WritableImage frame;
    private Viewport frameView;
    private long lastRenderNanos;

    /** The render thread, shared with the minimap. */
    ExecutorService renderer() {
        return renderer;
    }

    /** Renders {@code o} for view {@code v}; {@code onFrame} runs on the FX thread once the frame is current. */
    void request(MapOverview o, Viewport v, boolean problemsOnly, Runnable onFrame) {
        long gen = generation.incrementAndGet();
        renderer.submit(() -> {
            if (generation.get() != gen) {
                return;
            }
            long t0 = System.nanoTime();
            MapRasterizer r = MapRasterizer.render(o, v.width(), v.height(), v.scale(), v.tx(), v.ty(), problemsOnly);
            long took = System.nanoTime() - t0;
            Platform.runLater(() -> {
                if (generation.get() != gen) {
                    return;
                }
                lastRenderNanos = took;
                PixelBuffer<IntBuffer> pb = new PixelBuffer<>(v.width(), v.height(), IntBuffer.wrap(r.pixels()),
                        PixelFormat.getIntArgbPreInstance());
                frame = new WritableImage(pb);
                frameView = v;
                onFrame.run();
            });
        });
    }

    /** Forgets the last frame (new data: nothing old is drawn under it). */
    void clear() {
        frame = null;
        frameView = null;
    }

    /** Draws the last frame moved and scaled to the view {@code v}. */
    void draw(GraphicsContext g, Viewport v) {
        if (frame == null || v == null) {
            return;
        }
        double f = v.scale() / frameView.scale();
        g.drawImage(frame, v.tx() - frameView.tx() * f, v.ty() - frameView.ty() * f, frame.getWidth() * f, frame.getHeight() * f);
    }

    WritableImage image() {
        return frame;
    }

    /** Whether the last frame is of exactly this view (not one being moved or scaled). */
    boolean isOf(Viewport v) {
        return frame != null && frameView.equals(v);
    }

    long lastRenderNanos() {
        return lastRenderNanos;
    }

    void dispose() {
        renderer.shutdownNow();
    }
}
