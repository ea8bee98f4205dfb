package org.fabricscope.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.fabricscope.importers.ImportResult;
import org.fabricscope.model.FabricModel;
import org.fabricscope.model.analysis.FabricSummary;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.core.Severity;
import org.fabricscope.model.diagnosis.ErrorThresholds;
import org.fabricscope.model.k8s.K8sEvent;
import org.fabricscope.model.k8s.K8sNode;
import org.fabricscope.model.k8s.K8sPod;
import org.fabricscope.model.k8s.SchedulingFailure;
import org.fabricscope.model.k8s.TrainingJob;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The hand-written kubectl outputs of {@code k8s-incident/} loaded with the rail capture: nodes
 * join their fabric hosts, pods and jobs are recognised, and each fault its README describes is
 * found with evidence.
 */
class K8sIncidentGoldenTest {
    private static ImportResult result;
    private static FabricModel model;
    private static List<Finding> findings;

    @BeforeAll
    static void load() throws Exception {
        Path rail = Samples.root().resolve("rail-2su-hdr");
        List<Path> files = new ArrayList<>(Samples.captureFiles(rail));
        files.add(Samples.root().resolve("k8s-incident"));
        result = Samples.load(files);
        model = result.model();
        findings = Samples.diagnose(model);
    }

    private static String formatOf(String file) {
        return result.formats().entrySet().stream().filter(e -> e.getKey().endsWith(file)).map(java.util.Map.Entry::getValue)
                .findFirst().orElse(null);
    }

    @Test
    void everyFileIsDetectedAndReadCleanly() {
        assertEquals("k8s-objects", formatOf("nodes.json"));
        assertEquals("k8s-objects", formatOf("pods.yaml"));
        assertEquals("k8s-objects", formatOf("events.json"));
        assertEquals("k8s-objects", formatOf("llama-pretrain.pytorchjob.yaml"));
        assertEquals("k8s-allocatable", formatOf("dgx-su1-h04.allocatable.json"));
        assertEquals("k8s-describe-pod", formatOf("describe-llama-pretrain-worker-1.txt"));
        assertTrue(model.diagnostics().stream().noneMatch(d -> d.severity() != Severity.INFO),
                model.diagnostics().toString());
    }

    @Test
    void countsAndJoins() {
        FabricSummary s = FabricSummary.of(model, ErrorThresholds.defaults());
        assertEquals(4, s.k8sNodes());
        assertEquals(5, s.pods());
        assertEquals(32L, s.allocatable().get("nvidia.com/gpu"));
        assertEquals(3000L, s.allocatable().get("rdma/hca_shared_devices_a"));
        assertEquals(4 * 223.8, s.allocatable().get("cpu").doubleValue(), 1e-9);
        for (K8sNode n : model.k8sNodes().values()) {
            assertNotNull(model.hostOf(n), n.name() + " joins its fabric host");
            assertEquals(n.name(), model.hostOf(n).name());
            assertEquals(8, model.hostOf(n).adapters().size(), "and so its 8 HCAs");
            assertEquals(n, model.k8sNodeOf(model.hostOf(n)));
            assertEquals(Boolean.TRUE, n.ready());
        }
        K8sNode h04 = model.k8sNodes().get("dgx-su1-h04");
        assertTrue(h04.allocatableEvidence().source().endsWith("dgx-su1-h04.allocatable.json"),
                "the one-liner overlays the node read from nodes.json");
        assertEquals("10.10.1.14", h04.internalIp());
        // the FailedScheduling event is in events.json and in the describe output: kept once
        List<K8sEvent> failed = model.events().stream().filter(e -> e.reason().equals("FailedScheduling")).toList();
        assertEquals(1, failed.size());
        SchedulingFailure f = failed.get(0).scheduling();
        assertEquals(4, f.totalNodes());
        assertEquals(List.of(
                new SchedulingFailure.Reason(1, SchedulingFailure.Kind.INSUFFICIENT, "rdma/hca_shared_devices_a",
                        "Insufficient rdma/hca_shared_devices_a"),
                new SchedulingFailure.Reason(4, SchedulingFailure.Kind.INSUFFICIENT, "nvidia.com/gpu",
                        "Insufficient nvidia.com/gpu")), f.reasons());
        assertEquals(1, f.preemption().size());
    }

