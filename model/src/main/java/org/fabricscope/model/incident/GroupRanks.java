package org.fabricscope.model.incident;

import java.util.HashMap;
import java.util.Map;

/**
 * Which global rank a process group's rank is, learned from the lines that print both: c10's {@code [rankN]:} tag (the
 * default group's rank, {@code c10::SetGlobalRank}, torch 2.2+) before ProcessGroupNCCL's {@code [PG ... Rank M]} prefix
 * (the rank within that group, {@code createLogPrefix}'s {@code rank_}). A subgroup's line without the tag (the
 * {@code what():} that ends the process, a release before 2.2) is then given the global rank its group rank had on a
 * tagged line. Each group has one process per rank, so the pair holds for the whole job. One per file read; both the
 * training log's PyTorch lines and the incident's line scanner keep one.
 */
public final class GroupRanks {
    /** Pairs kept at most: a log that prints more distinct (group, rank) pairs than this names no more of them. */
    public static final int MAX_PAIRS = 1 << 18;

    private final Map<String, Integer> global = new HashMap<>();

    /**
     * A group's key: its {@code PG GUID} (2.5+, the same on every rank) when printed, else what else its prefix says
     * of it ({@code fallback}: the 2.3-2.4 name, or the 2.2 id); null when neither.
     */
    public static String key(String guid, String fallback) {
        return guid != null ? "guid " + guid : fallback == null || fallback.isEmpty() ? null : "pg " + fallback;
    }

    /** Notes that {@code groupRank} of {@code group} is global rank {@code globalRank} (the first pair seen is kept). */
    public void learn(String group, int groupRank, int globalRank) {
        if (group != null && groupRank >= 0 && globalRank >= 0 && global.size() < MAX_PAIRS) {
            global.putIfAbsent(group + "\u0000" + groupRank, globalRank);
        }
    }

    /** The global rank of {@code groupRank} in {@code group}, or -1 when no tagged line showed it. */
    public int global(String group, int groupRank) {
        Integer g = group == null ? null : global.get(group + "\u0000" + groupRank);
        return g == null ? -1 : g;
    }
}
