package org.fabricscope.importers.logs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import org.fabricscope.importers.core.Cancellation;
import org.fabricscope.importers.core.TextLines;
import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.core.Severity;
import org.fabricscope.model.training.ChannelLink;
import org.fabricscope.model.training.GdrSupport;
import org.fabricscope.model.training.NcclEvent;
import org.fabricscope.model.training.Rank;
import org.fabricscope.model.training.Ring;
import org.fabricscope.model.training.TrainingChecks;
import org.fabricscope.model.training.TrainingLog;
import org.fabricscope.model.training.TrainingLogBuilder;
import org.fabricscope.model.training.Transport;
import org.fabricscope.model.training.TreeNode;
import org.junit.jupiter.api.Test;

/**
 * Golden tests: one log per NCCL-version variant of FORMATS.md §3 (synthetic, under
 * {@code src/test/resources/logs/}, each with its provenance in its first lines) and the real
 * NCCL 2.28.9 captures, checked for ranks, versions, transports per rank pair, rings, trees and
 * events, and for the findings they raise.
 */
class GoldenLogsTest {
    private static TrainingLog parse(String... resources) throws IOException {
        TrainingLogBuilder log = new TrainingLogBuilder();
        List<Diagnostic> d = new ArrayList<>();
        NcclLogParser p = new NcclLogParser(log, d);
        for (String n : resources) {
            try (InputStream in = GoldenLogsTest.class.getResourceAsStream(n)) {
                assertNotNull(in, n);
                p.read(new TextLines(in), n.substring(n.lastIndexOf('/') + 1), Cancellation.NEVER);
            }
        }
        p.finish();
        assertTrue(d.isEmpty(), d.toString());
        return log.build();
    }

    /** Transport of each rank pair of each communicator, {@code "a-b" -> label}, the slowest when several. */
    private static Map<String, String> pairs(TrainingLog log) {
        Map<String, String> out = new TreeMap<>();
        Map<String, Transport> worst = new TreeMap<>();
        for (ChannelLink c : log.channels()) {
            String k = Math.min(c.fromRank(), c.toRank()) + "-" + Math.max(c.fromRank(), c.toRank());
            worst.merge(k, c.transport(), (a, b) -> a.compareTo(b) >= 0 ? a : b);
        }
        worst.forEach((k, t) -> out.put(k, t.label()));
        return out;
    }

    private static List<String> ids(List<Finding> f) {
        return f.stream().map(Finding::id).toList();
    }

    private static Set<String> kinds(TrainingLog log) {
        Set<String> k = new TreeSet<>();
        log.events().forEach(e -> k.add(e.kind().name()));
        return k;
    }

    @Test
    void nccl27MpirunBusIdBracketsDoubleTreesAndNoCommId() throws IOException {
        TrainingLog log = parse("/logs/nccl-2.7-mpirun.log");
        List<Rank> ranks = log.ranks();
        assertEquals(4, ranks.size());
        assertEquals(Set.of("2.7.8"), log.ncclVersions(), "the unprefixed version line of the combined output");
        assertEquals(List.of("node01", "node01", "node02", "node02"), ranks.stream().map(Rank::host).toList());
        assertEquals(1, ranks.stream().map(Rank::commId).distinct().count(),
                "with no commId, the first 4-rank communicator of each process is the same one");
        assertEquals("size4#1", ranks.get(0).commId());
        assertEquals("ib0:10.1.0.2<0>", ranks.get(2).oob());
        assertEquals(List.of("mlx5_0:1/IB"), ranks.get(3).netDevices());
        assertEquals(Map.of("0-1", "P2P", "0-3", "NET/IB", "1-2", "NET/IB", "2-3", "P2P"), pairs(log));
        assertEquals(Map.of("P2P", 2, "NET/IB", 2), log.transportsByPair());
        ChannelLink c = log.channels().stream().filter(x -> x.via().equals("NET/IB/0") && x.fromRank() == 1).findFirst().orElseThrow();
        assertTrue(c.devIsBusId());
        assertEquals("3d000", c.fromDev());
        assertEquals("1b000", c.toDev());
        assertEquals(2, log.rings("size4#1").size());
        assertEquals(List.of(0, 1, 2, 3), log.rings("size4#1").get(1).order());
        assertEquals(2, log.rings().get(1).nChannels());
        // 2.7 double trees: two trees per channel, the second written up->rank->downs.
        List<TreeNode> t = log.trees("size4#1");
        assertEquals(16, t.size());
        TreeNode r1 = t.stream().filter(x -> x.rank() == 1 && x.channel() == 0 && x.tree() == 0).findFirst().orElseThrow();
        assertEquals(0, r1.up());
        assertEquals(List.of(2), r1.down());
        TreeNode r3b = t.stream().filter(x -> x.rank() == 3 && x.tree() == 1).findFirst().orElseThrow();
        assertEquals(2, r3b.up());
        assertEquals(List.of(), r3b.down());
        List<GdrSupport> g = log.gdrSupport();
        assertEquals(2, g.size());
        assertFalse(g.get(0).enabled());
        assertEquals("GPU 3d000, distance 4 > 2", g.get(0).reason());
        List<Finding> f = TrainingChecks.run(log);
        assertEquals(List.of("gdr-not-used"), ids(f), "IB without GDRDMA on a multi-node job, nothing else");
        assertEquals(Severity.WARNING, f.get(0).severity());
    }

