package org.fabricscope.model.forensics;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A dump's entries by process group, made once with its columns (on the thread that read the dump):
 * what {@link FlightRecorderAnalysis} asks of each rank's entries of a group, so that comparing 1,024
 * ranks walks a few groups per dump instead of 2 million entries one after another. Groups are keyed by
 * name as {@code String.equals} compares them, in the order of their first entry.
 */
final class PgIndex {
    /** One process group's entries in one dump. */
    static final class Group {
        final String name;
        /** The description of the group's first entry, and of its first collective entry (null when none). */
        final String firstDesc;
        String collectiveDesc;
        /** The first entry's pg_id, and whether every entry has it: 1, or 2 when some differs. */
        final int pgId;
        int pgIds = 1;
        /** Whether some entry is point-to-point. */
        boolean p2p;
        /** Entries that are not point-to-point, in entry order (what the progress walk picks). */
        int[] picked = new int[16];
        int nPicked;
        /** Of the picked, those whose state is not "completed", in entry order. */
        int[] pending = new int[4];
        int nPending;
        /** Of the picked, those with a collective sequence number >= 0 and a name (the mismatch walk's). */
        int[] collective = new int[16];
        long[] seqs = new long[16];
        int nCollective;
        long maxSeq = -1;
        long maxStarted = -1;
        long maxCompleted = -1;
        /** The first picked entry with the highest sequence number, or -1. */
        int last = -1;

        private Group(String name, String firstDesc, int pgId) {
            this.name = name;
            this.firstDesc = firstDesc;
            this.pgId = pgId;
        }
    }

    private static final PgIndex EMPTY = new PgIndex(List.of());

    private final List<Group> groups;

    private PgIndex(List<Group> groups) {
        this.groups = groups;
    }

    /** The groups of the first {@code n} entries of the columns as the builder holds them. */
    static PgIndex of(int n, String[] pgName, String[] pgDesc, long[] pgId, long[] seq, long[] flags, String[] state) {
        if (n == 0) {
            return EMPTY;
        }
        Map<String, Group> byName = new LinkedHashMap<>();
        String lastName = null;
        Group g = null;
        for (int i = 0; i < n; i++) {
            String name = pgName[i];
            if (name != lastName) { // readers share names: a run of one instance is one lookup
                g = byName.get(name);
                if (g == null) {
                    g = new Group(name, pgDesc[i], (int) pgId[i]);
                    byName.put(name, g);
                }
                lastName = name;
            }
            if (g.pgIds == 1 && (int) pgId[i] != g.pgId) {
                g.pgIds = 2;
            }
            if ((flags[i] & 1) != 0) {
                g.p2p = true;
                continue;
            }
            if (g.nPicked == g.picked.length) {
                g.picked = Arrays.copyOf(g.picked, g.nPicked * 2);
            }
            g.picked[g.nPicked++] = i;
            long s = seq[i];
            if (s > g.maxSeq || g.last < 0) {
                g.last = i;
            }
            g.maxSeq = Math.max(g.maxSeq, s);
            String st = state[i];
            if (st.equals("completed")) {
                g.maxCompleted = Math.max(g.maxCompleted, s);
                g.maxStarted = Math.max(g.maxStarted, s);
            } else {
                if (st.equals("started")) {
                    g.maxStarted = Math.max(g.maxStarted, s);
                }
                if (g.nPending == g.pending.length) {
                    g.pending = Arrays.copyOf(g.pending, g.nPending * 2);
                }
                g.pending[g.nPending++] = i;
            }
            if (s >= 0 && !name.isEmpty()) {
                if (g.nCollective == 0) {
                    g.collectiveDesc = pgDesc[i];
                }
                if (g.nCollective == g.collective.length) {
                    g.collective = Arrays.copyOf(g.collective, g.nCollective * 2);
                    g.seqs = Arrays.copyOf(g.seqs, g.nCollective * 2);
                }
                g.collective[g.nCollective] = i;
                g.seqs[g.nCollective++] = s;
            }
        }
        List<Group> out = new ArrayList<>(byName.values());
        for (Group x : out) { // trimmed: 1,024 dumps hold these
            x.picked = Arrays.copyOf(x.picked, x.nPicked);
            x.pending = Arrays.copyOf(x.pending, x.nPending);
            x.collective = x.nCollective == x.nPicked && Arrays.equals(x.collective, 0, x.nCollective, x.picked, 0, x.nPicked)
                    ? x.picked : Arrays.copyOf(x.collective, x.nCollective);
            x.seqs = Arrays.copyOf(x.seqs, x.nCollective);
        }
        return new PgIndex(List.copyOf(out));
    }

    /** The groups, in the order of their first entry. */
    List<Group> groups() {
        return groups;
    }

    /** The group named {@code name} (by equals), or null. */
    Group group(String name) {
        for (Group g : groups) {
            if (g.name == name || g.name.equals(name)) {
                return g;
            }
        }
        return null;
    }
}
