package org.fabricscope.importers.logs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.fabricscope.model.training.GdrSupport;
import org.fabricscope.model.training.NcclEvent;
import org.fabricscope.model.training.Rank;
import org.fabricscope.model.training.TrainingLog;
import org.fabricscope.model.training.TrainingLogBuilder;
import org.junit.jupiter.api.Test;

/**
 * PyTorch and torchrun lines of every era (FORMATS.md §3.6) and the NCCL lines added beside them,
 * fed one line at a time as a live stream is, with the rejoining of wrapped and multi-line
 * messages per stream.
 */
class TorchLinesTest {
    private final TrainingLogBuilder log = new TrainingLogBuilder();
    private final NcclLogParser parser = new NcclLogParser(log, new ArrayList<>());

    private void feed(String source, String... lines) {
        int n = 0;
        for (String l : lines) {
            parser.line(l, source, ++n);
        }
    }

    private List<NcclEvent> events(NcclEvent.Kind kind) {
        return log.build().events().stream().filter(e -> e.kind() == kind).toList();
    }

    @Test
    void watchdogTimeoutsOfEveryEraWithTheirPgAndRank() {
        feed("a.log",
                "[E ProcessGroupNCCL.cpp:737] [Rank 1] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=469508, OpType=ALLREDUCE, Timeout(ms)=1800000) ran for 1802212 milliseconds before timing out.",
                "[rank1]:[E ProcessGroupNCCL.cpp:537] [PG 0 Rank 1] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=5, OpType=BROADCAST, NumelIn=10, NumelOut=10, Timeout(ms)=1000) ran for 1013 milliseconds before timing out.",
                "I0527 15:22:17.231048 100243 ProcessGroupNCCL.cpp:1132] [PG 0 (default_pg) Rank 3] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=9, OpType=ALLGATHER, NumelIn=4, NumelOut=16, Timeout(ms)=600000) ran for 600004 milliseconds before timing out.",
                "[rank3]:[E1206 18:44:12.715298746 ProcessGroupNCCL.cpp:632] [PG ID 1 PG GUID 3 Rank 3] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=77, OpType=_REDUCE_SCATTER_BASE, NumelIn=544997376, NumelOut=68124672, Timeout(ms)=600000) ran for 600061 milliseconds before timing out.");
        parser.finish();
        List<NcclEvent> t = events(NcclEvent.Kind.WATCHDOG_TIMEOUT);
        assertEquals(4, t.size(), log.build().events().toString());
        assertEquals(1, t.get(0).rank());
        assertEquals("469508", t.get(0).field("seqNum"));
        assertEquals("1802212", t.get(0).field("ranForMs"));
        assertEquals(null, t.get(0).field("numelIn"));
        assertEquals("0", t.get(1).field("pgId"));
        assertEquals("BROADCAST", t.get(1).field("opType"));
        assertEquals(3, t.get(2).rank());
        assertEquals("default_pg", t.get(2).field("pgName"));
        assertEquals("16", t.get(2).field("numelOut"));
        assertEquals("1", t.get(3).field("pgId"));
        assertEquals("_REDUCE_SCATTER_BASE", t.get(3).field("opType"));
        assertEquals(4, t.get(3).evidence().line());
    }

