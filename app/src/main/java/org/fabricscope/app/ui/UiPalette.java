package org.fabricscope.app.ui;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.fabricscope.app.render.MapPalette;

import javafx.application.Platform;
import javafx.scene.Scene;
import javafx.scene.layout.Background;
import javafx.scene.layout.Region;
import javafx.scene.layout.StackPane;
import javafx.scene.paint.Color;
import javafx.scene.paint.Paint;

/**
 * The map palette as the application stylesheet defines it, read once on the FX thread and then
 * shared (immutable) with the threads that colour and rasterise the map.
 */
public final class UiPalette {
    private static volatile MapPalette current;

    private UiPalette() {
    }

    /** The application stylesheet ({@code app.css}), as a URL for {@code Scene.getStylesheets()}. */
    public static String stylesheet() {
        return UiPalette.class.getResource("app.css").toExternalForm();
    }

    /**
     * The palette of the application stylesheet. The first call on the FX thread (the app's start,
     * or the first map view) reads it through JavaFX's CSS engine; later calls, on any thread, get
     * that value. A call off the FX thread before that gets {@link MapPalette#defaults()}: the same
     * stylesheet read as text, equal by test.
     */
    public static MapPalette current() {
        MapPalette p = current;
        if (p != null) {
            return p;
        }
        if (!Platform.isFxApplicationThread()) {
            return MapPalette.defaults();
        }
        p = read(stylesheet());
        current = p;
        return p;
    }

    /**
     * Reads the map's colours from a stylesheet through the CSS engine. FX thread.
     *
     * <p>How: one hidden region per variable, styled {@code -fx-background-color: <variable>}, under a
     * throwaway scene root (which carries the {@code root} style class) with the stylesheet applied;
     * after {@code applyCss()} each region's background fill is the variable's colour. We do not
     * parse the file with {@code javafx.css.CssParser} instead: its declarations hold unresolved
     * looked-up values, and resolving them ({@code -fs-x: -fs-y}, {@code derive()}, {@code ladder()})
     * would mean re-implementing the engine's lookup rules over internal converters. The probe gets
     * exactly what any styled control gets, and an undefined variable shows as a missing fill.
     */
    public static MapPalette read(String stylesheetUrl) {
        if (!Platform.isFxApplicationThread()) {
            throw new IllegalStateException("the stylesheet is read on the FX thread");
        }
        Map<String, Region> probes = new LinkedHashMap<>();
        for (String v : MapPalette.variables()) {
            Region r = new Region();
            r.setStyle("-fx-background-color: " + v + ";");
            probes.put(v, r);
        }
        StackPane root = new StackPane();
        root.getChildren().addAll(probes.values());
        Scene scene = new Scene(root);
        scene.getStylesheets().add(stylesheetUrl);
        root.applyCss();
        List<String> missing = new ArrayList<>();
        Map<String, Integer> colours = new LinkedHashMap<>();
        probes.forEach((name, region) -> {
            Background b = region.getBackground();
            Paint paint = b == null || b.getFills().isEmpty() ? null : b.getFills().get(0).getFill();
            if (paint instanceof Color c) {
                colours.put(name, argb(c));
            } else {
                missing.add(name);
            }
        });
        if (!missing.isEmpty()) {
            throw new IllegalStateException(stylesheetUrl + ": no colour for " + missing);
        }
        return MapPalette.of(colours::get);
    }

    /** A palette colour for the FX canvas and controls. */
    public static Color fx(int argb) {
        return fx(argb, 1);
    }

    /** A palette colour at a fraction of its opacity (halos, badges). */
    public static Color fx(int argb, double opacity) {
        return Color.rgb(argb >> 16 & 0xFF, argb >> 8 & 0xFF, argb & 0xFF, (argb >>> 24) / 255.0 * opacity);
    }

    static int argb(Color c) {
        return channel(c.getOpacity()) << 24 | channel(c.getRed()) << 16 | channel(c.getGreen()) << 8 | channel(c.getBlue());
    }

    private static int channel(double unit) {
        return (int) Math.round(unit * 255);
    }
}
