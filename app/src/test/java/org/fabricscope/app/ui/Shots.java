package org.fabricscope.app.ui;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import javax.imageio.ImageIO;

import org.testfx.util.WaitForAsyncUtils;

import javafx.embed.swing.SwingFXUtils;
import javafx.scene.Node;

/** Saves a node's scene as a PNG under target/screenshots: a by-product for the docs, never an assertion. */
final class Shots {
    private Shots() {
    }

    static void save(Node node, String name) {
        try {
            var img = WaitForAsyncUtils.asyncFx(() -> node.getScene().snapshot(null)).get(10, TimeUnit.SECONDS);
            Path out = Path.of("target", "screenshots");
            Files.createDirectories(out);
            ImageIO.write(SwingFXUtils.fromFXImage(img, null), "png", out.resolve(name).toFile());
        } catch (Exception e) {
            System.err.println("screenshot not saved: " + e);
        }
    }
}
