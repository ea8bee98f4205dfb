package org.fabricscope.app.ui;

import java.util.ArrayList;
import java.util.List;

import org.fabricscope.app.render.MapColouring;
import org.fabricscope.app.render.MapPalette;
import org.fabricscope.app.render.MapRasterizer;
import org.fabricscope.app.render.Viewport;
import org.fabricscope.model.core.Vertex;
import org.fabricscope.model.fabric.FabricNode;
import org.fabricscope.model.fabric.Host;
import org.fabricscope.model.layout.MapLayout;
import org.fabricscope.model.ranks.RankSite;

import javafx.scene.canvas.GraphicsContext;
import javafx.scene.paint.Color;

/**
 * What the map draws over its frame for the pointer and the selection: a frame round the hovered and the selected
 * glyph, the hovered and the selected cable with a halo, the selected glyph's cables, and in the transport mode the
 * fabric paths of the selected glyph's ranks' network pairs.
 */
final class MapSelectionPainter {
    /** The most cables of one selected glyph drawn with a halo (a spine of a large fabric has hundreds). */
    static final int MAX_SELECTED_CABLES = 2000;
    /** The most rank pairs' paths drawn for one selected glyph. */
    static final int MAX_ROUTES = 400;

    private final MapPalette palette;
    private final Color selection;
    private final Color muted;

    MapSelectionPainter(MapPalette palette) {
        this.palette = palette;
        this.selection = UiPalette.fx(palette.selection());
        this.muted = UiPalette.fx(palette.labelMuted());
    }

    /** Everything for this pointer and selection; any of them may be null. */
    void paint(GraphicsContext g, MapLayout layout, MapColouring colouring, Viewport v, MapLayout.Item hover, MapLayout.Item selected,
               MapLayout.Link hoverLink, int hoverLinkIndex, MapLayout.Link selectedLink) {
        if (v == null) {
            return;
        }
        rankRoutes(g, layout, colouring, v, selected);
        frame(g, v, hover, muted);
        frame(g, v, selected, selection);
        if (hoverLink != null) {
            cable(g, colouring, v, hoverLink, hoverLinkIndex, muted);
        }
        if (selectedLink != null) {
            cable(g, colouring, v, selectedLink, layout.links().indexOf(selectedLink), selection);
        }
        if (selected != null) {
            selectedCables(g, layout, colouring, v, selected);
        }
    }

    /** The selection's cables: a halo under each, then the cable in its own colour. */
    private void selectedCables(GraphicsContext g, MapLayout layout, MapColouring colouring, Viewport v, MapLayout.Item selected) {
        int drawn = 0;
        List<MapLayout.Link> links = layout.links();
        for (int i = 0; i < links.size() && drawn < MAX_SELECTED_CABLES; i++) {
            MapLayout.Link k = links.get(i);
            if (k.a() != selected && k.b() != selected) {
                continue;
            }
            double[] e = ends(k, v);
            g.setGlobalAlpha(0.35);
            g.setStroke(selection);
            g.setLineWidth(6);
            g.strokeLine(e[0], e[1], e[2], e[3]);
            g.setGlobalAlpha(1);
            g.setStroke(UiPalette.fx(colouring.linkColour(i)));
            g.setLineWidth(Math.max(1.5, colouring.linkThickness(i)));
            g.strokeLine(e[0], e[1], e[2], e[3]);
            drawn++;
        }
    }

    /**
     * Transport mode, for a selected glyph: the fabric paths of its ranks' network pairs, HCA to HCA through the
     * switches, in the pair's transport colour.
     */
    private void rankRoutes(GraphicsContext g, MapLayout layout, MapColouring colouring, Viewport v, MapLayout.Item selected) {
        if (selected == null || colouring == null || colouring.ranks() == null || colouring.ranks().isEmpty()) {
            return;
        }
        Vertex sel = selected.vertex();
        int drawn = 0;
        for (var r : colouring.ranks().routes()) {
            // only pairs that talk over InfiniBand are drawn along the fabric; sockets never cross it
            if (!r.routed() || !MapColouring.onFabric(r.transport()) || drawn > MAX_ROUTES) {
                continue;
            }
            boolean mine = false;
            for (RankSite s : new RankSite[] {r.a(), r.b()}) {
                mine |= sel == s.hca() || (sel instanceof Host host && host.name().equals(s.host()));
            }
            if (!mine && !r.path().contains(sel)) {
                continue;
            }
            List<double[]> pts = new ArrayList<>();
            for (Vertex x : r.path()) {
                MapLayout.Item it = layout.item(x);
                if (it == null && x instanceof FabricNode n && n.host() != null) {
                    it = layout.item(n.host()); // a collapsed host draws its HCAs
                }
                if (it != null) {
                    pts.add(new double[] {it.x() * v.scale() + v.tx(), it.y() * v.scale() + v.ty()});
                }
            }
            // a halo, then the pair's transport colour on top, so the path reads over the coloured cables
            for (int pass = 0; pass < 2; pass++) {
                g.setStroke(pass == 0 ? UiPalette.fx(palette.selection(), 0.45) : UiPalette.fx(colouring.palette().transport(r.transport())));
                g.setLineWidth(pass == 0 ? 9 : 3.5);
                for (int i = 1; i < pts.size(); i++) {
                    g.strokeLine(pts.get(i - 1)[0], pts.get(i - 1)[1], pts.get(i)[0], pts.get(i)[1]);
                }
            }
            drawn++;
        }
    }

    /** A cable's line with a halo in {@code halo} under it, then the line in its own colour. */
    private static void cable(GraphicsContext g, MapColouring colouring, Viewport v, MapLayout.Link k, int index, Color halo) {
        double[] e = ends(k, v);
        g.setGlobalAlpha(0.5);
        g.setStroke(halo);
        g.setLineWidth(8);
        g.strokeLine(e[0], e[1], e[2], e[3]);
        g.setGlobalAlpha(1);
        boolean own = index >= 0 && colouring != null;
        g.setStroke(own ? UiPalette.fx(colouring.linkColour(index)) : halo);
        g.setLineWidth(own ? Math.max(2.5, colouring.linkThickness(index)) : 2.5);
        g.strokeLine(e[0], e[1], e[2], e[3]);
    }

    private static void frame(GraphicsContext g, Viewport v, MapLayout.Item it, Color colour) {
        if (it == null) {
            return;
        }
        double iw = Math.max(6, it.width() * v.scale());
        double ih = Math.max(6, it.height() * v.scale());
        g.setStroke(colour);
        g.setLineWidth(2);
        g.strokeRect(it.x() * v.scale() + v.tx() - iw / 2 - 2, it.y() * v.scale() + v.ty() - ih / 2 - 2, iw + 4, ih + 4);
    }

    /** A link's two ends in the view's pixels. */
    private static double[] ends(MapLayout.Link k, Viewport v) {
        double[] e = MapRasterizer.ends(k);
        return new double[] {e[0] * v.scale() + v.tx(), e[1] * v.scale() + v.ty(), e[2] * v.scale() + v.tx(), e[3] * v.scale() + v.ty()};
    }
}
