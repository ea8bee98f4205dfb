package org.fabricscope.model.compare;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.fabricscope.model.FabricModel;
import org.fabricscope.model.core.Guids;
import org.fabricscope.model.fabric.Cable;
import org.fabricscope.model.fabric.FabricNode;
import org.fabricscope.model.fabric.Port;

/**
 * The fabric layer's differences: nodes (switches and adapters, by GUID) added and removed, and their device
 * (vendor and device id) changed; cables (by the GUIDs and port numbers of their two ends) added, removed, or moved
 * (a removed and an added cable that share one end, or join the same two nodes on other ports); and a cable's
 * width and speed changed. An unplugged cable is one the second capture does not discover: removed.
 */
final class FabricDiff {
    private FabricDiff() {
    }

    static void compare(FabricModel before, FabricModel after, List<Change> out) {
        for (FabricNode n : before.nodes()) {
            FabricNode m = after.node(n.guid());
            if (m == null) {
                out.add(new Change(Change.FABRIC, Change.REMOVED, node(n), "node", n.kind().name().toLowerCase(java.util.Locale.ROOT), null));
            } else if (n.vendorId() != m.vendorId() || n.deviceId() != m.deviceId()) {
                out.add(new Change(Change.FABRIC, Change.CHANGED, node(m), "device", device(n), device(m)));
            }
        }
        for (FabricNode m : after.nodes()) {
            if (before.node(m.guid()) == null) {
                out.add(new Change(Change.FABRIC, Change.ADDED, node(m), "node", null, m.kind().name().toLowerCase(java.util.Locale.ROOT)));
            }
        }
        Map<String, Cable> was = cables(before);
        Map<String, Cable> is = cables(after);
        List<Cable> removed = new ArrayList<>();
        for (Map.Entry<String, Cable> e : was.entrySet()) {
            Cable now = is.get(e.getKey());
            if (now == null) {
                removed.add(e.getValue());
            } else if (!e.getValue().rateToken().equals(now.rateToken())) {
                out.add(new Change(Change.FABRIC, Change.CHANGED, cable(now), "rate", e.getValue().rateToken(), now.rateToken()));
            }
        }
        List<Cable> added = new ArrayList<>();
        for (Map.Entry<String, Cable> e : is.entrySet()) {
            if (!was.containsKey(e.getKey())) {
                added.add(e.getValue());
            }
        }
        for (Iterator<Cable> it = removed.iterator(); it.hasNext(); ) {
            Cable r = it.next();
            Cable to = movedTo(r, added);
            if (to != null) {
                it.remove();
                added.remove(to);
                out.add(new Change(Change.FABRIC, Change.MOVED, cable(r), "cable", cable(r), cable(to)));
            }
        }
        for (Cable r : removed) {
            out.add(new Change(Change.FABRIC, Change.REMOVED, cable(r), "cable", r.rateToken(), null));
        }
        for (Cable a : added) {
            out.add(new Change(Change.FABRIC, Change.ADDED, cable(a), "cable", null, a.rateToken()));
        }
    }

    /** The added cable that {@code r} became: one sharing an end with it, else one joining the same two nodes. */
    private static Cable movedTo(Cable r, List<Cable> added) {
        for (Cable a : added) {
            if (same(r.a(), a.a()) || same(r.a(), a.b()) || same(r.b(), a.a()) || same(r.b(), a.b())) {
                return a;
            }
        }
        for (Cable a : added) {
            long x = r.a().node().guid();
            long y = r.b().node().guid();
            long p = a.a().node().guid();
            long q = a.b().node().guid();
            if ((x == p && y == q) || (x == q && y == p)) {
                return a;
            }
        }
        return null;
    }

    private static boolean same(Port p, Port q) {
        return p.node().guid() == q.node().guid() && p.number() == q.number();
    }

    private static Map<String, Cable> cables(FabricModel m) {
        Map<String, Cable> out = new LinkedHashMap<>();
        for (Cable c : m.cables()) {
            String a = end(c.a());
            String b = end(c.b());
            out.putIfAbsent(a.compareTo(b) <= 0 ? a + "|" + b : b + "|" + a, c);
        }
        return out;
    }

    private static String end(Port p) {
        return Guids.format(p.node().guid()) + ":" + p.number();
    }

    /** {@code core-01 port 1 <-> agg-p1-01 port 5}: how a cable is named in a change. */
    static String cable(Cable c) {
        return c.a().label() + " <-> " + c.b().label();
    }

    private static String node(FabricNode n) {
        return n.displayName() + " (" + Guids.format(n.guid()) + ")";
    }

    private static String device(FabricNode n) {
        return String.format(java.util.Locale.ROOT, "vendor 0x%x device 0x%x", n.vendorId(), n.deviceId());
    }
}