    @Test
    void jobsAndTheirPods() {
        TrainingJob llama = model.jobs().stream().filter(j -> j.name().equals("llama-pretrain")).findFirst().orElseThrow();
        assertEquals("PyTorchJob", llama.kind());
        assertEquals("ml-train", llama.namespace());
        assertEquals(List.of("Master", "Worker"), llama.replicas().stream().map(TrainingJob.Replica::type).toList());
        assertEquals(List.of("llama-pretrain-master-0", "llama-pretrain-worker-0", "llama-pretrain-worker-1"), llama.podNames());
        TrainingJob bert = model.jobs().stream().filter(j -> j.name().equals("bert-ft")).findFirst().orElseThrow();
        assertEquals("pods", bert.kind(), "no manifest: gathered from the Arena release label");
        assertEquals(2, bert.podNames().size());
        K8sPod w1 = model.pods().stream().filter(p -> p.name().equals("llama-pretrain-worker-1")).findFirst().orElseThrow();
        assertTrue(w1.pending());
        assertEquals("worker", w1.job().replicaType());
        assertEquals(1, w1.job().replicaIndex());
        assertTrue(w1.evidence().source().endsWith("pods.yaml"), "the YAML read wins over describe");
        K8sPod bm = model.pods().stream().filter(p -> p.name().equals("bert-ft-master-0")).findFirst().orElseThrow();
        assertEquals("master", bm.job().replicaType());
        assertEquals("arena release label", bm.job().source());
    }

    private static List<Finding> withId(String id) {
        return findings.stream().filter(f -> f.id().equals(id)).toList();
    }

    private static void assertCited(Finding f) {
        assertFalse(f.evidence().isEmpty(), f.title());
        f.evidence().forEach(e -> assertTrue(e.line() > 0 && !e.source().isEmpty(), f.title() + ": " + e));
        assertFalse(f.remedies().isEmpty(), f.title());
    }

    @Test
    void insufficientResourcesWithPerNodeShortfall() {
        List<Finding> l = withId("insufficient-resources");
        assertEquals(1, l.size(), l.toString());
        Finding f = l.get(0);
        assertEquals(List.of("pod ml-train/llama-pretrain-worker-1"), f.subjects());
        assertTrue(f.title().contains("nvidia.com/gpu: requests 8 per pod; free dgx-su1-h01 0 (short 8), dgx-su1-h02 0 (short 8), "
                + "dgx-su1-h03 4 (short 4), dgx-su1-h04 4 (short 4)"), f.title());
        assertTrue(f.evidence().stream().anyMatch(e -> e.text().contains("0/4 nodes are available")));
        assertTrue(f.remedies().get(0).startsWith("Lower the request"));
        assertTrue(f.title().contains("rdma/hca_shared_devices_a: requests 1 per pod; free dgx-su1-h01 999, dgx-su1-h02 999, "
                + "dgx-su1-h03 1000, dgx-su1-h04 0 (short 1) [not offered]"), f.title());
        // the model's own fit analysis agrees with the scheduler's message, reason by reason
        K8sPod w1 = model.pods().stream().filter(p -> p.name().equals("llama-pretrain-worker-1")).findFirst().orElseThrow();
        var fits = model.k8s().fit(w1);
        assertEquals(4, fits.size());
        assertTrue(fits.stream().noneMatch(x -> x.fits()));
        SchedulingFailure sf = model.k8s().eventsFor(w1).get(0).scheduling();
        for (SchedulingFailure.Reason r : sf.reasons()) {
            assertEquals(r.count(), fits.stream().filter(x -> x.reasons().contains(r.text())).count(), r.text());
        }
        assertEquals(3, w1.spec().tolerations().size(), "tolerations read from pods.yaml");
        assertCited(f);
    }