    @Test
    void progressFlightRecorderHeartbeatAndAborts() {
        feed("b.log",
                "[rank1]:[E626 06:24:44.906457629 ProcessGroupNCCL.cpp:1785] [PG ID 0 PG GUID 0(default_pg) Rank 1] Exception (either an error or timeout) detected by watchdog at work: 808, last enqueued NCCL work: 811, last completed NCCL work: 807.",
                "[rank5]:[E626 16:48:25.440238649 ProcessGroupNCCL.cpp:2268] [PG ID 0 PG GUID 0(default_pg) Rank 5]  failure detected by watchdog at work sequence id: 120049 PG status: last enqueued work: 120051, last completed work: 120048",
                "[rank0]:[E725 02:39:41.236667746 ProcessGroupNCCL.cpp:1914] [PG ID 0 PG GUID 0(default_pg) Rank 0] Received a dump signal due to a collective timeout from this local rank and we will try our best to dump the debug info. Last enqueued NCCL work: 39892, last completed NCCL work: 39891.This is most likely caused by incorrect usages of collectives.",
                "[rank1]:[E725 02:39:40.652862705 ProcessGroupNCCL.cpp:1628] [PG ID 0 PG GUID 0(default_pg) Rank 1] ProcessGroupNCCL preparing to dump debug info. Include stack trace: 1, only active collectives: 0",
                "[rank0]:[E813 12:25:30.948459379 ProcessGroupNCCL.cpp:2106] [PG ID 1 PG GUID 1 Rank 0] First PG on this rank to signal dumping.",
                "[rank6]:[E429 13:55:49.384372190 ProcessGroupNCCL.cpp:1743] [PG ID 0 PG GUID 0(default_pg) Rank 6] ProcessGroupNCCL's watchdog got stuck for 480 seconds without making progress in monitoring enqueued collectives.",
                "[E ProcessGroupNCCL.cpp:475] [Rank 2] Aborting communicators that received errors",
                "I20241209 23:20:43.484511 140354185590464 ProcessGroupNCCL.cpp:1197] [PG ID 0 PG GUID 0(default_pg) Rank 1] ProcessGroupNCCL destroyed  communicator on CUDA device: 1",
                "UVOSLinux:916050:916334 [1] NCCL INFO comm 0x5d96f02dc720 rank 1 nranks 2 cudaDev 1 busId 3000 - Abort COMPLETE",
                "[rank0]:[E ProcessGroupNCCL.cpp:570] [Rank 0] To avoid data inconsistency, we are taking the entire process down.");
        parser.finish();
        List<NcclEvent> p = events(NcclEvent.Kind.WATCHDOG_PROGRESS);
        assertEquals(2, p.size(), log.build().events().toString());
        assertEquals("808", p.get(0).field("atWork"));
        assertEquals("811", p.get(0).field("lastEnqueued"));
        assertEquals("120048", p.get(1).field("lastCompleted"), "no trailing period: held, then emitted at the next record");
        assertEquals("120049", p.get(1).field("atWork"));
        List<NcclEvent> fr = events(NcclEvent.Kind.FLIGHT_RECORDER);
        assertEquals(List.of("dump-signal", "preparing-dump", "first-to-signal"), fr.stream().map(e -> e.field("action")).toList());
        assertEquals("this local rank", fr.get(0).field("from"));
        assertEquals("39892", fr.get(0).field("lastEnqueued"));
        assertEquals("1", fr.get(2).field("pgId"));
        NcclEvent hang = events(NcclEvent.Kind.WATCHDOG_HANG).get(0);
        assertEquals(6, hang.rank());
        assertEquals("480", hang.field("stuckSeconds"));
        List<NcclEvent> a = events(NcclEvent.Kind.ABORT);
        assertEquals(List.of("aborting-communicators", "destroyed", "abort-complete", "taking-process-down"),
                a.stream().map(e -> e.field("action")).toList());
        assertEquals("E", a.get(0).field("level"));
        assertEquals("I", a.get(1).field("level"));
        assertEquals("UVOSLinux", a.get(2).host());
        assertEquals(1, a.get(2).rank());
        assertEquals("0x5d96f02dc720", a.get(2).field("comm"));
    }

