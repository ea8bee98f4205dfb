package org.fabricscope.importers.forensics;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.fabricscope.importers.core.Cancellation;
import org.fabricscope.importers.core.ImportCancelledException;
import org.fabricscope.model.FabricModelBuilder;
import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.forensics.FlightRecorderDump;
import org.fabricscope.model.forensics.FrEntry;
import org.fabricscope.model.forensics.FrPgStatus;
import org.fabricscope.model.forensics.FrProcessGroup;

/**
 * Test-only: {@code FlightRecorderReader} as it was before the speed work of November 2026 (LinkedHashMap
 * dicts, list copies per MARK, no sharing of equal values), kept verbatim so that
 * {@code FlightRecorderEquivalenceTest} can check the fast reader gives the same values, the same
 * refusals at the same offsets and the same dumps.
 *
 * <p>The original description:
 *
 * PyTorch flight recorder dumps: the per-rank files ProcessGroupNCCL writes on a watchdog timeout
 * ({@code TORCH_NCCL_DUMP_ON_TIMEOUT=1}, {@code TORCH_FR_DUMP_TEMP_FILE} / {@code TORCH_NCCL_DEBUG_INFO_TEMP_FILE},
 * default {@code /tmp/nccl_trace_rank_<N>}), which are Python pickles read by {@link SafePickle}, and
 * the JSON of {@code _dump_nccl_trace_json}. Fields: {@code version}, {@code comm_lib_version} (older:
 * {@code nccl_version}), {@code pg_config} (members as a string), {@code pg_status} and {@code entries}.
 * The rank is the file name's trailing digits, as PyTorch's {@code fr_trace} reads it. Never throws on
 * bad input: a refused or broken dump is a diagnostic and is not read.
 */
final class LegacyFlightRecorderReader {
    public static final String ID = "flight-recorder";
    public static final String LABEL = "PyTorch flight recorder dump (pickle or JSON)";
    /** The largest dump read; 2000 entries with stack frames are a few MB. */
    static final int MAX_BYTES = 256 * 1024 * 1024;
    private static final int MAX_ENTRIES = 1_000_000;
    private static final Pattern TRAILING_RANK = Pattern.compile("(\\d+)(?:\\.(?:json|pkl|pickle|bin))?$");

    /** A pickle of protocol 2-5 whose first bytes name flight recorder fields. */
    public static boolean looksLikePickle(byte[] head) {
        if (!SafePickle.looksLikePickle(head)) {
            return false;
        }
        String s = new String(head, StandardCharsets.ISO_8859_1);
        return s.contains("pg_config") || s.contains("profiling_name")
                || (s.contains("entries") && (s.contains("comm_lib_version") || s.contains("nccl_version")));
    }

    /** JSON ({@code _dump_nccl_trace_json}) whose first lines name flight recorder fields. */
    public static boolean looksLike(List<String> head) {
        String first = firstNonBlank(head);
        if (first == null || !first.startsWith("{")) {
            return false;
        }
        String joined = String.join("\n", head);
        if (joined.contains("\"communicators\"") || joined.contains("\"missing_ranks\"")) {
            return false; // NCCL RAS JSON names nccl_version too
        }
        return joined.contains("\"profiling_name\"") || joined.contains("\"collective_seq_id\"")
                || (joined.contains("\"entries\"") && (joined.contains("\"pg_config\"")
                        || joined.contains("\"comm_lib_version\"") || joined.contains("\"pg_status\"")));
    }

    static String firstNonBlank(List<String> head) {
        for (String l : head) {
            String t = l.replace("\uFEFF", "").strip();
            if (!t.isEmpty()) {
                return t;
            }
        }
        return null;
    }

