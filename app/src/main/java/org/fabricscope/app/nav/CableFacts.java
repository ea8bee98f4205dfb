package org.fabricscope.app.nav;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.fabricscope.model.core.Plural;
import org.fabricscope.app.render.MapColouring;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.core.Guids;
import org.fabricscope.model.core.Subject;
import org.fabricscope.model.diagnosis.ErrorThresholds;
import org.fabricscope.model.fabric.Cable;
import org.fabricscope.model.fabric.FabricNode;
import org.fabricscope.model.fabric.Port;
import org.fabricscope.model.diagnosis.LinkDegradedCheck;
import org.fabricscope.model.fabric.PortState;
import org.fabricscope.model.ranks.RankMap;
import org.fabricscope.model.ranks.RankRoute;

/**
 * What the window says about one cable: both ends (switch or HCA, port, LID, rate, state), each
 * port's counters, the findings about it (a ref to the cable, or to either of its ports, matched by
 * keys) and the rank pairs whose InfiniBand traffic may cross it (the routes the transport colour
 * mode draws; socket traffic never crosses an IB cable). Used by the map's hover tooltip and the
 * inspector's cable view. No toolkit.
 */
public final class CableFacts {
    private CableFacts() {
    }

    /** Whether a finding names this cable, either way round, or one of its two ports. */
    public static boolean about(Finding f, Cable c) {
        for (Subject s : f.refs()) {
            if (s instanceof Subject.CableRef r && (is(c.a(), r.guidA(), r.portA()) && is(c.b(), r.guidB(), r.portB())
                    || is(c.a(), r.guidB(), r.portB()) && is(c.b(), r.guidA(), r.portA()))) {
                return true;
            }
            if (s instanceof Subject.PortRef r && (is(c.a(), r.guid(), r.port()) || is(c.b(), r.guid(), r.port()))) {
                return true;
            }
        }
        return false;
    }

    private static boolean is(Port p, long guid, int port) {
        return p.node().guid() == guid && p.number() == port;
    }

    /** The findings about this cable, in their order (most severe first, as the analysis sorts them). */
    public static List<Finding> findingsOn(Cable c, List<Finding> findings) {
        List<Finding> out = new ArrayList<>();
        for (Finding f : findings) {
            if (about(f, c)) {
                out.add(f);
            }
        }
        return out;
    }

    /** The rank pairs talking over InfiniBand whose shortest paths include this cable; empty without ranks. */
    public static List<RankRoute> routesOver(Cable c, RankMap ranks) {
        if (ranks == null) {
            return List.of();
        }
        return ranks.routesOver(c).stream().filter(r -> MapColouring.onFabric(r.transport())).toList();
    }

    /** {@code leaf-su1-r6 port 12 (ext 12) · switch, LID 9} or {@code dgx-01 mlx5_0 port 1 · HCA, LID 17, GUID 0x...}. */
    public static String endText(Port p) {
        FabricNode n = p.node();
        StringBuilder b = new StringBuilder(n.displayName()).append(" port ").append(p.number());
        if (p.extNumber() > 0) {
            b.append(" (ext ").append(p.extNumber()).append(')');
        }
        b.append(" · ").append(n.isSwitch() ? n.tier().label() + " switch" : "HCA");
        if (p.lid() != 0) {
            b.append(", LID ").append(p.lid());
        }
        if (!n.isSwitch()) {
            b.append(", GUID ").append(Guids.format(n.guid()));
        }
        return b.toString();
    }

    /**
     * {@code 4xHDR, active/link up}, and what the port could run at when iblinkinfo said it could run
     * wider or faster (not the "Could be 12X" every HDR port of some firmware prints).
     */
    public static String linkText(Port p) {
        StringBuilder b = new StringBuilder();
        b.append(p.width() == null ? "?" : p.width().token()).append(p.speed() == null ? "?" : p.speed().name());
        if (p.state() != PortState.UNKNOWN) {
            b.append(", ").append(p.state().name().toLowerCase()).append('/')
                    .append(p.physState().name().toLowerCase().replace('_', ' '));
        }
        String could = LinkDegradedCheck.couldRun(p);
        if (could != null) {
            b.append(" (could be ").append(could).append(')');
        }
        return b.toString();
    }

    /**
     * A port's counters: {@code all} lists every counter read that is not zero (data and packet
     * counters too) and how many read zero, else only the error counters that are not zero; each over
     * its threshold says so. "counters not read" when none were.
     */
    public static String countersText(Port p, ErrorThresholds t, boolean all) {
        if (p.counters().isEmpty()) {
            return "counters not read";
        }
        List<String> parts = new ArrayList<>();
        int zeros = 0;
        for (Map.Entry<String, Long> e : p.counters().entrySet()) {
            long limit = t.limit(e.getKey());
            if (e.getValue() == 0) {
                zeros++;
                continue;
            }
            if (!all && limit < 0) {
                continue;
            }
            String v = e.getKey() + "=" + Long.toUnsignedString(e.getValue());
            var sev = t.judge(e.getKey(), e.getValue());
            parts.add(sev == null ? v : v + " (" + sev.name().toLowerCase() + ": over " + limit + ")");
        }
        if (!all) {
            return parts.isEmpty() ? "error counters clean" : String.join(", ", parts);
        }
        return (parts.isEmpty() ? "" : String.join(", ", parts) + "; ")
                + (zeros == p.counters().size() ? "all " + zeros + " counters 0" : zeros + " other counters 0");
    }

    /** The map's hover text for a cable: both ends with rate and error counters, findings and ranks by count. */
    public static String tooltip(Cable c, int parallel, ErrorThresholds t, List<Finding> findings, RankMap ranks) {
        StringBuilder b = new StringBuilder("Cable ").append(c.rateToken());
        if (parallel > 1) {
            b.append(" (the worst of ").append(parallel).append(" cables drawn as this line)");
        }
        for (Port p : new Port[] {c.a(), c.b()}) {
            b.append('\n').append(endText(p)).append("\n  ").append(linkText(p)).append("\n  ")
                    .append(countersText(p, t, false));
        }
        List<Finding> on = findings == null ? List.of() : findingsOn(c, findings);
        for (Finding f : on.stream().limit(3).toList()) {
            b.append('\n').append(f.severity()).append(' ').append(f.id()).append(": ").append(f.title());
        }
        if (on.size() > 3) {
            b.append("\nand ").append(Plural.of(on.size() - 3, "more finding", "more findings"));
        }
        int pairs = routesOver(c, ranks).size();
        if (pairs > 0) {
            b.append('\n').append(Plural.of(pairs, "rank pair")).append(" may send InfiniBand traffic over it");
        }
        return b.append("\nClick to inspect").toString();
    }
}
