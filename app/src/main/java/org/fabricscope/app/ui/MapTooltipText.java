package org.fabricscope.app.ui;

import java.util.ArrayList;
import java.util.List;

import org.fabricscope.app.render.MapColouring;
import org.fabricscope.model.core.Guids;
import org.fabricscope.model.core.Plural;
import org.fabricscope.model.core.Vertex;
import org.fabricscope.model.fabric.FabricNode;
import org.fabricscope.model.fabric.Host;
import org.fabricscope.model.layout.MapLayout;

/** The map's hover text for a glyph: its name and kind, LID and GUID, what is wrong with it, its cables, what a click does. */
final class MapTooltipText {
    private MapTooltipText() {
    }

    static String describe(MapLayout layout, MapColouring colouring, MapLayout.Item it) {
        StringBuilder sb = new StringBuilder();
        Vertex v = it.vertex();
        if (v instanceof FabricNode n) {
            sb.append(n.displayName());
            if (n.isSwitch()) {
                sb.append("\n").append(n.tier().label()).append(" switch");
                if (n.switchModel() != null) {
                    sb.append(" ").append(n.switchModel());
                }
                sb.append(", LID ").append(n.lid());
            } else {
                sb.append("\nHCA, LID ").append(n.lid());
            }
            sb.append("\nGUID ").append(Guids.format(n.guid()));
        } else if (v instanceof Host h) {
            sb.append(h.name()).append("\nhost, ").append(Plural.of(h.adapters().size(), "HCA")).append(" (collapsed)");
        }
        List<String> notes = new ArrayList<>();
        int down = colouring == null ? 0 : colouring.itemDownPorts(it.index());
        if (down > 0) {
            notes.add(Plural.of(down, "port") + (down == 1 ? " lost its link" : " lost their link"));
        }
        if (colouring != null && colouring.itemOffFabric(it.index()) != null) {
            notes.add("ranks talk over " + colouring.itemOffFabric(it.index()).label() + " (not over InfiniBand)");
        }
        int cables = 0;
        for (MapLayout.Link k : layout.links()) {
            if (k.a() == it || k.b() == it) {
                cables += k.cables().size();
            }
        }
        notes.add(Plural.of(cables, "cable"));
        sb.append("\n").append(String.join(", ", notes)).append("\nClick to inspect, double-click to zoom");
        return sb.toString();
    }
}