    @Test
    void nccl212KubectlTimestampsGdrdmaRingsAndConnectedLines() throws IOException {
        TrainingLog log = parse("/logs/nccl-2.12-kubectl.log");
        List<Rank> ranks = log.ranks();
        assertEquals(4, ranks.size());
        assertEquals(List.of("job-w-0", "job-w-0", "job-w-1", "job-w-1"), ranks.stream().map(Rank::host).toList(),
                "kubectl --timestamps stripped; the host is the pod");
        assertEquals(Set.of("2.12.12"), log.ncclVersions());
        assertEquals("mlx5_0,mlx5_1", ranks.get(0).env().get("NCCL_IB_HCA"));
        assertEquals("eth0", ranks.get(0).env().get("NCCL_SOCKET_IFNAME"));
        assertEquals(List.of("mlx5_0:1/IB", "mlx5_1:1/IB"), ranks.get(0).netDevices());
        assertEquals("IB", ranks.get(1).network());
        assertEquals(Map.of("0-1", "P2P", "0-3", "NET/IB+GDRDMA", "1-2", "NET/IB+GDRDMA", "2-3", "P2P"), pairs(log));
        String comm = ranks.get(0).commId();
        assertEquals(Set.of(0, 1, 2, 3), log.ringsConnected().get(comm));
        assertEquals(Set.of(0, 1), log.treesConnected().get(comm));
        assertEquals(8, log.trees(comm).size());
        assertEquals(1, log.channels().stream().filter(x -> x.device() == 1 && x.fromRank() == 1 && x.direction().equals("send")).count());
        assertEquals(List.of(), ids(TrainingChecks.run(log)), "a healthy multi-node job on IB with GDRDMA");
    }

