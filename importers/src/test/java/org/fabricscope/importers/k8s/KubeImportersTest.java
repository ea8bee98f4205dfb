package org.fabricscope.importers.k8s;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.fabricscope.importers.core.Cancellation;
import org.fabricscope.importers.FabricImporter;
import org.fabricscope.importers.core.FormatReader;
import org.fabricscope.importers.FormatRegistry;
import org.fabricscope.importers.core.Head;
import org.fabricscope.importers.core.ImportPhase;
import org.fabricscope.importers.ImportProgress;
import org.fabricscope.importers.ImportResult;
import org.fabricscope.importers.core.ImportSource;
import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.FabricModel;
import org.fabricscope.model.core.Severity;
import org.fabricscope.model.k8s.K8sNode;
import org.fabricscope.model.k8s.K8sPod;
import org.fabricscope.model.k8s.Quantity;
import org.fabricscope.model.k8s.TrainingJob;
import org.junit.jupiter.api.Test;

/** The Kubernetes readers through the importer: detection by content, then what each reads. */
class KubeImportersTest {
    static final String SEED000 = "{\"aliyun/erdma\":\"200\",\"cpu\":\"15890m\",\"ephemeral-storage\":\"243149919035\","
            + "\"hugepages-1Gi\":\"0\",\"hugepages-2Mi\":\"0\",\"memory\":\"128290128Ki\",\"nvidia.com/gpu\":\"1\",\"pods\":\"64\"}";

    private static ImportSource src(String name, String text) {
        byte[] b = text.getBytes(StandardCharsets.UTF_8);
        return new ImportSource(name, b.length, () -> new ByteArrayInputStream(b), true);
    }

    static ImportResult load(ImportSource... s) {
        return new FabricImporter().importSources(List.of(s), new ArrayList<>(), ImportProgress.NONE, Cancellation.NEVER);
    }

    private static List<Diagnostic> problems(FabricModel m) {
        return m.diagnostics().stream().filter(d -> d.severity() != Severity.INFO).toList();
    }

    @Test
    void seed000AllocatableOneLinerNamedByItsFile() {
        ImportResult r = load(src("dumps/gn8is-01.allocatable.json", SEED000), src("bundle.tgz!/gn8is-02/allocatable.json", SEED000),
                src("gn8is-03-allocatable.txt", "map[aliyun/erdma:200 cpu:15890m memory:128290128Ki nvidia.com/gpu:1 pods:64]"));
        assertEquals("k8s-allocatable", r.formats().get("dumps/gn8is-01.allocatable.json"));
        assertEquals("k8s-allocatable", r.formats().get("gn8is-03-allocatable.txt"));
        FabricModel m = r.model();
        assertEquals(List.of("gn8is-01", "gn8is-02", "gn8is-03"), List.copyOf(m.k8sNodes().keySet()));
        K8sNode n = m.k8sNodes().get("gn8is-01");
        assertEquals(Quantity.parse("200"), n.allocatable("aliyun/erdma"));
        assertEquals(Quantity.parse("15.89"), n.allocatable("cpu"));
        assertNull(n.ready());
        assertEquals(1, n.allocatableEvidence().line());
        assertEquals(Quantity.parse("128290128Ki"), m.k8sNodes().get("gn8is-03").allocatable("memory"));
        assertTrue(problems(m).isEmpty(), problems(m).toString());
    }

    @Test
    void allocatableLoopOutputAndBadValues() {
        FabricModel m = load(src("allocatable.txt", "node-a\n" + SEED000 + "\nnode-b\n{\"cpu\":\"lots\",\"pods\":\"110\"}\n"
                + "node-c {\"cpu\":\"8\"}\n")).model();
        assertEquals(List.of("node-a", "node-b", "node-c"), List.copyOf(m.k8sNodes().keySet()));
        Diagnostic d = problems(m).get(0);
        assertEquals(4, d.line());
        assertTrue(d.message().contains("cpu"), d.message());
        assertEquals(Quantity.parse("110"), m.k8sNodes().get("node-b").allocatable("pods"));
        assertEquals("x", AllocatableImporter.nodeFromFileName("x.zip!/allocatable.json"));
    }

