package org.fabricscope.model.fabric;

import java.util.LinkedHashMap;
import java.util.Map;

import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.core.Guids;

/**
 * Which node answers on each LID: a switch on its port-0 LID, a CA on each port's LID and the
 * {@code 2^LMC} LIDs from it. A LID is unique only within one subnet: where the loaded files come from
 * several subnets (a multi-plane fabric, one subnet per rail: past 49,151 unicast LIDs one subnet cannot
 * hold the fabric) or from different times, two nodes can claim the same LID. Such a LID names no node
 * here ({@link #node} gives null), so that nothing named by LID alone lands on the wrong one.
 */
final class LidIndex {
    /** The LMC is 3 bits in the IBA (PortInfo); more than 7 would be a misread. */
    private static final int MAX_LMC = 7;

    /** LIDs are 16 bits: the first claimant of each, by LID (a flat table: no boxing, one lookup). */
    private final FabricNode[] owner = new FabricNode[1 << 16];
    /** A repeated LID's second claimant, in the order they were found. */
    private final Map<Integer, FabricNode> repeats = new LinkedHashMap<>();

    LidIndex(Iterable<FabricNode> nodes) {
        for (FabricNode n : nodes) {
            claim(n.lid, n);
            if (n.isSwitch()) {
                continue;
            }
            for (Port p : n.ports.values()) {
                if (p.lid > 0) {
                    int span = 1 << Math.min(Math.max(p.lmc, 0), MAX_LMC);
                    for (int i = 0; i < span; i++) {
                        claim(p.lid + i, n);
                    }
                }
            }
        }
    }

    private void claim(int lid, FabricNode n) {
        if (lid <= 0 || lid >= owner.length) {
            return;
        }
        FabricNode was = owner[lid];
        if (was == null) {
            owner[lid] = n;
        } else if (was != n) {
            repeats.putIfAbsent(lid, n);
        }
    }

    /** The one node answering on {@code lid}; null when none does or when several nodes claim it. */
    FabricNode node(int lid) {
        return lid <= 0 || lid >= owner.length || (!repeats.isEmpty() && repeats.containsKey(lid)) ? null : owner[lid];
    }

    /** Whether more than one node of the loaded files claims {@code lid}. */
    boolean repeated(int lid) {
        return repeats.containsKey(lid);
    }

    /** How many LIDs more than one node claims. */
    int repeatedCount() {
        return repeats.size();
    }

    /**
     * "LG001-01 and LG001-02": two of the nodes that claim a repeated LID, with their GUIDs when their names are
     * the same.
     */
    String claimants(int lid) {
        FabricNode a = lid <= 0 || lid >= owner.length ? null : owner[lid];
        FabricNode b = repeats.get(lid);
        if (a == null || b == null) {
            return "";
        }
        if (a.displayName().equals(b.displayName())) {
            return a.displayName() + " (" + Guids.format(a.guid()) + ") and " + b.displayName() + " (" + Guids.format(b.guid()) + ")";
        }
        return a.displayName() + " and " + b.displayName();
    }

    /**
     * One diagnostic for all repeated LIDs (null when none): how many, the first as an example, and what
     * follows: anything named by LID alone is not placed on either node. It cites where one of the two nodes
     * was read, or {@code fallback} (a file read) when neither carries where.
     */
    Diagnostic summary(String fallback) {
        if (repeats.isEmpty()) {
            return null;
        }
        var first = repeats.entrySet().iterator().next();
        FabricNode a = owner[first.getKey()];
        FabricNode b = first.getValue();
        Evidence at = b.evidence != null ? b.evidence : b.nameEvidence != null ? b.nameEvidence
                : a.evidence != null ? a.evidence : a.nameEvidence;
        String source = at != null && !at.source().isEmpty() ? at.source() : fallback;
        return Diagnostic.info(source, at != null && source.equals(at.source()) ? at.line() : 0,
                repeats.size() + (repeats.size() == 1 ? " LID is" : " LIDs are") + " claimed by more than one node, for example LID "
                        + first.getKey() + " by " + claimants(first.getKey())
                        + ": the files come from several subnets (one per plane or rail), from different times, or contradict themselves."
                        + " What is named by LID alone (perfquery counters, LIDs in NCCL logs) is not placed on either node;"
                        + " GUIDs and names still are");
    }
}