    @Test
    void nccl218RankTagsPxnShmCompletionErrorTimeoutAndTorchrunSummary() throws IOException {
        TrainingLog log = parse("/logs/nccl-2.18-torchrun.log");
        List<Rank> ranks = log.ranks();
        assertEquals(4, ranks.size());
        assertTrue(ranks.stream().allMatch(r -> r.initStarted() && r.initCompleted() && "2.18.3".equals(r.ncclVersion())));
        assertEquals(2, ranks.get(0).nNodes(), "from the comm ... nRanks 4 nNodes 2 line");
        assertEquals(-1, ranks.get(1).nNodes(), "rank 1 printed no nNodes line");
        assertEquals(List.of("mlx5_0:1/RoCE", "mlx5_1:1/RoCE"), ranks.get(2).rdmaDevices());
        // SHM and P2P on one pair: the pair counts under its slowest transport.
        assertEquals(Map.of("0-1", "SHM", "0-3", "NET/IB+GDRDMA", "1-2", "NET/IB+GDRDMA", "2-3", "P2P"), pairs(log));
        ChannelLink pxn = log.channels().stream().filter(ChannelLink::viaProxy).findFirst().orElseThrow();
        assertEquals(0, pxn.proxyRank());
        assertEquals(1, pxn.device());
        assertEquals(Transport.NET_IB_GDR, pxn.transport());
        assertTrue(pxn.devIsBusId(), "2.18 still prints the busId");
        assertEquals(List.of(0, 1, 2, 3), log.rings("0x49bbd7790311d5eb").get(0).order());
        assertEquals(2, log.ringNeighbors().size());
        assertEquals(3, log.ringNeighbors().get(0).prev());
        assertEquals(1, log.ringNeighbors().get(0).next());

        NcclEvent ib = log.events().stream().filter(e -> e.kind() == NcclEvent.Kind.IB_COMPLETION_ERROR).findFirst().orElseThrow();
        assertEquals("gpu-b", ib.host(), "rank tag [2] stripped");
        assertEquals("IBV_WC_RETRY_EXC_ERR", ib.field("statusName"));
        NcclEvent err = log.events().stream().filter(e -> e.kind() == NcclEvent.Kind.NCCL_ERROR).findFirst().orElseThrow();
        assertEquals("unhandled system error", err.field("error"));
        assertEquals("2.18.3", err.field("ncclVersion"));
        assertEquals("ncclSystemError", err.field("result"));
        assertEquals("socketStartConnect: Connect to 10.3.0.61<52822> failed : No route to host", err.field("lastError"));
        assertEquals(46, err.evidence().line(), "the rejoined message cites its first line");
        NcclEvent child = log.events().stream().filter(e -> e.kind() == NcclEvent.Kind.CHILD_FAILED).findFirst().orElseThrow();
        assertEquals("gpu-a", child.host());
        assertEquals(0, child.rank());
        assertEquals("-6", child.field("exitcode"));
        assertEquals("SIGABRT", child.field("signal"));
        assertEquals("true", child.field("rootCause"));
        assertEquals("train.py", child.field("script"));
        NcclEvent failed = log.events().stream().filter(e -> e.kind() == NcclEvent.Kind.PROCESS_FAILED).findFirst().orElseThrow();
        assertEquals("SIGABRT", failed.field("signal"));
        NcclEvent sig = log.events().stream().filter(e -> e.kind() == NcclEvent.Kind.SIGNAL).findFirst().orElseThrow();
        assertEquals("SIGTERM", sig.field("signal"));
        assertEquals("sent", sig.field("direction"));

        List<Finding> f = TrainingChecks.run(log);
        assertEquals(List.of("nccl-timeout", "ib-completion-error"), ids(f));
        Finding timeout = f.get(0);
        assertTrue(timeout.title().startsWith("NCCL collective timed out: rank 2's watchdog fired on ALLREDUCE (SeqNum 1204"),
                timeout.title());
        assertTrue(timeout.title().contains("rank 0 lagged (host gpu-a, HCA mlx5_0:1/RoCE mlx5_1:1/RoCE)"), timeout.title());
        assertEquals(2, timeout.subjects().stream().filter(s -> s.contains("watchdog fired on ALLREDUCE")).count(),
                "the 'terminated with exception' repeat of rank 2's timeout is the same timeout");
        assertEquals("nccl-2.18-torchrun.log", timeout.evidence().get(0).source());
        assertEquals(40, timeout.evidence().get(0).line());
    }

    @Test
    void nccl221TwoPodsOnSocketsIsATcpFallback() throws IOException {
        TrainingLog log = parse("/logs/nccl-2.21-socket.log");
        assertEquals(2, log.ranks().size());
        Rank master = log.ranks().get(0);
        assertEquals("train-master-0", master.host());
        assertEquals(2, master.nNodes());
        assertTrue(master.noIbDevice());
        assertEquals("Socket", master.network());
        assertEquals(Map.of("0-1", "NET/Socket"), pairs(log));
        ChannelLink c = log.channels().get(0);
        assertFalse(c.devIsBusId(), "2.19+ prints the nvmlDev in the bracket");
        assertEquals("0", c.toDev());
        NcclEvent closed = log.events().get(0);
        assertEquals(NcclEvent.Kind.SOCKET_CLOSED, closed.kind());
        assertEquals("train-master-0.train.default.svc<43512>", closed.field("peer"));
        List<Finding> f = TrainingChecks.run(log);
        assertEquals(List.of("rdma-device-missing", "tcp-fallback"), ids(f));
        assertTrue(f.get(1).title().contains("eth0:10.244.1.5<0>"), f.get(1).title());
    }

