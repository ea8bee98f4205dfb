package org.fabricscope.importers.forensics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;

import org.fabricscope.importers.TestSupport;
import org.fabricscope.model.FabricModel;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.core.Severity;
import org.fabricscope.model.core.Subject;
import org.fabricscope.model.forensics.RasCommunicator;
import org.fabricscope.model.forensics.RasRank;
import org.fabricscope.model.forensics.RasStatus;
import org.junit.jupiter.api.Test;

/**
 * NCCL RAS output: the real text and JSON of a hung 2-rank job and of the same job after one rank was
 * killed (NCCL 2.28.9, with its malformed JSON and its self-contradicting verbose list kept as they
 * were), the samples of NCCL's own RAS documentation, and hostile variants.
 */
class ForensicsRasTest {
    @Test
    void realHungTextAndJsonAgree() {
        assumeTrue(Files.isDirectory(ForensicsFixtures.CAPTURES), "captures not present");
        var dir = ForensicsFixtures.CAPTURES.resolve("hang");
        for (String f : List.of("ras-status.txt", "ras-status-verbose.txt", "ras-status.json")) {
            FabricModel m = ForensicsFixtures.load(dir.resolve(f));
            assertEquals("", ForensicsFixtures.diagnostics(m), f);
            RasStatus s = m.forensics().ras().get(0);
            assertEquals("2.28.9", s.ncclVersion());
            RasCommunicator c = s.communicators().stream().filter(x -> x.hash().equals("0x808a2947fa58ab3b")).findFirst()
                    .orElseThrow();
            assertTrue(c.errors().contains("MISMATCH"), f + " " + c.errors());
            RasRank r1 = c.ranks().stream().filter(r -> r.rank() == 1).findFirst().orElseThrow();
            assertEquals(3L, r1.collectiveCounts().get("AllReduce"), f);
            assertEquals(1019, r1.pid());
            assertEquals("192.0.2.2", r1.host());
            assertEquals(1, r1.cudaDev());
            if (f.endsWith(".txt")) {
                assertEquals(2, s.gpus());
                assertEquals("#0-0", c.label());
            }
        }
    }

    @Test
    void realHungRasAloneIsAWarningNamingTheRankBehind() {
        assumeTrue(Files.isDirectory(ForensicsFixtures.CAPTURES), "captures not present");
        FabricModel m = ForensicsFixtures.load(ForensicsFixtures.CAPTURES.resolve("hang/ras-status.txt"));
        Finding f = ForensicsFixtures.findings(m, "collective-hang").get(0);
        assertEquals(Severity.WARNING, f.severity());
        assertTrue(f.title().contains("rank 1 has launched up to AllReduce operation 3, the others up to 4"), f.title());
        assertEquals(new Subject.CommRef("0x808a2947fa58ab3b", "AllReduce", 4, "communicator 0x808a2947fa58ab3b (#0-0) AllReduce operation 4"),
                f.refs().get(0));
    }

    @Test
    void realKilledRankIsMissingAndItsSelfContradictingListIsKeptOut() {
        assumeTrue(Files.isDirectory(ForensicsFixtures.CAPTURES), "captures not present");
        var dir = ForensicsFixtures.CAPTURES.resolve("ras-dead");
        FabricModel text = ForensicsFixtures.load(dir.resolve("ras-after-kill-verbose.txt"));
        RasStatus s = text.forensics().ras().get(0);
        RasCommunicator c0 = s.communicators().stream().filter(c -> c.hash().equals("0x374420825985ea13")).findFirst().orElseThrow();
        assertEquals(1, c0.missingRanks().size());
        assertEquals(2047, c0.missingRanks().get(0).pid());
        RasCommunicator c1 = s.communicators().stream().filter(c -> c.hash().equals("0x8dc1000200000001")).findFirst().orElseThrow();
        assertEquals(257, c1.missingCount());
        assertTrue(c1.missingRanks().isEmpty(), "the 257 'ranks' are bytes of RAS's own buffer");
        assertTrue(ForensicsFixtures.diagnostics(text).contains("contradicts itself"), ForensicsFixtures.diagnostics(text));
        assertEquals(List.of(2047), s.missingProcesses().stream().map(p -> p.pid()).toList());

        FabricModel json = ForensicsFixtures.load(dir.resolve("ras-after-kill.json"));
        String d = ForensicsFixtures.diagnostics(json);
        assertTrue(d.contains("malformed") && d.contains("2 commas missing"), d);
        RasStatus js = json.forensics().ras().get(0);
        assertEquals("2026-11-23 08:08:01", js.timestamp());
        RasRank missing = js.communicators().get(0).missingRanks().get(0);
        assertTrue(missing.unresponsive());
        assertFalse(missing.dead());

        FabricModel all = ForensicsFixtures.load(dir);
        List<Finding> exited = ForensicsFixtures.findings(all, "rank-exited");
        assertEquals(1, exited.size(), exited.toString());
        Finding f = exited.get(0);
        assertTrue(f.title().startsWith("Rank 1 (of communicators 0x374420825985ea13, 0x82d851ffc6343b6d) went away: "
                + "process 2047 on node 192.0.2.2 (GPU 1)"), f.title());
        // joined through the log prefix vm:2047 to the log's host
        Subject.RankRef r = (Subject.RankRef) f.refs().get(0);
        assertEquals("vm", r.host());
        assertEquals(1, r.rank());
    }

