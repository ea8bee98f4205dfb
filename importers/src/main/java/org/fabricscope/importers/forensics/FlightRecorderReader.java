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
        Bytes read = read(in, size);
        byte[] bytes = read.buf();
        int length = read.length();
        List<Diagnostic> problems = new ArrayList<>();
        if (length > MAX_BYTES) {
            problems.add(Diagnostic.error(source, 0, "flight recorder dump larger than " + MAX_BYTES
                    + " bytes; not read"));
            return new Parsed(null, problems);
        }
        if (cancel.isCancelled()) {
            throw new ImportCancelledException();
        }
        Object root;
        String format;
        FrEntryFields.Maker maker = null;
        if (length >= 3 && SafePickle.looksLikePickle(bytes)) {
            format = "pickle";
            try {
                // entries straight into their fields; read again as plain values when it cannot be read so
                maker = new FrEntryFields.Maker(shared);
                root = SafePickle.readItems(bytes, length, SafePickle.Limits.DEFAULT, maker);
                if (root == null) {
                    maker = null;
                    root = SafePickle.read(bytes, length, SafePickle.Limits.DEFAULT);
                }
            } catch (SafePickle.PickleException e) {
                problems.add(Diagnostic.error(source, 0, "flight recorder pickle not read: " + e.getMessage()
                        + (e.refused() ? " (a dump holds only plain values; this pickle asks to run code)" : "")));
                return new Parsed(null, problems);
            }
        } else {
            format = "JSON";
            try {
                root = Jsons.MAPPER.readValue(bytes, 0, length, Object.class);
            } catch (IOException e) {
                problems.add(Diagnostic.error(source, 0, "flight recorder JSON not read: " + Jsons.brief(e)));
                return new Parsed(null, problems);
            }
        }
        // nothing read keeps the bytes (strings are copies): this thread's buffer is free for its next dump
        if (!(root instanceof Map<?, ?> top)) {
            problems.add(Diagnostic.error(source, 0, "flight recorder " + format + " is not a dict; not read"));
            return new Parsed(null, problems);
        }
        FlightRecorderDump dump = dump(top, source, problems, cancel, maker != null ? maker : new FrEntryFields.Maker(shared));
        return new Parsed(dump, problems);
    }

    /** A dump's bytes: the first {@code length} of {@code buf}, which may be the reading thread's reused buffer. */
    record Bytes(byte[] buf, int length) {
    }

    /** Dumps up to this size are read into their thread's reused buffer. */
    static final int REUSED_MAX = 8 * 1024 * 1024;
    private static final ThreadLocal<byte[][]> BUFFER = ThreadLocal.withInitial(() -> new byte[1][]);

    /**
     * The stream's bytes, as {@link #readAll} reads them, but for a dump of a listed size up to
     * {@link #REUSED_MAX} into this thread's buffer, reused from dump to dump: 1,024 dumps allocated (and
     * zeroed, and the collector sometimes copied) 573 MB of arrays that lived a few milliseconds each.
     */
    static Bytes read(InputStream in, long size) throws IOException {
        if (size <= 0 || size > REUSED_MAX) {
            byte[] all = readAll(in, size);
            return new Bytes(all, all.length);
        }
        byte[][] holder = BUFFER.get();
        byte[] buf = holder[0];
        if (buf == null || buf.length < size + 1) {
            buf = new byte[(int) Math.min(REUSED_MAX + 1L, Math.max(size + 1, 1 << 20))];
            holder[0] = buf;
        }
        int n = in.readNBytes(buf, 0, (int) size + 1); // one past the listed size: did the file grow?
        if (n <= size) {
            return new Bytes(buf, n);
        }
        byte[] more = in.readNBytes(MAX_BYTES + 1 - n);
        byte[] all = java.util.Arrays.copyOf(buf, n + more.length);
        System.arraycopy(more, 0, all, n, more.length);
        return new Bytes(all, all.length);
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
                                   FrEntryFields.Maker maker) {
        SharedValues shared = maker.shared;
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
        return new FlightRecorderDump(source, rank, version, lib, groups, status,
                entries(rawEntries, source, problems, cancel, maker));
    }

    /**
     * The entries' columns. A method of its own, so that the compiler's copies of this loop (on-stack, then
     * whole) are not also copies of the dump's header parsing around it.
     */
    private static FrEntries entries(List<?> rawEntries, String source, List<Diagnostic> problems, Cancellation cancel,
                                     FrEntryFields.Maker maker) {
        FrEntries.Builder entries = new FrEntries.Builder(Math.min(rawEntries.size(), MAX_ENTRIES));
        int bad = 0;
        for (Object o : rawEntries) {
            if (entries.size() >= MAX_ENTRIES) {
                problems.add(Diagnostic.warning(source, 0, "more than " + MAX_ENTRIES + " entries; kept the first"));
                break;
            }
            if ((entries.size() & 0xfff) == 0 && cancel.isCancelled()) {
                throw new ImportCancelledException();
            }
            FrEntryFields f = o instanceof FrEntryFields read ? read : o instanceof Map<?, ?> m ? maker.of(m) : null;
            if (f == null || !f.addTo(entries)) {
                bad++;
            }
        }
        if (bad > 0) {
            problems.add(Diagnostic.warning(source, 0, bad + " flight recorder entr" + (bad == 1 ? "y" : "ies")
                    + " without a process group or sequence number; skipped"));
        }
        return entries.build();
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

    static String abbreviate(String s) {
        return s.length() > 80 ? s.substring(0, 77) + "..." : s;
    }
}