    @Test
    void ncclErrorsRejoinedWithTheirLastErrorPerRankStream() {
        feed("c.log",
                "[rank1]:[E ProcessGroupNCCL.cpp:1414] [PG 0 Rank 1] Process group watchdog thread terminated with exception: NCCL error: remote process exited or there was a network error, NCCL version 2.20.5",
                "[rank0]:[I ProcessGroupNCCL.cpp:1000] [PG 0 Rank 0] some other line of rank 0",
                "ncclRemoteError: A call failed possibly due to a network error or a remote process exiting prematurely.",
                "Last error:",
                "socketProgress: Connection closed by remote peer gpu-node1.int<45074>",
                "Exception raised from checkForNCCLErrorsInternal at /opt/conda/torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1723 (most recent call first):",
                "frame #0: c10::Error::Error(c10::SourceLocation, std::string) + 0x57 (0x14790e6d6897 in libc10.so)",
                "[rank7]:[E ProcessGroupNCCL.cpp:542] [Rank 7] Collective WorkNCCL(SeqNum=1915265, OpType=ALLREDUCE, NumelIn=196608, NumelOut=196608, Timeout(ms)=600000) raised the following async exception: NCCL error: unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.21.5",
                "ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error.",
                "Last error:",
                "",
                "Exception raised from checkForNCCLErrorsInternal at ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:2027 (most recent call first):",
                "[rank3]: torch.distributed.DistBackendError: NCCL error in: /pytorch/torch/csrc/distributed/c10d/NCCLUtils.hpp:268, unhandled cuda error (run with NCCL_DEBUG=INFO for details), NCCL version 2.21.5",
                "[rank2]: Traceback (most recent call last):",
                "[rank3]: ncclUnhandledCudaError: Call to CUDA function failed.",
                "[rank3]: Last error: Cuda failure 'out of memory'");
        // rank 3's message has no "Exception raised from": it ends at the end of the stream.
        assertEquals(2, events(NcclEvent.Kind.NCCL_ERROR).size());
        parser.finish("c.log");
        List<NcclEvent> e = events(NcclEvent.Kind.NCCL_ERROR);
        assertEquals(3, e.size(), log.build().events().toString());
        NcclEvent first = e.get(0);
        assertEquals(1, first.rank(), "the untagged continuation lines belong to the rank that started the message");
        assertEquals("remote process exited or there was a network error", first.field("error"));
        assertEquals("2.20.5", first.field("ncclVersion"));
        assertEquals("ncclRemoteError", first.field("result"));
        assertEquals("gpu-node1.int<45074>", first.field("peer"));
        assertTrue(first.field("raisedFrom").startsWith("checkForNCCLErrorsInternal at /opt/conda/"), first.field("raisedFrom"));
        assertEquals(1, first.evidence().line());
        assertTrue(first.evidence().text().contains("Last error:\nsocketProgress"), first.evidence().text());
        NcclEvent second = e.get(1);
        assertEquals("1915265", second.field("seqNum"));
        assertEquals("unhandled system error", second.field("error"));
        assertEquals("", second.field("lastError"), "an empty Last error: stays empty");
        NcclEvent third = e.get(2);
        assertEquals(3, third.rank());
        assertEquals("NCCLUtils.hpp:268", third.field("where").substring(third.field("where").lastIndexOf('/') + 1));
        assertEquals("ncclUnhandledCudaError", third.field("result"));
        assertEquals("Cuda failure 'out of memory'", third.field("lastError"));
        assertEquals(13, third.evidence().line());
    }

    @Test
    void wrappedLinesAreRejoinedAndTwoStreamsDoNotMix() {
        parser.line("[rank6]:[E429 13:55:49.384 ProcessGroupNCCL.cpp:632] [PG ID 0 PG GUID 0(default_pg) Rank 6] Watchdog caught collec", "pod-a", 10);
        parser.line("[rank2]:[E429 13:55:49.384 ProcessGroupNCCL.cpp:632] [PG ID 0 PG GUID 0(default_pg) Rank 2] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=41, OpType=ALLREDUCE, NumelIn=8, NumelOut=8, Timeout(ms)=600000) ran for 600100 milliseconds before timing out.", "pod-b", 7);
        parser.line("tive operation timeout: WorkNCCL(SeqNum=42, OpType=ALLREDUCE, NumelIn=8, NumelOut=5", "pod-a", 11);
        parser.line("164000, Timeout(ms)=600000) ran for 600", "pod-a", 12);
        parser.line("013 milliseconds before timing out.", "pod-a", 13);
        List<NcclEvent> t = events(NcclEvent.Kind.WATCHDOG_TIMEOUT);
        assertEquals(2, t.size());
        assertEquals(2, t.get(0).rank());
        NcclEvent a = t.get(1);
        assertEquals(6, a.rank());
        assertEquals("42", a.field("seqNum"));
        assertEquals("5164000", a.field("numelOut"));
        assertEquals("600013", a.field("ranForMs"));
        assertEquals("pod-a", a.evidence().source());
        assertEquals(10, a.evidence().line());
    }

