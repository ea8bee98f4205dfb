package org.fabricscope.importers.bundle;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.zip.GZIPOutputStream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

import org.fabricscope.importers.core.Cancellation;
import org.fabricscope.importers.FabricImporter;
import org.fabricscope.importers.ImportProgress;
import org.fabricscope.importers.ImportResult;
import org.fabricscope.importers.TestSupport;
import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.FabricModel;
import org.fabricscope.model.core.Severity;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Folders, tar.gz and zip bundles of the same dumps; hostile archives. */
class BundleTest {
    static final long CA = 0x0002c90300001000L;

    static final String TOPO = """
            Switch\t41 "S-0002c90200400000"\t\t# "MF0;leaf-1:MQM8700/U1" enhanced port 0 lid 2 lmc 0
            [1]\t"H-0002c90300001000"[1](2c90300001001) \t\t# "h1 mlx5_0" lid 10 4xHDR
            [2]\t"H-0002c90300002000"[1](2c90300002001) \t\t# "h2 mlx5_0" lid 11 4xHDR
            [5]\t"S-0002c90200400100"[5]\t\t# "spine-1" lid 3 4xHDR

            Switch\t41 "S-0002c90200400100"\t\t# "spine-1" enhanced port 0 lid 3 lmc 0
            [5]\t"S-0002c90200400000"[5]\t\t# "MF0;leaf-1:MQM8700/U1" lid 2 4xHDR
            """;
    static final String PERF = """
            # Port counters: Lid 10 port 1 (CapMask: 0x1400)
            PortSelect:......................1
            SymbolErrorCounter:..............77
            LinkDownedCounter:...............1
            """;
    static final String LINKINFO = """
            Switch: 0x0002c90200400000 leaf-1:
                       2    1[  ] ==( 4X        53.125 Gbps Active/  LinkUp)==>      10    1[  ] "h1 mlx5_0" ( )
                       2    2[  ] ==( 4X        53.125 Gbps   Init/  LinkUp)==>      11    1[  ] "h2 mlx5_0" ( )
                       2    3[  ] ==(                Down/ Polling)==>             [  ] "" ( )
            """;

    @TempDir
    Path dir;

    static Map<String, byte[]> dumps() {
        Map<String, byte[]> m = new LinkedHashMap<>();
        m.put("dump/ibnetdiscover.txt", TOPO.getBytes(StandardCharsets.UTF_8));
        m.put("dump/perfquery.txt", PERF.getBytes(StandardCharsets.UTF_8));
        m.put("dump/iblinkinfo.txt", LINKINFO.getBytes(StandardCharsets.UTF_8));
        return m;
    }

    ImportResult importPaths(Path... paths) {
        return assertDoesNotThrow(() -> new FabricImporter().importPaths(List.of(paths), ImportProgress.NONE,
                Cancellation.NEVER));
    }

    // ---- archive writers (tests only) ----

    static void tarEntry(OutputStream out, String name, byte[] data) throws IOException {
        byte[] h = new byte[512];
        put(h, 0, name);
        put(h, 100, "0000644");
        put(h, 108, "0001750");
        put(h, 116, "0001750");
        put(h, 124, String.format("%011o", data.length));
        put(h, 136, String.format("%011o", 1_700_000_000L));
        for (int i = 148; i < 156; i++) {
            h[i] = ' ';
        }
        h[156] = '0';
        put(h, 257, "ustar");
        put(h, 263, "00");
        long sum = 0;
        for (byte b : h) {
            sum += b & 0xff;
        }
        put(h, 148, String.format("%06o", sum));
        h[154] = 0;
        h[155] = ' ';
        out.write(h);
        out.write(data);
        out.write(new byte[(512 - data.length % 512) % 512]);
    }

    static void put(byte[] h, int off, String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        System.arraycopy(b, 0, h, off, b.length);
    }

