package org.fabricscope.app.render;

import org.fabricscope.model.layout.MapLayout;

/**
 * What part of the map a picture shows: its size in pixels and the transform from world
 * coordinates to its pixels ({@code x * scale + tx}, {@code y * scale + ty}). The window's map has
 * one (its zoom and pan), the CLI's export uses {@link #fit}, as the map's Fit does.
 */
public record Viewport(int width, int height, double scale, double tx, double ty) {
    /** Room the map leaves on the left for the row labels when it fits the fabric. */
    public static final double LABEL_MARGIN = 48;

    public Viewport {
        if (width < 1 || height < 1) {
            throw new IllegalArgumentException("width and height must be positive: " + width + " x " + height);
        }
        if (!(scale > 0) || !Double.isFinite(scale) || !Double.isFinite(tx) || !Double.isFinite(ty)) {
            throw new IllegalArgumentException("scale must be positive and the translation finite");
        }
    }

    /** The whole layout fitted into a {@code width} x {@code height} view, with room for the row labels. */
    public static Viewport fit(MapLayout layout, double width, double height) {
        double w = layout.maxX() - layout.minX();
        double h = layout.maxY() - layout.minY();
        double s = Math.max(1e-4, Math.min((width - 40 - LABEL_MARGIN) / Math.max(1, w), (height - 40) / Math.max(1, h)));
        double tx = LABEL_MARGIN + (width - LABEL_MARGIN - w * s) / 2 - layout.minX() * s;
        double ty = (height - h * s) / 2 - layout.minY() * s;
        return new Viewport((int) Math.max(1, Math.ceil(width)), (int) Math.max(1, Math.ceil(height)), s, tx, ty);
    }
}