    /** Reads one dump into {@code builder.forensics()}; problems become diagnostics. */
    public void read(InputStream in, String source, FabricModelBuilder builder, Cancellation cancel) throws IOException {
        byte[] bytes = in.readNBytes(MAX_BYTES + 1);
        if (bytes.length > MAX_BYTES) {
            builder.diagnostic(Diagnostic.error(source, 0, "flight recorder dump larger than " + MAX_BYTES
                    + " bytes; not read"));
            return;
        }
        if (cancel.isCancelled()) {
            throw new ImportCancelledException();
        }
        Object root;
        String format;
        if (SafePickle.looksLikePickle(bytes)) {
            format = "pickle";
            try {
                root = LegacySafePickle.read(bytes);
            } catch (LegacySafePickle.PickleException e) {
                builder.diagnostic(Diagnostic.error(source, 0, "flight recorder pickle not read: " + e.getMessage()
                        + (e.refused() ? " (a dump holds only plain values; this pickle asks to run code)" : "")));
                return;
            }
        } else {
            format = "JSON";
            try {
                root = new com.fasterxml.jackson.databind.ObjectMapper(Jsons.FACTORY.copy()).readValue(bytes, Object.class);
            } catch (IOException e) {
                builder.diagnostic(Diagnostic.error(source, 0, "flight recorder JSON not read: " + Jsons.brief(e)));
                return;
            }
        }
        if (!(root instanceof Map<?, ?> top)) {
            builder.diagnostic(Diagnostic.error(source, 0, "flight recorder " + format + " is not a dict; not read"));
            return;
        }
        List<Diagnostic> problems = new ArrayList<>();
        FlightRecorderDump dump = dump(top, source, problems, cancel);
        problems.forEach(builder::diagnostic);
        if (dump != null) {
            builder.forensics().flightRecorder(dump);
        }
    }

    /** The rank in a dump's file name: {@code nccl_trace_rank_12} or {@code _dump_3.json} is 12 or 3; -1 when none. */
    public static int rankOf(String source) {
        String name = source;
        int cut = Math.max(name.lastIndexOf('/'), Math.max(name.lastIndexOf('\\'), name.lastIndexOf('!')));
        name = name.substring(cut + 1);
        Matcher m = TRAILING_RANK.matcher(name);
        if (!m.find() || m.group(1).length() > 7) {
            return -1;
        }
        return Integer.parseInt(m.group(1));
    }

    static FlightRecorderDump dump(Map<?, ?> top, String source, List<Diagnostic> problems, Cancellation cancel) {
        Object entriesValue = top.get("entries");
        if (!(entriesValue instanceof List<?> rawEntries)) {
            problems.add(Diagnostic.error(source, 0, "no 'entries' list: not a flight recorder dump; not read"));
            return null;
        }
        int rank = rankOf(source);
        Object explicitRank = top.get("rank");
        if (explicitRank instanceof Number n) {
            rank = n.intValue();
        }
        if (rank < 0) {
            problems.add(Diagnostic.warning(source, 0, "flight recorder dump: no rank in the file name (PyTorch writes "
                    + "<prefix><rank>, e.g. nccl_trace_rank_3); read, but not compared with other ranks"));
        }
        String version = str(top.get("version"));
        String lib = str(top.containsKey("comm_lib_version") ? top.get("comm_lib_version") : top.get("nccl_version"));
        Map<String, FrProcessGroup> groups = new LinkedHashMap<>();
        if (top.get("pg_config") instanceof Map<?, ?> cfg) {
            for (var e : cfg.entrySet()) {
                if (e.getValue() instanceof Map<?, ?> g) {
                    String name = g.containsKey("name") ? str(g.get("name")) : str(e.getKey());
                    groups.put(name, new FrProcessGroup(name, str(g.get("desc")), ranks(g.get("ranks"), source, name, problems)));
                }
            }
        }
        Map<String, FrPgStatus> status = new LinkedHashMap<>();
        if (top.get("pg_status") instanceof Map<?, ?> st) {
            for (var e : st.entrySet()) {
                if (e.getValue() instanceof Map<?, ?> s) {
                    String id = str(e.getKey());
                    status.put(id, new FrPgStatus(id, num(s.get("last_enqueued_collective"), -1),
                            num(s.get("last_started_collective"), -1), num(s.get("last_completed_collective"), -1)));
                }
            }
        }
        List<FrEntry> entries = new ArrayList<>();
        int bad = 0;
        for (Object o : rawEntries) {
            if (entries.size() >= MAX_ENTRIES) {
                problems.add(Diagnostic.warning(source, 0, "more than " + MAX_ENTRIES + " entries; kept the first"));
                break;
            }
            if ((entries.size() & 0xfff) == 0 && cancel.isCancelled()) {
                throw new ImportCancelledException();
            }
            FrEntry e = o instanceof Map<?, ?> m ? entry(m) : null;
            if (e == null) {
                bad++;
            } else {
                entries.add(e);
            }
        }
        if (bad > 0) {
            problems.add(Diagnostic.warning(source, 0, bad + " flight recorder entr" + (bad == 1 ? "y" : "ies")
                    + " without a process group or sequence number; skipped"));
        }
        return new FlightRecorderDump(source, rank, version, lib, groups, status, entries);
    }

