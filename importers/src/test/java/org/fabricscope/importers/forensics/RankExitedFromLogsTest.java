package org.fabricscope.importers.forensics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.fabricscope.importers.TestSupport;
import org.fabricscope.model.FabricModel;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.core.Subject;
import org.junit.jupiter.api.Test;

/** {@code rank-exited} from torchrun's failure summary, NCCL/PyTorch errors and Kubernetes events. */
class RankExitedFromLogsTest {
    private static final Path FAILURES = Path.of("..", "sample-fabrics", "gpu-captures", "h200x2-failures-nccl-2.28.9");

    private static String summary(String host, String rank, String exit) {
        return "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: \n"
                + "============================================================\n"
                + "train.py FAILED\n"
                + "------------------------------------------------------------\n"
                + "Failures:\n"
                + "  <NO_OTHER_FAILURES>\n"
                + "------------------------------------------------------------\n"
                + "Root Cause (first observed failure):\n"
                + "[0]:\n"
                + "  time      : 2026-11-23_09:29:54\n"
                + "  host      : " + host + "\n"
                + "  rank      : " + rank + " (local_rank: 1)\n"
                + "  exitcode  : " + exit + " (pid: 4242)\n"
                + "  error_file: <N/A>\n"
                + "  traceback : To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html\n"
                + "============================================================\n";
    }

    private static final String REPORTER_WARN =
            "node-a:100:200 [0] NCCL WARN NET/Socket : Connection closed by remote peer 10.0.0.2<43210>\n";

    private static boolean namesRank(Finding f, int rank) {
        return f.refs().stream().anyMatch(s -> s instanceof Subject.RankRef r && r.rank() == rank);
    }

    private static boolean namesHost(Finding f, String host) {
        return f.refs().stream().anyMatch(s -> s instanceof Subject.HostRef h && h.host().equals(host)
                || s instanceof Subject.RankRef r && r.host().equals(host));
    }

    @Test
    void realCaptureNamesTheKilledRankNotTheOneThatReportedIt() {
        Path dir = FAILURES.resolve("rank-killed");
        assumeTrue(Files.isDirectory(dir), "captures not present");
        FabricModel m = ForensicsFixtures.load(ForensicsFixtures.files(dir));
        List<Finding> exited = ForensicsFixtures.findings(m, "rank-exited");
        assertEquals(1, exited.size(), exited.toString());
        Finding f = exited.get(0);
        Subject.RankRef first = (Subject.RankRef) f.refs().get(0);
        assertEquals(1, first.rank());
        assertFalse(namesRank(f, 0), f.refs().toString()); // rank 0 got SIGTERM from torchrun and saw the closed connection
        assertTrue(f.title().contains("SIGKILL") && f.title().contains("rank 0 only reported the loss"), f.title());
        assertTrue(f.evidence().stream().anyMatch(e -> e.text().contains("Connection closed by localRank 1")), f.evidence().toString());
    }

    /** The capture's torchrun output beside a kernel log of its host (localhost) naming {@code pid}. */
    private static FabricModel killedWithKernelLog(Path tmp, long pid) throws java.io.IOException {
        Path dir = FAILURES.resolve("rank-killed");
        assumeTrue(Files.isDirectory(dir), "captures not present");
        Path kern = tmp.resolve("localhost").resolve("dmesg.txt");
        Files.createDirectories(kern.getParent());
        Files.writeString(kern, "[Mon Nov 23 09:29:53 2026] python invoked oom-killer: gfp_mask=0xcc0(GFP_KERNEL), order=0, oom_score_adj=0\n"
                + "[Mon Nov 23 09:29:53 2026] Memory cgroup out of memory: Killed process " + pid + " (python) total-vm:98442316kB, "
                + "anon-rss:66012344kB, file-rss:104884kB, shmem-rss:12288kB, UID:0 pgtables:131540kB oom_score_adj:0\n");
        List<Path> files = new java.util.ArrayList<>(ForensicsFixtures.files(dir));
        files.add(kern);
        return ForensicsFixtures.load(files);
    }

