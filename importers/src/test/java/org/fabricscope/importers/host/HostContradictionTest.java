package org.fabricscope.importers.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.fabricscope.importers.TestSupport;
import org.fabricscope.model.FabricModel;
import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.evidence.HostEvidence;
import org.junit.jupiter.api.Test;

/**
 * A host's limits given twice with different values (two {@code max locked memory} lines in one
 * {@code ulimit -a}, two files about one host) are a warning naming both with file and line, and the
 * later one read is used; numbers past their range in host evidence skip their line with a diagnostic.
 */
class HostContradictionTest {
    private static final String ULIMIT_64 = "max locked memory       (kbytes, -l) 64\n";
    private static final String ULIMIT_UNLIMITED = "max locked memory       (kbytes, -l) unlimited\n";

    private static List<Diagnostic> warnings(FabricModel m) {
        return m.diagnostics().stream().filter(d -> d.message().startsWith("two ")).toList();
    }

    @Test
    void twoLockedMemoryLinesInOneFileAreAContradictionAndTheLaterIsUsed() {
        FabricModel m = TestSupport.importTexts("dgx-01/ulimit.txt", "core file size          (blocks, -c) 0\n"
                + ULIMIT_64 + "open files                      (-n) 1024\n" + ULIMIT_UNLIMITED).model();
        List<Diagnostic> w = warnings(m);
        assertEquals(1, w.size(), m.diagnostics().toString());
        assertEquals("dgx-01/ulimit.txt", w.get(0).source());
        assertEquals(4, w.get(0).line());
        assertEquals("two locked-memory limits for dgx-01: 64 kB (dgx-01/ulimit.txt:2) and unlimited "
                + "(dgx-01/ulimit.txt:4); the later one read, unlimited, is used", w.get(0).message());
        HostEvidence h = m.hostEvidence("dgx-01");
        assertTrue(h.memlock().unlimited());
    }

    @Test
    void twoFilesAboutOneHostAreAContradictionNamingBoth() {
        FabricModel m = TestSupport.importTexts("dgx-01/ulimit-a.txt", ULIMIT_UNLIMITED, "dgx-01/ulimit-l.txt",
                "$ ulimit -l\n64\n", "dgx-01/df.txt", "Filesystem      Size  Used Avail Use% Mounted on\n"
                        + "shm              64M     0   64M   0% /dev/shm\n", "dgx-01/df-2.txt",
                "Filesystem      Size  Used Avail Use% Mounted on\nshm              16G     0   16G   0% /dev/shm\n").model();
        List<Diagnostic> w = warnings(m);
        assertEquals(2, w.size(), m.diagnostics().toString());
        assertTrue(w.get(0).message().contains("unlimited (dgx-01/ulimit-a.txt:1) and 64 kB (dgx-01/ulimit-l.txt:2)"),
                w.toString());
        assertTrue(w.get(1).message().contains("two /dev/shm sizes for dgx-01: 64M (dgx-01/df.txt:2) and 16G "
                + "(dgx-01/df-2.txt:2); the later one read, 16G, is used"), w.toString());
        HostEvidence h = m.hostEvidence("dgx-01");
        assertFalse(h.memlock().unlimited());
        assertEquals(64, h.memlock().kbytes());
        assertEquals("16G", h.shm().size());
    }

    @Test
    void theSameValueTwiceIsNoContradiction() {
        FabricModel m = TestSupport.importTexts("dgx-01/ulimit.txt", ULIMIT_64 + ULIMIT_64, "dgx-01/ulimit-2.txt",
                ULIMIT_64).model();
        assertEquals(List.of(), warnings(m));
        assertEquals(64, m.hostEvidence("dgx-01").memlock().kbytes());
    }

    @Test
    void hostNumbersPastTheirRangeSkipTheirLineWithADiagnostic() {
        FabricModel m = TestSupport.importTexts("dgx-01/ulimit.txt", "max locked memory       (kbytes, -l) "
                + "99999999999999999999\n" + ULIMIT_64).model();
        String d = TestSupport.dump(m.diagnostics());
        assertTrue(d.contains("locked-memory limit (kbytes) 99999999999999999999 is out of range"), d);
        assertTrue(m.diagnostics().stream().anyMatch(x -> x.line() == 1 && x.message().contains("line skipped")), d);
        assertEquals(64, m.hostEvidence("dgx-01").memlock().kbytes(), "the good line is kept, nothing saturated");

        m = TestSupport.importTexts("dgx-01/ibstat.txt", "CA 'mlx5_0'\n\tPort 300:\n\t\tState: Active\n"
                + "\tPort 1:\n\t\tState: Active\n\t\tBase lid: 70000\n").model();
        d = TestSupport.dump(m.diagnostics());
        assertTrue(d.contains("port 300 is out of range (0..255)"), d);
        assertTrue(d.contains("LID 70000 is out of range (0..65535)"), d);

        m = TestSupport.importTexts("dgx-01/df.txt", "Filesystem      Size  Used Avail Use% Mounted on\n"
                + "shm 999999999999999E 0 0 0% /dev/shm\n").model();
        d = TestSupport.dump(m.diagnostics());
        assertTrue(d.contains("/dev/shm size 999999999999999E is out of range"), d);
    }
}
