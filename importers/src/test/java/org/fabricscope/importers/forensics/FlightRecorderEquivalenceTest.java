package org.fabricscope.importers.forensics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.fabricscope.importers.FabricImporter;
import org.fabricscope.importers.ImportProgress;
import org.fabricscope.importers.core.Cancellation;
import org.fabricscope.importers.core.ImportSource;
import org.fabricscope.model.FabricModel;
import org.fabricscope.model.FabricModelBuilder;
import org.fabricscope.model.forensics.FlightRecorderDump;
import org.fabricscope.model.forensics.FrEntry;
import org.junit.jupiter.api.Test;

/**
 * The fast flight recorder reader (array stack, {@link PickleDict}, values shared across dumps, dumps
 * parsed on several threads) against the reader it replaced, kept verbatim as
 * {@link LegacySafePickle} and {@link LegacyFlightRecorderReader}: the same values in the same order
 * for every real dump, the same dumps and diagnostics in the same order through the importer, and for
 * thousands of generated pickles (nested containers, memo puts and gets, DUP, POP_MARK, duplicate
 * keys, refused and unknown opcodes, corrupted bytes) the same value or the same error at the same
 * offset.
 */
class FlightRecorderEquivalenceTest {
    @Test
    void realDumpsGiveTheSameValuesAndTheSameDumps() throws Exception {
        List<Path> dumps = realDumps();
        assertTrue(dumps.size() >= 20, dumps.toString());
        int pickles = 0;
        for (Path p : dumps) {
            byte[] data = Files.readAllBytes(p);
            if (SafePickle.looksLikePickle(data)) {
                assertEquals(legacyOutcome(data), outcome(data), p.toString());
                pickles++;
            }
            FabricModelBuilder legacy = new FabricModelBuilder();
            new LegacyFlightRecorderReader().read(new ByteArrayInputStream(data), p.toString(), legacy, Cancellation.NEVER);
            FabricModelBuilder fast = new FabricModelBuilder();
            new FlightRecorderReader().read(new ByteArrayInputStream(data), p.toString(), fast, Cancellation.NEVER);
            FabricModel a = legacy.build();
            FabricModel b = fast.build();
            assertEquals(a.forensics().flightRecorder(), b.forensics().flightRecorder(), p.toString());
            assertEquals(a.diagnostics(), b.diagnostics(), p.toString());
        }
        assertTrue(pickles >= 10, "pickles " + pickles);
    }

    /** Real dumps with a refused and a truncated pickle between them, through the importer (parsed ahead on threads). */
    @Test
    void theImporterAddsParallelParsesInFileOrderWithTheirDiagnostics() throws Exception {
        // the dumps the importer gives the flight recorder reader (not the test pickles of other shapes)
        List<Path> dumps = realDumps().stream()
                .filter(p -> !p.toString().contains("forensics/pickle") && !p.toString().contains("forensics/nvrx"))
                // the 2-rank jobs of the H200 captures only: a 16-rank job's dumps beside them would make theirs
                // another job's (FlightRecorderJob), left out
                .filter(p -> !p.toString().contains("training-incident")).toList();
        assertTrue(dumps.size() >= 10, dumps.toString());
        List<ImportSource> sources = new ArrayList<>();
        List<byte[]> contents = new ArrayList<>();
        for (int i = 0; i < dumps.size(); i++) {
            byte[] data = Files.readAllBytes(dumps.get(i));
            contents.add(data);
            if (i == 3) {
                // a dump's head, then a GLOBAL: claimed as a flight recorder dump, refused
                byte[] evil = concat(new byte[] {(byte) 0x80, 2, '}', '(', 'X', 9, 0, 0, 0},
                        "pg_config".getBytes(StandardCharsets.US_ASCII), "cos\nsystem\n.".getBytes(StandardCharsets.US_ASCII));
                contents.add(evil);
            }
            if (i == 5 && SafePickle.looksLikePickle(data)) {
                contents.add(java.util.Arrays.copyOf(data, data.length / 2));
            }
        }
        for (int i = 0; i < contents.size(); i++) {
            byte[] data = contents.get(i);
            sources.add(new ImportSource("dump_" + i + "_rank_" + i % 2, data.length, () -> new ByteArrayInputStream(data), true));
        }
        FabricModel imported = new FabricImporter().importSources(sources, new ArrayList<>(), ImportProgress.NONE,
                Cancellation.NEVER).model();
        // each file read alone by the tree reader, its diagnostics in file order; then the dumps judged together as
        // the import does at its end (FlightRecorderJob: these dumps, named rank 0 and 1 by turns, are several per
        // rank, and those of jobs of other members are named and left out)
        FabricModelBuilder legacy = new FabricModelBuilder();
        FlightRecorderJob job = new FlightRecorderJob();
        for (ImportSource s : sources) {
            FabricModelBuilder one = new FabricModelBuilder();
            new LegacyFlightRecorderReader().read(s.open(), s.name(), one, Cancellation.NEVER);
            FabricModel read = one.build();
            read.diagnostics().forEach(legacy::diagnostic);
            read.forensics().flightRecorder().forEach(job::offer);
        }
        job.applyTo(legacy);
        FabricModel expected = legacy.build();
        assertTrue(expected.forensics().flightRecorder().size() >= 10, expected.diagnostics().toString());
        assertEquals(expected.forensics().flightRecorder(), imported.forensics().flightRecorder());
        assertEquals(expected.diagnostics(), imported.diagnostics());
        assertTrue(imported.diagnostics().stream().anyMatch(d -> d.message().contains("refused opcode GLOBAL")),
                imported.diagnostics().toString());

        // equal stack frames and shapes are one instance across the dumps of the import
        List<FrEntry> all = imported.forensics().flightRecorder().stream().flatMap(d -> d.entries().stream()).toList();
        Map<List<String>, List<String>> firstFrames = new java.util.HashMap<>();
        int shared = 0;
        for (FrEntry e : all) {
            List<String> had = firstFrames.putIfAbsent(e.frames(), e.frames());
            if (had != null && !e.frames().isEmpty()) {
                assertSame(had, e.frames());
                shared++;
            }
        }
        assertTrue(shared > 10, "shared " + shared);
    }

