package org.fabricscope.importers.forensics;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
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
import org.fabricscope.model.forensics.FrEntries;
import org.fabricscope.model.forensics.FrPgStatus;
import org.fabricscope.model.forensics.FrProcessGroup;

/**
 * PyTorch flight recorder dumps: the per-rank files ProcessGroupNCCL writes on a watchdog timeout
 * ({@code TORCH_NCCL_DUMP_ON_TIMEOUT=1}, {@code TORCH_FR_DUMP_TEMP_FILE} / {@code TORCH_NCCL_DEBUG_INFO_TEMP_FILE},
 * default {@code /tmp/nccl_trace_rank_<N>}), which are Python pickles read by {@link SafePickle}, and
 * the JSON of {@code _dump_nccl_trace_json}. Fields: {@code version}, {@code comm_lib_version} (older:
 * {@code nccl_version}), {@code pg_config} (members as a string), {@code pg_status} and {@code entries}.
 * The rank is the file name's trailing digits, as PyTorch's {@code fr_trace} reads it. Never throws on
 * bad input: a refused or broken dump is a diagnostic and is not read.
 */
public final class FlightRecorderReader {
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
        // searched as bytes: making a String of every dump's 64 KB head, twice, was a third of sniffing 1,024 dumps
        return contains(head, "pg_config") || contains(head, "profiling_name")
                || (contains(head, "entries") && (contains(head, "comm_lib_version") || contains(head, "nccl_version")));
    }

    /** Whether the ASCII text occurs in the bytes. */
    static boolean contains(byte[] hay, String ascii) {
        int n = ascii.length();
        byte first = (byte) ascii.charAt(0);
        for (int i = 0, last = hay.length - n; i <= last; i++) {
            if (hay[i] == first) {
                int j = 1;
                while (j < n && hay[i + j] == (byte) ascii.charAt(j)) {
                    j++;
                }
                if (j == n) {
                    return true;
                }
            }
        }
        return false;
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

    private final SharedValues shared;

    /** A reader whose dumps share equal values only among themselves. */
    public FlightRecorderReader() {
        this(new SharedValues());
    }

    /** A reader whose dumps share equal values with the other dumps of the import that holds {@code shared}. */
    FlightRecorderReader(SharedValues shared) {
        this.shared = shared;
    }

    /** Reads one dump into {@code builder.forensics()}; problems become diagnostics. */
    public void read(InputStream in, String source, FabricModelBuilder builder, Cancellation cancel) throws IOException {
        parse(in, source, -1, cancel).applyTo(builder);
    }

    /**
     * What one dump gave: the dump (null when it was not read) and the problems found. Made without
     * the model builder, so that dumps can be parsed on several threads and added in file order.
     */
    record Parsed(FlightRecorderDump dump, List<Diagnostic> problems) {
        void applyTo(FabricModelBuilder builder) {
            problems.forEach(builder::diagnostic);
            if (dump != null) {
                builder.forensics().flightRecorder(dump);
            }
        }
    }

    /**
     * Reads one dump; touches nothing shared but the {@link SharedValues} (thread-safe). {@code size}:
     * the file's size as listed, or -1.
     */
    Parsed parse(InputStream in, String source, long size, Cancellation cancel) throws IOException {
        byte[] bytes = readAll(in, size);
        List<Diagnostic> problems = new ArrayList<>();
        if (bytes.length > MAX_BYTES) {
            problems.add(Diagnostic.error(source, 0, "flight recorder dump larger than " + MAX_BYTES
                    + " bytes; not read"));
            return new Parsed(null, problems);
        }
        if (cancel.isCancelled()) {
            throw new ImportCancelledException();
        }
        Object root;
        String format;
        if (SafePickle.looksLikePickle(bytes)) {
            format = "pickle";
            try {
                root = SafePickle.read(bytes);
            } catch (SafePickle.PickleException e) {
                problems.add(Diagnostic.error(source, 0, "flight recorder pickle not read: " + e.getMessage()
                        + (e.refused() ? " (a dump holds only plain values; this pickle asks to run code)" : "")));
                return new Parsed(null, problems);
            }
        } else {
            format = "JSON";
            try {
                root = Jsons.MAPPER.readValue(bytes, Object.class);
            } catch (IOException e) {
                problems.add(Diagnostic.error(source, 0, "flight recorder JSON not read: " + Jsons.brief(e)));
                return new Parsed(null, problems);
            }
        }
        bytes = null; // the tree holds what is needed; let the bytes go before the entries are made
        if (!(root instanceof Map<?, ?> top)) {
            problems.add(Diagnostic.error(source, 0, "flight recorder " + format + " is not a dict; not read"));
            return new Parsed(null, problems);
        }
        FlightRecorderDump dump = dump(top, source, problems, cancel, shared);
        return new Parsed(dump, problems);
    }

    /**
     * The stream's bytes, at most {@code MAX_BYTES + 1}: when the size is known, one read into an array of
     * that size (a chunked read allocates and copies every dump twice: 1.1 GB for 1,024 dumps), then
     * whatever the file grew by since it was listed.
     */
    static byte[] readAll(InputStream in, long size) throws IOException {
        if (size <= 0 || size > MAX_BYTES) {
            return in.readNBytes(MAX_BYTES + 1);
        }
        byte[] buf = new byte[(int) size];
        int n = in.readNBytes(buf, 0, buf.length);
        if (n < buf.length) {
            return java.util.Arrays.copyOf(buf, n); // shorter than listed
        }
        byte[] more = in.readNBytes(MAX_BYTES + 1 - n);
        if (more.length == 0) {
            return buf;
        }
        byte[] all = java.util.Arrays.copyOf(buf, n + more.length);
        System.arraycopy(more, 0, all, n, more.length);
        return all;
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

    static FlightRecorderDump dump(Map<?, ?> top, String source, List<Diagnostic> problems, Cancellation cancel,
                                   SharedValues shared) {
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
                    // every rank's dump lists the group's members: one list for all (1,024 dumps of 1,024 ranks: a million Integers)
                    List<Integer> members = shared.share(List.copyOf(ranks(g.get("ranks"), source, name, problems)));
                    groups.put(name, new FrProcessGroup(name, str(g.get("desc")), members));
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
        FrEntries.Builder entries = new FrEntries.Builder(Math.min(rawEntries.size(), MAX_ENTRIES));
        Map<Frame, String> frameText = new HashMap<>();
        DumpMemo memo = new DumpMemo(shared);
        int bad = 0;
        for (Object o : rawEntries) {
            if (entries.size() >= MAX_ENTRIES) {
                problems.add(Diagnostic.warning(source, 0, "more than " + MAX_ENTRIES + " entries; kept the first"));
                break;
            }
            if ((entries.size() & 0xfff) == 0 && cancel.isCancelled()) {
                throw new ImportCancelledException();
            }
            if (!(o instanceof Map<?, ?> m) || !entry(m, shared, frameText, memo, entries)) {
                bad++;
            }
        }
        if (bad > 0) {
            problems.add(Diagnostic.warning(source, 0, bad + " flight recorder entr" + (bad == 1 ? "y" : "ies")
                    + " without a process group or sequence number; skipped"));
        }
        return new FlightRecorderDump(source, rank, version, lib, groups, status, entries.build());
    }

    /** A stack frame as the dump holds it; the key of the {@code name file:line} text made once per dump. */
    private record Frame(Object name, Object filename, Object line) {
    }

    /** An entry's fields, taken in one pass over its dict (what {@code get} of each would give). */
    private static final class Fields {
        Object processGroup;
        Object collectiveSeqId;
        Object p2pSeqId;
        Object frames;
        Object recordId;
        Object pgId;
        Object opId;
        Object profilingName;
        Object isP2p;
        Object inputSizes;
        Object inputDtypes;
        Object outputSizes;
        Object outputDtypes;
        Object state;
        Object created;
        Object started;
        Object completed;
        Object durationMs;
        Object timeoutMs;
        Object retired;

        Fields(Map<?, ?> m) {
            if (m instanceof PickleDict d) {
                for (int i = 0, n = d.size(); i < n; i++) {
                    if (d.keyAt(i) instanceof String k) {
                        set(k, d.valueAt(i));
                    }
                }
            } else {
                for (var e : m.entrySet()) {
                    if (e.getKey() instanceof String k) {
                        set(k, e.getValue());
                    }
                }
            }
        }

        private void set(String key, Object v) {
            switch (key) {
                case "process_group" -> processGroup = v;
                case "collective_seq_id" -> collectiveSeqId = v;
                case "p2p_seq_id" -> p2pSeqId = v;
                case "frames" -> frames = v;
                case "record_id" -> recordId = v;
                case "pg_id" -> pgId = v;
                case "op_id" -> opId = v;
                case "profiling_name" -> profilingName = v;
                case "is_p2p" -> isP2p = v;
                case "input_sizes" -> inputSizes = v;
                case "input_dtypes" -> inputDtypes = v;
                case "output_sizes" -> outputSizes = v;
                case "output_dtypes" -> outputDtypes = v;
                case "state" -> state = v;
                case "time_created_ns" -> created = v;
                case "time_discovered_started_ns" -> started = v;
                case "time_discovered_completed_ns" -> completed = v;
                case "duration_ms" -> durationMs = v;
                case "timeout_ms" -> timeoutMs = v;
                case "retired" -> retired = v;
                default -> {
                    // thread_name, thread_id, ...: not used
                }
            }
        }
    }

    /** Adds the entry of dict {@code m} to {@code out}; false (nothing added) when it has no process group or sequence number. */
    private static boolean entry(Map<?, ?> m, SharedValues shared, Map<Frame, String> frameText, DumpMemo memo,
                                 FrEntries.Builder out) {
        Fields f = new Fields(m);
        String pgName = "";
        String pgDesc = "";
        if (f.processGroup instanceof List<?> pg && !pg.isEmpty()) {
            pgName = str(pg.get(0));
            pgDesc = pg.size() > 1 ? str(pg.get(1)) : "";
        } else if (f.processGroup != null) {
            pgName = str(f.processGroup);
        }
        long seq = num(f.collectiveSeqId, -1);
        if (pgName.isEmpty() || (seq < 0 && num(f.p2pSeqId, -1) < 0)) {
            return false;
        }
        List<String> frames = frameTexts(f.frames, shared, frameText);
        out.add(num(f.recordId, -1), (int) num(f.pgId, -1), memo.string(pgName),
                memo.string(pgDesc), seq, num(f.p2pSeqId, -1), num(f.opId, -1),
                memo.string(str(f.profilingName)), bool(f.isP2p), memo.sizes(f.inputSizes),
                memo.strings(f.inputDtypes), memo.sizes(f.outputSizes),
                memo.strings(f.outputDtypes), memo.string(str(f.state)),
                num(f.created, 0), num(f.started, 0), num(f.completed, 0), dbl(f.durationMs), num(f.timeoutMs, -1),
                bool(f.retired), memo.frames(frames));
        return true;
    }

    /**
     * An entry's stack frames as {@code name file:line} texts, each distinct frame's text made once per dump.
     * Its own method, like the field pass: a loop inside {@link #entry} made the JIT compile that large
     * method on-stack first and then again (about 0.4 s of compiler time each on two cores).
     */
    private static List<String> frameTexts(Object v, SharedValues shared, Map<Frame, String> frameText) {
        List<String> frames = new ArrayList<>();
        if (v instanceof List<?> fs) {
            for (Object o : fs) {
                if (o instanceof Map<?, ?> fm && frames.size() < 64) {
                    Object name = null;
                    Object file = null;
                    Object line = null;
                    if (fm instanceof PickleDict d) { // one pass, as for the entry's fields
                        for (int i = 0, n = d.size(); i < n; i++) {
                            if (d.keyAt(i) instanceof String k) {
                                switch (k) {
                                    case "name" -> name = d.valueAt(i);
                                    case "filename" -> file = d.valueAt(i);
                                    case "line" -> line = d.valueAt(i);
                                    default -> {
                                        // not used
                                    }
                                }
                            }
                        }
                    } else {
                        name = fm.get("name");
                        file = fm.get("filename");
                        line = fm.get("line");
                    }
                    // byte[] has identity equality: such frames (never written by PyTorch) are not cached
                    boolean cacheable = !(name instanceof byte[]) && !(file instanceof byte[]) && !(line instanceof byte[]);
                    Frame key = cacheable ? new Frame(name, file, line) : null;
                    String text = cacheable ? frameText.get(key) : null;
                    if (text == null) {
                        text = shared.share(str(name) + " " + str(file) + ":" + num(line, 0));
                        if (cacheable && frameText.size() < 100_000) {
                            frameText.put(key, text);
                        }
                    }
                    frames.add(text);
                }
            }
        }
        return frames;
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
