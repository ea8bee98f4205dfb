package org.fabricscope.importers.logs;

import java.util.HashMap;
import java.util.Map;

/**
 * Which global rank a process group's rank is, learned from the lines that print both: c10's {@code [rankN]:} tag
 * (the global rank) before ProcessGroupNCCL's {@code [PG ... Rank M]} prefix (the rank within the group). A line of a
 * subgroup without the tag (the {@code what():} that ends the process, a release before 2.2) is then given the global
 * rank its group rank had on a tagged line. Each group has one process per rank, so the pair holds for the whole job.
 */
final class GroupRanks {
    private final Map<String, Integer> global = new HashMap<>();

    /** A group's own key: its {@code pgGuid} (2.5+, the same on every rank), else its name and id; null when none. */
    static String group(Map<String, String> f) {
        String guid = f.get("pgGuid");
        if (guid != null) {
            return "guid " + guid;
        }
        String id = f.get("pgId");
        return id == null ? null : "id " + id + " " + f.getOrDefault("pgName", "");
    }

    void learn(String group, int groupRank, int globalRank) {
        if (group != null) {
            global.putIfAbsent(group + "\u0000" + groupRank, globalRank);
        }
    }

    /** The global rank of {@code groupRank} in {@code group}, or -1 when no tagged line showed it. */
    int global(String group, int groupRank) {
        Integer g = group == null ? null : global.get(group + "\u0000" + groupRank);
        return g == null ? -1 : g;
    }
}
