package org.fabricscope.model.diagnosis;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.fabricscope.model.FabricModel;
import org.fabricscope.model.fabric.FabricNode;
import org.fabricscope.model.fabric.Port;

/**
 * The ports that lost their link ({@link LinkDownCheck#lostLink}), paired into the cables they were.
 * No tool lists a cable that is down (ibnetdiscover leaves its ports out, iblinkinfo prints no peer),
 * so the two ends of one unplugged cable are paired by their wiring: two lost ports of two different
 * nodes that went down the same number of times, and either are cabled to each other by other
 * (parallel) cables, or are the only such pair between two adjacent tiers (host and leaf, leaf and
 * spine, spine and core). Only a pair that is each other's one candidate is made; every other lost port
 * stays alone, its far end unknown. Deterministic: in the model's node and port order, a pair's lower
 * tier end first.
 */
public final class LostLinks {
    /** One lost cable: both ends, or one end ({@code b} null) when the other could not be told; {@code basis} says why paired. */
    public record LostCable(Port a, Port b, String basis) {
        public List<Port> ends() {
            return b == null ? List.of(a) : List.of(a, b);
        }
    }

    private LostLinks() {
    }

    public static List<LostCable> of(FabricModel model) {
        List<Port> lost = new ArrayList<>();
        for (FabricNode n : model.nodes()) {
            for (Port p : n.ports()) {
                if (LinkDownCheck.lostLink(p)) {
                    lost.add(p);
                }
            }
        }
        Map<Port, Port> pairs = new HashMap<>();
        Map<Port, String> basis = new HashMap<>();
        if (lost.size() > 1) {
            Map<FabricNode, Set<FabricNode>> cabled = new HashMap<>();
            for (Port p : lost) {
                cabled.computeIfAbsent(p.node(), LostLinks::neighbours);
            }
            pair(lost, pairs, basis, true, cabled);
            pair(lost, pairs, basis, false, cabled);
        }
        List<LostCable> out = new ArrayList<>();
        Set<Port> done = new HashSet<>();
        for (Port p : lost) {
            if (!done.add(p)) {
                continue;
            }
            Port q = pairs.get(p);
            if (q != null) {
                done.add(q);
                if (level(q.node()) < level(p.node())) { // the lower tier first, as a cable reads from the hosts up
                    out.add(new LostCable(q, p, basis.get(p)));
                    continue;
                }
            }
            out.add(new LostCable(p, q, q == null ? "" : basis.get(p)));
        }
        return out;
    }

    /** One round: pairs each unpaired lost port with its only candidate when that port's only candidate is it. */
    private static void pair(List<Port> lost, Map<Port, Port> pairs, Map<Port, String> basis, boolean byCables,
                             Map<FabricNode, Set<FabricNode>> cabled) {
        Map<Port, List<Port>> candidates = new LinkedHashMap<>();
        for (Port x : lost) {
            if (pairs.containsKey(x)) {
                continue;
            }
            List<Port> c = new ArrayList<>(1);
            for (Port y : lost) {
                if (y.node() != x.node() && !pairs.containsKey(y) && y.counter("LinkDownedCounter") == x.counter("LinkDownedCounter")
                        && (byCables ? cabled.get(x.node()).contains(y.node()) : adjacentTiers(x.node(), y.node()))) {
                    c.add(y);
                }
            }
            candidates.put(x, c);
        }
        candidates.forEach((x, c) -> {
            if (c.size() == 1 && !pairs.containsKey(x)) {
                Port y = c.get(0);
                List<Port> back = candidates.get(y);
                if (back != null && back.size() == 1 && back.get(0) == x && !pairs.containsKey(y)) {
                    pairs.put(x, y);
                    pairs.put(y, x);
                    String why = "both lost their link " + times(x) + (byCables
                            ? ", and " + x.node().displayName() + " and " + y.node().displayName() + " are cabled to each other"
                            : ", the only such pair between a " + tierName(x.node()) + " and a " + tierName(y.node()));
                    basis.put(x, why);
                    basis.put(y, why);
                }
            }
        });
    }

    /** {@code 1 time}, {@code 3 times}: how often a port's link went down. */
    static String times(Port p) {
        long n = p.counter("LinkDownedCounter");
        return Long.toUnsignedString(n) + (n == 1 ? " time" : " times");
    }

    private static Set<FabricNode> neighbours(FabricNode n) {
        Set<FabricNode> out = new HashSet<>();
        for (Port p : n.ports()) {
            if (p.peer() != null) {
                out.add(p.peer().node());
            }
        }
        return out;
    }

    /** 0 for a host adapter, 1 leaf, 2 spine, 3 core; -1 when the tier says nothing (another CA, OTHER). */
    private static int level(FabricNode n) {
        if (!n.isSwitch()) {
            return n.isHostAdapter() ? 0 : -1;
        }
        return switch (n.tier()) {
            case LEAF -> 1;
            case SPINE -> 2;
            case CORE -> 3;
            default -> -1;
        };
    }

    private static boolean adjacentTiers(FabricNode a, FabricNode b) {
        int x = level(a);
        int y = level(b);
        return x >= 0 && y >= 0 && Math.abs(x - y) == 1;
    }

    private static String tierName(FabricNode n) {
        return n.isSwitch() ? n.tier().label() + " switch" : "host";
    }
}