    static final String NODES_YAML = """
            apiVersion: v1
            items:
            - apiVersion: v1
              kind: Node
              metadata:
                labels:
                  kubernetes.io/hostname: gpu-01
                name: gpu-01.example.net
              spec:
                taints:
                - effect: NoSchedule
                  key: nvidia.com/gpu
                  value: present
              status:
                addresses:
                - address: 10.1.0.1
                  type: InternalIP
                allocatable:
                  cpu: "95"
                  memory: 1031591204Ki
                  nvidia.com/gpu: "8"
                  rdma/rdma_shared_device_a: "63"
                conditions:
                - status: "False"
                  type: Ready
            - apiVersion: v1
              kind: Node
              metadata:
                name: gpu-02
              status:
                allocatable:
                  cpu: 95
                  nvidia.com/gpu: "8"
            kind: List
            metadata:
              resourceVersion: ""
            """;

    @Test
    void nodesYamlListWithItemLines() {
        ImportResult r = load(src("nodes.yaml", NODES_YAML));
        assertEquals("k8s-objects", r.formats().get("nodes.yaml"));
        FabricModel m = r.model();
        K8sNode n = m.k8sNodes().get("gpu-01.example.net");
        assertEquals("gpu-01", n.hostname());
        assertEquals("10.1.0.1", n.internalIp());
        assertEquals(Boolean.FALSE, n.ready());
        assertEquals("nvidia.com/gpu", n.taints().get(0).key());
        assertEquals(Quantity.parse("63"), n.allocatable("rdma/rdma_shared_device_a"));
        assertEquals(3, n.evidence().line());
        assertEquals(26, m.k8sNodes().get("gpu-02").evidence().line());
        assertEquals(Quantity.parse("95"), m.k8sNodes().get("gpu-02").allocatable("cpu"));
        assertTrue(problems(m).isEmpty(), problems(m).toString());
    }

    @Test
    void singlePodJsonAndEvents() {
        String pod = """
                {
                    "apiVersion": "v1",
                    "kind": "Pod",
                    "metadata": {
                        "annotations": {"k8s.v1.cni.cncf.io/networks": "roce-network"},
                        "labels": {"release": "pytorch-mnist", "app": "pytorchjob"},
                        "name": "pytorch-mnist-worker-0",
                        "namespace": "default"
                    },
                    "spec": {
                        "containers": [
                            {"name": "a", "resources": {"limits": {"aliyun/erdma": "1", "nvidia.com/gpu": "1"},
                                                        "requests": {"cpu": "2", "memory": "8Gi"}},
                             "env": [{"name": "NCCL_SOCKET_IFNAME", "value": "eth0"},
                                     {"name": "POD_IP", "valueFrom": {"fieldRef": {"fieldPath": "status.podIP"}}}],
                             "volumeMounts": [{"mountPath": "/dev/shm", "name": "shm"}]},
                            {"name": "sidecar", "resources": {"requests": {"cpu": "500m", "memory": "512Mi"}}}
                        ],
                        "nodeName": "gn8is-01",
                        "volumes": [{"name": "shm", "emptyDir": {"medium": "Memory", "sizeLimit": "16Gi"}}]
                    },
                    "status": {"phase": "Running"}
                }
                """;
        String events = """
                {"apiVersion": "v1", "items": [
                  {"apiVersion": "v1", "kind": "Event", "involvedObject": {"kind": "Pod", "name": "p-worker-1", "namespace": "default"},
                   "message": "0/2 nodes are available: 2 Insufficient aliyun/erdma. preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod..",
                   "metadata": {"name": "p-worker-1.17a", "namespace": "default"}, "reason": "FailedScheduling", "type": "Warning",
                   "count": 3, "source": {"component": "default-scheduler"}},
                  {"apiVersion": "events.k8s.io/v1", "kind": "Event", "regarding": {"kind": "Pod", "name": "p-worker-2", "namespace": "default"},
                   "note": "0/2 nodes are available: 1 Pod is waiting for preemptible or free resource to appear, 1 Insufficient cpu.",
                   "metadata": {"name": "p-worker-2.17b", "namespace": "default"}, "reason": "FailedScheduling", "type": "Warning",
                   "reportingController": "hived-scheduler"}
                ], "kind": "List", "metadata": {"resourceVersion": ""}}
                """;
        FabricModel m = load(src("pod.json", pod), src("events.json", events)).model();
        K8sPod p = m.pods().get(0);
        assertEquals("gn8is-01", p.node());
        assertEquals("pytorch-mnist", p.job().jobName());
        assertEquals(Map.of("aliyun/erdma", Quantity.parse("1"), "nvidia.com/gpu", Quantity.parse("1"),
                "cpu", Quantity.parse("2.5"), "memory", Quantity.parse("8704Mi")), p.requests());
        assertTrue(p.spec().requestsRdma());
        assertEquals("roce-network", p.spec().networks());
        assertTrue(p.spec().devShm().memoryBacked());
        assertEquals(Quantity.parse("16Gi"), p.spec().devShm().sizeLimit());
        assertFalse(p.spec().env().containsKey("POD_IP"));
        assertEquals(14, p.spec().citation("NCCL_SOCKET_IFNAME").line());
        assertEquals(16, p.spec().citation("/dev/shm").line());
        assertEquals(20, p.spec().citation("sizeLimit").line());
        assertEquals(2, m.events().size());
        assertEquals("aliyun/erdma", m.events().get(0).scheduling().reasons().get(0).subject());
        assertEquals(3, m.events().get(0).count());
        assertEquals(2, m.events().get(0).evidence().line());
        assertEquals("hived-scheduler", m.events().get(1).reporter());
        assertEquals("Pod is waiting for preemptible or free resource to appear",
                m.events().get(1).scheduling().reasons().get(0).text());
        assertTrue(problems(m).isEmpty(), problems(m).toString());
    }

