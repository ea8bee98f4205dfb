package org.fabricscope.importers.forensics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;

import org.fabricscope.model.FabricModel;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.core.Severity;
import org.fabricscope.model.core.Subject;
import org.fabricscope.model.forensics.FlightRecorderAnalysis;
import org.fabricscope.model.forensics.FlightRecorderDump;
import org.fabricscope.model.forensics.FrEntry;
import org.fabricscope.model.forensics.FrMismatch;
import org.fabricscope.model.forensics.ProcessGroupProgress;
import org.junit.jupiter.api.Test;

/**
 * Flight recorder dumps, pickle and JSON: the real captures of a hang, a silent size mismatch and the
 * timing variant (PyTorch 2.11, NCCL 2.28.9), NVIDIA/nvidia-resiliency-ext's 16-rank traces (format
 * 2.9) against that project's reference answers, and hostile dumps.
 */
class ForensicsFlightRecorderTest {
    @Test
    void realHangPicklesNameTheRankThatNeverJoined() {
        assumeTrue(Files.isDirectory(ForensicsFixtures.CAPTURES), "captures not present");
        FabricModel m = ForensicsFixtures.load(ForensicsFixtures.CAPTURES.resolve("hang/fr"));
        List<FlightRecorderDump> dumps = m.forensics().flightRecorder();
        assertEquals(2, dumps.size(), ForensicsFixtures.diagnostics(m));
        FlightRecorderDump r0 = dumps.stream().filter(d -> d.rank() == 0).findFirst().orElseThrow();
        assertEquals("2.10", r0.version());
        assertEquals("2.28.9", r0.commLibVersion());
        assertEquals(List.of(0, 1), r0.processGroups().get("0").ranks());
        assertEquals("default_pg", r0.processGroups().get("0").desc());
        assertEquals(4, r0.pgStatus().get("0").lastEnqueued());
        assertEquals(3, r0.pgStatus().get("0").lastCompleted());
        FrEntry last = r0.entries().get(r0.entries().size() - 1);
        assertEquals("nccl:all_reduce", last.profilingName());
        assertEquals(4, last.collectiveSeqId());
        assertEquals("scheduled", last.state());
        assertEquals(List.of(List.of(16777216L)), last.inputSizes());
        assertEquals(30000, last.timeoutMs());
        assertTrue(last.frames().get(0).startsWith("all_reduce "), last.frames().toString());
        FrEntry send = r0.entries().stream().filter(FrEntry::p2p).findFirst().orElseThrow();
        assertEquals("nccl:send 0->1", send.profilingName());

        ProcessGroupProgress pg0 = FlightRecorderAnalysis.progress(dumps).get(0);
        assertEquals("0", pg0.name());
        assertTrue(pg0.hangs());
        assertEquals(List.of(1), pg0.behind().stream().map(r -> r.rank()).toList());
        assertEquals(4, pg0.maxEnqueued());

        List<Finding> hang = ForensicsFixtures.findings(m, "collective-hang");
        assertEquals(1, hang.size());
        Finding f = hang.get(0);
        assertEquals(Severity.ERROR, f.severity());
        assertTrue(f.title().startsWith("Process group 0 (default_pg) hangs in all_reduce (seq 4): rank 1 never joined it"),
                f.title());
        Subject.CommRef comm = (Subject.CommRef) f.refs().get(0);
        assertEquals("0", comm.commId());
        assertEquals("all_reduce", comm.collective());
        assertEquals(4, comm.seq());
        assertEquals(1, ((Subject.RankRef) f.refs().get(1)).rank());
        assertTrue(ForensicsFixtures.findings(m, "collective-mismatch").isEmpty());
    }

