package org.fabricscope.app.nav;

import static org.fabricscope.app.nav.Samples.K8S;
import static org.fabricscope.app.nav.Samples.RAIL;
import static org.fabricscope.app.nav.Samples.TRAINING;
import static org.fabricscope.app.nav.Samples.analysis;
import static org.fabricscope.app.nav.Samples.finding;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.fabricscope.model.FabricModel;
import org.fabricscope.model.analysis.Analysis;
import org.fabricscope.model.core.Subject;
import org.fabricscope.model.core.Vertex;
import org.fabricscope.model.diagnosis.Subjects;
import org.fabricscope.model.fabric.Cable;
import org.fabricscope.model.fabric.FabricNode;
import org.fabricscope.model.fabric.Host;
import org.fabricscope.model.k8s.K8sPod;
import org.fabricscope.model.ranks.RankSite;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Each kind of subject, found by its keys in the samples; keys that match nothing are reported, not guessed. */
class SubjectResolverTest {
    static Analysis training;
    static Analysis kube;

    @BeforeAll
    static void load() {
        training = analysis(RAIL, TRAINING);
        kube = analysis(RAIL, K8S);
    }

    private static FabricNode node(FabricModel m, long guid) {
        return assertNotNullAnd(m.node(guid), "node " + Long.toHexString(guid));
    }

    private static <T> T assertNotNullAnd(T t, String what) {
        assertNotNull(t, what);
        return t;
    }

    @Test
    void portsAreTheirNodesAndTheCableBetweenThem() {
        FabricModel m = training.model();
        Navigation n = new SubjectResolver(training).resolve(finding(training.findings(), "link-degraded"));
        FabricNode hca = node(m, 0xb8cef603010c001aL);
        FabricNode leaf = node(m, 0x0c42a10300010106L);
        assertEquals(List.of(hca, leaf), n.vertices());
        assertEquals(List.of(hca.port(1).cable()), n.cables(), "both ports are ends of one cable");
        assertEquals(List.of(hca.port(1), leaf.port(12)), n.ports());
        assertEquals(hca.port(1).cable(), n.primaryCable(), "its first subject is the cable");
        assertEquals(Navigation.Place.MAP, n.place());
        assertTrue(n.unresolved().isEmpty());
    }

    @Test
    void switchesHcasAndCablesByGuid() {
        FabricModel m = training.model();
        Cable c = m.cables().get(0);
        SubjectResolver r = new SubjectResolver(training);
        Navigation n = r.resolve(Subjects.cable(c));
        assertEquals(List.of(c), n.cables());
        assertEquals(List.of(c.a().node(), c.b().node()), n.vertices());
        FabricNode sw = m.switches().get(0);
        assertEquals(List.of(sw), r.resolve(Subjects.node(sw)).vertices());
        FabricNode ca = m.host("dgx-su1-h01").adapters().get(0);
        assertEquals(List.of(ca), r.resolve(Subjects.node(ca)).vertices());
    }

    @Test
    void aGpuIsItsHostOnTheMapAndItsGpuInTheDrillDown() {
        Navigation n = new SubjectResolver(training).resolve(finding(training.findings(), "pcie-degraded"));
        assertEquals(List.of(training.model().host("dgx-su2-h03")), n.vertices());
        assertEquals(1, n.gpus().size());
        assertEquals("0000:a0:00.0", n.gpus().get(0).busId());
        assertEquals(Navigation.Place.MAP, n.place());
    }

    @Test
    void aNicIsTheHcaItJoined() {
        Navigation n = new SubjectResolver(training).resolve(finding(training.findings(), "gdr-disabled"));
        assertEquals(1, n.vertices().size());
        FabricNode hca = (FabricNode) n.vertices().get(0);
        assertEquals("dgx-su1-h07", hca.host().name());
        assertTrue(hca.description().endsWith("mlx5_2"), hca.description());
        assertEquals("mlx5_2", n.nets().get(0).name());
    }

    @Test
    void ranksAreTheirRowsTheirHcasAndTheirPods() {
        Navigation n = new SubjectResolver(training).resolve(finding(training.findings(), "nccl-timeout"));
        assertEquals(Navigation.Place.TRAINING, n.place());
        assertEquals(16, n.ranks().size(), "the laggard and the 15 whose watchdog fired");
        RankSite laggard = n.ranks().get(0);
        assertEquals(12, laggard.rank().rank());
        assertEquals(laggard.hca(), n.primary(), "the map centres the laggard's HCA");
        assertTrue(laggard.hca().description().endsWith("mlx5_4"), laggard.hca().description());
        assertEquals("dgx-su2-h07", laggard.host());
        assertEquals(16, n.vertices().size(), "each rank's HCA (its GPU's nearest NIC)");
        assertEquals(List.of("gpt-train-worker-0", "gpt-train-master-0"), n.pods().stream().map(K8sPod::name).toList());
        assertTrue(n.unresolved().isEmpty());
    }

