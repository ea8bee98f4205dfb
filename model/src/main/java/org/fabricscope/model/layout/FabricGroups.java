package org.fabricscope.model.layout;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.fabricscope.model.FabricModel;
import org.fabricscope.model.core.NaturalOrder;
import org.fabricscope.model.fabric.FabricNode;
import org.fabricscope.model.fabric.Port;
import org.fabricscope.model.fabric.Tier;

/**
 * Switches grouped the way people name and wire fabrics, for the map's overview. Two levels:
 * <ul>
 * <li><b>units</b> (scalable units, leaf groups, spine groups) from names: a switch's name without
 *     its last numbered token ({@code LG07-05} is in {@code LG07}, {@code leaf-su1-r6} in
 *     {@code leaf-su1}, {@code CSPINE2-13} in {@code CSPINE2});</li>
 * <li><b>pods</b> from wiring: the connected components of the switch graph once the top tier (the
 *     cores) is taken away, with the leaves of one unit joined (a rail-optimised pod wires each
 *     rail's leaves to its own spines); each holds leaves and the spines that serve only them. Where the
 *     fabric has no such tier (two tiers) the pods come from names again, without the last two
 *     numbered tokens ({@code p03-su12-r5} is in pod {@code p03}).</li>
 * </ul>
 * A level is kept only when it groups: at least two groups, fewer than the things grouped. On
 * NVIDIA Selene the units are the 25 leaf groups {@code LG01}..{@code LG28} and the pods the four
 * spine groups' pods (leaf groups 1-7, 8-14, 15-18, 22-28). Linear in the size of the fabric.
 */
public final class FabricGroups {
    private final Map<FabricNode, String> unit = new IdentityHashMap<>();
    private final Map<FabricNode, Integer> pod = new IdentityHashMap<>();
    private final List<String> podNames = new ArrayList<>();
    private final boolean podsFromWiring;

    private FabricGroups(boolean podsFromWiring) {
        this.podsFromWiring = podsFromWiring;
    }

    /** The unit of a switch (its name without the last numbered token), or null where units do not group. */
    public String unit(FabricNode sw) {
        return unit.get(sw);
    }

    /** The pod index of a switch (0-based, in leaf name order), or -1. */
    public int pod(FabricNode sw) {
        Integer p = pod.get(sw);
        return p == null ? -1 : p;
    }

    /** Pod names by index: {@code pod 1 (LG01-LG07)} from wiring, the shared name prefix from names. */
    public List<String> podNames() {
        return List.copyOf(podNames);
    }

    /** Whether the pods were found from the wiring (true) or from names. */
    public boolean podsFromWiring() {
        return podsFromWiring;
    }

    /** A name without its last {@code k} tokens that hold digits; tokens split at {@code - _ . / : space}. */
    static String strip(String name, int k) {
        String[] tok = name.split("[-_./: ]+");
        int keep = tok.length;
        for (int n = 0; n < k; n++) {
            int i = keep - 1;
            while (i >= 0 && tok[i].chars().noneMatch(Character::isDigit)) {
                i--;
            }
            if (i < 0) {
                return null;
            }
            keep = i;
        }
        if (keep == 0) {
            return null;
        }
        return String.join("-", java.util.Arrays.copyOf(tok, keep));
    }