    @Test
    void documentationSamplesAreRead() {
        FabricModel normal = ForensicsFixtures.load(ForensicsFixtures.resource("ras-doc/normal.txt"));
        RasStatus n = normal.forensics().ras().get(0);
        assertEquals(4, n.nodes());
        assertEquals(32, n.processes());
        assertEquals(32, n.gpus());
        assertTrue(ForensicsFixtures.diagnose(normal).isEmpty());

        FabricModel mismatch = ForensicsFixtures.load(ForensicsFixtures.resource("ras-doc/mismatch.txt"));
        RasCommunicator c = mismatch.forensics().ras().get(0).communicators().get(0);
        assertEquals("0x27a079b828ff1a75", c.hash());
        assertEquals(List.of(26, 6), c.countGroups().stream().map(RasCommunicator.CountGroup::ranks).toList());
        assertEquals(List.of(0, 2, 3, 4, 5, 7), c.ranks().stream().map(RasRank::rank).toList());
        assertEquals(Map.of("collective", 6649L), c.ranks().get(0).collectiveCounts());
        Finding hang = ForensicsFixtures.findings(mismatch, "collective-hang").get(0);
        assertEquals(Severity.WARNING, hang.severity());
        assertTrue(hang.title().contains("ranks 0, 2-5, 7 have launched up to collective operation 6649, the others up to 6650"),
                hang.title());

        FabricModel fin = ForensicsFixtures.load(ForensicsFixtures.resource("ras-doc/finalize-mismatch.txt"));
        RasCommunicator fc = fin.forensics().ras().get(0).communicators().get(0);
        assertEquals("RUNNING", fc.ranks().stream().filter(r -> r.rank() == 0).findFirst().orElseThrow().status());
        assertEquals("FINALIZE", fc.ranks().stream().filter(r -> r.rank() == 20).findFirst().orElseThrow().status());
        assertTrue(ForensicsFixtures.findings(fin, "collective-hang").isEmpty());

        FabricModel incomplete = ForensicsFixtures.load(ForensicsFixtures.resource("ras-doc/incomplete.txt"));
        RasStatus is = incomplete.forensics().ras().get(0);
        assertEquals(2, is.timeouts());
        assertEquals(21, is.communicators().get(0).missingRanks().get(0).rank());
        List<Finding> gone = ForensicsFixtures.findings(incomplete, "rank-exited");
        assertEquals(2, gone.size(), gone.toString()); // the process (GPU 5 on .213) and rank 21: RAS does not tie them
        FabricModel dead = ForensicsFixtures.load(ForensicsFixtures.resource("ras-doc/dead.txt"));
        Finding d = ForensicsFixtures.findings(dead, "rank-exited").stream()
                .filter(x -> x.title().contains("3487984")).findFirst().orElseThrow();
        assertTrue(d.title().contains("is dead"), d.title());

        FabricModel json = ForensicsFixtures.load(ForensicsFixtures.resource("ras-doc/status.json"));
        assertEquals("", ForensicsFixtures.diagnostics(json));
        assertEquals(1524345, json.forensics().ras().get(0).communicators().get(0).missingRanks().get(0).pid());

        for (String mon : List.of("ras-doc/monitor.txt", "ras-doc/monitor.json")) {
            FabricModel m = ForensicsFixtures.load(ForensicsFixtures.resource(mon));
            assertEquals("PEER_DEAD", m.forensics().ras().get(0).events().get(0).event(), mon);
            Finding pd = ForensicsFixtures.findings(m, "rank-exited").get(0);
            assertTrue(pd.title().contains("rocess 1524345 on node 172.16.64.245 (GPU 1)") && pd.title().contains("dead"),
                    pd.title());
        }
    }