    /** Process group members are parsed once per text in an import; a text that warned warns for every dump. */
    @Test
    void membersTextsAreParsedOnceAndBadOnesWarnEveryTime() throws Exception {
        FlightRecorderReader reader = new FlightRecorderReader(new SharedValues());
        org.fabricscope.model.FabricModelBuilder b = new org.fabricscope.model.FabricModelBuilder();
        for (int r = 0; r < 4; r++) {
            String ranks = r < 2 ? "[0, 1, 2, 3]" : "[0, one]";
            String json = "{\"version\": \"2.10\", \"pg_config\": {\"0\": {\"name\": \"0\", \"desc\": \"default_pg\", "
                    + "\"ranks\": \"" + ranks + "\"}}, \"entries\": [{\"process_group\": [\"0\", \"default_pg\"], "
                    + "\"collective_seq_id\": 1, \"profiling_name\": \"nccl:all_reduce\", \"state\": \"completed\"}]}";
            reader.read(new java.io.ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8)), "nccl_trace_rank_" + r, b,
                    org.fabricscope.importers.core.Cancellation.NEVER);
        }
        FabricModel m = b.build();
        List<FlightRecorderDump> dumps = m.forensics().flightRecorder();
        assertEquals(List.of(0, 1, 2, 3), dumps.get(0).processGroups().get("0").ranks());
        assertTrue(dumps.get(0).processGroups().get("0").ranks() == dumps.get(1).processGroups().get("0").ranks());
        assertEquals(List.of(), dumps.get(2).processGroups().get("0").ranks());
        assertEquals(2, m.diagnostics().stream().filter(d -> d.message().contains("are not a list of numbers")).count(),
                m.diagnostics().toString());
    }

    @Test
    void realHangJsonDumpsReadTheSameAsThePickles() {
        assumeTrue(Files.isDirectory(ForensicsFixtures.CAPTURES), "captures not present");
        var dir = ForensicsFixtures.CAPTURES.resolve("hang-timing");
        FabricModel json = ForensicsFixtures.load(dir.resolve("fr_in-flight_rank0.json"), dir.resolve("fr_before-stall_rank1.json"));
        FabricModel pkl = ForensicsFixtures.load(dir.resolve("fr_in-flight_rank0.pkl"), dir.resolve("fr_before-stall_rank1.pkl"));
        assertEquals("", ForensicsFixtures.diagnostics(json));
        for (FabricModel m : List.of(json, pkl)) {
            FlightRecorderDump r0 = m.forensics().flightRecorder().stream().filter(d -> d.rank() == 0).findFirst().orElseThrow();
            FrEntry last = r0.entries().get(r0.entries().size() - 1);
            assertEquals("started", last.state()); // TORCH_NCCL_ENABLE_TIMING=1
            assertTrue(last.startedNs() > 0);
            assertEquals(4, r0.pgStatus().get("0").lastStarted()); // JSON writes these as strings
        }
        assertEquals(ForensicsFixtures.findings(pkl, "collective-hang").get(0).title(),
                ForensicsFixtures.findings(json, "collective-hang").get(0).title());
    }

    @Test
    void realSilentSizeMismatchIsFound() {
        assumeTrue(Files.isDirectory(ForensicsFixtures.CAPTURES), "captures not present");
        var dir = ForensicsFixtures.CAPTURES.resolve("mismatch");
        FabricModel m = ForensicsFixtures.load(dir.resolve("fr_end_rank0.pkl"), dir.resolve("fr_end_rank1.pkl"),
                dir.resolve("fr_in-flight_rank0.pkl"));
        List<FrMismatch> mm = FlightRecorderAnalysis.mismatches(m.forensics().flightRecorder());
        assertEquals(1, mm.size());
        assertEquals(4, mm.get(0).seq());
        assertEquals("size", mm.get(0).what());
        assertEquals(List.of(), mm.get(0).culprits()); // two ranks: no majority
        Finding f = ForensicsFixtures.findings(m, "collective-mismatch").get(0);
        assertTrue(f.title().contains("rank 0 nccl:all_reduce [[16777216]] Float, rank 1 nccl:all_reduce [[8388608]] Float"),
                f.title());
        // the job completed: no hang
        assertTrue(ForensicsFixtures.findings(m, "collective-hang").isEmpty());
    }

    @Test
    void nvidiaResiliencyExtGpuErrorTraceNamesRank12InGroup74() {
        FabricModel m = ForensicsFixtures.load(ForensicsFixtures.resource("nvrx/gpu_error_1st"));
        assertEquals(16, m.forensics().flightRecorder().size());
        ProcessGroupProgress pg74 = FlightRecorderAnalysis.progress(m.forensics().flightRecorder()).stream()
                .filter(p -> p.name().equals("74")).findFirst().orElseThrow();
        assertEquals("EXPERT_MODEL_PARALLEL_GROUP", pg74.desc());
        assertEquals(List.of(12, 13, 14, 15), pg74.members());
        assertTrue(pg74.hangs());
        assertEquals(List.of(12), pg74.behind().stream().map(r -> r.rank()).toList());
        Finding f = ForensicsFixtures.findings(m, "collective-hang").stream()
                .filter(x -> ((Subject.CommRef) x.refs().get(0)).commId().equals("74")).findFirst().orElseThrow();
        assertEquals("all_to_all", ((Subject.CommRef) f.refs().get(0)).collective());
        assertEquals(20537, ((Subject.CommRef) f.refs().get(0)).seq());
        assertTrue(f.title().contains("rank 12 never joined it (last enqueued 20536, completed 20529)"), f.title());
        // every hang this trace shows has rank 12 behind (the injected GPU error); no other rank is blamed
        for (Finding h : ForensicsFixtures.findings(m, "collective-hang")) {
            assertEquals(List.of(12), h.refs().stream().filter(r -> r instanceof Subject.RankRef)
                    .map(r -> ((Subject.RankRef) r).rank()).toList(), h.title());
        }
        // all-to-all splits differ between ranks legitimately: no mismatch from that
        assertTrue(ForensicsFixtures.findings(m, "collective-mismatch").isEmpty(),
                ForensicsFixtures.findings(m, "collective-mismatch").toString());
    }

    @Test
    void nvidiaResiliencyExtGilLockTraceNamesRanks9And14InGroup72() {
        FabricModel m = ForensicsFixtures.load(ForensicsFixtures.resource("nvrx/lock_gil_1st"));
        ProcessGroupProgress pg72 = FlightRecorderAnalysis.progress(m.forensics().flightRecorder()).stream()
                .filter(p -> p.name().equals("72")).findFirst().orElseThrow();
        assertEquals(List.of(9, 14), pg72.behind().stream().map(r -> r.rank()).toList());
        // their dumps hold no entries at all: their pg_status cannot be tied to group 72
        assertTrue(pg72.ranks().get(9).noRecord());
        Finding f = ForensicsFixtures.findings(m, "collective-hang").stream()
                .filter(x -> ((Subject.CommRef) x.refs().get(0)).commId().equals("72")).findFirst().orElseThrow();
        assertTrue(f.title().contains("ranks 9, 14 never joined it"), f.title());
        assertTrue(f.title().contains("no record of this group in its dump"), f.title());
    }

    @Test
    void pythonPickledDumpWithFramesAndMemoIsRead() {
        FabricModel m = ForensicsFixtures.load(ForensicsFixtures.resource("pickle/python-p4_rank_3"));
        FlightRecorderDump d = m.forensics().flightRecorder().get(0);
        assertEquals(3, d.rank());
        assertEquals(List.of("all_reduce train.py:17", "all_reduce train.py:17"), d.entries().get(0).frames());
        assertEquals(List.of(0, 1, 2, 3), d.processGroups().get("0").ranks());
    }

    @Test
    void rankComesFromTheFileNameAsFrTraceReadsIt() {
        assertEquals(0, FlightRecorderReader.rankOf("/tmp/nccl_trace_rank_0"));
        assertEquals(12, FlightRecorderReader.rankOf("traces/_dump_12"));
        assertEquals(1, FlightRecorderReader.rankOf("bundle.tar.gz!/fr/fr_in-flight_rank1.json"));
        assertEquals(7, FlightRecorderReader.rankOf("dump7.pkl"));
        assertEquals(-1, FlightRecorderReader.rankOf("trace.json"));
        assertEquals(-1, FlightRecorderReader.rankOf("rank_123456789012"));
    }

    @Test
    void aDumpThatAsksToRunCodeIsRefusedWithADiagnostic() {
        byte[] evil = {(byte) 0x80, 2, '}', 'X', 9, 0, 0, 0, 'p', 'g', '_', 'c', 'o', 'n', 'f', 'i', 'g', 'c', 'o', 's', '\n',
                's', 'y', 's', 't', 'e', 'm', '\n', 'N', 'R', 's', '.'};
        var model = importBytes("nccl_trace_rank_0", evil);
        assertTrue(model.forensics().flightRecorder().isEmpty());
        String d = ForensicsFixtures.diagnostics(model);
        assertTrue(d.contains("refused opcode GLOBAL") && d.contains("nothing was executed") && d.contains("error"), d);
    }

    @Test
    void brokenJsonAndWrongShapesAreDiagnosticsNotExceptions() {
        String[][] cases = {
                {"a_rank0.json", "{\"entries\": [ {\"profiling_name\": \"nccl:all_reduce\""},            // truncated
                {"b_rank0.json", "{\"entries\": 5, \"pg_config\": {}, \"profiling_name\": 1}"},          // entries not a list
                {"c_rank0.json", "{\"entries\": [1, \"x\", null, {}], \"pg_config\": {\"0\": {\"ranks\": \"[a, b]\"}}}"},
                {"d_rank0.json", "{\"entries\": [], \"pg_config\": {\"0\": {\"ranks\": \"" + "[" + "9".repeat(40) + "]\"}}}"},
                {"e.json", "{\"entries\": [], \"comm_lib_version\": \"2.28.9\"}"},                       // no rank in the name
        };
        for (String[] c : cases) {
            FabricModel m = importBytes(c[0], c[1].getBytes(StandardCharsets.UTF_8));
            String d = ForensicsFixtures.diagnostics(m);
            assertFalse(d.isEmpty(), c[0]);
        }
        String deep = "{\"entries\": " + "[".repeat(200) + "]".repeat(200) + ", \"pg_config\": {}}";
        FabricModel m = importBytes("deep_rank0.json", deep.getBytes(StandardCharsets.UTF_8));
        assertTrue(ForensicsFixtures.diagnostics(m).contains("not read"), ForensicsFixtures.diagnostics(m));
    }

    @Test
    void severalDumpsOfOneRankUseTheNewest() {
        assumeTrue(Files.isDirectory(ForensicsFixtures.CAPTURES), "captures not present");
        var dir = ForensicsFixtures.CAPTURES.resolve("mismatch");
        FabricModel m = ForensicsFixtures.load(dir.resolve("fr_in-flight_rank0.pkl"), dir.resolve("fr_end_rank0.pkl"));
        Map<Integer, FlightRecorderDump> byRank = FlightRecorderAnalysis.byRank(m.forensics().flightRecorder());
        assertTrue(byRank.get(0).source().endsWith("fr_end_rank0.pkl"));
    }

    private static FabricModel importBytes(String name, byte[] data) {
        var sources = List.of(new org.fabricscope.importers.core.ImportSource(name, data.length,
                () -> new java.io.ByteArrayInputStream(data), true));
        return new org.fabricscope.importers.FabricImporter().importSources(sources, new java.util.ArrayList<>(),
                org.fabricscope.importers.ImportProgress.NONE, org.fabricscope.importers.core.Cancellation.NEVER).model();
    }
}
