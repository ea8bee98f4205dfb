package org.fabricscope.importers.forensics;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.fabricscope.importers.core.Cancellation;
import org.fabricscope.importers.core.ImportCancelledException;
import org.fabricscope.model.FabricModelBuilder;
import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.forensics.FlightRecorderDump;

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
    /**
     * The most process group memberships a dump may list: the sum of its groups' member counts, a member list
     * the pickle gives again (one string for two thousand groups) counted again. A 16,384-rank job's rank
     * belongs to a few groups; the analysis walks every membership of every dump.
     */
    static final int MAX_MEMBERSHIPS = 4 * 1024 * 1024;
    /** The file name extensions {@link #rankOf} looks behind. */
    private static final List<String> EXTENSIONS = List.of(".json", ".pkl", ".pickle", ".bin");

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

        /** Within an import: the dump joins the import's others, judged together at its end ({@link FlightRecorderJob}). */
        void applyTo(org.fabricscope.importers.core.ReadContext ctx) {
            problems.forEach(ctx.builder()::diagnostic);
            if (dump != null) {
                ctx.state(FlightRecorderJob.class, FlightRecorderJob::new).offer(dump);
            }
        }
    }

    /** Reads one dump of an import: its problems are said now, the dump is judged with the others at the end. */
    void read(InputStream in, org.fabricscope.importers.core.ReadContext ctx) throws IOException {
        parse(in, ctx.source(), -1, ctx.cancellation()).applyTo(ctx);
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
        try {
            return parseBytes(bytes, length, source, cancel, problems);
        } catch (FrEntryFields.OverBudget e) {
            problems.add(Diagnostic.error(source, 0, "flight recorder dump not read: " + e.getMessage()));
        } catch (OutOfMemoryError e) {
            // this dump's values are unreachable once the error is here: the other dumps are read on
            problems.add(Diagnostic.error(source, 0, "flight recorder dump not read: it took more memory than the "
                    + "Java heap has (-Xmx); the other files are read on"));
        } catch (StackOverflowError e) {
            problems.add(Diagnostic.error(source, 0, "flight recorder dump not read: its values nest too deeply to "
                    + "read; the other files are read on"));
        }
        return new Parsed(null, problems);
    }

    private Parsed parseBytes(byte[] bytes, int length, String source, Cancellation cancel, List<Diagnostic> problems) {
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
                root = PlainJson.readStrict(bytes, length);
            } catch (IOException e) {
                problems.add(Diagnostic.error(source, 0, "flight recorder JSON not read: " + Jsons.brief(e)));
                return new Parsed(null, problems);
            } catch (IllegalStateException e) { // Jackson's symbol table refuses field names built to collide
                problems.add(Diagnostic.error(source, 0, "flight recorder JSON not read: field names built to share "
                        + "one hash"));
                return new Parsed(null, problems);
            }
        }
        // nothing read keeps the bytes (strings are copies): this thread's buffer is free for its next dump
        if (!(root instanceof Map<?, ?> top)) {
            problems.add(Diagnostic.error(source, 0, "flight recorder " + format + " is not a dict; not read"));
            return new Parsed(null, problems);
        }
        FlightRecorderDump dump = FrDumpFields.dump(top, source, problems, cancel,
                maker != null ? maker : new FrEntryFields.Maker(shared));
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

    /**
     * The rank in a dump's file name: {@code nccl_trace_rank_12} or {@code _dump_3.json} is 12 or 3; -1 when none
     * or more than 7 digits. A scan from the end (a pattern searched from every start was quadratic in a long name).
     */
    public static int rankOf(String source) {
        String name = source;
        int cut = Math.max(name.lastIndexOf('/'), Math.max(name.lastIndexOf('\\'), name.lastIndexOf('!')));
        name = name.substring(cut + 1);
        int end = name.length();
        for (String ext : EXTENSIONS) {
            if (name.endsWith(ext)) {
                end -= ext.length();
                break;
            }
        }
        int start = end;
        while (start > 0 && name.charAt(start - 1) >= '0' && name.charAt(start - 1) <= '9') {
            start--;
        }
        if (start == end || end - start > 7) {
            return -1;
        }
        return Integer.parseInt(name, start, end, 10);
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

    /** What {@link #integer} gives for a number that is no integer of 64 bits (2^64, 1e400, 3.5). */
    static final long OUT_OF_RANGE = Long.MIN_VALUE;

    /**
     * An integer: a number, or a string of digits (JSON dumps write pg_status as strings); {@code dflt} for
     * anything else (None, a word, a list), and {@link #OUT_OF_RANGE} for a number that is not an integer
     * from -2^63+1 to 2^63-1 (a float with a fraction, an infinity, 2^64, a string of 30 digits): never
     * saturated or wrapped.
     */
    static long integer(Object v, long dflt) {
        if (v instanceof Long l) {
            return l == Long.MIN_VALUE ? OUT_OF_RANGE : l;
        }
        if (v instanceof Integer i) {
            return i;
        }
        if (v instanceof java.math.BigInteger big) {
            return big.bitLength() < 64 && big.longValue() != Long.MIN_VALUE ? big.longValue() : OUT_OF_RANGE;
        }
        if (v instanceof Double || v instanceof Float || v instanceof java.math.BigDecimal) {
            double d = ((Number) v).doubleValue();
            return Double.isFinite(d) && d == Math.rint(d) && Math.abs(d) < 0x1p63 ? (long) d : OUT_OF_RANGE;
        }
        if (v instanceof Number n) {
            return n.longValue();
        }
        if (v instanceof String s) {
            String t = s.strip();
            try {
                return Long.parseLong(t);
            } catch (NumberFormatException e) {
                return isInteger(t) ? OUT_OF_RANGE : dflt; // digits, too many of them
            }
        }
        if (v instanceof Boolean b) {
            return b ? 1 : 0;
        }
        return dflt;
    }

    private static boolean isInteger(String t) {
        int i = t.startsWith("-") || t.startsWith("+") ? 1 : 0;
        if (i == t.length()) {
            return false;
        }
        for (; i < t.length(); i++) {
            if (t.charAt(i) < '0' || t.charAt(i) > '9') {
                return false;
            }
        }
        return true;
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
