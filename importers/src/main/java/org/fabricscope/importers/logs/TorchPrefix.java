package org.fabricscope.importers.logs;

import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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

    /** Fills pgId/pgGuid/pgName from a {@code [... Rank N]} prefix and returns N, or {@code fallback} when there is none. */
    static int pgRank(String l, Map<String, String> f, int fallback) {
        int at = l.indexOf("Rank ");
        if (at < 0) {
            return fallback;
        }
        Matcher m = PG_RANK.matcher(l);
        if (!m.find()) {
            return fallback;
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
        return NcclLogParser.num(m.group(2), "rank");
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