    private static FrEntry entry(Map<?, ?> m) {
        String pgName = "";
        String pgDesc = "";
        if (m.get("process_group") instanceof List<?> pg && !pg.isEmpty()) {
            pgName = str(pg.get(0));
            pgDesc = pg.size() > 1 ? str(pg.get(1)) : "";
        } else if (m.get("process_group") != null) {
            pgName = str(m.get("process_group"));
        }
        long seq = num(m.get("collective_seq_id"), -1);
        if (pgName.isEmpty() || (seq < 0 && num(m.get("p2p_seq_id"), -1) < 0)) {
            return null;
        }
        List<String> frames = new ArrayList<>();
        if (m.get("frames") instanceof List<?> fs) {
            for (Object f : fs) {
                if (f instanceof Map<?, ?> fm && frames.size() < 64) {
                    frames.add(str(fm.get("name")) + " " + str(fm.get("filename")) + ":" + num(fm.get("line"), 0));
                }
            }
        }
        return new FrEntry(num(m.get("record_id"), -1), (int) num(m.get("pg_id"), -1), pgName, pgDesc, seq,
                num(m.get("p2p_seq_id"), -1), num(m.get("op_id"), -1), str(m.get("profiling_name")),
                bool(m.get("is_p2p")), sizes(m.get("input_sizes")), strings(m.get("input_dtypes")),
                sizes(m.get("output_sizes")), strings(m.get("output_dtypes")), str(m.get("state")),
                num(m.get("time_created_ns"), 0), num(m.get("time_discovered_started_ns"), 0),
                num(m.get("time_discovered_completed_ns"), 0), dbl(m.get("duration_ms")), num(m.get("timeout_ms"), -1),
                bool(m.get("retired")), frames);
    }

    /** {@code "[0, 1, 2]"} (how dumps write it), or a list. */
    private static List<Integer> ranks(Object v, String source, String pg, List<Diagnostic> problems) {
        List<Integer> out = new ArrayList<>();
        if (v instanceof List<?> l) {
            for (Object o : l) {
                long r = num(o, -1);
                if (r >= 0 && r < Integer.MAX_VALUE) {
                    out.add((int) r);
                }
            }
            return out;
        }
        String s = str(v).strip();
        if (s.startsWith("[") && s.endsWith("]")) {
            s = s.substring(1, s.length() - 1);
        }
        if (s.isBlank()) {
            return out;
        }
        for (String t : s.split(",")) {
            try {
                long r = Long.parseLong(t.strip());
                if (r >= 0 && r < Integer.MAX_VALUE && out.size() < 1_000_000) {
                    out.add((int) r);
                }
            } catch (NumberFormatException e) {
                problems.add(Diagnostic.warning(source, 0, "process group " + pg + ": ranks '" + abbreviate(str(v))
                        + "' are not a list of numbers; membership ignored"));
                return List.of();
            }
        }
        return out;
    }

    private static List<List<Long>> sizes(Object v) {
        List<List<Long>> out = new ArrayList<>();
        if (v instanceof List<?> l) {
            for (Object o : l) {
                List<Long> dims = new ArrayList<>();
                if (o instanceof List<?> d) {
                    for (Object x : d) {
                        dims.add(num(x, -1));
                    }
                }
                out.add(dims);
            }
        }
        return out;
    }

    private static List<String> strings(Object v) {
        List<String> out = new ArrayList<>();
        if (v instanceof List<?> l) {
            for (Object o : l) {
                out.add(str(o));
            }
        }
        return out;
    }

    static String str(Object v) {
        if (v == null) {
            return "";
        }
        if (v instanceof byte[] bytes) {
            return new String(bytes, StandardCharsets.UTF_8);
        }
        return String.valueOf(v);
    }

    /** A number, or a string of one (JSON dumps write pg_status as strings); {@code dflt} otherwise. */
    static long num(Object v, long dflt) {
        if (v instanceof Number n) {
            return n instanceof java.math.BigInteger big && big.bitLength() >= 64 ? dflt : n.longValue();
        }
        if (v instanceof String s) {
            try {
                return Long.parseLong(s.strip());
            } catch (NumberFormatException e) {
                return dflt;
            }
        }
        if (v instanceof Boolean b) {
            return b ? 1 : 0;
        }
        return dflt;
    }

    private static double dbl(Object v) {
        return v instanceof Number n ? n.doubleValue() : -1;
    }

    private static boolean bool(Object v) {
        return v instanceof Boolean b ? b : v instanceof Number n && n.longValue() != 0;
    }

    static String abbreviate(String s) {
        return s.length() > 80 ? s.substring(0, 77) + "..." : s;
    }
}