    /** A listed size that is wrong (the file changed after it was listed) reads the file as it is now. */
    @Test
    void aDumpReadWithAWrongSizeHintIsReadWhole() throws Exception {
        byte[] data = new byte[3 * 8192 + 17];
        new Random(3).nextBytes(data);
        for (long hint : new long[] {-1, 0, 1, data.length - 1, data.length, data.length + 1, 10L * data.length,
                FlightRecorderReader.MAX_BYTES + 1L}) {
            assertTrue(java.util.Arrays.equals(data, FlightRecorderReader.readAll(new ByteArrayInputStream(data), hint)),
                    "hint " + hint);
        }
        assertEquals(0, FlightRecorderReader.readAll(new ByteArrayInputStream(new byte[0]), 5).length);
        // the same through the thread's reused buffer, a long dump then shorter ones, so stale bytes would show
        byte[] small = java.util.Arrays.copyOf(data, 1000);
        for (byte[] d : List.of(data, small, data, new byte[0])) {
            for (long hint : new long[] {-1, 0, 1, d.length - 1, d.length, d.length + 1, 10L * d.length,
                    FlightRecorderReader.REUSED_MAX + 1L}) {
                FlightRecorderReader.Bytes r = FlightRecorderReader.read(new ByteArrayInputStream(d), hint);
                assertEquals(d.length, r.length(), "hint " + hint);
                assertTrue(java.util.Arrays.equals(d, 0, d.length, r.buf(), 0, r.length()), "hint " + hint);
            }
        }
    }

    @Test
    void generatedPicklesGiveTheSameValueOrTheSameError() {
        Random random = new Random(20261123);
        int values = 0;
        int errors = 0;
        int refused = 0;
        for (int i = 0; i < 20_000; i++) {
            byte[] p = program(random);
            if (i % 3 == 0) {
                corrupt(p, random);
            }
            Object a = legacyOutcome(p);
            Object b = outcome(p);
            assertEquals(a, b, () -> HexFormat.of().formatHex(p));
            if (b instanceof String s && s.startsWith("error ")) {
                errors++;
                refused += s.contains(" refused=true ") ? 1 : 0;
            } else {
                values++;
            }
        }
        assertTrue(values > 5_000 && errors > 2_000 && refused > 100, values + " values, " + errors + " errors, " + refused + " refused");
    }

