package org.fabricscope.model.fabric;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Assigns fat-tree tiers to switches.
 *
 * <p>A leaf is a switch cabled to at least one host HCA. Other switches are placed by their
 * distance (in switch hops) from the nearest leaf: 1 is spine, 2 or more is core. Real fabrics
 * have shortcuts, e.g. management leaves cabled straight into the core, which puts some core
 * switches at distance 1. So a distance-1 switch whose cables mostly go to distance-1 switches
 * that are more leaf-facing than itself is promoted to core. A pod with no hosts cabled yet is
 * reached from the leaves only down through a core (Selene's empty leaf MLG01-05 under its spine
 * MSPINE4-01 sit at distances 4 and 3): a switch whose nearer neighbours are all cores, or
 * already below a core, goes one tier under the highest of them. Switches that reach no leaf
 * (or fabrics with no hosts at all) are {@link Tier#OTHER}.
 */
final class TierClassifier {
    private TierClassifier() {
    }

    static void assign(Collection<FabricNode> nodes, Collection<Cable> cables) {
        Map<FabricNode, List<FabricNode>> switchNeighbours = new HashMap<>();
        Map<FabricNode, Integer> hostCables = new HashMap<>();
        for (FabricNode n : nodes) {
            if (n.isSwitch()) {
                switchNeighbours.put(n, new ArrayList<>());
                n.tier = Tier.OTHER;
            } else {
                n.tier = null;
            }
        }
        for (Cable c : cables) {
            FabricNode x = c.a().node();
            FabricNode y = c.b().node();
            if (x.isSwitch() && y.isSwitch()) {
                if (x != y) {
                    switchNeighbours.get(x).add(y);
                    switchNeighbours.get(y).add(x);
                }
            } else if (x.isSwitch() && y.isHostAdapter()) {
                hostCables.merge(x, 1, Integer::sum);
            } else if (y.isSwitch() && x.isHostAdapter()) {
                hostCables.merge(y, 1, Integer::sum);
            }
        }
        Map<FabricNode, Integer> distance = new HashMap<>();
        ArrayDeque<FabricNode> queue = new ArrayDeque<>();
        for (FabricNode s : switchNeighbours.keySet()) {
            if (hostCables.containsKey(s)) {
                distance.put(s, 0);
                queue.add(s);
            }
        }
        while (!queue.isEmpty()) {
            FabricNode s = queue.poll();
            int d = distance.get(s);
            for (FabricNode t : switchNeighbours.get(s)) {
                if (!distance.containsKey(t)) {
                    distance.put(t, d + 1);
                    queue.add(t);
                }
            }
        }
        // Share of each distance-1 switch's cables that go down to leaves.
        Map<FabricNode, Double> leafShare = new HashMap<>();
        for (Map.Entry<FabricNode, Integer> e : distance.entrySet()) {
            if (e.getValue() == 1) {
                List<FabricNode> nb = switchNeighbours.get(e.getKey());
                long down = nb.stream().filter(t -> distance.get(t) == 0).count();
                leafShare.put(e.getKey(), nb.isEmpty() ? 0 : (double) down / nb.size());
            }
        }
        for (Map.Entry<FabricNode, Integer> e : distance.entrySet()) {
            FabricNode s = e.getKey();
            int d = e.getValue();
            if (d == 0) {
                s.tier = Tier.LEAF;
            } else if (d >= 2) {
                s.tier = Tier.CORE;
            } else {
                double mine = leafShare.get(s);
                long down = 0;
                long upward = 0;
                for (FabricNode t : switchNeighbours.get(s)) {
                    int dt = distance.get(t);
                    if (dt == 0) {
                        down++;
                    } else if (dt == 1 && leafShare.get(t) > mine) {
                        upward++;
                    }
                }
                s.tier = upward > down ? Tier.CORE : Tier.SPINE;
            }
        }
        // Past the core: walk outwards from distance 2 and place switches reached only downwards.
        Set<FabricNode> below = new HashSet<>();
        List<FabricNode> far = new ArrayList<>();
        distance.forEach((s, d) -> {
            if (d >= 2) {
                far.add(s);
            }
        });
        far.sort(Comparator.comparingInt(distance::get));
        for (FabricNode s : far) {
            int d = distance.get(s);
            Tier highest = null;
            boolean upward = false;
            for (FabricNode t : switchNeighbours.get(s)) {
                if (distance.get(t) != d - 1) {
                    continue;
                }
                if (t.tier != Tier.CORE && !below.contains(t)) {
                    upward = true;
                    break;
                }
                if (highest == null || rank(t.tier) > rank(highest)) {
                    highest = t.tier;
                }
            }
            if (!upward && highest != null) {
                below.add(s);
                s.tier = highest == Tier.CORE ? Tier.SPINE : highest == Tier.SPINE ? Tier.LEAF : Tier.OTHER;
            }
        }
    }

    private static int rank(Tier t) {
        return switch (t) {
            case LEAF -> 1;
            case SPINE -> 2;
            case CORE -> 3;
            default -> 0;
        };
    }
}
