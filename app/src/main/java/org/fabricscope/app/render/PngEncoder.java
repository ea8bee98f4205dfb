package org.fabricscope.app.render;

import java.awt.image.RenderedImage;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Iterator;

import javax.imageio.ImageIO;
import javax.imageio.ImageWriter;
import javax.imageio.stream.ImageOutputStream;
import javax.imageio.stream.MemoryCacheImageOutputStream;

/**
 * PNG through {@code javax.imageio} without its disk cache. {@code ImageIO.write(image, "png", stream)}
 * caches the encoded bytes in an {@code imageio*.tmp} file in {@code java.io.tmpdir}: it fails when that
 * folder is not writable, leaves the file behind when the disk fills, and then prints a stack trace from
 * its shutdown thread. Here the PNG writer's seekable stream is kept in memory instead, and handed to
 * {@code out} chunk by chunk as the writer finishes each (it frees what it has flushed), so the memory
 * it holds stays about one chunk, not the picture.
 */
public final class PngEncoder {
    private PngEncoder() {
    }

    /** Writes {@code image} to {@code out} as PNG; {@code out} is flushed, not closed. */
    public static void write(RenderedImage image, OutputStream out) throws IOException {
        Iterator<ImageWriter> writers = ImageIO.getImageWritersByFormatName("png");
        if (!writers.hasNext()) {
            throw new IOException("no PNG writer in this Java runtime");
        }
        ImageWriter writer = writers.next();
        try (ImageOutputStream stream = new MemoryCacheImageOutputStream(out)) {
            writer.setOutput(stream);
            writer.write(image);
            stream.flush();
        } finally {
            writer.dispose();
        }
        out.flush();
    }
}