    @Test
    void theSameLimitsAreEnforcedAtTheSamePoint() {
        Random random = new Random(7);
        SafePickle.Limits tiny = new SafePickle.Limits(4096, 3, 6, 40, 4);
        LegacySafePickle.Limits tinyLegacy = new LegacySafePickle.Limits(4096, 3, 6, 40, 4);
        int limited = 0;
        for (int i = 0; i < 5_000; i++) {
            byte[] p = program(random);
            Object a;
            Object b;
            try {
                a = norm(LegacySafePickle.read(p, tinyLegacy));
            } catch (LegacySafePickle.PickleException e) {
                a = "error " + e.getMessage() + " at " + e.offset();
            }
            try {
                b = norm(SafePickle.read(p, tiny));
            } catch (SafePickle.PickleException e) {
                b = "error " + e.getMessage() + " at " + e.offset();
                limited += e.getMessage().contains("values") || e.getMessage().contains("memo")
                        || e.getMessage().contains("deeper") || e.getMessage().contains("limit") ? 1 : 0;
            }
            assertEquals(a, b, () -> HexFormat.of().formatHex(p));
        }
        assertTrue(limited > 500, "limited " + limited);
    }

    private static List<Path> realDumps() throws Exception {
        assumeTrue(Files.isDirectory(ForensicsFixtures.CAPTURES), "captures not present");
        List<Path> out = new ArrayList<>();
        for (String dir : List.of("hang/fr", "hang", "hang-timing/fr", "hang-timing", "mismatch", "ras-dead")) {
            for (Path p : ForensicsFixtures.files(ForensicsFixtures.CAPTURES.resolve(dir))) {
                String n = p.getFileName().toString();
                if (n.startsWith("nccl_trace_rank_") || n.endsWith(".pkl")) {
                    out.add(p);
                }
            }
        }
        Path json = Path.of("..", "sample-fabrics", "training-incident", "forensics", "fr");
        if (Files.isDirectory(json)) {
            out.addAll(ForensicsFixtures.files(json));
        }
        try (var s = Files.walk(ForensicsFixtures.resource("pickle").getParent())) {
            s.filter(Files::isRegularFile).filter(p -> p.toString().contains("nvrx") || p.toString().contains("pickle"))
                    .filter(p -> !p.toString().endsWith(".md")).sorted().forEach(out::add);
        }
        return out;
    }

    private static Object outcome(byte[] p) {
        try {
            return norm(SafePickle.read(p));
        } catch (SafePickle.PickleException e) {
            return "error " + e.getMessage() + " refused=" + e.refused() + " offset=" + e.offset();
        }
    }

    private static Object legacyOutcome(byte[] p) {
        try {
            return norm(LegacySafePickle.read(p));
        } catch (LegacySafePickle.PickleException e) {
            return "error " + e.getMessage() + " refused=" + e.refused() + " offset=" + e.offset();
        }
    }

    /** A value with its dicts as ordered [key, value] lists and bytes as hex: equal when the readers agree exactly. */
    private static Object norm(Object v) {
        if (v instanceof byte[] bytes) {
            return "bytes " + HexFormat.of().formatHex(bytes);
        }
        if (v instanceof Map<?, ?> m) {
            List<Object> out = new ArrayList<>();
            out.add("dict");
            m.forEach((k, x) -> out.add(List.of(String.valueOf(k), k == null ? "None" : k.getClass().getSimpleName(),
                    String.valueOf(norm(x)))));
            return out;
        }
        if (v instanceof List<?> l) {
            List<Object> out = new ArrayList<>();
            out.add("list");
            for (Object x : l) {
                out.add(norm(x));
            }
            return out;
        }
        return v == null ? "None" : v.getClass().getSimpleName() + " " + v;
    }

    /** A pickle of nested plain values, with memo puts and gets, as a pickler would write it. */
    private static byte[] program(Random r) {
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        o.write(0x80);
        o.write(2 + r.nextInt(4));
        int[] memo = {0};
        value(o, r, 0, memo);
        if (r.nextInt(10) == 0) {
            o.write('2'); // DUP: two values at STOP
        }
        o.write('.');
        return o.toByteArray();
    }

