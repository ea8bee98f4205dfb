package org.fabricscope.importers;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;

import org.fabricscope.importers.core.Cancellation;
import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.FabricModel;
import org.fabricscope.model.core.Severity;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bad input never throws: each problem is a diagnostic naming the file and line, and the import
 * keeps what it read before and after it.
 */
class MalformedInputTest {
    static final String TOPO = """
            #
            # Topology file: generated on Tue Feb 23 14:02:06 2021
            #
            # Initiated from node 0002c90300001000 port 0002c90300001001

            vendid=0x2c9
            devid=0xd2f0
            switchguid=0x2c90200400000(2c90200400000)
            Switch\t41 "S-0002c90200400000"\t\t# "leaf-1" enhanced port 0 lid 2 lmc 0
            [1]\t"H-0002c90300001000"[1](2c90300001001) \t\t# "node-01 mlx5_0" lid 10 4xHDR
            [2]\t"H-0002c90300002000"[1](2c90300002001) \t\t# "node-02 mlx5_0" lid 11 4xHDR
            [39]\t"S-0002c90200400100"[1]\t\t# "spine-1" lid 3 4xHDR
            [40]\t"S-0002c90200400100"[2]\t\t# "spine-1" lid 3 4xHDR
            """;
    // lines:  1-4 header, 5 blank, 6-8 ids, 9 Switch, 10-13 ports

    @TempDir
    Path dir;

    Path write(String name, byte[] data) throws IOException {
        Path p = dir.resolve(name);
        Files.write(p, data);
        return p;
    }

    Path write(String name, String text) throws IOException {
        return write(name, text.getBytes(StandardCharsets.UTF_8));
    }

    ImportResult importPaths(Path... paths) {
        return assertDoesNotThrow(() -> new FabricImporter().importPaths(List.of(paths), ImportProgress.NONE,
                Cancellation.NEVER));
    }

    static List<Diagnostic> problems(FabricModel m) {
        return TestSupport.atLeast(m, Severity.WARNING);
    }

    static Diagnostic only(FabricModel m) {
        List<Diagnostic> ds = problems(m);
        assertEquals(1, ds.size(), TestSupport.dump(ds));
        return ds.get(0);
    }

    @Test
    void wellFormedBaselineHasNoProblems() throws IOException {
        FabricModel m = importPaths(write("topo.txt", TOPO)).model();
        assertEquals(List.of(), problems(m));
        assertEquals(4, m.cables().size());
    }

    @Test
    void truncatedMidLine() throws IOException {
        String cut = TOPO.substring(0, TOPO.indexOf("[40]") + 18); // "[40]\t\"S-0002c902004"
        Path p = write("cut.txt", cut);
        FabricModel m = importPaths(p).model();
        Diagnostic d = only(m);
        assertEquals(p.toString(), d.source());
        assertEquals(13, d.line());
        assertEquals(3, m.cables().size(), "the three complete port lines are kept");
        assertEquals(4, m.nodes().size(), "leaf, spine and two HCAs");
    }

    @Test
    void truncatedInsideTheComment() throws IOException {
        String cut = TOPO.substring(0, TOPO.indexOf("[40]") + 36); // ...[2]\t\t# "spi
        FabricModel m = importPaths(write("cut.txt", cut)).model();
        Diagnostic d = only(m);
        assertEquals(13, d.line());
        assertEquals(4, m.cables().size(), "the link itself was readable; only its rate is lost");
    }

    @Test
    void binaryFileIsSkipped() throws IOException {
        byte[] junk = new byte[4096];
        new Random(7).nextBytes(junk);
        junk[10] = 0;
        Path bin = write("core.bin", junk);
        Path topo = write("topo.txt", TOPO);
        ImportResult r = importPaths(bin, topo);
        Diagnostic d = only(r.model());
        assertEquals(bin.toString(), d.source());
        assertTrue(d.message().contains("binary"), d.message());
        assertEquals(4, r.model().cables().size(), "the good file beside it is still read");
    }

    @Test
    void jpegIsNotAFabricDump() throws IOException {
        byte[] jpeg = {(byte) 0xFF, (byte) 0xD8, (byte) 0xFF, (byte) 0xE0, 0, 0x10, 'J', 'F', 'I', 'F', 0, 1, 1, 0, 0, 1};
        Path p = write("photo.jpg", jpeg);
        ImportResult r = importPaths(p);
        Diagnostic d = only(r.model());
        assertEquals(p.toString(), d.source());
        assertTrue(r.model().isEmpty());
        assertTrue(!r.readAnything());
    }

    @Test
    void randomTextIsUnknownFormat() throws IOException {
        Path p = write("notes.txt", "Dear team,\nthe cluster was slow on Tuesday.\nRegards\n");
        ImportResult r = importPaths(p);
        Diagnostic d = only(r.model());
        assertEquals(1, d.line());
        assertTrue(d.message().contains("not a format"), d.message());
        assertEquals("unknown", r.formats().get(p.toString()));
    }

    @Test
    void hugeLineIsReportedAndReadingGoesOn() throws IOException {
        String huge = "[3]\t\"H-0002c90300003000\"[1]\t\t# \"" + "x".repeat(70 * 1024) + "\" lid 12 4xHDR";
        String text = TOPO.replace("[39]", huge + "\n[39]"); // huge becomes line 12
        FabricModel m = importPaths(write("huge.txt", text)).model();
        Diagnostic d = only(m);
        assertEquals(12, d.line());
        assertTrue(d.message().contains("longer than"), d.message());
        assertEquals(4, m.cables().size(), "lines after the huge one are read");
        assertNull(m.node(0x0002c90300003000L));
    }

