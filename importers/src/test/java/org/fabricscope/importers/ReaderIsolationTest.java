package org.fabricscope.importers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import org.fabricscope.importers.core.Cancellation;
import org.fabricscope.importers.core.FormatReader;
import org.fabricscope.importers.core.Head;
import org.fabricscope.importers.core.ImportCancelledException;
import org.fabricscope.importers.core.ImportPhase;
import org.fabricscope.importers.core.ImportSource;
import org.fabricscope.importers.core.ReadContext;
import org.fabricscope.importers.core.TextLines;
import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.FabricModel;
import org.fabricscope.model.fabric.NodeKind;
import org.fabricscope.model.core.Severity;
import org.fabricscope.model.training.Rank;
import org.junit.jupiter.api.Test;

/**
 * A reader that fails unexpectedly stops only its own file: the failure becomes an error naming the
 * file and the line reached, and what that file gave before, and every other file, is kept.
 */
class ReaderIsolationTest {
    static final long SW1 = 0x0002c90200400000L;
    static final long SW2 = 0x0002c90200400100L;
    static final long CA1 = 0x0002c90300001000L;

    /** Two switches cabled twice, one HCA (as ibnetdiscover prints them). */
    static final String TOPO = """
            vendid=0x2c9
            devid=0xd2f0
            switchguid=0x2c90200400000(2c90200400000)
            Switch\t41 "S-0002c90200400000"\t\t# "leaf-1" enhanced port 0 lid 2 lmc 0
            [1]\t"H-0002c90300001000"[1](2c90300001001) \t\t# "node-01 mlx5_0" lid 10 4xHDR
            [39]\t"S-0002c90200400100"[1]\t\t# "spine-1" lid 3 4xHDR

            vendid=0x2c9
            devid=0xcb20
            switchguid=0x2c90200400100(2c90200400100)
            Switch\t36 "S-0002c90200400100"\t\t# "spine-1" base port 0 lid 3 lmc 0
            [1]\t"S-0002c90200400000"[39]\t\t# "leaf-1" lid 2 4xHDR

            vendid=0x2c9
            devid=0x101b
            caguid=0x2c90300001000
            Ca\t1 "H-0002c90300001000"\t\t# "node-01 mlx5_0"
            [1](2c90300001001) \t"S-0002c90200400000"[1]\t\t# lid 10 lmc 0 "leaf-1" lid 2 4xHDR
            """;
    /**
     * Claims files starting with {@code BOOM}; each line after it adds a switch whose GUID is the
     * line's number, until the line {@code fail} throws what {@code failure} makes.
     */
    record Boom(Supplier<? extends Throwable> failure) implements FormatReader {
        @Override
        public String id() {
            return "boom";
        }

        @Override
        public String label() {
            return "boom test format";
        }

        @Override
        public ImportPhase phase() {
            return ImportPhase.TOPOLOGY;
        }

        @Override
        public int confidence(Head head) {
            return head.lines().get(0).equals("BOOM") ? CERTAIN : NONE;
        }

        @Override
        public void read(InputStream in, ReadContext ctx) throws IOException {
            TextLines lines = ctx.lines(in);
            String l;
            while ((l = lines.next()) != null) {
                if (l.equals("fail")) {
                    Throwable t = failure.get();
                    if (t instanceof RuntimeException r) {
                        throw r;
                    }
                    throw (Error) t;
                }
                if (!l.equals("BOOM")) {
                    ctx.builder().node(0x1000 + lines.lineNumber(), NodeKind.SWITCH);
                }
            }
        }
    }

    private static ImportResult importWith(Supplier<? extends Throwable> failure, ImportSource... sources) {
        List<FormatReader> readers = new ArrayList<>(FormatRegistry.standard().readers());
        readers.add(new Boom(failure));
        return new FabricImporter(FormatRegistry.of(readers)).importSources(List.of(sources), new ArrayList<>(),
                ImportProgress.NONE, Cancellation.NEVER);
    }

    private static List<Diagnostic> errors(FabricModel m) {
        return m.diagnostics().stream().filter(d -> d.severity() == Severity.ERROR).toList();
    }

