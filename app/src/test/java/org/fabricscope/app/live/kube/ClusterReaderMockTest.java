package org.fabricscope.app.live.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import org.fabricscope.importers.core.Cancellation;
import org.fabricscope.importers.core.ImportCancelledException;
import org.fabricscope.importers.ImportProgress;
import org.fabricscope.importers.ImportResult;
import org.fabricscope.model.FabricModel;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.diagnosis.Diagnosis;
import org.fabricscope.model.diagnosis.ErrorThresholds;
import org.fabricscope.model.k8s.K8sPod;
import org.fabricscope.model.k8s.Quantity;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;

/** One read of a cluster (fabric8's mock API server in CRUD mode) through the same importers as files. */
@EnableKubernetesMockClient(crud = true, https = false)
class ClusterReaderMockTest {
    KubernetesMockServer server;
    KubernetesClient client;

    @TempDir
    Path dir;
    Path kubeconfig;

    @BeforeEach
    void cluster() throws IOException {
        client.nodes().resource(KubeFixtures.node("gpu-node-1", "aliyun/erdma", "200")).create();
        client.nodes().resource(KubeFixtures.node("gpu-node-2", "rdma/rdma", "1k")).create();
        var pods = client.pods().inNamespace(KubeFixtures.NS);
        pods.resource(KubeFixtures.jobPod("bert", "master", 0, "gpu-node-1", "8")).create();
        pods.resource(KubeFixtures.jobPod("bert", "worker", 0, "gpu-node-2", "8")).create();
        pods.resource(KubeFixtures.jobPod("bert", "worker", 1, null, "8")).create();
        pods.resource(KubeFixtures.pod("web-5d8f", Map.of("app", "web"), "gpu-node-1", "0")).create();
        var events = client.v1().events().inNamespace(KubeFixtures.NS);
        events.resource(KubeFixtures.event("bert-worker-1.1", "bert-worker-1", "Warning", "FailedScheduling",
                KubeFixtures.FAILED_SCHEDULING)).create();
        events.resource(KubeFixtures.event("web-5d8f.1", "web-5d8f", "Normal", "Pulled", "image pulled")).create();
        kubeconfig = KubeFixtures.kubeconfig(dir, server.url("/").replaceAll("/$", ""), "mock", "other");
    }

    private ClusterRead read(KubeTarget target) throws KubeException {
        return ClusterReader.readOnce(new KubeConnector(), target.withKubeconfig(kubeconfig), Cancellation.NEVER);
    }

    @Test
    void jobReadBuildsTheK8sLayerAndTheFindingsFire() throws KubeException {
        ClusterRead r = read(KubeTarget.current().withJob("bert").withLogs(false));
        Set<String> names = r.objects().stream().map(KubeObjectList::source).collect(Collectors.toCollection(TreeSet::new));
        assertTrue(names.containsAll(List.of("kube://mock/nodes", "kube://mock/team-a/pods", "kube://mock/team-a/events")),
                names.toString());
        ImportResult result = r.importWith(List.of(), List.of(), ImportProgress.NONE, Cancellation.NEVER);
        // the objects are contributed to the builder, not sniffed as a file: no format, cited by the list that read them
        assertEquals(null, result.formats().get("kube://mock/team-a/pods"));
        assertEquals("kube://mock/team-a/pods", result.model().pods().get(0).evidence().source());
        org.fabricscope.model.core.Evidence.Query q = org.junit.jupiter.api.Assertions.assertInstanceOf(
                org.fabricscope.model.core.Evidence.Query.class, result.model().pods().get(0).evidence(), "a query at a time");
        assertEquals("list pods in namespace team-a of job bert", q.query());
        assertTrue(q.time() != null && q.where().startsWith("kube://mock/team-a/pods [list pods in namespace team-a of job bert at "),
                q.where());
        FabricModel m = result.model();
        assertEquals(Set.of("gpu-node-1", "gpu-node-2"), m.k8sNodes().keySet());
        assertEquals(Quantity.parse("200"), m.k8sNodes().get("gpu-node-1").allocatable("aliyun/erdma"));
        assertEquals(Quantity.parse("8"), m.k8sNodes().get("gpu-node-2").allocatable("nvidia.com/gpu"));
        assertEquals(Boolean.TRUE, m.k8sNodes().get("gpu-node-1").ready());
        assertEquals(Set.of("bert-master-0", "bert-worker-0", "bert-worker-1"),
                m.pods().stream().map(K8sPod::name).collect(Collectors.toSet()), "only the job's pods");
        K8sPod pending = m.pods().stream().filter(p -> p.name().equals("bert-worker-1")).findFirst().orElseThrow();
        assertTrue(pending.pending());
        assertEquals("bert", pending.job().jobName());
        assertEquals(1, m.k8s().events().size(), "the FailedScheduling event, not the web pod's");
        assertNotNull(m.k8s().events().get(0).scheduling());

        List<Finding> findings = Diagnosis.standard(ErrorThresholds.defaults()).run(m, ErrorThresholds.defaults());
        Finding insufficient = findings.stream().filter(f -> f.id().equals("insufficient-resources")).findFirst().orElseThrow();
        assertTrue(insufficient.title().contains("team-a/bert-worker-1") && insufficient.title().contains("nvidia.com/gpu"),
                insufficient.title());
        Set<String> noRdma = findings.stream().filter(f -> f.id().equals("rdma-resource-not-requested"))
                .map(Finding::title).collect(Collectors.toSet());
        assertTrue(noRdma.stream().anyMatch(t -> t.contains("bert-master-0") && t.contains("aliyun/erdma")), noRdma.toString());
        assertTrue(noRdma.stream().anyMatch(t -> t.contains("bert-worker-0") && t.contains("rdma/rdma")), noRdma.toString());
        assertTrue(noRdma.stream().noneMatch(t -> t.contains("web-5d8f")));
    }

