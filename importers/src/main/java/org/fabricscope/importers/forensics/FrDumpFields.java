package org.fabricscope.importers.forensics;

import static org.fabricscope.importers.forensics.FlightRecorderReader.abbreviate;
import static org.fabricscope.importers.forensics.FlightRecorderReader.integer;
import static org.fabricscope.importers.forensics.FlightRecorderReader.str;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.fabricscope.importers.core.Cancellation;
import org.fabricscope.importers.core.ImportCancelledException;
import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.forensics.FlightRecorderDump;
import org.fabricscope.model.forensics.FrEntries;
import org.fabricscope.model.forensics.FrPgStatus;
import org.fabricscope.model.forensics.FrProcessGroup;

/**
 * A flight recorder dump's top-level fields read into a {@link FlightRecorderDump}: its rank, versions,
 * process groups ({@code pg_config}), their progress ({@code pg_status}) and entries. What contradicts
 * itself or lies out of range is said by name: a dump whose own dicts give a key twice, or whose rank is
 * no rank, is not read; a {@code pg_status} record or an entry with a number out of range is skipped;
 * a member list with one is ignored.
 */
final class FrDumpFields {
    private static final int MAX_ENTRIES = 1_000_000;
    private static final long NOT_A_NUMBER = Long.MIN_VALUE + 1;

    private FrDumpFields() {
    }

    static FlightRecorderDump dump(Map<?, ?> top, String source, List<Diagnostic> problems, Cancellation cancel,
                                   FrEntryFields.Maker maker) {
        SharedValues shared = maker.shared;
        Object entriesValue = top.get("entries");
        if (!(entriesValue instanceof List<?> rawEntries)) {
            problems.add(Diagnostic.error(source, 0, "no 'entries' list: not a flight recorder dump; not read"));
            return null;
        }
        String twice = keyGivenTwice(top);
        if (twice != null) {
            problems.add(Diagnostic.error(source, 0, "flight recorder dump gives a key twice in " + twice
                    + " (no pickler writes that: the file was edited or two were run together); not read"));
            return null;
        }
        int rank = FlightRecorderReader.rankOf(source);
        if (top.containsKey("rank")) {
            long said = integer(top.get("rank"), -2);
            if (said < 0 || said > Integer.MAX_VALUE) {
                problems.add(Diagnostic.error(source, 0, "flight recorder dump: rank '" + abbreviate(str(top.get("rank")))
                        + "' is not a rank (0 - 2,147,483,647); not read"));
                return null;
            }
            if (rank >= 0 && rank != said) {
                problems.add(Diagnostic.warning(source, 0, "flight recorder dump says rank " + said
                        + ", its file name rank " + rank + "; read as rank " + said));
            }
            rank = (int) said;
        }
        if (rank < 0) {
            problems.add(Diagnostic.warning(source, 0, "flight recorder dump: no rank in the file name (PyTorch writes "
                    + "<prefix><rank>, e.g. nccl_trace_rank_3); read, but not compared with other ranks"));
        }
        String version = text(top.get("version"), "version", source, problems);
        String lib = text(top.containsKey("comm_lib_version") ? top.get("comm_lib_version") : top.get("nccl_version"),
                "comm_lib_version", source, problems);
        Map<String, FrProcessGroup> groups = groups(top.get("pg_config"), source, problems, shared);
        if (groups == null) {
            return null;
        }
        Map<String, FrPgStatus> status = new LinkedHashMap<>();
        if (top.get("pg_status") instanceof Map<?, ?> st) {
            int skipped = 0;
            for (var e : st.entrySet()) {
                if (e.getValue() instanceof Map<?, ?> s) {
                    String id = str(e.getKey());
                    long enq = integer(s.get("last_enqueued_collective"), -1);
                    long started = integer(s.get("last_started_collective"), -1);
                    long done = integer(s.get("last_completed_collective"), -1);
                    if (enq < -1 || started < -1 || done < -1 || id.length() > FrEntryFields.MAX_TEXT) {
                        skipped++;
                        continue;
                    }
                    status.put(id, new FrPgStatus(id, enq, started, done));
                }
            }
            if (skipped > 0) {
                problems.add(Diagnostic.warning(source, 0, skipped + " pg_status record" + (skipped == 1 ? "" : "s")
                        + " with a sequence number out of range (an integer from -1 to 2^63-1) or a group id longer than "
                        + FrEntryFields.MAX_TEXT + " characters; skipped"));
            }
        }
        return new FlightRecorderDump(source, rank, version, lib, groups, status,
                entries(rawEntries, source, problems, cancel, maker));
    }

