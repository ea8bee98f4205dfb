package org.fabricscope.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.fabricscope.importers.ImportResult;
import org.fabricscope.model.fabric.Cable;
import org.fabricscope.model.FabricModel;
import org.fabricscope.model.analysis.FabricSummary;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.core.Severity;
import org.fabricscope.model.diagnosis.ErrorThresholds;
import org.fabricscope.model.ranks.RankMap;
import org.fabricscope.model.ranks.RankRoute;
import org.fabricscope.model.ranks.RankSite;
import org.fabricscope.model.training.Transport;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code training-incident/} (kubectl logs of a 16-rank job, its pods and nodes) with the rail
 * capture and its host topologies: every rank joins its pod, node, GPU, HCA and leaf port; rank
 * pairs get their transports and fabric paths; and the flapping cable under rank 12 is named as the
 * likely cause of the job's IB completion error and timeout.
 */
class TrainingIncidentGoldenTest {
    private static FabricModel model;
    private static ImportResult result;
    private static List<Finding> findings;
    private static RankMap ranks;

    @BeforeAll
    static void load() throws Exception {
        Path rail = Samples.root().resolve("rail-2su-hdr");
        List<Path> files = new ArrayList<>(Samples.captureFiles(rail));
        files.add(rail.resolve("hosts"));
        files.add(Samples.root().resolve("training-incident"));
        result = Samples.load(files);
        model = result.model();
        findings = Samples.diagnose(model);
        ranks = RankMap.of(model);
    }

    @Test
    void logsPodsAndNodesAreDetected() {
        Map<String, String> f = result.formats();
        assertEquals("nccl-log", f.entrySet().stream().filter(e -> e.getKey().endsWith("gpt-train-worker-0.log"))
                .findFirst().orElseThrow().getValue());
        assertEquals("k8s-objects", f.entrySet().stream().filter(e -> e.getKey().endsWith("pods.json"))
                .findFirst().orElseThrow().getValue());
        FabricSummary s = FabricSummary.of(model, ErrorThresholds.defaults());
        assertEquals(16, s.ranks());
        assertEquals(Map.of("NET/IB", 8, "P2P", 16), s.transports(),
                "8 rings: one cross-host pair per rail, and the 8 cyclic NVLink neighbours on each host");
    }

    @Test
    void everyRankJoinsPodNodeGpuHcaAndLeaf() {
        assertEquals(16, ranks.sites().size());
        for (RankSite s : ranks.sites()) {
            int r = s.rank().rank();
            String pod = r < 8 ? "gpt-train-master-0" : "gpt-train-worker-0";
            String host = r < 8 ? "dgx-su1-h05" : "dgx-su2-h07";
            assertEquals(pod, s.pod(), "rank " + r);
            assertEquals(host, s.k8sNode(), "rank " + r);
            assertEquals(host, s.host(), "rank " + r);
            assertNotNull(s.gpu(), "rank " + r + " GPU by busId " + s.rank().busId());
            assertEquals("GPU" + (r % 8), s.gpu().label());
            assertEquals(host + " mlx5_" + (r % 8), s.hca().description(), "rank " + r + " uses its rail's HCA");
            assertNotNull(s.leafPort(), "rank " + r);
        }
        RankSite r12 = ranks.site(ranks.sites().get(0).rank().commId(), 12);
        assertEquals("leaf-su2-r5", r12.leafPort().node().description().replaceAll("^MF0;|:.*$", ""));
        assertEquals(7, r12.leafPort().number());
    }

    @Test
    void crossHostPairsRunLeafSpineLeafOnTheirRail() {
        List<RankRoute> net = ranks.routes().stream().filter(r -> r.transport().isNetwork()).toList();
        assertEquals(8, net.size());
        for (RankRoute r : net) {
            assertEquals(Transport.NET_IB_GDR, r.transport());
            assertEquals(r.a().rank().rank() % 8, r.b().rank().rank() % 8, "rail-aligned pair " + r);
            // HCA -> leaf (su1) -> spine -> leaf (su2) -> HCA
            assertEquals(5, r.path().size(), r.path().toString());
            Cable first = r.cables().stream().filter(c -> c.touches(r.a().hca())).findFirst().orElseThrow();
            assertTrue(first.touches(r.a().leafPort().node()));
        }
        assertTrue(ranks.routes().stream().filter(r -> !r.transport().isNetwork()).allMatch(r -> r.path().isEmpty()
                && r.a().host().equals(r.b().host())), "NVLink pairs stay inside their host");
    }