    @Test
    void rdmaFindings() {
        List<Finding> notRequested = withId("rdma-resource-not-requested");
        assertEquals(1, notRequested.size(), notRequested.toString());
        assertEquals(List.of("pod ml-train/bert-ft-master-0", "node dgx-su1-h03"), notRequested.get(0).subjects());
        assertTrue(notRequested.get(0).remedies().stream()
                .anyMatch(r -> r.contains("--extended-resource rdma/hca_shared_devices_a=1")));
        assertCited(notRequested.get(0));
        List<Finding> missing = withId("rdma-resource-missing");
        assertEquals(1, missing.size(), missing.toString());
        assertEquals("node dgx-su1-h04", missing.get(0).subjects().get(0));
        assertTrue(missing.get(0).subjects().contains("job ml-train/bert-ft"));
        assertTrue(missing.get(0).evidence().get(0).source().endsWith("dgx-su1-h04.allocatable.json"));
        assertCited(missing.get(0));
    }

    @Test
    void shmAndSecondaryNetwork() {
        List<Finding> shm = withId("shm-too-small");
        assertEquals(List.of("pod ml-train/bert-ft-master-0", "pod ml-train/bert-ft-worker-0"),
                shm.stream().map(f -> f.subjects().get(0)).sorted().toList());
        assertTrue(shm.stream().anyMatch(f -> f.title().contains("sizeLimit 256Mi")
                && f.evidence().get(0).text().equals("- mountPath: /dev/shm")
                && f.evidence().get(1).text().equals("sizeLimit: 256Mi")), shm.toString());
        shm.forEach(K8sIncidentGoldenTest::assertCited);
        List<Finding> net = withId("secondary-network-missing");
        assertEquals(List.of("pod ml-train/llama-pretrain-worker-0", "pod ml-train/llama-pretrain-worker-1"),
                net.stream().map(f -> f.subjects().get(0)).sorted().toList());
        net.forEach(K8sIncidentGoldenTest::assertCited);
        net.forEach(f -> assertEquals("- name: NCCL_SOCKET_IFNAME value: net1", f.evidence().get(0).text(), f.toString()));
    }

    /** Every sample file cut short anywhere: read what can be read, report the rest, never throw. */
    @Test
    void truncatedFilesNeverThrow() throws Exception {
        Path dir = Samples.root().resolve("k8s-incident");
        try (var files = java.nio.file.Files.list(dir)) {
            for (Path p : files.filter(x -> !x.getFileName().toString().endsWith(".md")).sorted().toList()) {
                byte[] all = java.nio.file.Files.readAllBytes(p);
                for (int k = 1; k < 12; k++) {
                    byte[] cut = java.util.Arrays.copyOf(all, all.length * k / 12);
                    var src = new org.fabricscope.importers.core.ImportSource(p.getFileName() + "@" + cut.length, cut.length,
                            () -> new java.io.ByteArrayInputStream(cut), true);
                    ImportResult r = new org.fabricscope.importers.FabricImporter().importSources(List.of(src),
                            new ArrayList<>(), org.fabricscope.importers.ImportProgress.NONE,
                            org.fabricscope.importers.core.Cancellation.NEVER);
                    assertNotNull(r.model(), src.name());
                    String f = r.formats().get(src.name());
                    if ("k8s-objects".equals(f) && p.getFileName().toString().endsWith(".json")) {
                        assertTrue(r.model().diagnostics().stream().anyMatch(d -> d.severity() == Severity.ERROR && d.line() > 0),
                                src.name() + ": a cut JSON file is reported with its line");
                    }
                }
            }
        }
    }

    @Test
    void theFabricFindingsAreStillThere() {
        assertTrue(findings.stream().anyMatch(f -> f.id().equals("link-degraded")));
        assertFalse(model.switches().isEmpty());
    }
}