    @Test
    void aHeldMessageIsEmittedWhenItsStreamEndsOrAnotherRecordStarts() {
        parser.line("[rank5]:[E626 16:48:25.440 ProcessGroupNCCL.cpp:2268] [PG ID 0 PG GUID 0(default_pg) Rank 5]  failure detected by watchdog at work sequence id: 12 PG status: last enqueued work: 14, last completed work: 11", "pod-x", 1);
        assertTrue(events(NcclEvent.Kind.WATCHDOG_PROGRESS).isEmpty(), "a number at the end of the line may continue");
        parser.line("epoch 3 loss 1.2", "pod-x", 2);
        assertEquals(1, events(NcclEvent.Kind.WATCHDOG_PROGRESS).size(), "a line of other text does not continue a number");
        assertEquals("11", events(NcclEvent.Kind.WATCHDOG_PROGRESS).get(0).field("lastCompleted"));
        parser.line("[rank1]:[E ProcessGroupNCCL.cpp:1414] [PG 0 Rank 1] Process group watchdog thread terminated with exception: NCCL error: remote process exited or there was a network error, NCCL version 2.20.5", "pod-y", 1);
        parser.line("ncclRemoteError: A call failed possibly due to a network error or a remote process exiting prematurely.", "pod-y", 2);
        assertTrue(events(NcclEvent.Kind.NCCL_ERROR).isEmpty());
        parser.finish("pod-x");
        assertTrue(events(NcclEvent.Kind.NCCL_ERROR).isEmpty(), "finishing another stream leaves it held");
        parser.finish("pod-y");
        assertEquals("ncclRemoteError", events(NcclEvent.Kind.NCCL_ERROR).get(0).field("result"));
    }

    @Test
    void torchrunFailuresOfThreeGenerationsAndTheChildFailedSummary() {
        feed("launcher.log",
                "ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: -6) local_rank: 0 (pid: 218624) of binary: /usr/bin/python",
                "[2024-05-08 08:47:31,877] torch.distributed.elastic.multiprocessing.api: [ERROR] failed (exitcode: 1) local_rank: 2 (pid: 5939) of binary: /usr/bin/python",
                "E0801 13:23:20.000000 32974 torch/distributed/elastic/multiprocessing/api.py:874] failed (exitcode: -9) local_rank: 3 (pid: 33054) of binary: /usr/bin/python3",
                "W0801 13:23:19.000000 32974 torch/distributed/elastic/multiprocessing/api.py:900] Sending process 33055 closing signal SIGTERM",
                "torch.distributed.elastic.multiprocessing.api.SignalException: Process 4242 got signal: 15",
                "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: ",
                "========================================================",
                "tools/train.py FAILED",
                "--------------------------------------------------------",
                "Failures:",
                "[1]:",
                "  time      : 2023-06-14_22:36:10",
                "  host      : neptun.informatik.uni-kl.de",
                "  rank      : 1 (local_rank: 1)",
                "  exitcode  : -6 (pid: 2385923)",
                "  error_file: <N/A>",
                "  traceback : Signal 6 (SIGABRT) received by PID 2385923",
                "--------------------------------------------------------",
                "Root Cause (first observed failure):",
                "[0]:",
                "  time      : 2023-06-14_22:36:10",
                "  host      : neptun.informatik.uni-kl.de",
                "  rank      : 0 (local_rank: 0)",
                "  exitcode  : 1 (pid: 2385922)",
                "  error_file: /tmp/torchelastic_x/error.json",
                "  traceback : To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html",
                "========================================================",
                "after the summary");
        List<NcclEvent> f = events(NcclEvent.Kind.PROCESS_FAILED);
        assertEquals(List.of("-6", "1", "-9"), f.stream().map(e -> e.field("exitcode")).toList());
        assertEquals("SIGABRT", f.get(0).field("signal"));
        assertEquals(null, f.get(1).field("signal"), "a positive exit code is no signal");
        assertEquals("SIGKILL", f.get(2).field("signal"));
        assertEquals(33054, f.get(2).pid());
        List<NcclEvent> s = events(NcclEvent.Kind.SIGNAL);
        assertEquals(List.of("SIGTERM", "SIGTERM"), s.stream().map(e -> e.field("signal")).toList());
        assertEquals(List.of("sent", "received"), s.stream().map(e -> e.field("direction")).toList());
        assertEquals("4242", s.get(1).field("pid"));
        List<NcclEvent> c = events(NcclEvent.Kind.CHILD_FAILED);
        assertEquals(2, c.size(), "emitted when the closing rule after the root cause ends the block");
        NcclEvent other = c.get(0);
        assertEquals(1, other.rank());
        assertEquals("neptun.informatik.uni-kl.de", other.host());
        assertEquals(2385923, other.pid());
        assertEquals("SIGABRT", other.field("signal"));
        assertEquals("6", other.field("signalNumber"));
        assertEquals("false", other.field("rootCause"));
        assertEquals("<N/A>", other.field("errorFile"));
        assertEquals("tools/train.py", other.field("script"));
        assertEquals(11, other.evidence().line(), "an entry cites its [N]: line");
        NcclEvent root = c.get(1);
        assertEquals("true", root.field("rootCause"));
        assertEquals("1", root.field("exitcode"));
        assertEquals("/tmp/torchelastic_x/error.json", root.field("errorFile"));
        assertEquals(null, root.field("signal"));
        assertEquals("2023-06-14_22:36:10", root.field("time"));
    }