    @Test
    void theFlappingCableIsNamedAsTheLikelyCause() {
        Finding f = findings.stream().filter(x -> x.id().equals("rank-path-errors")
                && x.title().contains("LinkErrorRecoveryCounter=42")).findFirst().orElseThrow();
        assertEquals(Severity.ERROR, f.severity(), "a rank on this link got a completion error");
        assertTrue(f.title().contains("rank 12 got IBV_WC_RETRY_EXC_ERR"), f.title());
        assertTrue(f.subjects().contains("gpt-train-worker-0"), f.subjects().toString());
        assertTrue(f.evidence().get(0).source().endsWith("gpt-train-worker-0.log"));
        assertTrue(f.remedies().stream().anyMatch(r -> r.contains("only way")), "the host link is on every path");
        Finding timeout = findings.stream().filter(x -> x.id().equals("nccl-timeout")).findFirst().orElseThrow();
        assertTrue(timeout.title().contains("rank 12 lagged"), timeout.title());
        String first = timeout.remedies().get(0);
        assertTrue(first.contains("gpt-train-worker-0") && first.contains("GPU4") && first.contains("mlx5_4")
                && first.contains("port 7") && first.contains("LinkErrorRecoveryCounter=42"),
                "the lagging rank's pod, GPU, HCA, leaf port and that link's counters: " + first);
    }

    /** The flight recorder dumps of training-incident/forensics: the rank that never joined, placed on the fabric. */
    @Test
    void flightRecorderHangNamesRank12WithItsPodGpuHcaAndLeafPort() {
        Finding f = findings.stream().filter(x -> x.id().equals("collective-hang")).findFirst().orElseThrow();
        assertTrue(f.title().startsWith("Process group 0 (default_pg) hangs in all_reduce (seq 4812): rank 12 "
                + "(gpt-train-worker-0 on dgx-su2-h07, GPU4, dgx-su2-h07 mlx5_4 -> leaf-su2-r5 port 7) never joined it"),
                f.title());
        List<org.fabricscope.model.core.Subject> refs = f.refs();
        assertEquals(new org.fabricscope.model.core.Subject.CommRef("0", "all_reduce", 4812,
                "process group 0 (default_pg) all_reduce seq 4812"), refs.get(0));
        var rank = (org.fabricscope.model.core.Subject.RankRef) refs.get(1);
        assertEquals(12, rank.rank());
        assertEquals("gpt-train-worker-0", rank.host());
        assertEquals("0x5d1e4f0a8c3b2a19", rank.commId());
        assertTrue(refs.stream().anyMatch(r -> r instanceof org.fabricscope.model.core.Subject.PodRef p
                && p.pod().equals("gpt-train-worker-0")), refs.toString());
        assertTrue(refs.stream().anyMatch(r -> r instanceof org.fabricscope.model.core.Subject.GpuRef g
                && g.host().equals("dgx-su2-h07") && g.index() == 4), refs.toString());
        assertTrue(refs.stream().anyMatch(r -> r instanceof org.fabricscope.model.core.Subject.HcaRef), refs.toString());
        RankSite r12 = ranks.site(ranks.sites().get(0).rank().commId(), 12);
        assertTrue(refs.contains(new org.fabricscope.model.core.Subject.PortRef(r12.leafPort().node().guid(), 7,
                "leaf-su2-r5 port 7")), refs.toString());
        assertTrue(f.remedies().get(1).contains("LinkErrorRecoveryCounter=42"), f.remedies().toString());
    }

    @Test
    void equalCostPathsThroughTheBadSpineUplinkAreReported() {
        Finding f = findings.stream().filter(x -> x.id().equals("rank-path-errors")
                && x.title().contains("SymbolErrorCounter=1873")).findFirst().orElseThrow();
        assertTrue(f.remedies().stream().anyMatch(r -> r.contains("equal-cost")), f.remedies().toString());
        assertTrue(f.remedies().stream().anyMatch(r -> r.contains("rank 2 ") && r.contains("rank 10 ")), f.remedies().toString());
    }
}