    @Test
    void aHostNamedByItsPodIsThePodsHost() {
        // NCCL's line prefix names the pod: ib-completion-error's host is gpt-train-worker-0
        Navigation n = new SubjectResolver(training).resolve(finding(training.findings(), "ib-completion-error"));
        assertEquals(List.of(training.model().host("dgx-su2-h07")), n.vertices());
        assertEquals("gpt-train-worker-0", n.pods().get(0).name());
    }

    @Test
    void podsWithoutANamespaceAreFoundByName() {
        Navigation n = new SubjectResolver(training).resolve(finding(training.findings(), "rank-path-errors"));
        assertTrue(n.pods().stream().anyMatch(p -> p.name().equals("gpt-train-master-0") && p.namespace().equals("ml-train")));
        Vertex h05 = training.model().host("dgx-su1-h05");
        assertTrue(n.vertices().contains(h05), "the pod's node's host: " + n.vertices());
    }

    @Test
    void nodesPodsAndJobsAreTheirRowsAndTheirHosts() {
        Navigation n = new SubjectResolver(kube).resolve(finding(kube.findings(), "rdma-resource-missing"));
        assertEquals(Navigation.Place.KUBERNETES, n.place());
        assertEquals("dgx-su1-h04", n.nodes().get(0).name());
        assertEquals("bert-ft", n.jobs().get(0).name());
        assertTrue(n.pods().stream().anyMatch(p -> p.name().equals("bert-ft-worker-0")), n.pods().toString());
        Host h04 = kube.model().host("dgx-su1-h04");
        assertEquals(h04, n.primary(), "the node's host on the map");
        assertTrue(n.unresolved().isEmpty());
    }

    @Test
    void aPendingPodIsItsRowWithNothingOnTheMap() {
        Navigation n = new SubjectResolver(kube).resolve(finding(kube.findings(), "insufficient-resources"));
        assertEquals(Navigation.Place.KUBERNETES, n.place());
        assertEquals("llama-pretrain-worker-1", n.pods().get(0).name());
        assertTrue(n.vertices().isEmpty(), "a pending pod runs nowhere");
    }

    @Test
    void linesAndCommunicators() {
        SubjectResolver r = new SubjectResolver(training);
        Subject.LineRef line = new Subject.LineRef("logs/gpt-train-worker-0.log", 7, "any label");
        Navigation n = r.resolve(line);
        assertEquals(Navigation.Place.LINES, n.place());
        assertEquals(List.of(line), n.lines());
        Navigation comm = r.resolve(new Subject.CommRef("0x5d1e4f0a8c3b2a19", "ALLREDUCE", 4812, "x"));
        assertEquals(Navigation.Place.TRAINING, comm.place());
        assertEquals(16, comm.ranks().size());
    }

    @Test
    void keysNotInTheModelAreUnresolvedNotGuessed() {
        SubjectResolver r = new SubjectResolver(training);
        List<Subject> unknown = List.of(new Subject.SwitchRef(0x1234L, "SPINE-04"), new Subject.HostRef("no-such-host", "dgx-su1-h01"),
                new Subject.RankRef("", 999, "", "rank 12"), new Subject.PodRef("ns", "nope", "pod ml-train/gpt-train-worker-0"),
                new Subject.K8sNodeRef("nope", "node dgx-su2-h07"));
        Navigation n = r.resolveAll(unknown);
        assertEquals(unknown, n.unresolved());
        assertTrue(n.isEmpty());
        assertEquals(Navigation.Place.NOWHERE, n.place());
        assertEquals("not in the loaded data", n.where());
    }

    @Test
    void onlyKeysCountNeverLabels() {
        FabricNode spine = node(training.model(), 0x0c42a10300020004L);
        // a label naming one switch, the GUID of another: the GUID wins
        Navigation n = new SubjectResolver(training).resolve(new Subject.PortRef(spine.guid(), 5, "SU1-RAIL3-LEAF port 23"));
        assertEquals(List.of(spine), n.vertices());
    }
}
