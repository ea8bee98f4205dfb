package org.fabricscope.app.ui;

import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;

import javafx.scene.Node;
import javafx.scene.SnapshotParameters;
import javafx.scene.image.PixelReader;
import javafx.scene.image.WritableImage;

/** A PNG of a node as shown (the map, for the incident report): a JavaFX snapshot encoded with ImageIO ({@link org.fabricscope.app.render.PngEncoder}: in memory, no cache file). */
final class MapPicture {
    private MapPicture() {
    }

    /** The node's pixels as PNG bytes, or null when it has no size or cannot be encoded. UI thread. */
    static byte[] png(Node node) {
        if (node == null || node.getBoundsInLocal().getWidth() < 1 || node.getBoundsInLocal().getHeight() < 1) {
            return null;
        }
        try {
            WritableImage img = node.snapshot(new SnapshotParameters(), null);
            int w = (int) img.getWidth();
            int h = (int) img.getHeight();
            PixelReader px = img.getPixelReader();
            BufferedImage out = new BufferedImage(w, h, BufferedImage.TYPE_INT_ARGB);
            int[] row = new int[w];
            for (int y = 0; y < h; y++) {
                px.getPixels(0, y, w, 1, javafx.scene.image.PixelFormat.getIntArgbInstance(), row, 0, w);
                out.setRGB(0, y, w, 1, row, 0, w);
            }
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            org.fabricscope.app.render.PngEncoder.write(out, bytes); // no imageio*.tmp file
            return bytes.toByteArray();
        } catch (IOException | RuntimeException e) {
            return null; // the report is still written, without the picture
        }
    }
}