    static byte[] tarGz(Map<String, byte[]> entries) throws IOException {
        ByteArrayOutputStream bos = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(bos)) {
            for (Map.Entry<String, byte[]> e : entries.entrySet()) {
                tarEntry(gz, e.getKey(), e.getValue());
            }
            gz.write(new byte[1024]);
        }
        return bos.toByteArray();
    }

    static byte[] zip(Map<String, byte[]> entries) throws IOException {
        ByteArrayOutputStream bos = new ByteArrayOutputStream();
        try (ZipOutputStream z = new ZipOutputStream(bos)) {
            for (Map.Entry<String, byte[]> e : entries.entrySet()) {
                z.putNextEntry(new ZipEntry(e.getKey()));
                z.write(e.getValue());
                z.closeEntry();
            }
        }
        return bos.toByteArray();
    }

    record Counts(int nodes, int cables, long symbolErrors, String p2State, int sources, int problems) {
        static Counts of(FabricModel m) {
            return new Counts(m.nodes().size(), m.cables().size(),
                    m.node(CA).port(1).counter("SymbolErrorCounter"),
                    String.valueOf(m.node(0x0002c90200400000L).port(2).state()), m.sources().size(),
                    TestSupport.atLeast(m, Severity.WARNING).size());
        }
    }

    @Test
    void folderTarGzAndZipGiveTheSameModel() throws IOException {
        Path folder = dir.resolve("folder");
        for (Map.Entry<String, byte[]> e : dumps().entrySet()) {
            Path f = folder.resolve(e.getKey());
            Files.createDirectories(f.getParent());
            Files.write(f, e.getValue());
        }
        Files.write(folder.resolve(".hidden-notes.txt"), "ignore me".getBytes(StandardCharsets.UTF_8));
        Path tgz = Files.write(dir.resolve("bundle.tar.gz"), tarGz(dumps()));
        Path zip = Files.write(dir.resolve("bundle.zip"), zip(dumps()));

        Counts fromFolder = Counts.of(importPaths(folder).model());
        Counts fromTar = Counts.of(importPaths(tgz).model());
        Counts fromZip = Counts.of(importPaths(zip).model());
        assertEquals(new Counts(4, 3, 77, "INIT", 3, 0), fromFolder);
        assertEquals(fromFolder, fromTar);
        assertEquals(fromFolder, fromZip);
        assertTrue(importPaths(tgz).sources().contains(tgz + "!/dump/perfquery.txt"), importPaths(tgz).sources().toString());
    }

    @Test
    void zipSlipEntryNamesAreHarmless() throws IOException {
        Map<String, byte[]> evil = new LinkedHashMap<>();
        evil.put("/tmp/fabricscope-absolute.txt", TOPO.getBytes(StandardCharsets.UTF_8));
        evil.put("../../fabricscope-zip-slip.txt", PERF.getBytes(StandardCharsets.UTF_8));
        Path work = Files.createDirectories(dir.resolve("a/b"));
        Path zip = Files.write(work.resolve("evil.zip"), zip(evil));
        Path tgz = Files.write(work.resolve("evil.tar.gz"), tarGz(evil));
        for (Path p : List.of(zip, tgz)) {
            FabricModel m = importPaths(p).model();
            assertEquals(List.of(p + "!//tmp/fabricscope-absolute.txt"), m.sources(),
                    "an absolute name is read in memory like any other entry; a ../ entry is skipped like a hidden one");
            assertEquals(4, m.nodes().size());
            assertEquals(0, m.node(CA).port(1).counter("SymbolErrorCounter"));
        }
        assertFalse(Files.exists(dir.resolve("fabricscope-zip-slip.txt")));
        assertFalse(Files.exists(work.resolve("../../fabricscope-zip-slip.txt").normalize()));
        try (var s = Files.walk(dir)) {
            assertEquals(List.of(), s.filter(f -> f.getFileName().toString().startsWith("fabricscope-")).toList(),
                    "nothing was extracted");
        }
    }

    @Test
    void gzipBombIsRefused() throws IOException {
        Path bomb = dir.resolve("fabric.txt.gz");
        byte[] zeros = new byte[1 << 20];
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(bomb), 1 << 16)) {
            for (int i = 0; i < 600; i++) { // 600 MiB of zeros, about 600 KiB compressed
                out.write(zeros);
            }
        }
        assertTrue(Files.size(bomb) < 2 << 20, "compressed size " + Files.size(bomb));
        Path topo = Files.write(dir.resolve("topo.txt"), TOPO.getBytes(StandardCharsets.UTF_8));
        ImportResult r = importPaths(bomb, topo);
        List<Diagnostic> errors = TestSupport.atLeast(r.model(), Severity.ERROR);
        assertEquals(1, errors.size(), TestSupport.dump(r.model().diagnostics()));
        assertTrue(errors.get(0).message().contains("bomb"), errors.get(0).message());
        assertEquals(List.of(topo.toString()), r.sources(), "only the good file was read");
        assertEquals(3, r.model().cables().size());
    }

    @Test
    void tarEntryClaimingMoreThanTheLimitIsSkippedUnread() throws IOException {
        ByteArrayOutputStream bos = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(bos)) {
            tarEntry(gz, "dump/ibnetdiscover.txt", TOPO.getBytes(StandardCharsets.UTF_8));
            byte[] h = new byte[512];
            ByteArrayOutputStream one = new ByteArrayOutputStream();
            tarEntry(one, "dump/huge.bin", new byte[0]);
            System.arraycopy(one.toByteArray(), 0, h, 0, 512);
            // rewrite the size field to 600 MiB and fix the checksum; the data never follows
            put(h, 124, String.format("%011o", 600L << 20));
            for (int i = 148; i < 156; i++) {
                h[i] = ' ';
            }
            long sum = 0;
            for (byte b : h) {
                sum += b & 0xff;
            }
            put(h, 148, String.format("%06o", sum));
            h[154] = 0;
            gz.write(h);
        }
        Path tgz = Files.write(dir.resolve("claims.tar.gz"), bos.toByteArray());
        FabricModel m = importPaths(tgz).model();
        List<Diagnostic> ws = TestSupport.atLeast(m, Severity.WARNING);
        assertTrue(ws.stream().anyMatch(d -> d.message().contains("larger than")), TestSupport.dump(ws));
        assertEquals(3, m.cables().size(), "the entry before it is kept");
    }

    @Test
    void truncatedTarGzKeepsTheEntriesBeforeTheDamage() throws IOException {
        Map<String, byte[]> entries = dumps();
        StringBuilder noise = new StringBuilder();
        Random rnd = new Random(42);
        for (int i = 0; i < 6000; i++) {
            noise.append(String.format("# %016x%016x%016x%016x%n", rnd.nextLong(), rnd.nextLong(), rnd.nextLong(),
                    rnd.nextLong()));
        }
        entries.put("dump/zz-big-linkinfo.txt", (LINKINFO + noise).getBytes(StandardCharsets.UTF_8));
        byte[] whole = tarGz(entries);
        byte[] cut = java.util.Arrays.copyOf(whole, whole.length * 2 / 3);
        Path tgz = Files.write(dir.resolve("cut.tar.gz"), cut);
        ImportResult r = importPaths(tgz);
        FabricModel m = r.model();
        List<Diagnostic> errors = TestSupport.atLeast(m, Severity.ERROR);
        assertEquals(1, errors.size(), TestSupport.dump(m.diagnostics()));
        assertTrue(errors.get(0).message().contains("truncated"), errors.get(0).message());
        assertTrue(errors.get(0).message().contains("kept the 3 entries"), errors.get(0).message());
        assertEquals(3, r.sources().size(), r.sources().toString());
        assertEquals(3, m.cables().size());
        assertEquals(77, m.node(CA).port(1).counter("SymbolErrorCounter"));
    }
}
