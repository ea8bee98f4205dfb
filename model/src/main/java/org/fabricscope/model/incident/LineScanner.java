package org.fabricscope.model.incident;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.fabricscope.model.core.Evidence;

/**
 * Scans the lines of one log for failure signatures. Each line's stamp is read ({@link Stamps}); a
 * matched line without one takes the last stamp before it in the same file, marked {@link Stamp#inferred}
 * (a lower bound of its time). Who printed a line comes from its prefix:
 * NCCL's {@code host:pid:tid [dev]}, torchrun's {@code [rankN]:} (not {@code [defaultN]:}, a local rank), and the
 * {@code [Rank N]} of ProcessGroupNCCL messages. Not thread-safe: one scanner per file.
 */
public final class LineScanner {
    /**
     * Processes (NCCL Init lines) and torchrun rank tags kept per file: enough for a combined log of a 65,536-rank
     * job. Past it the builder is told ({@link IncidentLogBuilder#cappedSources}) and the import says so.
     */
    public static final int MAX_PROCESSES = 65_536;
    /** The host of a journal or syslog kernel line: {@code Nov 26 15:47:42 node-a kernel: }. */
    private static final java.util.regex.Pattern JOURNAL_HOST = java.util.regex.Pattern.compile(
            "^(?:[A-Z][a-z]{2} [ \\d]\\d \\d\\d:\\d\\d:\\d\\d|\\d{4}-\\d\\d-\\d\\dT\\S{8,32}) ([A-Za-z0-9][\\w.-]{0,62}) kernel: ");
    private final IncidentLogBuilder owner;
    private final SignatureCatalogue.Matcher matcher;
    private final String source;
    private final boolean kernel;
    private final List<SignatureMatch> found = new ArrayList<>();
    private final Set<String> processes = new LinkedHashSet<>();
    private final Set<Integer> ranks = new LinkedHashSet<>();
    /** Lines into a file its first stamp is looked for. */
    private static final int FIRST_STAMP_WITHIN = 64;
    private Stamp first = Stamp.NONE;
    private int lookedFor;
    /** The last lines whose start may hold a stamp ({@link Stamps#mayHold}), a ring. */
    private static final int RECENT = 16;
    private final String[] recent = new String[RECENT];
    private int candidates;
    /** The latest stamp read so far. */
    private Stamp lastKnown = Stamp.NONE;
    private int lines;
    private boolean closed;
    /** Whether a process or rank was left out past {@link #MAX_PROCESSES}. */
    private boolean capped;

    /** Adds {@code v} to {@code set} within {@link #MAX_PROCESSES}; false when it was new and there was no room. */
    private static <T> boolean add(Set<T> set, T v) {
        if (set.size() < MAX_PROCESSES) {
            set.add(v);
            return true;
        }
        return set.contains(v);
    }

    /** The hosts and fields of the matched lines: a failure repeated by many ranks names the same few of each. */
    private final org.fabricscope.model.core.SharedStrings hosts = new org.fabricscope.model.core.SharedStrings();
    private final org.fabricscope.model.core.SharedMaps fieldMaps = new org.fabricscope.model.core.SharedMaps();
    /** The global ranks of the process groups' ranks that this file's tagged lines showed. */
    private final GroupRanks groupRanks = new GroupRanks();

    LineScanner(IncidentLogBuilder owner, SignatureCatalogue catalogue, String source, boolean kernel) {
        this.owner = owner;
        this.matcher = catalogue.matcher(Target.LOG);
        this.source = source;
        this.kernel = kernel;
    }

    /** One line as read, with its 1-based number. */
    public void line(String raw, int lineNumber) {
        lines = Math.max(lines, lineNumber);
        // stamps are read lazily: the first line that holds one, the last line that may, and matched lines
        if (!first.known() && lookedFor++ < FIRST_STAMP_WITHIN) {
            first = Stamps.of(raw);
        }
        if (Stamps.mayHold(raw)) {
            recent[candidates++ & (RECENT - 1)] = raw;
            if ((candidates & 255) == 0) { // now and then: a stamp to fall back on when no recent candidate holds one
                Stamp k = Stamps.of(raw);
                lastKnown = k.known() ? k : lastKnown;
            }
        }
        // who printed in this file: the processes whose Init lines it holds, torchrun's [rankN]: tags;
        // the prefix of other lines is read only when a signature matches them
        if (raw.indexOf(" - Init ") > 0) {
            Prefix init = Prefix.of(raw);
            if (init.host != null) {
                capped |= !add(processes, init.host + ":" + init.pid);
            }
        }
        int tagged = Prefix.tagRank(raw);
        if (tagged >= 0) {
            capped |= !add(ranks, tagged);
        }
        if (matcher.isEmpty()) {
            return;
        }
        SignatureCatalogue.Hit hit = matcher.first(raw);
        if (hit == null) {
            return;
        }
        Prefix p = Prefix.of(raw);
        p.mapGroupRank(groupRanks);
        if (kernel && p.host == null) {
            java.util.regex.Matcher j = JOURNAL_HOST.matcher(raw);
            if (j.find()) {
                p.host = j.group(1);
            }
        }
        Stamp s = Stamps.of(raw);
        if (s.known()) {
            lastKnown = s;
        } else {
            Stamp before = recentStamp(raw);
            before = before.known() ? before : lastKnown.known() ? lastKnown : first;
            lastKnown = before;
            // the last stamp before it in the file: the line was printed then or later
            s = before.asLowerBound();
        }
        Stamp stamp = s;
        // the same few fields in every rank's copy of a failure: one map (its strings with it)
        Map<String, String> fields = fieldMaps.of(p.globalRank(hit.fields()));
        found.add(new SignatureMatch(hit.signature(), fields, hosts.of(p.host), p.pid, p.rank, stamp,
                Evidence.at(source, lineNumber, raw.strip())));
    }