    @Test
    void selectorAndWholeNamespace() throws KubeException {
        ClusterRead bySelector = read(KubeTarget.current().withSelector("app=web").withLogs(false));
        FabricModel m = bySelector.importWith(List.of(), List.of(), ImportProgress.NONE, Cancellation.NEVER).model();
        assertEquals(List.of("web-5d8f"), m.pods().stream().map(K8sPod::name).toList());
        assertEquals(List.of("web-5d8f"), m.k8s().events().stream().filter(e -> !e.reason().equals("FailedScheduling"))
                .map(e -> e.objectName()).toList());

        ClusterRead all = read(KubeTarget.current().withLogs(false));
        FabricModel whole = all.importWith(List.of(), List.of(), ImportProgress.NONE, Cancellation.NEVER).model();
        assertEquals(4, whole.pods().size());
        assertEquals(2, whole.k8s().events().size());
    }

    @Test
    void jobPodsFoundByNameWhenUnlabelled() throws KubeException {
        client.pods().inNamespace(KubeFixtures.NS).resource(KubeFixtures.pod("gpt-launcher-x7k2q", Map.of(), "gpu-node-1", "0"))
                .create();
        client.pods().inNamespace(KubeFixtures.NS).resource(KubeFixtures.pod("gpt-worker-3", Map.of(), "gpu-node-2", "8"))
                .create();
        client.pods().inNamespace(KubeFixtures.NS).resource(KubeFixtures.pod("gpt2-worker-0", Map.of(), "gpu-node-2", "8"))
                .create();
        FabricModel m = read(KubeTarget.current().withJob("gpt").withLogs(false))
                .importWith(List.of(), List.of(), ImportProgress.NONE, Cancellation.NEVER).model();
        assertEquals(Set.of("gpt-launcher-x7k2q", "gpt-worker-3"), m.pods().stream().map(K8sPod::name).collect(Collectors.toSet()));
    }

    @Test
    void unknownJobIsAWarningNotAFailure() throws KubeException {
        ClusterRead r = read(KubeTarget.current().withJob("nosuchjob").withLogs(false));
        assertTrue(r.diagnostics().stream().anyMatch(d -> d.message().startsWith("no pods of job nosuchjob in namespace team-a")),
                r.diagnostics().toString());
    }

    @Test
    void pytorchJobManifestIsRead() throws KubeException {
        GenericKubernetesResource job = new GenericKubernetesResourceBuilder().withApiVersion("kubeflow.org/v1")
                .withKind("PyTorchJob").withNewMetadata().withName("bert").withNamespace(KubeFixtures.NS).endMetadata()
                .addToAdditionalProperties("spec", Map.of("pytorchReplicaSpecs", Map.of("Worker", Map.of("replicas", 2,
                        "template", Map.of("spec", Map.of("containers", List.of(Map.of("name", "pytorch", "image", "x",
                                "resources", Map.of("limits", Map.of("nvidia.com/gpu", "8"))))))))))
                .build();
        client.genericKubernetesResources(new ResourceDefinitionContext.Builder().withGroup("kubeflow.org").withVersion("v1")
                .withKind("PyTorchJob").withPlural("pytorchjobs").withNamespaced(true).build()).inNamespace(KubeFixtures.NS).resource(job).create();
        ClusterRead r = read(KubeTarget.current().withJob("bert").withLogs(false));
        FabricModel m = r.importWith(List.of(), List.of(), ImportProgress.NONE, Cancellation.NEVER).model();
        assertEquals(1, m.k8s().jobs().size(), r.diagnostics().toString());
        assertEquals("PyTorchJob", m.k8s().jobs().get(0).kind());
        assertEquals(2, m.k8s().jobs().get(0).replicas().get(0).count());
    }

    @Test
    void contextsForThePickerAndAnUnknownContext() throws KubeException {
        List<KubeContext> contexts = new KubeConnector().contexts(kubeconfig);
        assertEquals(List.of("mock", "other"), contexts.stream().map(KubeContext::name).toList());
        assertTrue(contexts.get(0).current());
        assertFalse(contexts.get(1).current());
        assertEquals("team-a", contexts.get(1).namespace());
        KubeException e = assertThrows(KubeException.class, () -> read(KubeTarget.current().withContext("prod")));
        assertEquals("context 'prod' is not in " + kubeconfig + "; available: mock (current), other", e.getMessage());
    }

    @Test
    void cancelledBeforeTheFirstCall() {
        assertThrows(ImportCancelledException.class, () -> ClusterReader.readOnce(new KubeConnector(),
                KubeTarget.current().withKubeconfig(kubeconfig), () -> true));
    }

    @Test
    void writesAreRefused() throws KubeException {
        try (KubeConnection c = new KubeConnector().connect(KubeTarget.current().withKubeconfig(kubeconfig))) {
            var e = assertThrows(RuntimeException.class, () -> c.client().pods().inNamespace(KubeFixtures.NS)
                    .resource(KubeFixtures.pod("intruder", Map.of(), null, "1")).create());
            assertTrue(String.valueOf(e.getMessage()).contains("read-only") || String.valueOf(e.getCause()).contains("read-only"),
                    String.valueOf(e));
        }
        assertEquals(null, client.pods().inNamespace(KubeFixtures.NS).withName("intruder").get());
    }
}