    /** A version text; one longer than {@link FrEntryFields#MAX_TEXT} is not kept (said). */
    private static String text(Object v, String what, String source, List<Diagnostic> problems) {
        String s = str(v);
        if (s.length() > FrEntryFields.MAX_TEXT) {
            problems.add(Diagnostic.warning(source, 0, "'" + what + "' longer than " + FrEntryFields.MAX_TEXT
                    + " characters (FrEntryFields.MAX_TEXT); not kept"));
            return "";
        }
        return s;
    }

    /** The process groups of {@code pg_config}; null (said) when they list more than the memberships a dump may. */
    private static Map<String, FrProcessGroup> groups(Object config, String source, List<Diagnostic> problems,
                                                      SharedValues shared) {
        Map<String, FrProcessGroup> groups = new LinkedHashMap<>();
        if (!(config instanceof Map<?, ?> cfg)) {
            return groups;
        }
        long memberships = 0;
        int tooLong = 0;
        for (var e : cfg.entrySet()) {
            if (e.getValue() instanceof Map<?, ?> g) {
                String name = g.containsKey("name") ? str(g.get("name")) : str(e.getKey());
                String desc = str(g.get("desc"));
                if (name.length() > FrEntryFields.MAX_TEXT || desc.length() > FrEntryFields.MAX_TEXT) {
                    tooLong++;
                    continue;
                }
                // every rank's dump lists the group's members: one list for all (1,024 dumps of 1,024 ranks: a
                // million Integers), parsed once per distinct text of the import
                Object raw = g.get("ranks");
                List<Integer> members = raw instanceof String text ? shared.parsedRanks(text) : null;
                if (members == null) {
                    int problemsBefore = problems.size();
                    members = shared.share(List.copyOf(ranks(raw, source, name, problems)));
                    if (raw instanceof String text && problems.size() == problemsBefore) {
                        shared.rememberRanks(text, members); // only a text that parsed without a warning
                    }
                }
                memberships += 1 + members.size();
                if (memberships > FlightRecorderReader.MAX_MEMBERSHIPS) {
                    problems.add(Diagnostic.error(source, 0, "flight recorder dump lists more than "
                            + FlightRecorderReader.MAX_MEMBERSHIPS + " process group memberships "
                            + "(FlightRecorderReader.MAX_MEMBERSHIPS; a member list given again is counted again); not read"));
                    return null;
                }
                groups.put(name, new FrProcessGroup(name, desc, members));
            }
        }
        if (tooLong > 0) {
            problems.add(Diagnostic.warning(source, 0, tooLong + " process group" + (tooLong == 1 ? "" : "s")
                    + " of pg_config with a name or description longer than " + FrEntryFields.MAX_TEXT
                    + " characters (FrEntryFields.MAX_TEXT); skipped"));
        }
        return groups;
    }

    /**
     * Where a dict of the dump's own (top level, {@code pg_config}, {@code pg_status} and their groups) gave a
     * key twice, or null. Pickled dicts count it as they are read; JSON is read refusing it.
     */
    private static String keyGivenTwice(Map<?, ?> top) {
        if (top instanceof PickleDict d && d.replaced > 0) {
            return "its top-level dict";
        }
        for (String k : List.of("pg_config", "pg_status")) {
            if (top.get(k) instanceof PickleDict d) {
                if (d.replaced > 0) {
                    return "'" + k + "'";
                }
                for (Object v : d.values()) {
                    if (v instanceof PickleDict g && g.replaced > 0) {
                        return "a group of '" + k + "'";
                    }
                }
            }
        }
        return null;
    }

