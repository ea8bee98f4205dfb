package org.fabricscope.model.training;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Set;

import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.core.Finding;
import org.junit.jupiter.api.Test;

/** The training layer's model and checks on hand-built ranks, links and events (no parser). */
class TrainingLogTest {
    private static Evidence ev(String source, int line) {
        return Evidence.at(source, line, "line " + line);
    }

    private static Rank rank(String host, int pid, String comm, int rank, int nranks, boolean complete, List<String> devs,
                             Map<String, String> env, int nNodes) {
        return new Rank(host, pid, 0, 0, "1b000", comm, rank, nranks, nNodes, "2.21.5", true, complete, devs, null, "IB",
                false, env, ev(host + ".log", rank + 1));
    }

    @Test
    void completeMergesIntoStartKeepingWhatOnlyOneOfThemSaid() {
        TrainingLogBuilder log = new TrainingLogBuilder();
        log.putRank(rank("a", 1, "0x1", 0, 2, false, List.of("mlx5_0:1/IB"), Map.of("NCCL_IB_HCA", "mlx5_0"), -1));
        log.putRank(rank("a", 1, "0x1", 0, 2, true, List.of(), Map.of("NCCL_DEBUG", "INFO"), 2));
        assertEquals(1, log.ranks().size());
        Rank r = log.ranks().get(0);
        assertTrue(r.initStarted() && r.initCompleted());
        assertEquals(List.of("mlx5_0:1/IB"), r.netDevices());
        assertEquals(Map.of("NCCL_IB_HCA", "mlx5_0", "NCCL_DEBUG", "INFO"), r.env());
        assertEquals(2, r.nNodes());
        assertEquals(1, r.evidence().line(), "the START line stays the rank's evidence");
    }

    @Test
    void worldRankIsTheRankOfTheLargestCommunicator() {
        TrainingLogBuilder log = new TrainingLogBuilder();
        log.putRank(rank("pod-a", 1, "0xsub", 1, 2, true, List.of(), Map.of(), -1));
        log.putRank(rank("pod-b", 2, "0xworld", 1, 8, true, List.of(), Map.of(), -1));
        assertEquals("pod-b", log.build().worldRank(1).orElseThrow().host());
        assertTrue(log.build().worldRank(5).isEmpty());
    }

    @Test
    void ringsTreesAndConnectedRanksByCommunicator() {
        TrainingLogBuilder log = new TrainingLogBuilder();
        log.addRing(new Ring("0x1", 0, 2, List.of(0, 1, 2), ev("x", 1)));
        log.addRing(new Ring("0x2", 0, 1, List.of(0, 1), ev("x", 2)));
        log.addTreeNode(new TreeNode("0x1", 0, 0, 1, 0, List.of(2), ev("x", 3)));
        log.markConnected("0x1", 2, false);
        log.markConnected("0x1", 0, false);
        log.markConnected("0x1", 0, true);
        assertEquals(List.of(0, 1, 2), log.build().rings("0x1").get(0).order());
        assertEquals(1, log.build().rings("0x2").size());
        assertEquals(1, log.build().trees("0x1").size());
        assertEquals(List.of(), log.build().trees("0x2"));
        assertEquals(Set.of(0, 2), log.build().ringsConnected().get("0x1"));
        assertEquals(Set.of(0), log.build().treesConnected().get("0x1"));
    }

