package org.fabricscope.importers.forensics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.fabricscope.importers.core.Cancellation;
import org.fabricscope.model.FabricModel;
import org.fabricscope.model.FabricModelBuilder;
import org.junit.jupiter.api.Test;

/**
 * Entries read straight into their fields ({@link SafePickle#readItems}, {@link FrEntryFields}) give the
 * dumps and diagnostics the reader that builds the whole tree gave ({@link LegacyFlightRecorderReader}),
 * for dumps written as PyTorch's C++ pickler writes them (no memo for containers, TUPLE2) and as Python's
 * does (every container memoized, a shared tuple fetched back, APPENDS in batches), with fields of the
 * wrong types, entries that are not dicts, containers fetched back and changed, entries pushed twice,
 * a second entries list, and corrupted bytes; and that the pickles that must be read as plain values are.
 */
class FlightRecorderItemsTest {
    private static final String[] FIELDS = {"frames", "record_id", "pg_id", "process_group", "thread_name",
        "thread_id", "collective_seq_id", "p2p_seq_id", "op_id", "profiling_name", "time_created_ns", "input_sizes",
        "input_dtypes", "output_sizes", "output_dtypes", "state", "time_discovered_started_ns",
        "time_discovered_completed_ns", "retired", "timeout_ms", "is_p2p", "duration_ms"};

    @Test
    void generatedDumpsGiveWhatTheTreeReaderGave() {
        Random random = new Random(20261126);
        int streamed = 0;
        int fellBack = 0;
        int streamedEntries = 0;
        int twice = 0;
        int outOfRange = 0;
        for (int i = 0; i < 3_000; i++) {
            Writer w = new Writer(random);
            byte[] p = w.dump();
            if (i % 5 == 4) {
                corrupt(p, random);
            }
            Object items = SafePickle.readItems(p, SafePickle.Limits.DEFAULT, new FrEntryFields.Maker(new SharedValues()));
            if (items != null) {
                streamed++;
            } else {
                fellBack++;
            }
            String name = "nccl_trace_rank_" + (i % 7);
            FabricModel fast = read(p, name, false);
            if (w.entriesTwice && fast.forensics().flightRecorder().isEmpty()) {
                // a key given twice in the dump's own dict: the tree reader kept the later, this one names the dump
                // and leaves it out (no pickler writes that)
                assertTrue(fast.diagnostics().stream().anyMatch(d -> d.message().contains("gives a key twice")
                        || d.message().contains("not read")), fast.diagnostics().toString());
                twice++;
                continue;
            }
            FabricModel legacy = read(p, name, true);
            if (fast.diagnostics().stream().anyMatch(d -> d.message().contains("with a number out of range"))) {
                // a corrupted LONG1 of more than 64 bits: the tree reader read it as 0 (saturated); this one skips
                // the entry and says so
                outOfRange++;
                continue;
            }
            assertEquals(legacy.forensics().flightRecorder(), fast.forensics().flightRecorder(), () -> HexFormat.of().formatHex(p));
            assertEquals(legacy.diagnostics(), fast.diagnostics(), () -> HexFormat.of().formatHex(p));
            if (items != null) {
                streamedEntries += fast.forensics().flightRecorder().stream().mapToInt(d -> d.entries().size()).sum();
            }
        }
        assertTrue(streamed > 1_000 && fellBack > 500 && streamedEntries > 2 * streamed && twice > 100 && outOfRange < 100,
                streamed + " streamed (" + streamedEntries + " entries), " + fellBack + " read as plain values, "
                        + twice + " giving 'entries' twice, " + outOfRange + " with a number out of range");
    }

    @Test
    void realDumpsAreReadStraightIntoTheirFields() throws Exception {
        int n = 0;
        for (String dir : List.of("hang/fr", "hang-timing/fr")) {
            for (Path p : ForensicsFixtures.files(ForensicsFixtures.CAPTURES.resolve(dir))) {
                Object v = SafePickle.readItems(Files.readAllBytes(p), SafePickle.Limits.DEFAULT,
                        new FrEntryFields.Maker(new SharedValues()));
                assertNotNull(v, p.toString());
                List<?> entries = (List<?>) ((Map<?, ?>) v).get("entries");
                assertTrue(!entries.isEmpty() && entries.stream().allMatch(e -> e instanceof FrEntryFields), p.toString());
                n++;
            }
        }
        assertTrue(n >= 4, "dumps " + n);
    }