    @Test
    void mpiJobManifestAmongOtherDocuments() {
        String yaml = """
                apiVersion: v1
                kind: ConfigMap
                metadata:
                  name: hostfile
                ---
                apiVersion: kubeflow.org/v2beta1
                kind: MPIJob
                metadata:
                  name: nccl-test
                  namespace: bench
                spec:
                  mpiReplicaSpecs:
                    Launcher:
                      replicas: 1
                      template:
                        spec:
                          containers:
                          - name: launcher
                            image: mpi
                    Worker:
                      replicas: 4
                      template:
                        metadata:
                          annotations:
                            k8s.v1.cni.cncf.io/networks: roce-network
                        spec:
                          containers:
                          - name: worker
                            env:
                            - name: NCCL_SOCKET_IFNAME
                              value: net1
                            resources:
                              limits:
                                nvidia.com/gpu: 8
                                rdma/rdma_shared_device_a: 1
                            volumeMounts:
                            - mountPath: /dev/shm
                              name: dshm
                          volumes:
                          - name: dshm
                            emptyDir:
                              medium: Memory
                """;
        ImportResult r = load(src("nccl-test.yaml", yaml));
        assertEquals("k8s-objects", r.formats().get("nccl-test.yaml"));
        TrainingJob j = r.model().jobs().get(0);
        assertEquals("MPIJob", j.kind());
        assertEquals("bench/nccl-test", j.key());
        assertEquals(6, j.evidence().line(), "the document starts after ---");
        TrainingJob.Replica w = j.replicas().get(1);
        assertEquals(4, w.count());
        assertTrue(w.template().requestsRdma());
        assertEquals("roce-network", w.template().networks());
        assertNull(w.template().devShm().sizeLimit());
        assertTrue(r.model().diagnostics().stream().anyMatch(d -> d.message().contains("ConfigMap")));
        assertTrue(problems(r.model()).isEmpty(), problems(r.model()).toString());
    }