    @Test
    void timeoutLaggardIsTheLowestLastEnqueuedThenLowestCompleted() {
        TrainingLogBuilder log = new TrainingLogBuilder();
        log.putRank(rank("pod-0", 1, "0xw", 0, 4, true, List.of("mlx5_0:1/IB"), Map.of(), 2));
        log.addEvent(new NcclEvent(NcclEvent.Kind.WATCHDOG_TIMEOUT, "", -1, 0, "t",
                Map.of("seqNum", "9", "opType", "ALLGATHER", "timeoutMs", "1000", "ranForMs", "1004"), ev("r0.log", 5)));
        log.addEvent(new NcclEvent(NcclEvent.Kind.WATCHDOG_PROGRESS, "", -1, 1, "p",
                Map.of("lastEnqueued", "9", "lastCompleted", "7"), ev("r1.log", 6)));
        log.addEvent(new NcclEvent(NcclEvent.Kind.WATCHDOG_PROGRESS, "", -1, 2, "p",
                Map.of("lastEnqueued", "8", "lastCompleted", "8"), ev("r2.log", 7)));
        log.addEvent(new NcclEvent(NcclEvent.Kind.WATCHDOG_PROGRESS, "", -1, 3, "p",
                Map.of("lastEnqueued", "8", "lastCompleted", "6"), ev("r3.log", 8)));
        log.addEvent(new NcclEvent(NcclEvent.Kind.CHILD_FAILED, "node-7", 44, 3, "c",
                Map.of("host", "node-7", "rank", "3"), ev("launcher.log", 20)));
        List<Finding> f = TrainingChecks.run(log.build());
        assertEquals(List.of("nccl-timeout"), f.stream().map(Finding::id).toList());
        Finding t = f.get(0);
        assertTrue(t.title().contains("rank 0's watchdog fired on ALLGATHER (SeqNum 9, Timeout 1000 ms) after 1004 ms"), t.title());
        assertTrue(t.title().contains("rank 3 lagged (host node-7)"), "no NCCL rank 3: the torchrun summary's host; " + t.title());
        assertTrue(t.evidence().stream().anyMatch(e -> e.source().equals("r3.log") && e.line() == 8), t.evidence().toString());
    }

    @Test
    void gdrDisabledOnAnRdmaDeviceOfAMultiHostCommIsGdrNotUsed() {
        TrainingLogBuilder log = new TrainingLogBuilder();
        log.putRank(rank("h1", 1, "0xc", 0, 2, true, List.of("mlx5_0:1/IB"), Map.of(), 2));
        log.putRank(rank("h2", 2, "0xc", 1, 2, true, List.of("mlx5_0:1/IB"), Map.of(), 2));
        log.addGdrSupport(new GdrSupport("h1", 1, "IB", 0, "mlx5_0", false, "no module", ev("h1.log", 9)));
        log.addGdrSupport(new GdrSupport("h1", 1, "Socket", 0, "eth0", false, "", ev("h1.log", 10)));
        List<Finding> f = TrainingChecks.run(log.build());
        assertEquals(List.of("gdr-not-used"), f.stream().map(Finding::id).toList());
        assertEquals(List.of("h1:1 HCA 0 mlx5_0 GDR disabled (no module)"), f.get(0).subjects());
        assertTrue(f.get(0).remedies().get(0).contains("no module"));

        TrainingLogBuilder single = new TrainingLogBuilder();
        single.putRank(rank("h1", 1, "0xc", 0, 2, true, List.of("mlx5_0:1/IB"), Map.of(), 1));
        single.putRank(rank("h1", 2, "0xc", 1, 2, true, List.of("mlx5_0:1/IB"), Map.of(), 1));
        single.addGdrSupport(new GdrSupport("h1", 1, "IB", 0, "mlx5_0", false, "", ev("h1.log", 9)));
        assertEquals(List.of(), TrainingChecks.run(single.build()), "one host: NCCL does not use the HCA between its own GPUs");
    }

    @Test
    void transportsMapFromTheViaTextOfEveryVersion() {
        assertEquals(Transport.P2P, Transport.ofVia("P2P/IPC/read"));
        assertEquals(Transport.P2P, Transport.ofVia("P2P/CUMEM/CE"));
        assertEquals(Transport.P2P, Transport.ofVia("P2P/direct pointer"));
        assertEquals(Transport.SHM, Transport.ofVia("SHM/direct/direct"));
        assertEquals(Transport.SHM, Transport.ofVia("SHM/direct"));
        assertEquals(Transport.NET_IB_GDR, Transport.ofVia("NET/IB/1(0)/GDRDMA"));
        assertEquals(Transport.NET_IB_GDR, Transport.ofVia("NET/IBext_v8/0/GDRDMA"));
        assertEquals(Transport.NET_IB, Transport.ofVia("NET/IB/3"));
        assertEquals(Transport.NET_SOCKET, Transport.ofVia("NET/Socket/0"));
        assertEquals(Transport.NET_OTHER, Transport.ofVia("NET/AWS Libfabric/0/GDRDMA"));
        assertEquals(null, Transport.ofVia("COLLNET/x"));
    }
}