    @Test
    void readerThatThrowsMidFileKeepsWhatItReadAndTheOtherFiles() {
        ImportResult r = importWith(() -> new IllegalStateException("org.example.Secret went wrong"),
                TestSupport.source("boom.txt", "BOOM\na\nb\nfail\nc\n"),
                TestSupport.source("topo.txt", TOPO));
        FabricModel m = r.model();
        assertEquals(List.of(Diagnostic.error("boom.txt", 4,
                "internal error reading this file at line 4 (unexpected value); stopped there, kept what was read before")),
                errors(m));
        assertNotNull(m.node(0x1002), "line 2, read before the failure, is kept");
        assertNotNull(m.node(0x1003), "line 3, read before the failure, is kept");
        assertEquals(null, m.node(0x1005), "nothing after the failure");
        assertNotNull(m.node(SW1), "the other file is read");
        assertEquals(2, m.nodes().stream().filter(n -> n.guid() < 0x2000).count(), "boom's two switches, no more");
        assertEquals(3, m.nodes().stream().filter(n -> n.guid() >= 0x2000).count(), "the topology's three nodes");
        assertEquals("boom", r.formats().get("boom.txt"));
        assertEquals(List.of("boom.txt", "topo.txt"), r.sources());
        assertTrue(r.readAnything());
        assertEquals(0, m.diagnostics().stream().filter(d -> d.severity() == Severity.WARNING).count(),
                m.diagnostics().toString());
    }

    @Test
    void errorsOtherThanMemoryAndStackAreContainedToo() {
        ImportResult r = importWith(() -> new AssertionError("broken invariant"),
                TestSupport.source("boom.txt", "BOOM\nfail\n"),
                TestSupport.source("topo.txt", TOPO));
        assertEquals(List.of(Diagnostic.error("boom.txt", 2,
                "internal error reading this file at line 2 (assertion failed); stopped there, kept what was read before")),
                errors(r.model()));
        assertNotNull(r.model().node(SW1));
    }

    @Test
    void cancellationAndABrokenJvmStillPropagate() {
        // running out of memory on one file is that file's failure now (ReaderGuardTest); a VM error that is
        // not about the input still ends the import
        ImportSource boom = TestSupport.source("boom.txt", "BOOM\nfail\n");
        assertThrows(ImportCancelledException.class, () -> importWith(ImportCancelledException::new, boom));
        assertThrows(InternalError.class, () -> importWith(() -> new InternalError("test"), boom));
    }

    @Test
    void aStackOverflowIsOneFileNestedTooDeeply() {
        ImportResult r = importWith(StackOverflowError::new, TestSupport.source("boom.txt", "BOOM\nfail\n"),
                TestSupport.source("topo.txt", TOPO));
        assertEquals(List.of(Diagnostic.error("boom.txt", 2,
                "internal error reading this file at line 2 (input nested too deeply); stopped there, kept what was read before")),
                errors(r.model()));
        assertNotNull(r.model().node(SW1));
    }

    /** Reads its stream whole (no tracked lines), says it reached line {@code at} when that is positive, then fails. */
    record NoLines(int at) implements FormatReader {
        @Override
        public String id() {
            return "nolines";
        }

        @Override
        public String label() {
            return "no lines";
        }

        @Override
        public int confidence(Head head) {
            return head.lines().get(0).equals("NOLINES") ? CERTAIN : NONE;
        }

        @Override
        public ImportPhase phase() {
            return ImportPhase.COUNTERS;
        }

        @Override
        public void read(InputStream in, ReadContext ctx) throws IOException {
            in.readAllBytes();
            if (at > 0) {
                ctx.at(at);
            }
            throw new ArrayIndexOutOfBoundsException(7);
        }
    }

    private static List<Diagnostic> readNoLines(int at) {
        List<FormatReader> readers = new ArrayList<>(FormatRegistry.standard().readers());
        readers.add(new NoLines(at));
        ImportResult r = new FabricImporter(FormatRegistry.of(readers)).importSources(
                List.of(TestSupport.source("x.txt", "NOLINES\n1\n")), new ArrayList<>(), ImportProgress.NONE,
                Cancellation.NEVER);
        return errors(r.model());
    }

    @Test
    void failureWithoutTrackedLinesNamesTheFileAndTheLineTheReaderTold() {
        assertEquals(List.of(Diagnostic.error("x.txt", 0,
                "internal error reading this file (index out of range); stopped there, kept what was read before")),
                readNoLines(0));
        assertEquals(List.of(Diagnostic.error("x.txt", 2,
                "internal error reading this file at line 2 (index out of range); stopped there, kept what was read before")),
                readNoLines(2));
    }

