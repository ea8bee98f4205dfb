package org.fabricscope.importers.logs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.fabricscope.importers.core.Cancellation;
import org.fabricscope.importers.core.TextLines;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.training.TrainingChecks;
import org.fabricscope.model.training.TrainingLog;
import org.fabricscope.model.training.TrainingLogBuilder;
import org.junit.jupiter.api.Test;

/** The training findings, each from log lines that should raise it, and none but the info that it needed no RDMA device from a healthy single-host job. */
class TrainingChecksTest {
    private static List<Finding> findings(String text) throws IOException {
        return TrainingChecks.run(parseLog(text));
    }

    private static TrainingLog parseLog(String text) throws IOException {
        TrainingLogBuilder log = new TrainingLogBuilder();
        new NcclLogParser(log, new ArrayList<>()).read(
                new TextLines(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8))), "job.log", Cancellation.NEVER);
        return log.build();
    }

    private static List<String> ids(List<Finding> f) {
        return f.stream().map(Finding::id).toList();
    }

    @Test
    void healthySingleHostJobRaisesNothing() throws IOException {
        TrainingLogBuilder log = new TrainingLogBuilder();
        NcclLogParser p = new NcclLogParser(log, new ArrayList<>());
        for (String n : List.of("normal/nccl.vm.640.log", "normal/nccl.vm.641.log")) {
            try (InputStream in = TrainingChecksTest.class.getResourceAsStream("/reference/nccl-logs/h200x2-nccl-2.28.9/" + n)) {
                p.read(new TextLines(in), n, Cancellation.NEVER);
            }
        }
        List<Finding> f = TrainingChecks.run(log.build());
        assertEquals(List.of("rdma-device-not-needed"), ids(f), "NVLink on one host; 'No device found.' is normal there");
        assertEquals(org.fabricscope.model.core.Severity.INFO, f.get(0).severity());
        assertTrue(f.get(0).title().contains("on vm, the job's only host"), f.get(0).title());
        assertTrue(f.get(0).evidence().get(0).text().endsWith("NET/IB : No device found."), f.get(0).evidence().toString());
    }

    @Test
    void noDeviceOnOneNodeIsAnErrorOnlyWhereItLeftNcclNoNetworkAndAWarningWhereRdmaWasAskedFor() throws IOException {
        List<Finding> forced = findings(String.join("\n",
                "vm:795:795 [0] NCCL INFO NET/IB : No device found.",
                "vm:795:795 [0] NCCL INFO Failed to initialize NET plugin IB",
                "vm:795:795 [0] plugin/net.cc:379 NCCL WARN Failed to initialize any NET plugin",
                "vm:796:796 [1] NCCL INFO NET/IB : No device found.",
                "vm:796:796 [1] NCCL INFO Failed to initialize NET plugin IB",
                "vm:796:796 [1] plugin/net.cc:379 NCCL WARN Failed to initialize any NET plugin"));
        assertEquals(List.of("rdma-device-missing"), ids(forced));
        assertEquals(org.fabricscope.model.core.Severity.ERROR, forced.get(0).severity());
        assertTrue(forced.get(0).title().contains("left with no network: 2 NCCL processes failed at init")
                && forced.get(0).title().contains("restricted to IB (NCCL_NET=IB)"), forced.get(0).title());
        assertEquals(List.of(1, 3, 4, 6), forced.get(0).evidence().stream().map(e -> e.line()).toList());

        List<Finding> asked = findings(String.join("\n",
                "vm:10:10 [0] NCCL INFO NCCL_IB_HCA set by environment to mlx5_bond_",
                "vm:10:10 [0] NCCL INFO NET/IB : No device found.",
                "vm:10:10 [0] NCCL INFO ncclCommInitRank comm 0x1 rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 1b000 commId 0xabc - Init COMPLETE",
                "vm:11:11 [1] NCCL INFO NCCL_IB_HCA set by environment to mlx5_bond_",
                "vm:11:11 [1] NCCL INFO NET/IB : No device found.",
                "vm:11:11 [1] NCCL INFO ncclCommInitRank comm 0x2 rank 1 nranks 2 cudaDev 1 nvmlDev 1 busId 2a000 commId 0xabc - Init COMPLETE",
                "vm:10:10 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/CUMEM"));
        assertEquals(List.of("rdma-device-missing"), ids(asked));
        assertEquals(org.fabricscope.model.core.Severity.WARNING, asked.get(0).severity());
        assertTrue(asked.get(0).title().contains("although NCCL_IB_HCA=mlx5_bond_") && asked.get(0).title().contains("did not need one"),
                asked.get(0).title());

        List<Finding> pod = TrainingChecks.run(parseLog(String.join("\n",
                "vm:10:10 [0] NCCL INFO NET/IB : No device found.",
                "vm:10:10 [0] NCCL INFO ncclCommInitRank comm 0x1 rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 1b000 commId 0xabc - Init COMPLETE")),
                TrainingChecks.RankPlaces.NONE, host -> host.equals("vm") ? "pod ml/vm requests an RDMA resource" : null);
        assertEquals(org.fabricscope.model.core.Severity.WARNING, pod.get(0).severity());
        assertTrue(pod.get(0).title().contains("although pod ml/vm requests an RDMA resource"), pod.get(0).title());
    }

    @Test
    void multiNodeJobOnSocketsIsATcpFallbackWithNoRdmaDevice() throws IOException {
        List<Finding> f = findings(String.join("\n",
                "job-master-0:10:10 [0] NCCL INFO NET/IB : No device found.",
                "job-master-0:10:10 [0] NCCL INFO NET/Socket : Using [0]eth0:10.0.0.1<0>",
                "job-master-0:10:10 [0] NCCL INFO ncclCommInitRank comm 0x1 rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 1b000 commId 0xabc - Init COMPLETE",
                "job-master-0:10:10 [0] NCCL INFO Channel 00/0 : 1[0] -> 0[0] [receive] via NET/Socket/0",
                "job-worker-0:20:20 [0] NCCL INFO NET/IB : No device found.",
                "job-worker-0:20:20 [0] NCCL INFO ncclCommInitRank comm 0x2 rank 1 nranks 2 cudaDev 0 nvmlDev 0 busId 1b000 commId 0xabc - Init COMPLETE"));
        assertEquals(List.of("rdma-device-missing", "tcp-fallback"), ids(f));
        assertTrue(f.get(1).title().contains("eth0"), f.get(1).title());
        assertEquals(4, f.get(1).evidence().get(0).line());
    }

    @Test
    void ncclIbHcaWithoutNetLinesIsNoEvidenceOnOneNodeButIsAcrossNodes() throws IOException {
        String rank0 = "vm:10:10 [0] NCCL INFO NCCL_IB_HCA set by environment to mlx5\n"
                + "vm:10:10 [0] NCCL INFO ncclCommInitRank comm 0x1 rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 1b000 commId 0xabc - Init COMPLETE";
        assertEquals(List.of(), ids(findings(rank0 + "\n" + rank0.replace("vm:10:10 [0]", "vm:11:11 [1]").replace("rank 0", "rank 1"))),
                "a log without NET lines says nothing about the device on one node");
        assertEquals(List.of("rdma-device-missing"), ids(findings(rank0 + "\n"
                + rank0.replace("vm:10:10 [0]", "vm2:11:11 [0]").replace("rank 0", "rank 1"))), "across nodes it did before, and does");
    }

    @Test
    void timeoutNamesTheRankThatLagged() throws IOException {
        List<Finding> f = findings(String.join("\n",
                "[rank0]:[E1206 18:44:12.715 ProcessGroupNCCL.cpp:607] [Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=7753, OpType=ALLREDUCE, NumelIn=5, NumelOut=5, Timeout(ms)=600000) ran for 600061 milliseconds before timing out.",
                "[rank0]:[E626 06:24:44.906 ProcessGroupNCCL.cpp:1785] [PG ID 0 PG GUID 0(default_pg) Rank 0] Exception (either an error or timeout) detected by watchdog at work: 7753, last enqueued NCCL work: 7753, last completed NCCL work: 7752.",
                "[rank3]:[E626 06:24:44.906 ProcessGroupNCCL.cpp:1785] [PG ID 0 PG GUID 0(default_pg) Rank 3] Exception (either an error or timeout) detected by watchdog at work: 7751, last enqueued NCCL work: 7751, last completed NCCL work: 7750."));
        assertEquals(List.of("nccl-timeout"), ids(f));
        assertTrue(f.get(0).title().contains("rank 3 lagged"), f.get(0).title());
        assertTrue(f.get(0).remedies().stream().anyMatch(r -> r.contains("NCCL_IB_TIMEOUT=23")));
    }

    /** A healthy rank's report of another process group (its own, lower count) does not make it the laggard. */
    @Test
    void timeoutComparesTheProgressOfTheGroupThatTimedOut() throws IOException {
        List<Finding> f = findings(String.join("\n",
                "[rank0]:[E1128 17:08:59.542 ProcessGroupNCCL.cpp:689] [Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=4, OpType=ALLREDUCE, NumelIn=16777216, NumelOut=16777216, Timeout(ms)=20000) ran for 20096 milliseconds before timing out.",
                "[rank0]:[E1128 17:08:59.553 ProcessGroupNCCL.cpp:2303] [PG ID 1 PG GUID 1(tp) Rank 0]  failure detected by watchdog at work sequence id: 4 PG status: last enqueued work: 4, last completed work: 3",
                "[rank0]:[E1128 17:09:06.100 ProcessGroupNCCL.cpp:1914] [PG ID 0 PG GUID 0(default_pg) Rank 0] Received a dump signal due to a collective timeout from  rank 1 and we will try our best to dump the debug info. Last enqueued NCCL work: 2, last completed NCCL work: 2.This is most likely caused by incorrect usages of collectives",
                "[rank1]:[E1128 17:09:05.047 ProcessGroupNCCL.cpp:1914] [PG ID 2 PG GUID 1(tp) Rank 1] Received a dump signal due to a collective timeout from  rank 0 and we will try our best to dump the debug info. Last enqueued NCCL work: 3, last completed NCCL work: 3.This is most likely caused by incorrect usages of collectives"));
        assertEquals(List.of("nccl-timeout"), ids(f));
        assertTrue(f.get(0).title().contains("rank 1 lagged"), f.get(0).title());
    }

    /**
     * Two groups timed out, and the file read first holds the later one (rank 2's default group, 90 s after): the
     * group compared is the one whose timeout fired first by its stamp, where rank 1 never issued #4.
     */
    @Test
    void timeoutComparesTheGroupWhoseTimeoutFiredFirstNotTheOneReadFirst() throws IOException {
        List<Finding> f = findings(String.join("\n",
                "[rank2]:[E1128 17:10:30.100 ProcessGroupNCCL.cpp:689] [PG ID 0 PG GUID 0(default_pg) Rank 2] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=9, OpType=ALLREDUCE, NumelIn=1024, NumelOut=1024, Timeout(ms)=20000) ran for 20010 milliseconds before timing out.",
                "[rank2]:[E1128 17:10:30.110 ProcessGroupNCCL.cpp:2303] [PG ID 0 PG GUID 0(default_pg) Rank 2]  failure detected by watchdog at work sequence id: 9 PG status: last enqueued work: 9, last completed work: 8",
                "[rank0]:[E1128 17:08:59.542 ProcessGroupNCCL.cpp:689] [PG ID 1 PG GUID 1(tp) Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=4, OpType=ALLREDUCE, NumelIn=16777216, NumelOut=16777216, Timeout(ms)=20000) ran for 20096 milliseconds before timing out.",
                "[rank0]:[E1128 17:08:59.553 ProcessGroupNCCL.cpp:2303] [PG ID 1 PG GUID 1(tp) Rank 0]  failure detected by watchdog at work sequence id: 4 PG status: last enqueued work: 4, last completed work: 3",
                "[rank0]:[E1128 17:09:06.100 ProcessGroupNCCL.cpp:1914] [PG ID 0 PG GUID 0(default_pg) Rank 0] Received a dump signal due to a collective timeout from  rank 1 and we will try our best to dump the debug info. Last enqueued NCCL work: 2, last completed NCCL work: 2.This is most likely caused by incorrect usages of collectives",
                "[rank1]:[E1128 17:09:05.047 ProcessGroupNCCL.cpp:1914] [PG ID 2 PG GUID 1(tp) Rank 1] Received a dump signal due to a collective timeout from  rank 0 and we will try our best to dump the debug info. Last enqueued NCCL work: 3, last completed NCCL work: 3.This is most likely caused by incorrect usages of collectives"));
        assertEquals(List.of("nccl-timeout"), ids(f));
        assertTrue(f.get(0).title().contains("rank 0's watchdog fired"), f.get(0).title());
        assertTrue(f.get(0).title().contains("rank 1 lagged"), f.get(0).title());
    }

    /**
     * Without the dump signal's reports (an older release, or {@code TORCH_NCCL_DUMP_ON_TIMEOUT=0}), rank 1, which slept
     * past rank 0's timeout and then went on, first speaks 61 s after rank 0's watchdog fired on #4, past the 20 s any
     * rank already in that collective would have waited: it came late, although its counts (#6) are the higher.
     */
    @Test
    void aRankWhoseFirstReportCameAfterTheTimeoutPeriodLaggedWhateverItsCounts() throws IOException {
        List<Finding> f = findings(String.join("\n",
                "[rank0]:[E1128 17:08:59.542 ProcessGroupNCCL.cpp:689] [Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=4, OpType=ALLREDUCE, NumelIn=16777216, NumelOut=16777216, Timeout(ms)=20000) ran for 20096 milliseconds before timing out.",
                "[rank0]:[E1128 17:08:59.553 ProcessGroupNCCL.cpp:2303] [PG ID 0 PG GUID 0(default_pg) Rank 0]  failure detected by watchdog at work sequence id: 4 PG status: last enqueued work: 4, last completed work: 3",
                "[rank1]:[E1128 17:10:00.455 ProcessGroupNCCL.cpp:689] [Rank 1] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=6, OpType=ALLREDUCE, NumelIn=16777216, NumelOut=16777216, Timeout(ms)=20000) ran for 20007 milliseconds before timing out.",
                "[rank1]:[E1128 17:10:00.455 ProcessGroupNCCL.cpp:2303] [PG ID 0 PG GUID 0(default_pg) Rank 1]  failure detected by watchdog at work sequence id: 6 PG status: last enqueued work: 6, last completed work: 5"));
        assertEquals(List.of("nccl-timeout"), ids(f));
        assertTrue(f.get(0).title().contains("rank 1 lagged"), f.get(0).title());
        assertTrue(f.get(0).subjects().get(0).contains("came late"), f.get(0).subjects().get(0));
        // the same reports in one window of time are compared by their counts: rank 0 had issued #4, rank 1 only #3
        List<Finding> inTime = findings(String.join("\n",
                "[rank0]:[E1128 17:08:59.542 ProcessGroupNCCL.cpp:689] [Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=4, OpType=ALLREDUCE, NumelIn=16777216, NumelOut=16777216, Timeout(ms)=20000) ran for 20096 milliseconds before timing out.",
                "[rank0]:[E1128 17:08:59.553 ProcessGroupNCCL.cpp:2303] [PG ID 0 PG GUID 0(default_pg) Rank 0]  failure detected by watchdog at work sequence id: 4 PG status: last enqueued work: 4, last completed work: 3",
                "[rank1]:[E1128 17:09:10.455 ProcessGroupNCCL.cpp:2303] [PG ID 0 PG GUID 0(default_pg) Rank 1]  failure detected by watchdog at work sequence id: 3 PG status: last enqueued work: 3, last completed work: 2"));
        assertTrue(inTime.get(0).title().contains("rank 1 lagged"), inTime.get(0).title());
        assertTrue(inTime.get(0).subjects().get(0).contains("lowest, 3"), inTime.get(0).subjects().get(0));
    }

    /**
     * Rank 1 never came back and printed nothing; rank 0, the only one to report, had issued #4 (enqueued 4): it only
     * waited. The rank that lagged is the job's rank (from NCCL's Init lines) that said nothing.
     */
    @Test
    void aRankThatReportedNothingWhileTheOthersHadIssuedTheCollectiveLagged() throws IOException {
        List<Finding> f = findings(String.join("\n",
                "vm:1084:1084 [0] NCCL INFO comm 0x1 rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 18000 commId 0x9 - Init COMPLETE",
                "vm:1085:1085 [1] NCCL INFO comm 0x2 rank 1 nranks 2 cudaDev 1 nvmlDev 1 busId 2a000 commId 0x9 - Init COMPLETE",
                "[rank0]:[E1128 20:02:20.250 ProcessGroupNCCL.cpp:689] [Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=4, OpType=ALLREDUCE, NumelIn=16777216, NumelOut=16777216, Timeout(ms)=20000) ran for 20075 milliseconds before timing out.",
                "[rank0]:[E1128 20:02:20.250 ProcessGroupNCCL.cpp:2303] [PG ID 0 PG GUID 0(default_pg) Rank 0]  failure detected by watchdog at work sequence id: 4 PG status: last enqueued work: 4, last completed work: 3"));
        Finding t = f.get(ids(f).indexOf("nccl-timeout"));
        assertTrue(t.title().contains("rank 1 lagged"), t.title());
        assertTrue(t.subjects().get(0).contains("reported nothing"), t.subjects().get(0));
        // only rank 0's log loaded: rank 1 is not named for the silence of a log nobody gave, and the doubt is said
        List<Finding> alone = findings(String.join("\n",
                "vm:1084:1084 [0] NCCL INFO comm 0x1 rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 18000 commId 0x9 - Init COMPLETE",
                "[rank0]:[E1128 20:02:20.250 ProcessGroupNCCL.cpp:689] [Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=4, OpType=ALLREDUCE, NumelIn=16777216, NumelOut=16777216, Timeout(ms)=20000) ran for 20075 milliseconds before timing out.",
                "[rank0]:[E1128 20:02:20.250 ProcessGroupNCCL.cpp:2303] [PG ID 0 PG GUID 0(default_pg) Rank 0]  failure detected by watchdog at work sequence id: 4 PG status: last enqueued work: 4, last completed work: 3"));
        Finding lone = alone.get(ids(alone).indexOf("nccl-timeout"));
        String subject = lone.subjects().get(0);
        assertTrue(subject.contains("left no log among those loaded"), subject);
        // and no rank is said to have lagged: the title, the subject and the first remedy say none was behind
        assertTrue(lone.title().endsWith("no rank was behind: every rank that reported had issued it"), lone.title());
        assertFalse(lone.title().contains("lagged") || subject.contains("lagged"), lone.title() + " / " + subject);
        assertTrue(lone.remedies().get(0).startsWith("No rank held the collective up"), lone.remedies().get(0));
    }

    /**
     * Four ranks in two NCCL subgroups "tp", {0,1} and {2,3}; rank 3 (rank 1 of its subgroup) stalls. ProcessGroupNCCL
     * prints the group's rank ({@code [Rank 0]}, {@code [PG ID 2 PG GUID 2(tp) Rank 1]}), c10 the global one
     * ({@code [rank2]:}); the lines are the real subgroup capture's (stalled-ranks-h200x2-nccl-2.28.9/subgroup-rank0-late)
     * as four ranks print them. Ranks 0 and 1, in the other subgroup, finished their steps: naming them blamed
     * two healthy processes. The untagged {@code what():} line takes the global rank its group rank had.
     */
    @Test
    void aSubgroupsRanksAreNamedByTheirGlobalRank() throws IOException {
        List<Finding> f = findings(String.join("\n",
                "w0:1101:1101 [0] NCCL INFO comm 0x1 rank 0 nranks 4 cudaDev 0 nvmlDev 0 busId 18000 commId 0x9 - Init COMPLETE",
                "w0:1102:1102 [1] NCCL INFO comm 0x2 rank 1 nranks 4 cudaDev 1 nvmlDev 1 busId 2a000 commId 0x9 - Init COMPLETE",
                "w1:2101:2101 [0] NCCL INFO comm 0x3 rank 2 nranks 4 cudaDev 0 nvmlDev 0 busId 18000 commId 0x9 - Init COMPLETE",
                "w1:2102:2102 [1] NCCL INFO comm 0x4 rank 3 nranks 4 cudaDev 1 nvmlDev 1 busId 2a000 commId 0x9 - Init COMPLETE",
                "[rank2]:[E1128 20:03:56.337387563 ProcessGroupNCCL.cpp:689] [Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=4, OpType=ALLREDUCE, NumelIn=16777216, NumelOut=16777216, Timeout(ms)=20000) ran for 20071 milliseconds before timing out.",
                "[rank2]:[E1128 20:03:56.337560969 ProcessGroupNCCL.cpp:2303] [PG ID 2 PG GUID 2(tp) Rank 0]  failure detected by watchdog at work sequence id: 4 PG status: last enqueued work: 4, last completed work: 3",
                "[rank3]:[E1128 20:04:46.904447881 ProcessGroupNCCL.cpp:689] [Rank 1] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=4, OpType=ALLREDUCE, NumelIn=16777216, NumelOut=16777216, Timeout(ms)=20000) ran for 20036 milliseconds before timing out.",
                "[rank3]:[E1128 20:04:46.904639051 ProcessGroupNCCL.cpp:2303] [PG ID 2 PG GUID 2(tp) Rank 1]  failure detected by watchdog at work sequence id: 4 PG status: last enqueued work: 4, last completed work: 3",
                "  what():  [PG ID 2 PG GUID 2(tp) Rank 0] Process group watchdog thread terminated with exception: [Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=4, OpType=ALLREDUCE, NumelIn=16777216, NumelOut=16777216, Timeout(ms)=20000) ran for 20071 milliseconds before timing out."));
        Finding t = f.get(ids(f).indexOf("nccl-timeout"));
        assertTrue(t.title().startsWith("NCCL collective timed out: rank 2's watchdog fired"), t.title());
        assertTrue(t.title().contains("rank 3 lagged"), t.title());
        assertTrue(t.subjects().get(0).contains("came late"), t.subjects().get(0));
        // the watchdogs are ranks 2 and 3, each once: the what() line is rank 2's, not rank 0's
        assertEquals(List.of("rank 2 watchdog fired on ALLREDUCE SeqNum 4 after 20071 ms",
                "rank 3 watchdog fired on ALLREDUCE SeqNum 4 after 20036 ms"), t.subjects().subList(1, t.subjects().size()));
    }

    /**
     * Without progress reports, the watchdogs' SeqNums are all there is: a rank whose watchdog fired on an earlier
     * collective of the group than another's lagged; when all fired on the same one, none is seen behind.
     */
    @Test
    void watchdogsAloneNameALaggardOnlyWhenTheirSeqNumsDiffer() throws IOException {
        String r0 = "[rank0]:[E1128 17:08:59.542 ProcessGroupNCCL.cpp:689] [PG ID 0 PG GUID 0(default_pg) Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=4, OpType=ALLREDUCE, NumelIn=16, NumelOut=16, Timeout(ms)=20000) ran for 20096 milliseconds before timing out.";
        String r1 = "[rank1]:[E1128 17:08:59.600 ProcessGroupNCCL.cpp:689] [PG ID 0 PG GUID 0(default_pg) Rank 1] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=4, OpType=ALLREDUCE, NumelIn=16, NumelOut=16, Timeout(ms)=20000) ran for 20050 milliseconds before timing out.";
        Finding same = findings(r0 + "\n" + r1).get(0);
        assertTrue(same.title().contains("no rank was behind"), same.title());
        assertTrue(same.subjects().get(0).contains("none is seen behind"), same.subjects().get(0));
        Finding apart = findings(r0 + "\n" + r1.replace("SeqNum=4", "SeqNum=5")).get(0);
        assertTrue(apart.title().contains("rank 0 lagged"), apart.title());
    }

    @Test
    void warnLinesBecomeTheirFindings() throws IOException {
        List<Finding> f = findings(String.join("\n",
                "a:1:1 [0] NCCL INFO NCCL version 2.18.3+cuda12.1",
                "a:1:1 [0] NCCL INFO comm 0x1 rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 1b000 commId 0x9 - Init START",
                "b:2:2 [0] NCCL INFO NCCL version 2.19.3+cuda12.3",
                "b:2:2 [0] NCCL INFO comm 0x2 rank 1 nranks 2 cudaDev 0 nvmlDev 0 busId 1b000 commId 0x9 - Init COMPLETE",
                "a:1:1 [0] transport/net_ib.cc:1295 NCCL WARN NET/IB : Got completion from peer 10.3.0.61<39430> with error 12, opcode 129, len 0, vendor err 129 (Recv)",
                "a:1:1 [0] misc/ibvwrap.cc:106 NCCL WARN Call to ibv_open_device failed with error Permission denied errno 13",
                "b:2:2 [0] misc/ibvwrap.cc:278 NCCL WARN Call to ibv_reg_mr_iova2 failed with error Cannot allocate memory errno 12",
                "b:2:2 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [send] via NET/IB/0"));
        List<String> ids = ids(f);
        assertTrue(ids.containsAll(List.of("nccl-version-mismatch", "nccl-init-hang", "ib-completion-error", "rdma-permission",
                "memlock-limit", "gdr-not-used")), ids.toString());
        Finding ib = f.get(ids.indexOf("ib-completion-error"));
        assertTrue(ib.title().contains("IBV_WC_RETRY_EXC_ERR"), ib.title());
        assertEquals(5, ib.evidence().get(0).line());
    }
}