    /** The stamp of the latest recent candidate line that holds one (other than {@code besides}), or {@link Stamp#NONE}. */
    private Stamp recentStamp(String besides) {
        for (int k = 1; k <= Math.min(RECENT, candidates); k++) {
            String l = recent[(candidates - k) & (RECENT - 1)];
            if (l != besides) {
                Stamp s = Stamps.of(l);
                if (s.known()) {
                    return s;
                }
            }
        }
        return Stamp.NONE;
    }

    /** Ends the file: what it found goes to the builder. Further calls do nothing. */
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        Stamp last = recentStamp(null);
        last = last.known() ? last : lastKnown;
        owner.add(found, new LogSource(source, lines, first, last, new ArrayList<>(processes), new ArrayList<>(ranks), kernel));
        if (capped) {
            owner.capped(source);
        }
    }

    /** Who printed a line, as its prefix says. */
    static final class Prefix {
        String host;
        long pid = -1;
        /** The global rank: c10's {@code [rankN]:} tag, else the process group's prefix (its rank within the group). */
        int rank = -1;
        /** The rank in ProcessGroupNCCL's {@code [PG ... Rank N]} or {@code [Rank N]}, -1 when none. */
        int groupRank = -1;
        /** The process group of {@code [PG ... Rank N]}, null for none or a bare {@code [Rank N]}. */
        String group;
        /** Whether {@link #rank} is c10's {@code [rankN]:} tag. */
        boolean tagged;

        private static final java.util.regex.Pattern NCCL = java.util.regex.Pattern.compile(
                "(?:^|[\\s\\]:])([A-Za-z0-9][\\w.-]{0,252}):(\\d{1,10}):\\d{1,10} \\[\\d{1,4}\\] ");
        /** How far into a line torchrun's {@code [rankN]:} may start (after kubectl's or a launcher's stamp and tags). */
        static final int TAG_REACH = 80;

        /** The N of torchrun's {@code [rankN]:} near the line's start, or -1; read by hand (every line of a training log has one). */
        static int tagRank(String raw) {
            int at = raw.indexOf("[rank");
            if (at < 0 || at >= TAG_REACH) {
                return -1;
            }
            int i = at + 5;
            int n = 0;
            int digits = 0;
            while (i < raw.length() && digits < 8 && Character.isDigit(raw.charAt(i))) {
                n = n * 10 + raw.charAt(i++) - '0';
                digits++;
            }
            return digits > 0 && digits < 8 && raw.startsWith("]:", i) ? n : -1;
        }
        private static final java.util.regex.Pattern PG_RANK = java.util.regex.Pattern.compile(
                "\\[(PG [^\\]]{0,200}?)?\\s?Rank (\\d{1,7})\\]");
        private static final java.util.regex.Pattern PG_GUID = java.util.regex.Pattern.compile("PG GUID ([^\\s(\\]]+)");

        /** A group's key ({@link GroupRanks#key}): its GUID, else its prefix without the rank; null when none. */
        private static String groupKey(String pg) {
            if (pg == null) {
                return null;
            }
            java.util.regex.Matcher g = PG_GUID.matcher(pg);
            return GroupRanks.key(g.find() ? g.group(1) : null, pg.strip());
        }

        /**
         * Learns the global rank of this line's group rank when c10's tag gives it, or, on a line without the tag (the
         * {@code what():} that ends the process), takes the global rank a tagged line of the same group and group rank
         * showed in this file.
         */
        void mapGroupRank(GroupRanks ranks) {
            if (tagged) {
                ranks.learn(group, groupRank, rank);
            } else if (groupRank >= 0) {
                int g = ranks.global(group, groupRank);
                rank = g >= 0 ? g : rank;
            }
        }

        static Prefix of(String raw) {
            Prefix p = new Prefix();
            int nccl = raw.indexOf(" NCCL ");
            if (nccl > 0) {
                java.util.regex.Matcher m = NCCL.matcher(raw).region(0, nccl + 1);
                if (m.find()) {
                    p.host = m.group(1);
                    p.pid = Long.parseLong(m.group(2));
                }
            }
            p.rank = tagRank(raw);
            if (raw.indexOf("Rank ") > 0) {
                java.util.regex.Matcher m = PG_RANK.matcher(raw);
                if (m.find()) {
                    p.groupRank = Integer.parseInt(m.group(2));
                    p.group = groupKey(m.group(1));
                    p.tagged = p.rank >= 0;
                    if (p.rank < 0) {
                        p.rank = p.groupRank;
                    }
                }
            }
            return p;
        }

        /**
         * A signature's {@code rank} read from ProcessGroupNCCL's prefix is the rank within that process group; c10's
         * {@code [rankN]:} tag on the same line is the global one (see the importers' TorchPrefix): the field is then
         * the global rank, and the group's own is kept as {@code pgRank}. Other fields are left as matched.
         */
        Map<String, String> globalRank(Map<String, String> fields) {
            String r = fields.get("rank");
            if (r == null || groupRank < 0 || rank < 0 || rank == groupRank || !r.equals(String.valueOf(groupRank))) {
                return fields;
            }
            Map<String, String> out = new java.util.LinkedHashMap<>(fields);
            out.put("rank", String.valueOf(rank));
            out.put("pgRank", r);
            return out;
        }
    }
}
