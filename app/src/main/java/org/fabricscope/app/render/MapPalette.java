package org.fabricscope.app.render;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToIntFunction;

import org.fabricscope.model.core.Severity;
import org.fabricscope.model.fabric.LinkSpeed;
import org.fabricscope.model.training.Transport;

/**
 * The map's colours as ARGB ints, for code that draws without JavaFX: {@link MapColouring},
 * {@link MapRasterizer}, the map's overlay and the CLI's {@code bench}. Immutable.
 *
 * <p>The only source of these colours is the application stylesheet ({@link #STYLESHEET}): its
 * {@code .root} rule defines one {@code -fs-*} variable per colour ({@link #variables()}). The
 * desktop app reads them once at start through JavaFX's CSS engine ({@code app.ui.UiPalette});
 * {@link #defaults()} reads the same declarations as text, for code that has no JavaFX. A test
 * keeps the two equal. Nothing else in the code holds a colour.
 */
public record MapPalette(int background, int ok, int warning, int danger, int degraded, int unknown, int faint,
                         int selection, int core, int spine, int leaf, int other, int hca, int host, int[] speeds,
                         int[] transports, int[] severities, int job, int otherJob, int label, int labelMuted, int badge,
                         int hint) {

    /** The application stylesheet, as a class-path resource name. */
    public static final String STYLESHEET = "/org/fabricscope/app/ui/app.css";

    public MapPalette {
        speeds = checked(speeds, LinkSpeed.values().length, "speeds");
        transports = checked(transports, Transport.values().length, "transports");
        severities = checked(severities, Severity.values().length, "severities");
    }

    /**
     * The palette from a colour lookup: {@code colourOf} maps each CSS variable name (with its
     * leading {@code -fs-}) to an ARGB int. This is the one place that names the variables.
     */
    public static MapPalette of(ToIntFunction<String> colourOf) {
        return new MapPalette(
                colourOf.applyAsInt("-fs-map-background"),
                colourOf.applyAsInt("-fs-ok"),
                colourOf.applyAsInt("-fs-warning"),
                colourOf.applyAsInt("-fs-danger"),
                colourOf.applyAsInt("-fs-degraded"),
                colourOf.applyAsInt("-fs-unknown"),
                colourOf.applyAsInt("-fs-faint"),
                colourOf.applyAsInt("-fs-selection"),
                colourOf.applyAsInt("-fs-tier-core"),
                colourOf.applyAsInt("-fs-tier-spine"),
                colourOf.applyAsInt("-fs-tier-leaf"),
                colourOf.applyAsInt("-fs-tier-other"),
                colourOf.applyAsInt("-fs-tier-hca"),
                colourOf.applyAsInt("-fs-tier-host"),
                each(LinkSpeed.values(), "-fs-speed-", colourOf),
                each(Transport.values(), "-fs-transport-", colourOf),
                each(Severity.values(), "-fs-severity-", colourOf),
                colourOf.applyAsInt("-fs-job"),
                colourOf.applyAsInt("-fs-other-job"),
                colourOf.applyAsInt("-fs-map-label"),
                colourOf.applyAsInt("-fs-map-label-muted"),
                colourOf.applyAsInt("-fs-map-badge"),
                colourOf.applyAsInt("-fs-map-hint"));
    }

    /** The CSS variables the palette reads, in the order of its components. */
    public static List<String> variables() {
        List<String> names = new ArrayList<>();
        of(name -> {
            names.add(name);
            return 0;
        });
        return List.copyOf(names);
    }

    /** The name of the variable of one enum constant: {@code -fs-speed-fdr10}, {@code -fs-transport-net-ib-gdr}. */
    public static String variable(String prefix, Enum<?> constant) {
        return prefix + constant.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /**
     * The palette of the application stylesheet read as text, without JavaFX (for the CLI, and
     * for code that runs before the toolkit has read the stylesheet). Parsed once.
     */
    public static MapPalette defaults() {
        return Defaults.PALETTE;
    }

    /** The palette of a stylesheet's text ({@code .root} variables; see {@link RootVariables}). */
    public static MapPalette parse(String css) {
        Map<String, String> vars = RootVariables.parse(css);
        return of(name -> RootVariables.colour(vars, name));
    }

    /** Speed colours, slowest to fastest. */
    public int speed(LinkSpeed s) {
        return speeds[s.ordinal()];
    }

    public int transport(Transport t) {
        return transports[t.ordinal()];
    }

    public int severity(Severity s) {
        return severities[s.ordinal()];
    }

    @Override
    public int[] speeds() {
        return speeds.clone();
    }

    @Override
    public int[] transports() {
        return transports.clone();
    }

    @Override
    public int[] severities() {
        return severities.clone();
    }

    /** {@code #RRGGBB} (or {@code #RRGGBBAA} when not opaque), for an inline JavaFX style. */
    public static String css(int argb) {
        int alpha = argb >>> 24;
        return alpha == 0xFF ? String.format("#%06X", argb & 0xFFFFFF)
                : String.format("#%06X%02X", argb & 0xFFFFFF, alpha);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof MapPalette p && Arrays.equals(ints(), p.ints()) && Arrays.equals(speeds, p.speeds)
                && Arrays.equals(transports, p.transports) && Arrays.equals(severities, p.severities);
    }

    @Override
    public int hashCode() {
        return ((Arrays.hashCode(ints()) * 31 + Arrays.hashCode(speeds)) * 31 + Arrays.hashCode(transports)) * 31
                + Arrays.hashCode(severities);
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder("MapPalette[");
        for (int argb : ints()) {
            b.append(css(argb)).append(' ');
        }
        b.append("speeds=");
        Arrays.stream(speeds).forEach(c -> b.append(css(c)).append(' '));
        b.append("transports=");
        Arrays.stream(transports).forEach(c -> b.append(css(c)).append(' '));
        b.append("severities=");
        Arrays.stream(severities).forEach(c -> b.append(css(c)).append(' '));
        return b.append(']').toString();
    }

    /** The single colours, in component order. */
    private int[] ints() {
        return new int[] {background, ok, warning, danger, degraded, unknown, faint, selection, core, spine, leaf, other,
            hca, host, job, otherJob, label, labelMuted, badge, hint};
    }

    private static int[] each(Enum<?>[] constants, String prefix, ToIntFunction<String> colourOf) {
        int[] out = new int[constants.length];
        for (Enum<?> c : constants) {
            out[c.ordinal()] = colourOf.applyAsInt(variable(prefix, c));
        }
        return out;
    }

    private static int[] checked(int[] colours, int length, String what) {
        if (colours == null || colours.length != length) {
            throw new IllegalArgumentException(what + ": " + length + " colours expected");
        }
        return colours.clone();
    }

    private static final class Defaults {
        static final MapPalette PALETTE = parse(read());

        private static String read() {
            try (InputStream in = MapPalette.class.getResourceAsStream(STYLESHEET)) {
                if (in == null) {
                    throw new IllegalStateException(STYLESHEET + " is not on the class path");
                }
                return new String(in.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