    @Test
    void gdrAndNetworkSelectionLinesAcrossVersions() {
        feed("n.log",
                "n013:101855:101885 [0] NCCL INFO NET/IB : GPU Direct RDMA Enabled for HCA 0 'mlx5_0'",
                "h:1:1 [0] NCCL INFO NET/IB : GPU Direct RDMA Disabled for HCA 0 'mlx5_0' (no module)",
                "h:1:1 [0] NCCL INFO NET/IBext_v8 : GPU Direct RDMA Disabled for HCA 1 'mlx5_1'",
                "vm:640:640 [0] NCCL INFO NET/Socket : GPU Direct RDMA Disabled for HCA 0 'eth0'",
                "x:1:1 [0] NCCL INFO GPU Direct RDMA Enabled for GPU 1 / HCA 1",
                "x:1:1 [0] NCCL INFO NCCL_IB_HCA set to mlx5_0,mlx5_1",
                "x:1:1 [0] NCCL INFO NET/IB : Using [0]erdma_0:1/RoCE [RO]; OOB eth0:10.0.5.76<0>",
                "x:1:1 [0] NCCL INFO [Rank 3] ncclCommInitRankConfig comm 0x1 rank 3 nranks 4 cudaDev 1 nvmlDev 1 busId 1b000 commId 0x2 - Init START",
                "[2026-01-02 03:04:05] x:1:9 [0] transport/net_ib.cc:1 (ncclIbCheckVProps) NCCL WARN NET/IB: Got completion from peer 10.0.0.2<1> with status=IBV_WC_RETRY_EXC_ERR(12) opcode=IBV_WC_SEND(0) vendor_err=129 (Send) hca erdma_0",
                "[pod/llm-worker-1/trainer] 2025-06-26T06:14:00.000001Z y:2:2 [0] NCCL INFO NET/IB : No device found.");
        parser.finish();
        List<GdrSupport> g = log.build().gdrSupport();
        assertEquals(5, g.size());
        assertTrue(g.get(0).enabled());
        assertEquals("mlx5_0", g.get(0).hca());
        assertEquals("no module", g.get(1).reason());
        assertEquals("IBext_v8", g.get(2).net());
        assertEquals(1, g.get(2).hcaIndex());
        assertFalse(g.get(3).isRdma(), "the Socket plugin's verdict is no RDMA device's");
        assertEquals("GPU 1", g.get(4).reason());
        Rank r = log.ranks().get(0);
        assertEquals("mlx5_0,mlx5_1", r.env().get("NCCL_IB_HCA"));
        assertEquals(List.of("erdma_0:1/RoCE"), r.netDevices());
        assertEquals("eth0:10.0.5.76<0>", r.oob());
        assertEquals(3, r.rank(), "2.29+'s [Rank N] START prefix");
        NcclEvent warn = events(NcclEvent.Kind.IB_COMPLETION_ERROR).get(0);
        assertEquals("x", warn.host(), "the post-2.30 (function) slot before NCCL WARN");
        assertEquals("IBV_WC_RETRY_EXC_ERR", warn.field("statusName"));
        parser.line("y:2:2 [0] NCCL INFO ncclCommInitRank comm 0x9 rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 1b000 commId 0x3 - Init COMPLETE", "n.log", 11);
        assertTrue(log.ranks().stream().anyMatch(x -> x.host().equals("y") && x.noIbDevice()), "kubectl --prefix stripped");
    }
}