    @Test
    void anEntriesListChangedAfterItWasFetchedBackIsReadAsPlainValues() {
        // {"entries": [{"record_id": 1}]}, then the list fetched from the memo and a second dict appended
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        o.writeBytes(new byte[] {(byte) 0x80, 2, '}', '('});
        str(o, "entries");
        o.writeBytes(new byte[] {']', 'q', 0, '}', '('});
        str(o, "record_id");
        o.writeBytes(new byte[] {'K', 1, 'u', 'a', 'u', 'h', 0, '}', 'a', '0', '.'});
        byte[] p = o.toByteArray();
        assertNull(SafePickle.readItems(p, SafePickle.Limits.DEFAULT, new FrEntryFields.Maker(new SharedValues())));
        FabricModel legacy = read(p, "nccl_trace_rank_0", true);
        FabricModel fast = read(p, "nccl_trace_rank_0", false);
        assertEquals(legacy.forensics().flightRecorder(), fast.forensics().flightRecorder());
        assertEquals(legacy.diagnostics(), fast.diagnostics());
    }

    /**
     * A process group of 2^40 values in 40 shared tuples: the sink that would take it apart (its text walks
     * all of it) gives up at once, and the plain read refuses it by its count, as before there were sinks.
     */
    @Test
    void sharedTuplesThatStandForAnExponentialValueAreNotTakenApartBySinks() {
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        o.writeBytes(new byte[] {(byte) 0x80, 2, '}', '('});
        str(o, "entries");
        o.writeBytes(new byte[] {']', '}', '('});
        str(o, "process_group");
        o.writeBytes(new byte[] {'K', 1, (byte) 0x85, 'q', 0});
        for (int i = 1; i <= 40; i++) {
            o.writeBytes(new byte[] {'h', (byte) (i - 1), (byte) 0x86, 'q', (byte) i}); // t(i) = (t(i-1), t(i-1))
        }
        o.writeBytes(new byte[] {'u', 'a', 'u', '.'});
        byte[] p = o.toByteArray();
        org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(20), () -> {
            assertNull(SafePickle.readItems(p, SafePickle.Limits.DEFAULT, new FrEntryFields.Maker(new SharedValues())));
            FabricModel fast = read(p, "nccl_trace_rank_0", false);
            assertTrue(fast.forensics().flightRecorder().isEmpty());
            assertTrue(fast.diagnostics().stream().anyMatch(d -> d.message().contains("values when shared containers")),
                    fast.diagnostics().toString());
        });
    }

    private static FabricModel read(byte[] p, String name, boolean legacy) {
        FabricModelBuilder b = new FabricModelBuilder();
        try {
            if (legacy) {
                new LegacyFlightRecorderReader().read(new ByteArrayInputStream(p), name, b, Cancellation.NEVER);
            } else {
                new FlightRecorderReader().read(new ByteArrayInputStream(p), name, b, Cancellation.NEVER);
            }
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
        return b.build();
    }

    /** Writes one dump, in one pickler's manner, with some fields and values chosen to go wrong. */
    private static final class Writer {
        private final ByteArrayOutputStream o = new ByteArrayOutputStream();
        private final Random r;
        private final boolean python;
        /** Whether the dump gives its 'entries' key twice. */
        boolean entriesTwice;
        private int memo;
        /** Memo indexes of containers written so far (Python's pickler fetches a repeated one back). */
        private final java.util.List<Integer> containers = new java.util.ArrayList<>();
        private int sharedTuple = -1;
        /** Memo indexes of stack frame dicts written so far. */
        private final java.util.List<Integer> frames = new java.util.ArrayList<>();

        Writer(Random r) {
            this.r = r;
            this.python = r.nextBoolean();
        }

        byte[] dump() {
            o.write(0x80);
            o.write(2);
            o.write('}');
            put(false);
            o.write('(');
            str("version");
            str("2.10");
            str("pg_config");
            o.write('}');
            put(true);
            o.write('(');
            str("0");
            o.write('}');
            put(true);
            o.write('(');
            str("name");
            str("0");
            str("ranks");
            str("[0, 1, 2, 3]");
            o.write('u');
            o.write('u');
            int lists = r.nextInt(12) == 0 ? 2 : 1; // a second entries list under the same key
            entriesTwice = lists == 2;
            for (int l = 0; l < lists; l++) {
                str("entries");
                entries();
            }
            o.write('u');
            o.write('.');
            return o.toByteArray();
        }

        private void entries() {
            o.write(']');
            int listMemo = put(true);
            int n = r.nextInt(7);
            int batch = python ? 1 + r.nextInt(3) : Integer.MAX_VALUE;
            int inBatch = 0;
            boolean open = false;
            for (int i = 0; i < n; i++) {
                if (!open && !(python && n == 1)) {
                    o.write('(');
                    open = true;
                }
                switch (r.nextInt(20)) {
                    case 0 -> { o.write('K'); o.write(i); } // not a dict
                    case 1 -> { // a dict made by DICT from marked items
                        o.write('(');
                        str("process_group");
                        str("0");
                        str("collective_seq_id");
                        o.write('K');
                        o.write(i);
                        o.write('d');
                    }
                    case 2 -> {
                        entry(i);
                        o.write('2'); // the same entry twice in the list
                    }
                    default -> entry(i);
                }
                inBatch++;
                if (python && n == 1) {
                    o.write('a');
                } else if (inBatch == batch || i == n - 1) {
                    o.write('e');
                    open = false;
                    inBatch = 0;
                }
            }
            if (r.nextInt(15) == 0 && listMemo >= 0) { // the list fetched back and changed
                get(listMemo);
                o.write('K');
                o.write(9);
                o.write('a');
                o.write('0');
            }
        }

        private void entry(int i) {
            o.write('}');
            put(true);
            boolean setitem = r.nextInt(6) == 0;
            if (!setitem) {
                o.write('(');
            }
            for (String f : FIELDS) {
                if (r.nextInt(12) == 0) {
                    continue; // a field missing
                }
                str(f);
                value(f, i);
                if (setitem) {
                    o.write('s');
                }
                if (r.nextInt(40) == 0) { // the same key again, later
                    str(f);
                    value(f, i + 1);
                    if (setitem) {
                        o.write('s');
                    }
                }
            }
            if (!setitem) {
                o.write('u');
            }
        }

        private void value(String field, int i) {
            int odd = r.nextInt(25);
            if (odd == 0) {
                o.write('N');
                return;
            }
            if (odd == 1) {
                str("odd");
                return;
            }
            if (odd == 2) {
                o.write(']'); // a list of a list where a scalar belongs
                put(true);
                o.write(']');
                put(true);
                o.write('K');
                o.write(3);
                o.write('a');
                o.write('a');
                return;
            }
            if (odd == 3 && !containers.isEmpty()) { // a container written before, fetched back
                get(containers.get(r.nextInt(containers.size())));
                return;
            }
            switch (field) {
                case "frames" -> {
                    o.write(']');
                    put(true);
                    o.write('(');
                    for (int k = 0, n = r.nextInt(4); k < n; k++) {
                        if (!frames.isEmpty() && r.nextInt(3) == 0) {
                            // a frame written before, fetched back (PyTorch's pickler shares equal frames)
                            get(frames.get(r.nextInt(frames.size())));
                            if (r.nextInt(25) == 0) { // and changed
                                str("line");
                                o.write('K');
                                o.write(7);
                                o.write('s');
                            }
                            continue;
                        }
                        o.write('}');
                        int at = python ? put(true) : -1;
                        o.write('(');
                        str("name");
                        str("f" + r.nextInt(3));
                        str("filename");
                        str("/work/train.py");
                        str("line");
                        o.write('M');
                        o.write(r.nextInt(256));
                        o.write(1);
                        o.write('u');
                        if (!python) { // the C++ pickler memoizes a value once it is written
                            at = memoPut();
                        }
                        frames.add(at);
                    }
                    o.write('e');
                }
                case "process_group" -> {
                    if (python && sharedTuple >= 0 && r.nextBoolean()) {
                        get(sharedTuple); // a constant tuple: Python's pickler writes it once
                    } else {
                        str("0");
                        str("default_pg");
                        o.write(0x86);
                        int at = put(true);
                        if (python && sharedTuple < 0) {
                            sharedTuple = at;
                        }
                    }
                }
                case "input_sizes", "output_sizes" -> {
                    o.write(']');
                    put(true);
                    o.write(']');
                    put(true);
                    o.write('J');
                    o.writeBytes(new byte[] {0, 0, 0, 1});
                    o.write('a');
                    o.write('a');
                }
                case "input_dtypes", "output_dtypes" -> {
                    o.write(']');
                    put(true);
                    str(r.nextBoolean() ? "Float" : "BFloat16");
                    o.write('a');
                }
                case "thread_name", "thread_id", "profiling_name", "state" -> str(field.equals("state")
                        ? (r.nextBoolean() ? "completed" : "started") : field + r.nextInt(2));
                case "retired", "is_p2p" -> o.write(r.nextBoolean() ? 0x88 : 0x89);
                case "duration_ms" -> {
                    o.write('G');
                    long bits = Double.doubleToLongBits(r.nextDouble() * 1000);
                    for (int k = 7; k >= 0; k--) {
                        o.write((int) (bits >>> (8 * k)));
                    }
                }
                case "time_created_ns", "time_discovered_started_ns", "time_discovered_completed_ns" -> {
                    long t = 1795420934783416548L + i * 740_000_000L + r.nextInt(1000);
                    o.write(0x8a);
                    o.write(8);
                    for (int k = 0; k < 8; k++) {
                        o.write((int) (t >>> (8 * k)));
                    }
                }
                default -> { o.write('K'); o.write(i + (r.nextInt(8) == 0 ? 1 : 0)); }
            }
        }

        /** A memo put after a value (Python's pickler puts every container and string); its index, or -1. */
        private int put(boolean container) {
            if (!python && container) {
                return -1; // PyTorch's C++ pickler memoizes only what is referenced twice
            }
            int at = memoPut();
            if (container) {
                containers.add(at);
            }
            return at;
        }

        /** BINPUT or LONG_BINPUT of the next memo index; that index. */
        private int memoPut() {
            int at = memo++;
            memoOp('q', 'r', at);
            return at;
        }

        /** The one-byte form of a memo opcode for indexes below 256, else the four-byte one. */
        private void memoOp(int shortOp, int longOp, int at) {
            if (at < 256) {
                o.write(shortOp);
                o.write(at);
            } else {
                o.write(longOp);
                o.writeBytes(new byte[] {(byte) at, (byte) (at >> 8), 0, 0});
            }
        }

        private void get(int at) {
            memoOp('h', 'j', at);
        }

        private void str(String s) {
            FlightRecorderItemsTest.str(o, s);
            put(false);
        }
    }

    private static void str(ByteArrayOutputStream o, String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        o.write('X');
        o.writeBytes(new byte[] {(byte) b.length, (byte) (b.length >> 8), 0, 0});
        o.writeBytes(b);
    }

    private static void corrupt(byte[] p, Random r) {
        int[] ops = {'h', 'a', 'e', 'u', 's', '(', '0', '2', ']', '}', 'N', 0x86};
        for (int i = 0; i < 1 + r.nextInt(2); i++) {
            int at = 2 + r.nextInt(Math.max(1, p.length - 2));
            if (at < p.length) {
                p[at] = (byte) ops[r.nextInt(ops.length)];
            }
        }
    }
}
