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
import java.util.Map;

import org.fabricscope.importers.core.Cancellation;
import org.fabricscope.importers.core.TextLines;
import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.training.ChannelLink;
import org.fabricscope.model.training.NcclEvent;
import org.fabricscope.model.training.Rank;
import org.fabricscope.model.training.TrainingLog;
import org.fabricscope.model.training.TrainingLogBuilder;
import org.fabricscope.model.training.Transport;
import org.junit.jupiter.api.Test;

/** The NCCL/PyTorch log parser on the real 2xH200 capture and on each version variant of FORMATS.md §3. */
class NcclLogParserTest {
    private static TrainingLog parseResources(String... names) throws IOException {
        TrainingLogBuilder log = new TrainingLogBuilder();
        List<Diagnostic> d = new ArrayList<>();
        NcclLogParser p = new NcclLogParser(log, d);
        for (String n : names) {
            try (InputStream in = NcclLogParserTest.class.getResourceAsStream("/reference/nccl-logs/h200x2-nccl-2.28.9/" + n)) {
                p.read(new TextLines(in), n, Cancellation.NEVER);
            }
        }
        assertTrue(d.isEmpty(), d.toString());
        return log.build();
    }

    private static TrainingLog parse(String text) throws IOException {
        TrainingLogBuilder log = new TrainingLogBuilder();
        new NcclLogParser(log, new ArrayList<>()).read(
                new TextLines(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8))), "test.log", Cancellation.NEVER);
        return log.build();
    }

    @Test
    void realNvlinkCaptureHasTwoRanksTalkingP2p() throws IOException {
        TrainingLog log = parseResources("normal/nccl.vm.640.log", "normal/nccl.vm.641.log");
        List<Rank> ranks = log.ranks().stream().filter(Rank::initCompleted).toList();
        assertEquals(2, ranks.size(), log.ranks().toString());
        for (Rank r : ranks) {
            assertEquals("vm", r.host());
            assertEquals(2, r.nranks());
            assertEquals("2.28.9", r.ncclVersion());
            assertTrue(r.noIbDevice(), "NET/IB : No device found. is INFO, and it was seen");
            assertEquals("Socket", r.network());
            assertEquals(r.rank(), r.cudaDev());
        }
        assertEquals(Map.of("P2P", 1), log.transportsByPair());
        assertTrue(log.channels().stream().allMatch(c -> c.transport() == Transport.P2P));
        assertEquals(java.util.Set.of("2.28.9"), log.ncclVersions());
        assertTrue(log.events().isEmpty(), log.events().toString());
    }

    @Test
    void logsAreDetectedByContentAndFillTheModelsTrainingLayer() throws Exception {
        java.nio.file.Path dir = java.nio.file.Path.of(NcclLogParserTest.class.getResource(
                "/reference/nccl-logs/h200x2-nccl-2.28.9/socket").toURI());
        org.fabricscope.importers.ImportResult r = new org.fabricscope.importers.FabricImporter().importPaths(
                List.of(dir), org.fabricscope.importers.ImportProgress.NONE, Cancellation.NEVER);
        assertTrue(r.formats().values().stream().allMatch(f -> "nccl-log".equals(f)), r.formats().toString());
        assertEquals(2, r.model().trainingLog().ranks().size());
        assertEquals(Map.of("NET/Socket", 1), r.model().trainingLog().transportsByPair());
        org.fabricscope.model.analysis.FabricSummary s = org.fabricscope.model.analysis.FabricSummary.of(r.model(),
                org.fabricscope.model.diagnosis.ErrorThresholds.defaults());
        assertEquals(2, s.ranks());
        assertEquals(List.of("2.28.9"), s.ncclVersions());
        List<org.fabricscope.model.core.Finding> f = org.fabricscope.model.diagnosis.Diagnosis.standard(
                org.fabricscope.model.diagnosis.ErrorThresholds.defaults()).run(r.model(),
                org.fabricscope.model.diagnosis.ErrorThresholds.defaults());
        // one host talking to itself over sockets is not a multi-node TCP fallback: the info that it needed no RDMA
        // device, and the transport downgraded by the two variables the log reports
        assertEquals(List.of("transport-downgraded", "rdma-device-not-needed"),
                f.stream().map(org.fabricscope.model.core.Finding::id).toList(), f.toString());
        assertTrue(f.get(0).title().endsWith("via NET/Socket/0 (2 channels) instead of directly (P2P): NCCL_P2P_DISABLE=1, "
                + "NCCL_SHM_DISABLE=1 set by the environment"), f.get(0).title());
        assertEquals(org.fabricscope.model.core.Severity.INFO, f.get(1).severity());
        assertTrue(f.get(1).title().contains("channels via NET/Socket inside the host mean P2P and shared memory were off"), f.get(1).title());
    }

    /**
     * NCCL's lines behind whatever a launcher put before them are the same lines: Slurm's {@code srun --label},
     * torchrun's {@code [default0]:} or a prefix template of the user's own, pdsh's {@code host: }, or text no launcher
     * this parser knows prints. The real socket capture, each line so prefixed, gives the same ranks, channels, rings,
     * events and transports as without.
     */
    @Test
    void ncclLinesBehindAnyLauncherPrefixAreRead() throws IOException {
        StringBuilder text = new StringBuilder();
        for (String n : List.of("socket/nccl.vm.704.log", "socket/nccl.vm.705.log")) {
            try (InputStream in = NcclLogParserTest.class.getResourceAsStream("/reference/nccl-logs/h200x2-nccl-2.28.9/" + n)) {
                text.append(new String(in.readAllBytes(), StandardCharsets.UTF_8));
            }
        }
        TrainingLog plain = parse(text.toString());
        assertFalse(plain.ranks().isEmpty());
        for (String prefix : List.of("07: ", "[default1]:", "[trainer3|1]:", "vm: ", "worker 3 | ", "(RayTrainWorker pid=704) ",
                "2026-11-28T13:00:00.5Z 03: [default0]:", "2026-11-28T13:00:00.123456789+00:00 stderr F ",
                "Nov 28 13:00:00 [default0]:", "2026-11-28 13:00:00 [stdout] ")) { // a time of day is not a host:pid:tid
            TrainingLog prefixed = parse(text.toString().replaceAll("(?m)^(?=.)", java.util.regex.Matcher.quoteReplacement(prefix)));
            // the same lines cited, each as it was printed: with its prefix
            java.util.function.Function<Object, String> cited = o -> o.toString().replace("text=" + prefix, "text=");
            assertEquals(plain.ranks().toString(), cited.apply(prefixed.ranks()), prefix);
            assertEquals(plain.channels().toString(), cited.apply(prefixed.channels()), prefix);
            assertEquals(plain.rings().toString(), cited.apply(prefixed.rings()), prefix);
            assertEquals(plain.transportsByPair(), prefixed.transportsByPair(), prefix);
            assertEquals(plain.events().stream().map(e -> e.kind() + " " + e.message()).toList(),
                    prefixed.events().stream().map(e -> e.kind() + " " + e.message()).toList(), prefix);
        }
    }

    @Test
    void aProcessThatFailsBeforeInitKeepsItsNetwork() throws IOException {
        // NCCL 2.28 with NCCL_NET=IB on a host without an RDMA device (sample-fabrics' no-rdma-device capture)
        TrainingLog log = parse(String.join("\n",
                "vm:795:795 [0] NCCL INFO NCCL version 2.28.9+cuda13.0",
                "vm:795:795 [0] NCCL INFO NCCL_IB_HCA set by environment to mlx5",
                "vm:795:795 [0] NCCL INFO NET/IB : No device found.",
                "vm:795:795 [0] NCCL INFO NET/IB : Using [RO]; OOB eth0:192.0.2.2<0>",
                "vm:795:795 [0] NCCL INFO Failed to initialize NET plugin IB",
                "",
                "[2026-11-23 09:30:01] vm:795:795 [0] plugin/net.cc:379 NCCL WARN Failed to initialize any NET plugin",
                "vm:795:795 [0] NCCL INFO init.cc:421 -> 5",
                "other:7:7 [0] NCCL WARN Error: network IB not found."));
        assertEquals(List.of(), log.ranks(), "no communicator reached Init");
        assertEquals(2, log.processes().size());
        org.fabricscope.model.training.NcclProcess p = log.processes().get(0);
        assertEquals("vm:795", p.process());
        assertEquals(3, p.noIbDevice().line());
        assertEquals(List.of("IB", "any"), p.failedNets());
        assertTrue(p.noNetwork());
        assertEquals(7, p.netFailure().line());
        assertEquals("mlx5", p.env().get("NCCL_IB_HCA"));
        org.fabricscope.model.training.NcclProcess old = log.processes().get(1);
        assertEquals(List.of("IB", "any"), old.failedNets(), "NCCL 2.18 and older: Error: network IB not found.");
        assertEquals(null, old.noIbDevice());
        assertTrue(log.events().stream().anyMatch(e -> e.message().equals("Failed to initialize any NET plugin")),
                "the WARN stays an event");
    }

    @Test
    void realSocketCaptureFallsBackToTcp() throws IOException {
        TrainingLog log = parseResources("socket/nccl.vm.704.log", "socket/nccl.vm.705.log");
        assertEquals(Map.of("NET/Socket", 1), log.transportsByPair());
        Rank r = log.ranks().get(0);
        assertEquals("1", r.env().get("NCCL_P2P_DISABLE"));
        assertEquals("1", r.env().get("NCCL_SHM_DISABLE"));
        assertTrue(r.netDevices().get(0).startsWith("socket eth0:"), r.netDevices().toString());
        ChannelLink c = log.channels().get(0);
        assertEquals(Transport.NET_SOCKET, c.transport());
        assertTrue(c.evidence().line() > 0);
    }

    @Test
    void networkSelectionAcrossVersionsAndLaunchers() throws IOException {
        TrainingLog log = parse(String.join("\n",
                "node08:6561:6561 [0] NCCL INFO NCCL version 2.7.8+cuda11.0",
                "node08:6561:6561 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB ; OOB ibs3:10.252.0.211<0>",
                "node08:6561:6561 [0] NCCL INFO comm 0x7fdf08000d00 rank 15 nranks 16 cudaDev 7 busId e7000 - Init COMPLETE",
                "4c217144f0b1:113168:113179 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB [2]mlx5_2:1/IB [3]mlx5_3:1/IB [RO]; OOB eth0:10.0.1.9<0>",
                "4c217144f0b1:113168:113179 [0] NCCL INFO Using network IB",
                "4c217144f0b1:113168:113179 [0] NCCL INFO ncclCommInitRank comm 0x8ec0ac0 rank 6 nranks 16 cudaDev 6 nvmlDev 6 busId c8000 commId 0x49bbd7790311d5eb - Init COMPLETE",
                "2024-05-08T08:47:31.877123456Z job-a-worker-0:5664:5734 [1] NCCL INFO NET/IB : Using [0]erdma_0:1/RoCE [RO]; OOB eth0:10.0.5.76<0>",
                "2024-05-08T08:47:31.877123456Z job-a-worker-0:5664:5734 [1] NCCL INFO [Rank 3] ncclCommInitRankConfig comm 0x1 rank 3 nranks 4 cudaDev 1 nvmlDev 1 busId 1b000 commId 0x2 - Init START"));
        List<Rank> ranks = log.ranks();
        assertEquals(3, ranks.size());
        assertEquals(List.of("mlx5_0:1/IB"), ranks.get(0).netDevices());
        assertEquals("2.7.8", ranks.get(0).ncclVersion());
        assertEquals(-1, ranks.get(0).nvmlDev(), "no nvmlDev before 2.18");
        assertEquals(4, ranks.get(1).netDevices().size());
        assertEquals("IB", ranks.get(1).network());
        assertEquals("0x49bbd7790311d5eb", ranks.get(1).commId());
        Rank k8s = ranks.get(2);
        assertEquals("job-a-worker-0", k8s.host(), "kubectl --timestamps prefix stripped; the host is the pod");
        assertEquals(List.of("erdma_0:1/RoCE"), k8s.netDevices());
        assertTrue(k8s.initStarted());
        assertFalse(k8s.initCompleted());
    }

    /**
     * ncclCommSplit's (and ncclCommShrink's) Init START, which NCCL 2.23 to 2.29 print with no space before the dash
     * ({@code "... color %d key %d- Init START"}, {@code src/init.cc}); its COMPLETE has the space.
     */
    @Test
    void aSplitCommunicatorsInitStartWithoutTheSpace() throws IOException {
        TrainingLog log = parse(String.join("\n",
                "node-a:11:11 [0] NCCL INFO NCCL version 2.28.9+cuda13.0",
                "node-a:11:11 [0] NCCL INFO ncclCommSplit comm 0x5a1 rank 1 nranks 4 cudaDev 0 nvmlDev 0 busId 1b000"
                        + " parent 0x4f0 splitCount 1 color 0 key 1- Init START",
                "node-b:12:12 [0] NCCL INFO ncclCommSplit comm 0x6b2 rank 2 nranks 4 cudaDev 0 nvmlDev 0 busId 1b000"
                        + " parent 0x4f1 splitCount 1 color 0 key 2- Init START",
                "node-b:12:12 [0] NCCL INFO ncclCommSplit comm 0x6b2 rank 2 nranks 4 cudaDev 0 nvmlDev 0 busId 1b000"
                        + " parent 0x4f1 splitCount 1 color 0 key 2 - Init COMPLETE"));
        Rank a = log.ranks().stream().filter(r -> r.host().equals("node-a")).findFirst().orElseThrow();
        assertTrue(a.initStarted(), "the START with no space before its dash is read");
        assertFalse(a.initCompleted(), "node-a never completed: a hang in the split");
        Rank b = log.ranks().stream().filter(r -> r.host().equals("node-b")).findFirst().orElseThrow();
        assertTrue(b.initCompleted());
        assertEquals(4, b.nranks());
    }

    @Test
    void channelTransportsOfEveryEra() throws IOException {
        TrainingLog log = parse(String.join("\n",
                "10-90-43-152:120890:121560 [0] NCCL INFO Channel 01 : 2[c7000] -> 0[87000] [receive] via NET/IB/5/GDRDMA",
                "H20-GPU-06:4015539:4015652 [0] NCCL INFO Channel 07/0 : 0[0] -> 2[0] [receive] via NET/IB/3",
                "H20-GPU-06:4015540:4015653 [1] NCCL INFO Channel 00/0 : 3[1] -> 2[0] via P2P/CUMEM",
                "cl:919:1150 [0] NCCL INFO Channel 01/0 : 8[0] -> 15[7] via P2P/IPC/read",
                "cl:926:1151 [7] NCCL INFO Channel 03/0 : 15[7] -> 6[6] [send] via NET/Socket/3",
                "kolyoz2:25146:25827 [0] NCCL INFO Channel 00/0 : 3[3] -> 4[0] [receive] via NET/IBext_v8/0/GDRDMA",
                "[2] node0:13572:13572 [1] NCCL INFO Channel 00 : 2[1] -> 0[0] via SHM/direct/direct",
                "Fri Aug 11 12:31:45 2023[1,0]<stdout>:tomte:1:2 [0] NCCL INFO Channel 02/0 : 1[0] -> 0[0] via P2P/direct pointer",
                "spark01:2683:2826 [0] NCCL INFO Channel 00/02 :    0   1"));
        Map<String, ChannelLink> byVia = new java.util.HashMap<>();
        log.channels().forEach(c -> byVia.put(c.via(), c));
        assertEquals(8, log.channels().size(), "the ring line is not a channel link");
        assertEquals(Transport.NET_IB_GDR, byVia.get("NET/IB/5/GDRDMA").transport());
        assertEquals(Transport.NET_IB, byVia.get("NET/IB/3").transport());
        assertEquals(Transport.P2P, byVia.get("P2P/CUMEM").transport());
        assertEquals(Transport.P2P, byVia.get("P2P/IPC/read").transport());
        assertEquals(Transport.NET_SOCKET, byVia.get("NET/Socket/3").transport());
        assertEquals(Transport.NET_IB_GDR, byVia.get("NET/IBext_v8/0/GDRDMA").transport());
        assertEquals(Transport.SHM, byVia.get("SHM/direct/direct").transport());
        assertEquals(Transport.P2P, byVia.get("P2P/direct pointer").transport(), "the whole via text is kept");
        assertEquals(5, byVia.get("NET/IB/5/GDRDMA").device());
        assertEquals(3, byVia.get("NET/Socket/3").device());
        assertEquals(-1, byVia.get("P2P/CUMEM").device());
        assertEquals("receive", byVia.get("NET/IB/5/GDRDMA").direction());
        assertEquals("c7000", byVia.get("NET/IB/5/GDRDMA").fromDev());
        assertTrue(byVia.get("NET/IB/5/GDRDMA").devIsBusId(), "a hex bracket with no version line is a busId");
        assertFalse(byVia.get("P2P/CUMEM").devIsBusId(), "a small decimal bracket with no version line is an nvmlDev");
        assertEquals(1, log.rings().size());
        assertEquals(List.of(0, 1), log.rings().get(0).order());
    }

    @Test
    void warnLinesAreClassifiedWithTheirFields() throws IOException {
        TrainingLog log = parse(String.join("\n",
                "spark01:2683:2826 [0] misc/ibvwrap.cc:268 NCCL WARN Call to ibv_create_cq failed",
                "h:1:2 [0] misc/ibvwrap.cc:278 NCCL WARN Call to ibv_reg_mr_iova2 failed with error Cannot allocate memory errno 12",
                "H100-2:19989:20082 [1] transport/net_ib.cc:1295 NCCL WARN NET/IB : Got completion from peer fe80::966d:ae03:8b:df78%ib0<53249> with error 4, opcode 32564, len 32564, vendor err 81 (Send)",
                "[2025-01-02 03:04:05] kp-ddp-worker-0:3468:3905 [4] ib_plugin.c:1615 NCCL WARN NET/IB : Got completion from peer 10.216.210.236<54862> with status=12 opcode=0 len=0 vendor err 129 (Recv) localGid fd00::1 remoteGidsfd00::2",
                "w:1:2 [0] transport/net_ib.cc:1 NCCL WARN NET/IB: Got completion from peer 10.0.0.2<1> with status=IBV_WC_RETRY_EXC_ERR(12) opcode=IBV_WC_SEND(0) vendor_err=129 (Send) hca mlx5_0",
                "gpu004:2200689:2200706 [3] misc/socket.cc:49 NCCL WARN socketProgress: Connection closed by remote peer gpu004.abc.com<55693>",
                "a100:183006:183181 [1] misc/socket.cc:538 NCCL WARN Net : Connection closed by remote peer a100.pcluster<47861>"));
        List<NcclEvent> e = log.events();
        assertEquals(7, e.size());
        assertEquals(NcclEvent.Kind.VERBS_FAILURE, e.get(0).kind());
        assertEquals("ibv_create_cq", e.get(0).field("call"));
        assertEquals("12", e.get(1).field("errno"));
        assertEquals("Cannot allocate memory", e.get(1).field("error"));
        assertEquals(NcclEvent.Kind.IB_COMPLETION_ERROR, e.get(2).kind());
        assertEquals("IBV_WC_LOC_PROT_ERR", e.get(2).field("statusName"));
        assertEquals("IBV_WC_RETRY_EXC_ERR", e.get(3).field("statusName"));
        assertEquals("kp-ddp-worker-0", e.get(3).host(), "2.26+ WARN timestamp stripped");
        assertEquals("12", e.get(4).field("status"));
        assertEquals("129", e.get(4).field("vendorErr"));
        assertEquals(NcclEvent.Kind.SOCKET_CLOSED, e.get(5).kind());
        assertEquals("a100.pcluster<47861>", e.get(6).field("peer"));
    }

    @Test
    void pytorchWatchdogAndTorchrunFailuresOfEveryEra() throws IOException {
        TrainingLog log = parse(String.join("\n",
                "[E ProcessGroupNCCL.cpp:737] [Rank 1] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=469508, OpType=ALLREDUCE, Timeout(ms)=1800000) ran for 1802212 milliseconds before timing out.",
                "[rank0]:[E1206 18:44:12.715298746 ProcessGroupNCCL.cpp:607] [Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=7753, OpType=_REDUCE_SCATTER_BASE, NumelIn=544997376, NumelOut=68124672, Timeout(ms)=600000) ran for 600061 milliseconds before timing out.",
                "[rank1]:[E626 06:24:44.906457629 ProcessGroupNCCL.cpp:1785] [PG ID 0 PG GUID 0(default_pg) Rank 1] Exception (either an error or timeout) detected by watchdog at work: 808, last enqueued NCCL work: 811, last completed NCCL work: 807.",
                "[rank5]:[E626 16:48:25.440238649 ProcessGroupNCCL.cpp:2268] [PG ID 0 PG GUID 0(default_pg) Rank 5]  failure detected by watchdog at work sequence id: 120049 PG status: last enqueued work: 120051, last completed work: 120048",
                "ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: -6) local_rank: 0 (pid: 218624) of binary: /usr/bin/python",
                "E0801 13:23:20.000000 32974 torch/distributed/elastic/multiprocessing/api.py:874] failed (exitcode: 1) local_rank: 3 (pid: 33054) of binary: /usr/bin/python3"));
        List<NcclEvent> e = log.events();
        assertEquals(6, e.size(), e.toString());
        assertEquals(NcclEvent.Kind.WATCHDOG_TIMEOUT, e.get(0).kind());
        assertEquals(1, e.get(0).rank());
        assertEquals("ALLREDUCE", e.get(0).field("opType"));
        assertEquals("544997376", e.get(1).field("numelIn"));
        assertEquals("600061", e.get(1).field("ranForMs"));
        assertEquals(NcclEvent.Kind.WATCHDOG_PROGRESS, e.get(2).kind());
        assertEquals("811", e.get(2).field("lastEnqueued"));
        assertEquals("807", e.get(2).field("lastCompleted"));
        assertEquals(5, e.get(3).rank());
        assertEquals("120048", e.get(3).field("lastCompleted"));
        assertEquals(NcclEvent.Kind.PROCESS_FAILED, e.get(4).kind());
        assertEquals("-6", e.get(4).field("exitcode"));
        assertEquals("3", e.get(5).field("localRank"));
    }
}