    @Test
    void detectionThatThrowsSkipsTheFileWithAnError() {
        FormatReader broken = new FormatReader() {
            @Override
            public String id() {
                return "broken";
            }

            @Override
            public String label() {
                return "broken";
            }

            @Override
            public int confidence(Head head) {
                if (head.lines().get(0).equals("CRASH")) {
                    throw new NullPointerException();
                }
                return NONE;
            }

            @Override
            public ImportPhase phase() {
                return ImportPhase.COUNTERS;
            }

            @Override
            public void read(InputStream in, ReadContext ctx) {
            }
        };
        List<FormatReader> readers = new ArrayList<>(FormatRegistry.standard().readers());
        readers.add(broken);
        ImportResult r = new FabricImporter(FormatRegistry.of(readers)).importSources(List.of(
                TestSupport.source("crash.txt", "CRASH\n"), TestSupport.source("topo.txt", TOPO)),
                new ArrayList<>(), ImportProgress.NONE, Cancellation.NEVER);
        assertEquals(List.of(Diagnostic.error("crash.txt", 0, "internal error telling this file's format (missing value); "
                + "skipped")), r.model().diagnostics().stream().filter(d -> d.source().equals("crash.txt")).toList(),
                "one diagnostic, not also an unknown-format one");
        assertEquals(null, r.formats().get("crash.txt"));
        assertTrue(r.formats().containsKey("crash.txt"));
        assertNotNull(r.model().node(SW1));
    }

    /**
     * A real case: an NCCL {@code Init COMPLETE} line whose rank does not fit 32 bits stops the log's
     * parser; the ranks and channels of the lines before it and the ibnetdiscover file read with it
     * are kept.
     */
    @Test
    void ncclLogWithARankBeyond32BitsKeepsTheFabricAndTheRanksBefore() {
        String log = """
                gpu-a:500:500 [0] NCCL INFO NCCL version 2.18.3+cuda12.2
                gpu-a:500:500 [0] NCCL INFO comm 0x8ec0ac0 rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 1b000 commId 0x49bbd7790311d5eb - Init COMPLETE
                gpu-a:502:502 [2] NCCL INFO Channel 00 : 1[5d000] -> 0[1b000] via P2P/IPC/read
                gpu-a:501:501 [1] NCCL INFO comm 0x8ed0ac0 rank 99999999999 nranks 2 cudaDev 1 nvmlDev 1 busId 3d000 commId 0x49bbd7790311d5eb - Init COMPLETE
                gpu-a:502:502 [2] NCCL INFO comm 0x8ee0ac0 rank 1 nranks 2 cudaDev 2 nvmlDev 2 busId 5d000 commId 0x49bbd7790311d5eb - Init COMPLETE
                """;
        ImportResult r = TestSupport.importTexts("worker-0.log", log, "topo.txt", TOPO);
        assertEquals("nccl-log", r.formats().get("worker-0.log"));
        assertEquals("ibnetdiscover", r.formats().get("topo.txt"));
        FabricModel m = r.model();
        assertNotNull(m.node(SW1));
        assertNotNull(m.node(SW2));
        assertNotNull(m.node(CA1));
        // The reader range-checks the rank now: the line is skipped with a warning naming the field, and
        // the rest of the file is read (before, the exception ended the file there and the guard reported it).
        assertEquals(List.of(), errors(m));
        List<Diagnostic> warnings = m.diagnostics().stream().filter(d -> d.severity() == Severity.WARNING).toList();
        assertEquals(1, warnings.size(), warnings.toString());
        assertEquals("worker-0.log", warnings.get(0).source());
        assertEquals(4, warnings.get(0).line());
        assertTrue(warnings.get(0).message().contains("99999999999") && warnings.get(0).message().contains("out of range"),
                warnings.get(0).message());
        assertFalse(warnings.get(0).message().contains("Exception"));
        List<Rank> ranks = m.trainingLog().ranks();
        assertEquals(List.of(0, 1), ranks.stream().map(Rank::rank).toList(), ranks.toString());
        assertEquals(1, m.trainingLog().channels().size());
    }
}
