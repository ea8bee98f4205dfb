package org.fabricscope.app.ui;

import org.fabricscope.app.render.ColourMode;
import org.fabricscope.app.render.MapColouring;
import org.fabricscope.app.render.MapPalette;
import org.fabricscope.app.render.PictureLegend;

import java.util.Set;

import org.fabricscope.model.training.Transport;

import javafx.geometry.Orientation;
import javafx.geometry.Pos;
import javafx.scene.control.Label;
import javafx.scene.layout.FlowPane;
import javafx.scene.layout.Region;

/**
 * The key to the map colours and marks of the current colour mode. A flow of entries that wraps
 * within the width it is given ({@link #fitWithin}), so no entry is ever cut or hidden in the
 * toolbar's overflow menu; the toolbar holds it while it fits there in two lines ({@link #linesAt}),
 * else it gets a row of its own under the toolbar ({@link MainToolBar}).
 */
public final class Legend extends FlowPane {
    /** Below this the legend wraps anyway (one entry a line would be taller than the toolbar should get). */
    static final double MIN_WRAP = 240;

    public Legend() {
        super(Orientation.HORIZONTAL, 8, 2);
        setAlignment(Pos.CENTER_LEFT);
        setRowValignment(javafx.geometry.VPos.CENTER);
        setPrefWrapLength(Double.MAX_VALUE / 4);
        getStyleClass().add(Styles.LEGEND);
    }

    /** Wraps the entries at this width: the room the toolbar has left for the legend. */
    public void fitWithin(double width) {
        double w = Math.max(MIN_WRAP, width);
        if (Math.abs(getPrefWrapLength() - w) > 1) {
            setPrefWrapLength(w);
        }
    }

    /** How many lines the entries take when wrapped at {@code width}, as the flow lays them out. */
    public int linesAt(double width) {
        int lines = 0;
        double x = 0;
        for (javafx.scene.Node n : getChildren()) {
            double w = n.prefWidth(-1);
            if (lines == 0 || x + getHgap() + w > width) {
                lines++;
                x = w;
            } else {
                x += getHgap() + w;
            }
        }
        return lines;
    }

    /**
     * {@code snapshot} may be null (nothing loaded); {@code job} is the picked training job, or null. The entries are
     * the exported pictures' ({@link PictureLegend}), each with a tooltip where its words need one.
     */
    public void show(ColourMode mode, Snapshot snapshot, String job) {
        getChildren().clear();
        MapPalette p = UiPalette.current();
        Set<String> speeds = snapshot == null ? Set.of() : snapshot.summary().cablesBySpeed().keySet();
        for (PictureLegend.Entry e : PictureLegend.of(mode, p, speeds, true, job)) {
            Label l = switch (e.shape()) {
                case SWATCH -> swatch(e.argb(), e.text());
                case BAR -> bar(e.argb(), e.text());
                case BADGE -> badge(e.argb(), e.text());
            };
            String tip = tooltip(mode, e);
            getChildren().add(tip == null ? l : tip(l, tip));
            if (mode == ColourMode.TRANSPORT && e.text().equals("no ranks") && snapshot != null && snapshot.ranks().isEmpty()) {
                getChildren().add(new Label("(no NCCL logs loaded)"));
            }
        }
    }

    /** The words an entry's tooltip adds, or null. */
    private static String tooltip(ColourMode mode, PictureLegend.Entry e) {
        if (e.shape() == PictureLegend.Shape.BADGE) {
            return "A badge on the glyph's corner: ports of this switch or host lost their link (link-down); shown in every "
                    + "colour mode";
        }
        if (mode == ColourMode.ERRORS) {
            return switch (e.text()) {
                case "error" -> "Error counters far over their threshold, or a link that trained to fewer lanes than it could "
                        + "(link-degraded ERROR)";
                case "degraded" -> "Runs slower than its ends or its tier's other cables (link-degraded WARNING)";
                default -> null;
            };
        }
        if (mode == ColourMode.TRANSPORT) {
            for (Transport t : Transport.values()) {
                if (!PictureLegend.label(t).equals(e.text())) {
                    continue;
                }
                if (e.shape() == PictureLegend.Shape.BAR) {
                    return "A bar under the host: its ranks talk over " + t.label() + (t == Transport.NET_SOCKET ? " (TCP, e.g. eth0)" : "")
                            + ", not over InfiniBand, so no IB cable is coloured for them";
                }
                return MapColouring.onFabric(t) ? t.label() + ": the IB cables of the pairs' paths" : null;
            }
        }
        return null;
    }

    private static Label tip(Label l, String text) {
        l.setTooltip(new javafx.scene.control.Tooltip(text));
        return l;
    }

    private static Label swatch(int argb, String text) {
        return entry(argb, text, 14, 6);
    }

    /** The off-fabric mark: a bar under the host glyph. */
    private static Label bar(int argb, String text) {
        return entry(argb, text, 14, 3);
    }

    /** The lost-link mark: a square badge on the glyph's corner. */
    private static Label badge(int argb, String text) {
        return entry(argb, text, 8, 8);
    }

    private static Label entry(int argb, String text, double w, double h) {
        Label l = new Label(text);
        Region box = new Region();
        box.setMinSize(w, h);
        box.setMaxSize(w, h);
        box.setStyle("-fx-background-color: " + MapPalette.css(argb) + ";");
        l.setGraphic(box);
        return l;
    }
}