    public static FabricGroups of(FabricModel model) {
        Map<Tier, List<FabricNode>> tiers = model.switchesByTier();
        List<FabricNode> leaves = new ArrayList<>(tiers.get(Tier.LEAF));
        leaves.sort(Comparator.comparing(FabricNode::displayName, NaturalOrder.INSTANCE));
        List<FabricNode> switches = new ArrayList<>();
        for (Tier t : new Tier[] {Tier.LEAF, Tier.SPINE, Tier.CORE}) {
            switches.addAll(tiers.get(t));
        }

        // units, per tier, from names; kept for a tier when they group
        Map<FabricNode, String> units = new IdentityHashMap<>();
        for (Tier t : new Tier[] {Tier.LEAF, Tier.SPINE, Tier.CORE}) {
            Map<FabricNode, String> m = new IdentityHashMap<>();
            Set<String> distinct = new LinkedHashSet<>();
            for (FabricNode s : tiers.get(t)) {
                String u = strip(s.displayName(), 1);
                if (u != null) {
                    m.put(s, u);
                    distinct.add(u);
                }
            }
            if (distinct.size() >= 2 && distinct.size() < tiers.get(t).size() && m.size() == tiers.get(t).size()) {
                units.putAll(m);
            }
        }
        int leafUnits = (int) leaves.stream().map(units::get).distinct().count();

        // pods from wiring: components without the top tier (only when there is a tier above the spines)
        Map<FabricNode, Integer> pods = new IdentityHashMap<>();
        List<String> names = new ArrayList<>();
        boolean wiring = false;
        if (!tiers.get(Tier.CORE).isEmpty() && !tiers.get(Tier.SPINE).isEmpty() && leaves.size() > 1) {
            Map<FabricNode, FabricNode> parent = new IdentityHashMap<>();
            for (FabricNode s : tiers.get(Tier.LEAF)) {
                parent.put(s, s);
            }
            for (FabricNode s : tiers.get(Tier.SPINE)) {
                parent.put(s, s);
            }
            for (FabricNode s : parent.keySet().toArray(new FabricNode[0])) {
                for (Port p : s.ports()) {
                    Port peer = p.peer();
                    if (peer != null && parent.containsKey(peer.node())) {
                        union(parent, s, peer.node());
                    }
                }
            }
            // leaves of one unit are in one pod: rail-optimised pods wire each rail's leaves to their own
            // spines (Selene: 8 planes per pod), and the unit is what ties a pod's planes together
            Map<String, FabricNode> firstOfUnit = new HashMap<>();
            for (FabricNode leaf : leaves) {
                String u = units.get(leaf);
                if (u != null) {
                    FabricNode first = firstOfUnit.putIfAbsent(u, leaf);
                    if (first != null) {
                        union(parent, first, leaf);
                    }
                }
            }
            // a pod is a component with spines; a leaf with no uplink in the capture joins its unit's pod
            Set<FabricNode> withSpines = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
            for (FabricNode s : tiers.get(Tier.SPINE)) {
                withSpines.add(find(parent, s));
            }
            Map<FabricNode, Integer> byRoot = new IdentityHashMap<>();
            Map<Integer, List<FabricNode>> leavesOf = new LinkedHashMap<>();
            Map<String, Integer> podOfUnit = new HashMap<>();
            List<FabricNode> loose = new ArrayList<>();
            for (FabricNode leaf : leaves) {
                FabricNode root = find(parent, leaf);
                if (!withSpines.contains(root)) {
                    loose.add(leaf);
                    continue;
                }
                Integer idx = byRoot.get(root);
                if (idx == null) {
                    idx = byRoot.size();
                    byRoot.put(root, idx);
                }
                pods.put(leaf, idx);
                leavesOf.computeIfAbsent(idx, k -> new ArrayList<>()).add(leaf);
                if (units.containsKey(leaf)) {
                    podOfUnit.putIfAbsent(units.get(leaf), idx);
                }
            }
            for (FabricNode leaf : loose) {
                Integer idx = units.containsKey(leaf) ? podOfUnit.get(units.get(leaf)) : null;
                if (idx != null) {
                    pods.put(leaf, idx);
                    leavesOf.get(idx).add(leaf);
                }
            }
            boolean fewerThanUnits = byRoot.size() < (leafUnits > 1 ? leafUnits : leaves.size());
            if (byRoot.size() >= 2 && fewerThanUnits) {
                wiring = true;
                for (FabricNode s : tiers.get(Tier.SPINE)) {
                    Integer idx = byRoot.get(find(parent, s));
                    if (idx != null) {
                        pods.put(s, idx);
                    }
                }
                for (var e : leavesOf.entrySet()) {
                    List<FabricNode> ls = e.getValue();
                    ls.sort(Comparator.comparing(FabricNode::displayName, NaturalOrder.INSTANCE));
                    // named after its first and last unit that look like the first (Selene's pod 1 also holds MLG01)
                    String first = units.getOrDefault(ls.get(0), ls.get(0).displayName());
                    String stem = first.replaceAll("[0-9].*", "");
                    String last = first;
                    for (FabricNode leaf : ls) {
                        String u = units.getOrDefault(leaf, leaf.displayName());
                        if (u.replaceAll("[0-9].*", "").equals(stem)) {
                            last = u;
                        }
                    }
                    names.add("pod " + (e.getKey() + 1) + (first.equals(last) ? " (" + first + ")" : " (" + first + "-" + last + ")"));
                }
            } else {
                pods.clear();
            }
        }
        if (!wiring) {
            // pods from names: two numbered tokens off, when that groups the units
            Map<String, Integer> idx = new LinkedHashMap<>();
            Map<FabricNode, Integer> m = new IdentityHashMap<>();
            for (FabricNode leaf : leaves) {
                String p = strip(leaf.displayName(), 2);
                if (p == null) {
                    m.clear();
                    break;
                }
                m.put(leaf, idx.computeIfAbsent(p, k -> idx.size()));
            }
            if (!m.isEmpty() && idx.size() >= 2 && idx.size() < (leafUnits > 1 ? leafUnits : leaves.size())) {
                pods.putAll(m);
                names.addAll(idx.keySet());
                for (FabricNode s : tiers.get(Tier.SPINE)) {
                    String p = strip(s.displayName(), 2);
                    if (p != null && idx.containsKey(p)) {
                        pods.put(s, idx.get(p));
                    }
                }
            }
        }
        FabricGroups g = new FabricGroups(wiring);
        g.unit.putAll(units);
        g.pod.putAll(pods);
        g.podNames.addAll(names);
        return g;
    }

    private static FabricNode find(Map<FabricNode, FabricNode> parent, FabricNode x) {
        FabricNode r = x;
        while (parent.get(r) != r) {
            r = parent.get(r);
        }
        while (parent.get(x) != r) {
            FabricNode next = parent.get(x);
            parent.put(x, r);
            x = next;
        }
        return r;
    }

    private static void union(Map<FabricNode, FabricNode> parent, FabricNode a, FabricNode b) {
        FabricNode ra = find(parent, a);
        FabricNode rb = find(parent, b);
        if (ra != rb) {
            parent.put(rb, ra);
        }
    }
}
