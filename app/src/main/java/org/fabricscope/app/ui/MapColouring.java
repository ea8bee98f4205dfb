package org.fabricscope.app.ui;

import java.util.List;
import java.util.Map;

import org.fabricscope.model.Cable;
import org.fabricscope.model.FabricModel;
import org.fabricscope.model.FabricNode;
import org.fabricscope.model.Host;
import org.fabricscope.model.Port;
import org.fabricscope.model.Severity;
import org.fabricscope.model.diagnosis.ErrorThresholds;
import org.fabricscope.model.diagnosis.LinkDegradedCheck;
import org.fabricscope.model.diagnosis.LinkDownCheck;
import org.fabricscope.model.diagnosis.LinkErrorsCheck;
import org.fabricscope.model.layout.MapLayout;

/**
 * Colours of every link and glyph for one colour mode, computed once per model and mode (off
 * the FX thread) so drawing a frame only reads arrays.
 */
public final class MapColouring {
    final int[] linkColour;
    final int[] linkThickness;
    final int[] itemColour;
    /** Ports of each item's node that lost their link (down now, LinkDownedCounter above zero). */
    final int[] itemDownPorts;
    /** Whether the map marks lost links on glyphs (the speed/width mode). */
    final boolean markDown;
    final Map<Cable, String> degraded;

    private MapColouring(int links, int items, Map<Cable, String> degraded, boolean markDown) {
        this.markDown = markDown;
        linkColour = new int[links];
        linkThickness = new int[links];
        itemColour = new int[items];
        itemDownPorts = new int[items];
        this.degraded = degraded;
    }

    public static MapColouring compute(FabricModel model, MapLayout layout, ColourMode mode, ErrorThresholds t) {
        Map<Cable, String> degraded = LinkDegradedCheck.assess(model);
        List<MapLayout.Link> links = layout.links();
        MapColouring c = new MapColouring(links.size(), layout.items().size(), degraded, mode == ColourMode.SPEED);
        for (int i = 0; i < links.size(); i++) {
            MapLayout.Link l = links.get(i);
            int colour;
            boolean emphasis = false;
            if (mode == ColourMode.ERRORS) {
                Severity worst = null;
                boolean anyCounters = false;
                for (Cable cable : l.cables()) {
                    for (Port p : new Port[] {cable.a(), cable.b()}) {
                        anyCounters |= !p.counters().isEmpty();
                        Severity s = LinkErrorsCheck.worst(p, t);
                        if (s != null && (worst == null || s.compareTo(worst) < 0)) {
                            worst = s;
                        }
                    }
                }
                colour = worst == Severity.ERROR ? Palette.DANGER : worst == Severity.WARNING ? Palette.WARNING
                        : anyCounters ? Palette.OK : Palette.UNKNOWN;
                emphasis = worst != null;
            } else {
                boolean deg = false;
                int speed = -1;
                for (Cable cable : l.cables()) {
                    deg |= degraded.containsKey(cable);
                    if (cable.speed() != null) {
                        speed = Math.max(speed, cable.speed().ordinal());
                    }
                }
                colour = deg ? Palette.DEGRADED : speed < 0 ? Palette.UNKNOWN : Palette.SPEED[speed];
                emphasis = deg;
            }
            c.linkColour[i] = colour;
            c.linkThickness[i] = emphasis ? 3 : 1;
        }
        for (MapLayout.Item it : layout.items()) {
            int colour;
            int down = 0;
            if (it.vertex() instanceof FabricNode n) {
                colour = switch (it.row()) {
                    case CORE -> Palette.CORE;
                    case SPINE -> Palette.SPINE;
                    case LEAF -> Palette.LEAF;
                    case OTHER -> Palette.OTHER;
                    default -> Palette.HCA;
                };
                down = downPorts(n);
            } else if (it.vertex() instanceof Host h) {
                colour = Palette.HOST;
                for (FabricNode a : h.adapters()) {
                    down += downPorts(a);
                }
            } else {
                colour = Palette.HCA;
            }
            c.itemColour[it.index()] = colour;
            c.itemDownPorts[it.index()] = down;
        }
        return c;
    }

    /** Ports that lost their link: unplugged or failed cables (spare ports that never linked are not counted). */
    static int downPorts(FabricNode n) {
        int down = 0;
        for (Port p : n.ports()) {
            if (LinkDownCheck.lostLink(p)) {
                down++;
            }
        }
        return down;
    }
}