    @Test
    void nccl226PodsTimeoutNamesTheLaggingRankItsPodAndTheCollective() throws IOException {
        String d = "/logs/nccl-2.26-k8s/";
        TrainingLog log = parse(d + "llm-worker-0.log", d + "llm-worker-1.log", d + "llm-worker-2.log", d + "llm-worker-3.log");
        assertEquals(4, log.ranks().size());
        assertEquals(Set.of("2.26.2"), log.ncclVersions());
        Rank r3 = log.worldRank(3).orElseThrow();
        assertEquals("llm-worker-3", r3.host());
        assertEquals(List.of("erdma_0:1/RoCE"), r3.netDevices());
        assertEquals("eth0:10.0.5.79<0>", r3.oob());
        assertEquals("1", r3.env().get("NCCL_IB_GID_INDEX"));
        assertEquals(4, r3.nNodes());
        assertEquals(4, log.gdrSupport().size());
        assertTrue(log.gdrSupport().stream().allMatch(g -> g.enabled() && g.hca().equals("erdma_0") && g.net().equals("IB")));
        assertEquals(Map.of("0-1", "NET/IB+GDRDMA", "1-2", "NET/IB+GDRDMA", "2-3", "NET/IB+GDRDMA", "0-3", "NET/IB+GDRDMA"), pairs(log));
        assertEquals(4, log.ringNeighbors().size());
        assertEquals(2, log.rings().size());

        NcclEvent timeout = log.events().stream().filter(e -> e.kind() == NcclEvent.Kind.WATCHDOG_TIMEOUT).findFirst().orElseThrow();
        assertEquals(0, timeout.rank());
        assertEquals("5164000", timeout.field("numelOut"), "the terminal wrap inside the number is rejoined");
        assertEquals("600071", timeout.field("ranForMs"));
        assertEquals("0", timeout.field("pgId"));
        assertEquals("default_pg", timeout.field("pgName"));
        assertEquals(22, timeout.evidence().line(), "the wrapped line cites its first part");
        assertEquals(3, log.events().stream().filter(e -> e.kind() == NcclEvent.Kind.FLIGHT_RECORDER
                && "dump-signal".equals(e.field("action"))).count());
        NcclEvent warn = log.events().stream().filter(e -> e.kind() == NcclEvent.Kind.IB_COMPLETION_ERROR).findFirst().orElseThrow();
        assertEquals("llm-worker-2", warn.host(), "kubectl time and NCCL 2.26 WARN time both stripped");
        NcclEvent err = log.events().stream().filter(e -> e.kind() == NcclEvent.Kind.NCCL_ERROR).findFirst().orElseThrow();
        assertEquals(2, err.rank());
        assertEquals("ncclRemoteError", err.field("result"));
        assertEquals("IBV_WC_RETRY_EXC_ERR", err.field("statusName"));
        assertEquals("10.0.5.79<51234>", err.field("peer"));
        assertEquals(4, log.events().stream().filter(e -> e.kind() == NcclEvent.Kind.CHILD_FAILED).count());
        assertEquals(4, log.events().stream().filter(e -> e.kind() == NcclEvent.Kind.ABORT).count());

        List<Finding> f = TrainingChecks.run(log);
        assertEquals(List.of("nccl-timeout", "ib-completion-error"), ids(f));
        Finding t = f.get(0);
        assertTrue(t.title().contains("rank 0's watchdog fired on ALLREDUCE (SeqNum 812, NumelIn 5164000, NumelOut 5164000, Timeout 600000 ms) after 600071 ms"),
                t.title());
        assertTrue(t.title().contains("rank 3 lagged (host llm-worker-3, HCA erdma_0:1/RoCE)"), t.title());
        assertTrue(t.subjects().get(0).contains("last enqueued work is the lowest, 810"), t.subjects().get(0));
        assertTrue(t.evidence().stream().anyMatch(e -> e.source().equals("llm-worker-3.log")), t.evidence().toString());
    }

    @Test
    void realNccl228CapturesRingsTreesAndNoFindings() throws IOException {
        String d = "/reference/nccl-logs/h200x2-nccl-2.28.9/normal/";
        TrainingLog log = parse(d + "nccl.vm.640.log", d + "nccl.vm.641.log", d + "torchrun-stdout.log");
        String comm = log.ranks().get(0).commId();
        assertEquals("0x19766757c5e65c50", comm);
        assertEquals(1, log.ranks().get(0).nNodes());
        List<Ring> rings = log.rings(comm);
        assertEquals(24, rings.size(), "rank 0 prints Channel NN/24 : 0 1 for each of the 24 rings");
        assertEquals(List.of(0, 1), rings.get(23).order());
        assertEquals(48, log.ringNeighbors().size(), "Ring NN : prev -> rank -> next from both ranks");
        // Trees [c] lines (24 channels x 2 ranks) and rank 1's Tree N : up -> rank -> downs lines.
        assertTrue(log.trees(comm).size() >= 48, String.valueOf(log.trees(comm).size()));
        TreeNode t6 = log.trees(comm).stream().filter(x -> x.rank() == 1 && x.channel() == 6).findFirst().orElseThrow();
        assertEquals(-1, t6.up());
        assertEquals(List.of(0), t6.down());
        assertTrue(log.gdrSupport().stream().noneMatch(GdrSupport::isRdma), "only the Socket plugin's verdict on eth0");
        assertEquals(Map.of("0-1", "P2P"), pairs(log));
        assertFalse(log.channels().get(0).devIsBusId());
        assertEquals(List.of("rdma-device-not-needed"), ids(TrainingChecks.run(log)),
                "healthy single-host NVLink job: No device found. is normal, an info at most");
    }
}