    /**
     * The entries' columns. A method of its own, so that the compiler's copies of this loop (on-stack, then
     * whole) are not also copies of the dump's header parsing around it.
     */
    private static FrEntries entries(List<?> rawEntries, String source, List<Diagnostic> problems, Cancellation cancel,
                                     FrEntryFields.Maker maker) {
        FrEntries.Builder entries = new FrEntries.Builder(Math.min(rawEntries.size(), MAX_ENTRIES));
        int bad = 0;
        int outOfRange = 0;
        int tooLong = 0;
        for (Object o : rawEntries) {
            if (entries.size() >= MAX_ENTRIES) {
                problems.add(Diagnostic.warning(source, 0, "more than " + MAX_ENTRIES + " entries; kept the first"));
                break;
            }
            if ((entries.size() & 0xfff) == 0 && cancel.isCancelled()) {
                throw new ImportCancelledException();
            }
            FrEntryFields f = o instanceof FrEntryFields read ? read : o instanceof Map<?, ?> m ? maker.of(m) : null;
            int why = f == null ? FrEntryFields.NO_GROUP_OR_SEQ : f.addTo(entries);
            if (why == FrEntryFields.NO_GROUP_OR_SEQ) {
                bad++;
            } else if (why == FrEntryFields.OUT_OF_RANGE) {
                outOfRange++;
            } else if (why == FrEntryFields.TOO_LONG) {
                tooLong++;
            }
        }
        if (bad > 0) {
            problems.add(Diagnostic.warning(source, 0, bad + " flight recorder entr" + (bad == 1 ? "y" : "ies")
                    + " without a process group or sequence number; skipped"));
        }
        if (outOfRange > 0) {
            problems.add(Diagnostic.warning(source, 0, outOfRange + " flight recorder entr" + (outOfRange == 1 ? "y" : "ies")
                    + " with a number out of range (sequence numbers, ids, times and timeouts are integers from -1 to "
                    + "2^63-1, the group id at most 2^31-1, a duration finite: not 1e400, 2^64 or 3.5); skipped"));
        }
        if (tooLong > 0) {
            problems.add(Diagnostic.warning(source, 0, tooLong + " flight recorder entr" + (tooLong == 1 ? "y" : "ies")
                    + " with a name, state, dtype or stack frame longer than " + FrEntryFields.MAX_TEXT
                    + " characters (FrEntryFields.MAX_TEXT); skipped"));
        }
        return entries.build();
    }

    /** {@code "[0, 1, 2]"} (how dumps write it), or a list; empty (said) when it is not a list of ranks. */
    private static List<Integer> ranks(Object v, String source, String pg, List<Diagnostic> problems) {
        List<Integer> out = new ArrayList<>();
        List<?> items;
        if (v instanceof List<?> l) {
            items = l;
        } else {
            String s = str(v).strip();
            if (s.startsWith("[") && s.endsWith("]")) {
                s = s.substring(1, s.length() - 1);
            }
            if (s.isBlank()) {
                return out;
            }
            items = List.of(s.split(","));
        }
        for (Object o : items) {
            long r = integer(o instanceof String t ? t.strip() : o, NOT_A_NUMBER);
            if (r == NOT_A_NUMBER) {
                problems.add(Diagnostic.warning(source, 0, "process group " + pg + ": ranks '" + abbreviate(str(v))
                        + "' are not a list of numbers; membership ignored"));
                return List.of();
            }
            if (r < 0 || r > Integer.MAX_VALUE || out.size() >= FlightRecorderReader.MAX_MEMBERSHIPS) {
                problems.add(Diagnostic.warning(source, 0, "process group " + pg + ": ranks '" + abbreviate(str(v))
                        + "' hold a number out of range (a rank is 0 - 2,147,483,647; at most "
                        + FlightRecorderReader.MAX_MEMBERSHIPS + " of them); membership ignored"));
                return List.of();
            }
            out.add((int) r);
        }
        return out;
    }
}
