package org.fabricscope.app.prefs;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Properties;

import org.fabricscope.app.common.AtomicWrite;

/**
 * The main window's place, size, maximised state and the map/side-pane divider, remembered in
 * {@code window.properties}. {@link #place} checks a saved place against the screens there are now:
 * a window that would be off every screen (a monitor unplugged) is centred on the primary one, and
 * with nothing saved the first size is 80 % of the primary screen's visual bounds, at least
 * {@value #MIN_WIDTH} x {@value #MIN_HEIGHT} (a window manager otherwise may give the 200 x 200 it
 * gives a window of unknown size).
 */
public record WindowGeometry(double x, double y, double width, double height, boolean maximized, double divider) {
    public static final double MIN_WIDTH = 1024;
    public static final double MIN_HEIGHT = 700;
    /** How much of a window must be on a screen to be reachable there: a title bar's worth. */
    static final double VISIBLE = 100;
    static final String FILE = "window.properties";

    /** A screen's usable area (JavaFX's {@code Screen.getVisualBounds()}). */
    public record Bounds(double x, double y, double width, double height) {
        double intersectionArea(double ox, double oy, double ow, double oh) {
            double w = Math.min(x + width, ox + ow) - Math.max(x, ox);
            double h = Math.min(y + height, oy + oh) - Math.max(y, oy);
            return w > 0 && h > 0 ? w * h : 0;
        }
    }

    /**
     * Where the window goes: {@code saved} when at least a title bar's worth of it (its top
     * {@value #VISIBLE} px, {@value #VISIBLE} px wide) is on one of {@code screens}, its size cut to
     * that screen; otherwise centred on {@code primary} at the saved size (or the first size), cut to
     * the primary screen. The divider is kept between 0.2 and 0.9.
     */
    public static WindowGeometry place(Optional<WindowGeometry> saved, List<Bounds> screens, Bounds primary) {
        double divider = saved.map(WindowGeometry::divider).filter(d -> d >= 0.2 && d <= 0.9).orElse(0.64);
        boolean maximized = saved.map(WindowGeometry::maximized).orElse(false);
        if (saved.isPresent() && saved.get().width() > 0 && saved.get().height() > 0) {
            WindowGeometry g = saved.get();
            for (Bounds s : screens) {
                if (s.intersectionArea(g.x(), g.y(), g.width(), Math.min(VISIBLE, g.height())) >= VISIBLE * Math.min(VISIBLE,
                        g.height()) && g.y() >= s.y()) {
                    return new WindowGeometry(g.x(), g.y(), Math.min(g.width(), s.width()), Math.min(g.height(), s.height()),
                            maximized, divider);
                }
            }
        }
        double w = saved.map(WindowGeometry::width).filter(v -> v > 0).orElse(Math.max(MIN_WIDTH, primary.width() * 0.8));
        double h = saved.map(WindowGeometry::height).filter(v -> v > 0).orElse(Math.max(MIN_HEIGHT, primary.height() * 0.8));
        w = Math.min(w, primary.width());
        h = Math.min(h, primary.height());
        return new WindowGeometry(primary.x() + (primary.width() - w) / 2, primary.y() + (primary.height() - h) / 2, w, h,
                maximized, divider);
    }

    /** The saved geometry in {@code directory}, empty when none is saved or it cannot be read. */
    public static Optional<WindowGeometry> load(Path directory) {
        if (directory == null || !Files.isRegularFile(directory.resolve(FILE))) {
            return Optional.empty();
        }
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(directory.resolve(FILE), StandardCharsets.UTF_8)) {
            p.load(r);
            WindowGeometry g = new WindowGeometry(num(p, "x"), num(p, "y"), num(p, "width"), num(p, "height"),
                    Boolean.parseBoolean(p.getProperty("maximized")), num(p, "divider"));
            return g.width() > 0 && g.height() > 0 ? Optional.of(g) : Optional.empty();
        } catch (IOException | RuntimeException e) {
            return Optional.empty(); // a damaged file: start as on the first run
        }
    }

    private static double num(Properties p, String key) {
        double d = Double.parseDouble(p.getProperty(key, "NaN"));
        if (!Double.isFinite(d)) {
            throw new IllegalArgumentException(key);
        }
        return d;
    }

    /** Writes this geometry to {@code directory} (null: nowhere). */
    public void save(Path directory) throws IOException {
        if (directory == null) {
            return;
        }
        Files.createDirectories(directory);
        Properties p = new Properties();
        p.setProperty("x", Double.toString(x));
        p.setProperty("y", Double.toString(y));
        p.setProperty("width", Double.toString(width));
        p.setProperty("height", Double.toString(height));
        p.setProperty("maximized", Boolean.toString(maximized));
        p.setProperty("divider", Double.toString(divider));
        AtomicWrite.write(directory.resolve(FILE), out -> {
            Writer w = new java.io.OutputStreamWriter(out, StandardCharsets.UTF_8);
            p.store(w, "FabricScope main window");
            w.flush();
        });
    }
}
