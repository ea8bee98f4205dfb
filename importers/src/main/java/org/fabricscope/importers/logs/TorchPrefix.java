package org.fabricscope.importers.logs;

import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.fabricscope.model.incident.GroupRanks;

/**
 * What PyTorch puts before its messages: the glog severity ({@code [E1206 ...}), the process-group
 * tag of every era ({@code [Rank N]}, {@code [PG 0 Rank N]}, {@code [PG ID 0 PG GUID 0(default_pg) Rank N]}),
 * and the starts of lines that begin a record of their own.
 */
final class TorchPrefix {
    private static final Pattern PG_RANK = Pattern.compile("\\[(PG [^\\]]*?)?\\s*Rank (\\d+)\\]");
    private static final Pattern PG_ID = Pattern.compile("PG (?:ID )?(\\d+)");
    private static final Pattern PG_NAME = Pattern.compile("\\(([^)]*)\\)");
    /** 2.5+'s {@code PG GUID}: the group's id on every rank ({@code PG ID} counts the groups one process made). */
    private static final Pattern PG_GUID = Pattern.compile("PG GUID ([^\\s(\\]]+)");

    private TorchPrefix() {
    }

    /** The glog severity letter of {@code [E1206 ...}, {@code [E ProcessGroupNCCL...}, {@code I20241209 ...}. */
    static String glogLevel(String l) {
        int i = l.startsWith("[") ? 1 : 0;
        if (l.length() > i + 1) {
            char c = l.charAt(i);
            char n = l.charAt(i + 1);
            if ((c == 'I' || c == 'W' || c == 'E' || c == 'F') && (n == ' ' || Character.isDigit(n))) {
                return String.valueOf(c);
            }
        }
        return null;
    }

    /**
     * Fills pgId/pgGuid/pgName from a {@code [... Rank N]} prefix and returns the line's global rank: {@code tagRank}
     * when the line has c10's {@code [rankN]:} tag (≥ 0), else N, else -1.
     *
     * <p>The two numbers are not the same rank. ProcessGroupNCCL's prefix ({@code createLogPrefix} in
     * {@code torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp}: {@code [PG 3 Rank 1]} in 2.2, {@code [PG 3 (tp) Rank 1]}
     * in 2.3-2.4, {@code [PG ID 3 PG GUID 5(tp) Rank 1]} from 2.5) and its {@code [Rank 1] Watchdog caught} hold the
     * group's {@code rank_}, the rank within that process group; the tag is c10's {@code GLOBAL_RANK}, which
     * {@code _update_default_pg} sets to the default group's rank ({@code c10/util/Logging.cpp}, torch 2.2+). In the
     * default group they agree; in a subgroup the prefix's rank is another process's global rank. The group's own
     * rank is kept as {@code pgRank} when it differs from the global rank, and on every untagged line of a subgroup:
     * its global rank is then the one a tagged line of the same group and group rank showed ({@link GroupRanks}),
     * else unknown, and the rank returned is only the group's.
     */
    static int pgRank(String l, Map<String, String> f, int tagRank, GroupRanks ranks) {
        int at = l.indexOf("Rank ");
        if (at < 0) {
            return tagRank;
        }
        Matcher m = PG_RANK.matcher(l);
        if (!m.find()) {
            return tagRank;
        }
        if (m.group(1) != null) {
            Matcher id = PG_ID.matcher(m.group(1));
            if (id.find()) {
                f.put("pgId", id.group(1));
            }
            Matcher guid = PG_GUID.matcher(m.group(1));
            if (guid.find()) {
                f.put("pgGuid", guid.group(1));
            }
            Matcher name = PG_NAME.matcher(m.group(1));
            if (name.find()) {
                f.put("pgName", name.group(1));
            }
        }
        int groupRank = NcclLogParser.num(m.group(2), "rank");
        String group = m.group(1) == null ? null : GroupRanks.key(f.get("pgGuid"), m.group(1).strip());
        if (tagRank >= 0) {
            ranks.learn(group, groupRank, tagRank);
            if (groupRank != tagRank) {
                f.put("pgRank", String.valueOf(groupRank));
            }
            return tagRank;
        }
        if (group != null && !defaultGroup(f)) {
            f.put("pgRank", String.valueOf(groupRank));
            int global = ranks.global(group, groupRank);
            return global >= 0 ? global : groupRank;
        }
        return groupRank;
    }

    /** Whether the prefix read into {@code f} names the default group: {@code default_pg}, else PG (ID) 0 and GUID 0. */
    private static boolean defaultGroup(Map<String, String> f) {
        String name = f.get("pgName");
        if (name != null) {
            return name.equals("default_pg");
        }
        String guid = f.get("pgGuid");
        return (guid == null || guid.equals("0")) && "0".equals(f.get("pgId"));
    }

    /** A line that starts a new record of its own, so it cannot continue a wrapped one. */
    static boolean startsRecord(String l) {
        if (l.isEmpty()) {
            return true;
        }
        char c = l.charAt(0);
        return c == '[' || l.startsWith("Traceback") || l.startsWith("torch.") || l.startsWith("ERROR:")
                || l.startsWith("WARNING:") || l.startsWith("INFO:") || glogLevel(l) != null && l.length() > 5
                && Character.isDigit(l.charAt(1)) && l.charAt(5) == ' ';
    }
}