    @Test
    void malformedJsonIsADiagnosticWithItsLineAndKeepsWhatWasRead() {
        String bad = "{\n  \"apiVersion\": \"v1\",\n  \"items\": [\n    {\"apiVersion\": \"v1\", \"kind\": \"Node\", \"metadata\": {\"name\": \"a\"}},\n"
                + "    {\"apiVersion\": \"v1\", \"kind\": \"Node\", \"metadata\": {\"name\": \"b\" \"oops\"}}\n  ]\n}\n";
        FabricModel m = load(src("nodes.json", bad)).model();
        assertEquals(List.of("a"), List.copyOf(m.k8sNodes().keySet()));
        Diagnostic d = problems(m).get(0);
        assertEquals(Severity.ERROR, d.severity());
        assertEquals(5, d.line());
        assertTrue(d.message().startsWith("malformed JSON"), d.message());
    }

    @Test
    void yamlAliasBombIsNotExpanded() {
        // Jackson's YAML parser streams SnakeYAML events and never expands aliases into copies, so a
        // billion-laughs document costs no more than its own size; the object is read as written.
        StringBuilder sb = new StringBuilder("apiVersion: v1\nkind: Pod\nmetadata:\n  name: boom\na: &a [x, x, x, x, x, x, x, x, x]\n");
        String prev = "a";
        for (int i = 0; i < 12; i++) {
            String n = "l" + i;
            sb.append(n).append(": &").append(n).append(" [");
            for (int k = 0; k < 9; k++) {
                sb.append(k == 0 ? "" : ", ").append('*').append(prev);
            }
            sb.append("]\n");
            prev = n;
        }
        FabricModel m = load(src("bomb.yaml", sb.toString())).model();
        assertEquals(List.of("boom"), m.pods().stream().map(K8sPod::name).toList());
        assertTrue(problems(m).isEmpty(), m.diagnostics().toString());
    }

    @Test
    void describePodTextWithEvents() {
        String text = """
                Name:             p-worker-1
                Namespace:        team-a
                Node:             gpu-07/10.1.0.7
                Labels:           training.kubeflow.org/job-name=p
                                  training.kubeflow.org/replica-index=1
                                  training.kubeflow.org/replica-type=worker
                Annotations:      k8s.v1.cni.cncf.io/networks: roce-network
                Status:           Running
                Containers:
                  pytorch:
                    Image:      img
                    Limits:
                      nvidia.com/gpu:  8
                    Requests:
                      cpu:             4
                      nvidia.com/gpu:  8
                    Environment:
                      NCCL_SOCKET_IFNAME:  net1
                    Mounts:
                      /dev/shm from dshm (rw)
                Volumes:
                  dshm:
                    Type:       EmptyDir (a temporary directory that shares a pod's lifetime)
                    Medium:     Memory
                    SizeLimit:  512Mi
                Tolerations:  nvidia.com/gpu:NoSchedule op=Exists
                              dedicated=ml:NoSchedule
                Events:
                  Type     Reason            Age                From               Message
                  ----     ------            ----               ----               -------
                  Warning  FailedScheduling  2m (x3 over 5m)    default-scheduler  0/4 nodes are available: 4 node(s) didn't match Pod's node affinity/selector. preemption: 0/4 nodes are available: 4 Preemption is not helpful for scheduling..
                  Normal   Scheduled         1m                 default-scheduler  Successfully assigned team-a/p-worker-1 to gpu-07
                """;
        ImportResult r = load(src("describe.txt", text));
        assertEquals("k8s-describe-pod", r.formats().get("describe.txt"));
        K8sPod p = r.model().pods().get(0);
        assertEquals("team-a/p-worker-1", p.key());
        assertEquals("gpu-07", p.node());
        assertEquals(1, p.job().replicaIndex());
        assertEquals("roce-network", p.spec().networks());
        assertEquals(Quantity.parse("8"), p.requests().get("nvidia.com/gpu"));
        assertEquals(Quantity.parse("512Mi"), p.spec().devShm().sizeLimit());
        assertEquals(18, p.spec().citation("NCCL_SOCKET_IFNAME").line());
        assertEquals(20, p.spec().citation("/dev/shm").line());
        assertEquals(25, p.spec().citation("sizeLimit").line());
        assertEquals(List.of(new org.fabricscope.model.k8s.Toleration("nvidia.com/gpu", "Exists", null, "NoSchedule"),
                new org.fabricscope.model.k8s.Toleration("dedicated", null, "ml", "NoSchedule")), p.spec().tolerations());
        assertTrue(p.spec().devShm().memoryBacked());
        assertEquals(2, r.model().events().size());
        assertEquals(3, r.model().events().get(0).count());
        assertEquals(31, r.model().events().get(0).evidence().line());
        assertEquals("Scheduled", r.model().events().get(1).reason());
        assertTrue(problems(r.model()).isEmpty(), problems(r.model()).toString());
    }