    @Test
    void severalTextReportsInOneFileAreSeveralStatuses() {
        assumeTrue(Files.isDirectory(ForensicsFixtures.CAPTURES), "captures not present");
        String a = read("hang/ras-status.txt");
        FabricModel m = TestSupport.importTexts("watch.log", a + "\n" + a).model();
        assertEquals(2, m.forensics().ras().size());
    }

    @Test
    void hostileTextIsBoundedAndDiagnosed() {
        String header = "NCCL version 2.28.9 compiled with CUDA 13.0\nCUDA runtime version 13000, driver version 13000\n\n"
                + "Job summary\n===========\n\n  Nodes  Processes         GPUs  Processes     GPUs\n"
                + "(total)   per node  per process    (total)  (total)\n      1          2            1          2        2\n\n"
                + "Errors\n======\n\n#0-0 (00000000000000ff) INCOMPLETE\n  Missing communicator data from 3 ranks\n";
        StringBuilder sb = new StringBuilder(header);
        sb.append("  Rank 99999999999 -- GPU x managed by process 1 on node h\n"); // does not parse as a rank line
        sb.append("  Rank -5 -- [process information not found]\n");
        sb.append("  Rank 1 -- [process information not found]\n");
        sb.append("  Rank 1 -- [process information not found]\n");
        sb.append("#garbage (zz) ???\n").append("x".repeat(100_000)).append('\n');
        FabricModel m = TestSupport.importTexts("ras.txt", sb.toString()).model();
        RasCommunicator c = m.forensics().ras().get(0).communicators().get(0);
        assertEquals("0xff", c.hash());
        assertTrue(c.missingRanks().isEmpty(), c.missingRanks().toString());
        assertTrue(ForensicsFixtures.diagnostics(m).contains("contradicts itself"));

        FabricModel broken = TestSupport.importTexts("ras.json", "{\"nccl_version\": \"2.29\", \"communicators\": [ {\"hash\": ").model();
        assertTrue(ForensicsFixtures.diagnostics(broken).contains("RAS JSON not read"), ForensicsFixtures.diagnostics(broken));
        assertTrue(broken.forensics().ras().isEmpty());
    }

    /**
     * Four pods whose ranks all have pid 88 (a PID namespace per pod): RAS names a process by node
     * address, pid and GPU, and the OOB address of each pod's NCCL log tells which pod it is.
     */
    @Test
    void rasProcessesJoinPodsThroughTheLogPrefixAndOobAddress() throws Exception {
        java.nio.file.Path logs = java.nio.file.Path.of(getClass().getResource("/logs/nccl-2.26-k8s").toURI());
        String ras = "NCCL version 2.28.9 compiled with CUDA 13.0\nCUDA runtime version 13000, driver version 13000\n\n"
                + "Job summary\n===========\n\n  Nodes  Processes         GPUs  Processes     GPUs\n"
                + "(total)   per node  per process    (total)  (total)\n      4          1            1          4        4\n\n"
                + "Errors\n======\n\nINCOMPLETE\n  Missing communicator data from 1 job process\n"
                + "  Process 88 on node 10.0.5.78 managing GPU 0\n\n"
                + "#0-0 (0000000000000777) INCOMPLETE\n  Missing communicator data from 1 rank\n"
                + "  Rank 1 -- GPU 0 managed by process 88 on node 10.0.5.78\n";
        java.nio.file.Path dir = java.nio.file.Files.createTempDirectory("ras-join");
        java.nio.file.Path file = dir.resolve("ras.txt");
        java.nio.file.Files.writeString(file, ras);
        FabricModel m = ForensicsFixtures.load(logs, file);
        Finding f = ForensicsFixtures.findings(m, "rank-exited").get(0);
        Subject.RankRef r = (Subject.RankRef) f.refs().get(0);
        assertEquals("llm-worker-2", r.host(), f.toString());
        assertTrue(f.title().contains("(host llm-worker-2)"), f.title());
        // by communicator hash and rank, when the hash is the log's commId
        java.nio.file.Files.writeString(file, ras.replace("0000000000000777", "2bd45f3c0e9a11aa"));
        Finding g = ForensicsFixtures.findings(ForensicsFixtures.load(logs, file), "rank-exited").get(0);
        assertEquals("llm-worker-1", ((Subject.RankRef) g.refs().get(0)).host(), g.toString());
    }

    private static String read(String rel) {
        return new String(ForensicsFixtures.bytes(ForensicsFixtures.CAPTURES.resolve(rel)), StandardCharsets.UTF_8);
    }
}