    @Test
    void aSigkillTheKernelLogNamesIsTheOomKillers(@org.junit.jupiter.api.io.TempDir Path tmp) throws java.io.IOException {
        Finding f = ForensicsFixtures.findings(killedWithKernelLog(tmp, 727), "rank-exited").get(0);
        assertTrue(f.title().contains("killed by the kernel's OOM killer (python (pid 727), over its memory cgroup's limit)"),
                f.title());
        assertTrue(f.evidence().stream().anyMatch(e -> e.source().endsWith("dmesg.txt") && e.line() == 2), f.evidence().toString());
        assertTrue(f.remedies().get(0).startsWith("The memory ran out: "), f.remedies().toString());
    }

    @Test
    void anotherPidsOomKillIsNotTheRanks(@org.junit.jupiter.api.io.TempDir Path tmp) throws java.io.IOException {
        Finding f = ForensicsFixtures.findings(killedWithKernelLog(tmp, 99_999), "rank-exited").get(0);
        assertFalse(f.title().contains("OOM killer"), f.title());
        assertTrue(f.remedies().get(0).startsWith("SIGKILL (exit code -9"), f.remedies().toString());
    }

    @Test
    void wrongIfnameCaptureIsASocketInterfaceMissingWithTheValue() {
        Path dir = FAILURES.resolve("wrong-ifname");
        assumeTrue(Files.isDirectory(dir), "captures not present");
        FabricModel m = ForensicsFixtures.load(ForensicsFixtures.files(dir));
        List<Finding> s = ForensicsFixtures.findings(m, "socket-interface-missing");
        assertEquals(1, s.size(), s.toString());
        assertTrue(s.get(0).title().contains("NCCL_SOCKET_IFNAME=net1"), s.get(0).title());
        assertTrue(ForensicsFixtures.findings(m, "rank-exited").isEmpty()); // exit code 1 and SIGTERM: nobody was killed
    }

    @Test
    void exitCode137IsSigkillAndTheReporterIsNoSubject() {
        FabricModel m = TestSupport.importTexts("torchrun.log", summary("node-b", "3", "137"),
                "node-a.log", REPORTER_WARN).model();
        List<Finding> exited = ForensicsFixtures.findings(m, "rank-exited");
        assertEquals(1, exited.size(), exited.toString());
        Finding f = exited.get(0);
        assertEquals(3, ((Subject.RankRef) f.refs().get(0)).rank());
        assertTrue(f.title().contains("exit code 137 (SIGKILL)"), f.title());
        assertFalse(namesHost(f, "node-a"), f.refs().toString());
        assertTrue(f.remedies().get(0).contains("OOM killer"), f.remedies().toString());
    }

    @Test
    void sigtermAndSigabrtAreNotDeaths() {
        FabricModel m = TestSupport.importTexts("torchrun.log", summary("node-b", "3", "-15")).model();
        assertTrue(ForensicsFixtures.findings(m, "rank-exited").isEmpty());
        m = TestSupport.importTexts("torchrun.log", summary("node-b", "3", "-6")).model();
        assertTrue(ForensicsFixtures.findings(m, "rank-exited").isEmpty());
    }

    @Test
    void oomKilledPodIsTheSubject() {
        String events = "NAMESPACE   LAST SEEN   TYPE      REASON      OBJECT               MESSAGE\n"
                + "ml          1m          Warning   OOMKilled   pod/llama-worker-1   Container pytorch was OOMKilled\n";
        FabricModel m = TestSupport.importTexts("events.txt", events).model();
        List<Finding> exited = ForensicsFixtures.findings(m, "rank-exited");
        assertEquals(1, exited.size(), exited.toString());
        Finding f = exited.get(0);
        assertTrue(f.refs().get(0) instanceof Subject.PodRef p && p.pod().equals("llama-worker-1"), f.refs().toString());
        assertTrue(f.title().contains("OOMKilled"), f.title());
    }

    @Test
    void remoteExitedWithoutASummaryNamesThePeer() {
        FabricModel m = TestSupport.importTexts("node-a.log", REPORTER_WARN).model();
        List<Finding> exited = ForensicsFixtures.findings(m, "rank-exited");
        assertEquals(1, exited.size(), exited.toString());
        Finding f = exited.get(0);
        assertTrue(namesHost(f, "10.0.0.2"), f.refs().toString());
        assertFalse(namesHost(f, "node-a"), f.refs().toString());
        assertTrue(f.title().contains("reported the loss"), f.title());
    }
}