    @Test
    void nulBytesInsideOneLine() throws IOException {
        // past the first 64 KiB, which format detection looks at, NULs are reported line by line
        int cut = TOPO.indexOf("[39]");
        String padding = ("# padding" + " ".repeat(70) + "\n").repeat(1000); // lines 12..1011
        String text = TOPO.substring(0, cut) + padding + "[3]\t\"H-0002\0\0\0\"[1]\n" + TOPO.substring(cut);
        FabricModel m = importPaths(write("nul.txt", text)).model();
        Diagnostic d = only(m);
        assertEquals(1012, d.line());
        assertTrue(d.message().contains("binary"), d.message());
        assertEquals(4, m.cables().size(), "the port lines after it still belong to leaf-1");
    }

    @Test
    void badGuids() throws IOException {
        String text = TOPO
                + "\nSwitch\t36 \"S-0002c9020040zzzz\"\t\t# \"bad-hex\" enhanced port 0 lid 5 lmc 0\n"       // 15
                + "[1]\t\"S-0002c90200400100\"[9]\t\t# \"spine-1\" lid 3 4xHDR\n"                         // 16
                + "\nSwitch\t36 \"S-10002c90200400000\"\t\t# \"seventeen digits\" enhanced port 0 lid 6 lmc 0\n" // 18
                + "\nSwitch\t36 \"S-0002c90200400300\"\t\t# \"ok\" enhanced port 0 lid 7 lmc 0\n"          // 20
                + "[1]\t\"H-10002c90300009000\"[1]\t\t# \"bad peer\" lid 8 4xHDR\n"                        // 21
                + "[2]\t\"S-0002c90200400100\"[10]\t\t# \"spine-1\" lid 3 4xHDR\n";                        // 22
        FabricModel m = importPaths(write("guids.txt", text)).model();
        List<Diagnostic> ds = problems(m);
        assertEquals(List.of(15, 16, 18, 21), ds.stream().map(Diagnostic::line).toList(), TestSupport.dump(ds));
        assertTrue(ds.get(2).message().contains("not a GUID"));
        assertNull(m.node(0x0002c90200400100L).port(9), "a bad node's port line is not put on the node above it");
        assertEquals(5, m.cables().size(), "4 before plus the good line after the bad ones");
        assertNotNull(m.node(0x0002c90200400300L).port(2).cable());
    }

    @Test
    void portLineBeforeAnyNode() throws IOException {
        String text = "[1]\t\"S-0002c90200400100\"[1]\t\t# \"spine-1\" lid 3 4xHDR\n" + TOPO;
        FabricModel m = importPaths(write("orphan.txt", text)).model();
        Diagnostic d = only(m);
        assertEquals(1, d.line());
        assertTrue(d.message().contains("outside a node"), d.message());
        assertEquals(4, m.cables().size());
    }

    @Test
    void unknownRateToken() throws IOException {
        FabricModel m = importPaths(write("rate.txt", TOPO.replace("lid 11 4xHDR", "lid 11 4xGDR"))).model();
        Diagnostic d = only(m);
        assertEquals(11, d.line());
        assertTrue(d.message().contains("4xGDR"), d.message());
        assertEquals(4, m.cables().size());
    }

    @Test
    void manyBadLinesAreCappedWithACount() throws IOException {
        // garbage past the 64 lines format detection reads (lines 14..73 are comments)
        StringBuilder sb = new StringBuilder(TOPO);
        sb.append("# more\n".repeat(60));
        for (int i = 0; i < 80; i++) {
            sb.append("garbage line ").append(i).append('\n');
        }
        FabricModel m = importPaths(write("noisy.txt", sb.toString())).model();
        List<Diagnostic> ds = problems(m);
        assertEquals(51, ds.size());
        assertTrue(ds.get(50).message().startsWith("30 more lines"), ds.get(50).message());
        assertEquals(74, ds.get(0).line());
        assertEquals(4, m.cables().size());
    }

    @Test
    void mostlyGarbageIsNotReadAsADump() throws IOException {
        StringBuilder sb = new StringBuilder(TOPO);
        for (int i = 0; i < 80; i++) {
            sb.append("garbage line ").append(i).append('\n');
        }
        Path p = write("noisy.txt", sb.toString());
        ImportResult r = importPaths(p);
        assertEquals("unknown", r.formats().get(p.toString()), "tool lines must outnumber the rest in the head");
        Diagnostic d = only(r.model());
        assertEquals(1, d.line());
    }

    @Test
    void missingEmptyAndFolderPathsDoNotThrow() throws IOException {
        Path empty = write("empty.txt", new byte[0]);
        Path missing = dir.resolve("does-not-exist.txt");
        Path sub = Files.createDirectories(dir.resolve("sub"));
        write("sub/topo.txt", TOPO);
        ImportResult r = importPaths(empty, missing, sub);
        List<Diagnostic> ds = problems(r.model());
        assertEquals(2, ds.size(), TestSupport.dump(ds));
        assertTrue(ds.stream().anyMatch(d -> d.source().equals(missing.toString())));
        assertTrue(ds.stream().anyMatch(d -> d.source().equals(empty.toString())));
        assertEquals(4, r.model().cables().size());
    }

    @Test
    void invalidUtf8IsReadAsReplacementCharacters() throws IOException {
        byte[] text = TOPO.replace("node-02", "node-\u00e9").getBytes(StandardCharsets.ISO_8859_1);
        FabricModel m = importPaths(write("latin1.txt", text)).model();
        assertEquals(List.of(), problems(m));
        assertEquals("node-\ufffd mlx5_0", m.node(0x0002c90300002000L).description());
    }
}