    private static void value(ByteArrayOutputStream o, Random r, int depth, int[] memo) {
        int kind = depth > 4 ? r.nextInt(6) : r.nextInt(12);
        switch (kind) {
            case 0 -> { o.write('K'); o.write(r.nextInt(256)); }
            case 1 -> { o.write('J'); o.writeBytes(le32(r.nextInt())); }
            case 2 -> {
                int n = r.nextInt(12);
                o.write(0x8a);
                o.write(n);
                for (int i = 0; i < n; i++) {
                    o.write(r.nextInt(256));
                }
            }
            case 3 -> {
                byte[] s = ("k" + r.nextInt(6)).getBytes(StandardCharsets.US_ASCII);
                o.write(0x8c);
                o.write(s.length);
                o.writeBytes(s);
                put(o, r, memo);
            }
            case 4 -> o.write(r.nextBoolean() ? 'N' : r.nextBoolean() ? 0x88 : 0x89);
            case 5 -> {
                if (memo[0] > 0 && r.nextBoolean()) {
                    o.write('h');
                    o.write(r.nextInt(memo[0]));
                } else {
                    o.write('G');
                    o.writeBytes(le64(Double.doubleToLongBits(r.nextGaussian())));
                }
            }
            case 6, 7 -> { // dict: EMPTY_DICT and SETITEMS, or MARK ... DICT, or SETITEM
                int n = r.nextInt(5);
                int form = r.nextInt(3);
                if (form == 1) {
                    o.write('(');
                } else {
                    o.write('}');
                    put(o, r, memo);
                    if (form == 0) {
                        o.write('(');
                    }
                }
                for (int i = 0; i < n; i++) {
                    key(o, r, memo);
                    value(o, r, depth + 1, memo);
                    if (form == 2) {
                        o.write('s');
                    }
                }
                if (form != 2) {
                    o.write(form == 0 ? 'u' : 'd');
                }
            }
            case 8, 9 -> { // list: EMPTY_LIST and APPENDS, MARK ... LIST, or APPEND
                int n = r.nextInt(5);
                int form = r.nextInt(3);
                if (form == 1) {
                    o.write('(');
                } else {
                    o.write(']');
                    put(o, r, memo);
                    if (form == 0) {
                        o.write('(');
                    }
                }
                for (int i = 0; i < n; i++) {
                    value(o, r, depth + 1, memo);
                    if (form == 2) {
                        o.write('a');
                    }
                }
                if (form != 2) {
                    o.write(form == 0 ? 'e' : 'l');
                }
            }
            case 10 -> { // tuple
                int n = r.nextInt(5);
                if (n == 0) {
                    o.write(')');
                } else if (n <= 3) {
                    for (int i = 0; i < n; i++) {
                        value(o, r, depth + 1, memo);
                    }
                    o.write(0x84 + n);
                } else {
                    o.write('(');
                    for (int i = 0; i < n; i++) {
                        value(o, r, depth + 1, memo);
                    }
                    o.write('t');
                }
                put(o, r, memo);
            }
            default -> { // a value pushed and thrown away, or a MARK and its values dropped, then a value
                if (r.nextBoolean()) {
                    value(o, r, depth + 1, memo);
                    o.write('0');
                } else {
                    o.write('(');
                    value(o, r, depth + 1, memo);
                    o.write('1');
                }
                value(o, r, depth + 1, memo);
            }
        }
    }

    private static void key(ByteArrayOutputStream o, Random r, int[] memo) {
        int k = r.nextInt(10);
        if (k < 6) {
            byte[] s = ("key" + r.nextInt(12)).getBytes(StandardCharsets.UTF_8); // duplicates on purpose
            o.write('X');
            o.writeBytes(le32(s.length));
            o.writeBytes(s);
            put(o, r, memo);
        } else if (k < 8) {
            o.write('K');
            o.write(r.nextInt(4));
        } else if (k == 8) {
            o.write('N');
        } else {
            o.write('K'); // a tuple key
            o.write(1);
            o.write('N');
            o.write(0x86);
        }
    }

    private static void put(ByteArrayOutputStream o, Random r, int[] memo) {
        if (memo[0] < 250 && r.nextInt(3) > 0) {
            if (r.nextBoolean()) {
                o.write(0x94); // MEMOIZE
            } else {
                o.write('q');
                o.write(memo[0]);
            }
            memo[0]++;
        }
    }

    /** A few bytes overwritten: often with opcodes that import, call or are unknown. */
    private static void corrupt(byte[] p, Random r) {
        int[] ops = {'c', 0x93, 'R', 'b', 'i', 'o', 0x81, 'h', 'j', 'e', 'u', 's', 'a', '(', '0', '1', '2', ']', '}', 0xff, 'X', 0x95};
        for (int i = 0; i < 1 + r.nextInt(3); i++) {
            int at = 2 + r.nextInt(Math.max(1, p.length - 2));
            if (at < p.length) {
                p[at] = (byte) (r.nextInt(3) == 0 ? r.nextInt(256) : ops[r.nextInt(ops.length)]);
            }
        }
    }

    private static byte[] le32(int v) {
        return new byte[] {(byte) v, (byte) (v >> 8), (byte) (v >> 16), (byte) (v >> 24)};
    }

    private static byte[] le64(long v) {
        byte[] b = new byte[8];
        for (int i = 0; i < 8; i++) {
            b[i] = (byte) (v >> (8 * i));
        }
        return b;
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }
}
