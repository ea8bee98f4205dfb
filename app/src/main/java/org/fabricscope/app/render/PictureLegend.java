package org.fabricscope.app.render;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.fabricscope.model.fabric.LinkSpeed;
import org.fabricscope.model.training.Transport;

/**
 * The key to a picture's colours and marks for one colour mode, as the window's legend reads it:
 * what each colour means, and the lost-link badge drawn in every mode. No JavaFX: the exported
 * pictures (PNG, SVG) draw it in their bottom band.
 */
public final class PictureLegend {
    /** How an entry's sample is drawn: a cable swatch, the off-fabric bar under a host, the lost-link badge. */
    public enum Shape { SWATCH, BAR, BADGE }

    /** One entry: its colour, its words and the sample's shape. */
    public record Entry(int argb, String text, Shape shape) {
    }

    private PictureLegend() {
    }

    /**
     * The entries of {@code mode}; {@code speeds}: the cables' rate tokens present (speed mode),
     * {@code ranksLoaded}: whether NCCL ranks were read (transport mode), {@code job}: the picked job, or null.
     */
    public static List<Entry> of(ColourMode mode, MapPalette p, Set<String> speeds, boolean ranksLoaded, String job) {
        List<Entry> out = new ArrayList<>();
        switch (mode) {
            case ERRORS -> {
                out.add(new Entry(p.ok(), "within thresholds", Shape.SWATCH));
                out.add(new Entry(p.warning(), "over threshold", Shape.SWATCH));
                out.add(new Entry(p.danger(), "error", Shape.SWATCH));
                out.add(new Entry(p.degraded(), "degraded", Shape.SWATCH));
                out.add(new Entry(p.unknown(), "no counters", Shape.SWATCH));
            }
            case TRANSPORT -> {
                for (Transport t : Transport.values()) {
                    out.add(new Entry(p.transport(t), label(t), MapColouring.offFabric(t) ? Shape.BAR : Shape.SWATCH));
                }
                out.add(new Entry(p.faint(), ranksLoaded ? "no ranks" : "no ranks (no NCCL logs loaded)", Shape.SWATCH));
            }
            case KUBERNETES -> {
                out.add(new Entry(p.job(), job == null ? "runs training pods" : "runs " + job, Shape.SWATCH));
                if (job != null) {
                    out.add(new Entry(p.otherJob(), "other jobs", Shape.SWATCH));
                }
                out.add(new Entry(p.ok(), "node Ready", Shape.SWATCH));
                out.add(new Entry(p.danger(), "NotReady / cordoned", Shape.SWATCH));
                out.add(new Entry(p.unknown(), "readiness unknown", Shape.SWATCH));
                out.add(new Entry(p.faint(), "no Kubernetes node", Shape.SWATCH));
            }
            case SPEED -> {
                for (LinkSpeed s : LinkSpeed.values()) {
                    if (speeds.stream().anyMatch(token -> token.endsWith("x" + s.name()))) {
                        out.add(new Entry(p.speed(s), s.name(), Shape.SWATCH));
                    }
                }
                out.add(new Entry(p.degraded(), "degraded (narrow/slow)", Shape.SWATCH));
                out.add(new Entry(p.unknown(), "unknown rate", Shape.SWATCH));
            }
        }
        out.add(new Entry(p.danger(), "lost link", Shape.BADGE));
        return out;
    }

    /** A transport as the legend names it. */
    public static String label(Transport t) {
        return switch (t) {
            case P2P -> "NVLink/P2P";
            case SHM -> "SHM";
            case NET_IB_GDR -> "IB+GDR";
            case NET_IB -> "IB (no GDR)";
            case NET_OTHER -> "other NET";
            case NET_SOCKET -> "socket";
        };
    }
}