    @Test
    void eventsTableWithAndWithoutNamespace() {
        String plain = "LAST SEEN   TYPE      REASON             OBJECT                        MESSAGE\n"
                + "2m57s       Warning   FailedScheduling   pod/keeper-577cccc7db-s4r4v   0/1 nodes are available: 1 node(s) had "
                + "untolerated taint {node.kubernetes.io/unreachable: }. preemption: 0/1 nodes are available: 1 Preemption is not "
                + "helpful for scheduling.\n"
                + "5m          Normal    Scheduled          pod/llama-worker-0            Successfully assigned ml/llama-worker-0 to gpu-01\n";
        String all = "NAMESPACE   LAST SEEN            TYPE      REASON             OBJECT               MESSAGE\n"
                + "ml          15m (x17 over 20m)   Warning   FailedScheduling   pod/llama-worker-1   0/4 nodes are available: "
                + "4 Insufficient nvidia.com/gpu. preemption: 0/4 nodes are available: 4 No preemption victims found for incoming pod..\n"
                + "garbage line\n";
        ImportResult r = load(src("events.txt", plain), src("events-A.txt", all));
        assertEquals("k8s-events-table", r.formats().get("events.txt"));
        assertEquals("k8s-events-table", r.formats().get("events-A.txt"));
        FabricModel m = r.model();
        assertEquals(3, m.events().size());
        var keeper = m.events().get(0);
        assertEquals("", keeper.namespace());
        assertEquals("keeper-577cccc7db-s4r4v", keeper.objectName());
        assertEquals("Pod", keeper.objectKind());
        assertEquals(org.fabricscope.model.k8s.SchedulingFailure.Kind.UNTOLERATED_TAINT,
                keeper.scheduling().reasons().get(0).kind());
        var llama = m.events().get(2);
        assertEquals("ml", llama.namespace());
        assertEquals(17, llama.count());
        assertEquals("nvidia.com/gpu", llama.scheduling().reasons().get(0).subject());
        assertEquals(2, llama.evidence().line());
        assertEquals(1, problems(m).size(), "the garbage line");
        assertEquals(3, problems(m).get(0).line());
    }

    /** The Kubernetes format the registry detects in these head lines, or null when it is none of them. */
    private static String kubeFormat(List<String> lines) {
        FormatReader r = FormatRegistry.standard().detect(Head.of(String.join("\n", lines)));
        return r != null && r.phase() == ImportPhase.KUBERNETES ? r.id() : null;
    }

    @Test
    void detectionLeavesOtherJsonAndProseAlone() {
        assertNull(kubeFormat(List.of("{\"faults\": [{\"kind\": \"symbol_errors\"}]}")));
        assertNull(kubeFormat(List.of("# README", "kind: Pod is what kubectl prints")));
        assertNull(kubeFormat(List.of("Name:         gpu-01", "Roles:        <none>", "Labels: x=y")),
                "describe node is not describe pod");
        assertEquals("k8s-objects", kubeFormat(List.of("apiVersion: kubeflow.org/v1", "kind: PyTorchJob")));
        assertEquals("k8s-allocatable", kubeFormat(List.of(SEED000)));
        assertEquals("k8s-allocatable", kubeFormat(List.of("{", "  \"cpu\": \"8\",", "  \"pods\": \"110\"", "}")));
    }
}
