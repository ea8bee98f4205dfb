package org.fabricscope.model.k8s;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Set;

import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.FabricModel;
import org.fabricscope.model.FabricModelBuilder;
import org.fabricscope.model.analysis.FabricSummary;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.diagnosis.Diagnosis;
import org.fabricscope.model.diagnosis.ErrorThresholds;
import org.junit.jupiter.api.Test;

class K8sLayerTest {
    private static Map<String, Quantity> q(String... kv) {
        Map<String, Quantity> m = new java.util.TreeMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], Quantity.parse(kv[i + 1]));
        }
        return m;
    }

    private static K8sNode node(String name, Map<String, String> labels, String ip, Map<String, Quantity> alloc) {
        Evidence e = Evidence.at("nodes.json", 1, name);
        return new K8sNode(name, labels, List.of(), alloc, alloc, true, ip, false, e, e);
    }

    @Test
    void nodesJoinHostsByNameHostnameLabelInternalIpOrShortName() {
        Map<String, K8sNode> nodes = new java.util.LinkedHashMap<>();
        nodes.put("a", node("a", Map.of(), null, Map.of()));
        nodes.put("node-7", node("node-7", Map.of(K8sNode.HOSTNAME_LABEL, "gpu-b"), null, Map.of()));
        nodes.put("ip-10-0-0-3", node("ip-10-0-0-3", Map.of(), "10.0.0.3", Map.of()));
        nodes.put("gpu-d.cluster.local", node("gpu-d.cluster.local", Map.of(), null, Map.of()));
        nodes.put("stray", node("stray", Map.of(), "10.9.9.9", Map.of()));
        Map<String, String> join = K8sLayer.join(nodes, Set.of("a", "gpu-b", "10.0.0.3", "GPU-D"));
        assertEquals("a", join.get("a"));
        assertEquals("gpu-b", join.get("node-7"));
        assertEquals("10.0.0.3", join.get("ip-10-0-0-3"));
        assertEquals("GPU-D", join.get("gpu-d.cluster.local"));
        assertNull(join.get("stray"));
    }

    @Test
    void jobIdentityFromLabelsAndNames() {
        JobIdentity kf = JobIdentity.of("job-test-3-master-0", Map.of("training.kubeflow.org/job-name", "job-test-3",
                "training.kubeflow.org/replica-type", "master", "training.kubeflow.org/replica-index", "0"));
        assertEquals(new JobIdentity("job-test-3", "master", 0, "kubeflow-labels"), kf);
        JobIdentity old = JobIdentity.of("x-worker-2", Map.of("job-name", "x", "replica-type", "Worker", "replica-index", "2"));
        assertEquals(new JobIdentity("x", "worker", 2, "kubeflow-labels (deprecated)"), old);
        JobIdentity mpi = JobIdentity.of("nccl-test-launcher-x7k2p", Map.of("training.kubeflow.org/job-name", "nccl-test",
                "training.kubeflow.org/job-role", "launcher"));
        assertEquals("launcher", mpi.replicaType());
        JobIdentity arena = JobIdentity.of("pytorch-mnist-worker-1", Map.of("release", "pytorch-mnist", "app", "pytorchjob"));
        assertEquals(new JobIdentity("pytorch-mnist", "worker", 1, "arena release label"), arena);
        assertEquals(new JobIdentity("llama", "worker", 12, "pod name"), JobIdentity.of("llama-worker-12", Map.of()));
        assertEquals(new JobIdentity("bench", "launcher", null, "pod name"), JobIdentity.of("bench-launcher-ab12c", Map.of()));
        assertNull(JobIdentity.of("coredns-5d78c9869d-abcde", Map.of("k8s-app", "kube-dns")));
        assertNull(JobIdentity.of("prometheus-server-7c9f8d-x2x4z", Map.of("release", "prometheus", "app", "prometheus")),
                "every Helm chart sets release; only Arena's training charts count");
        assertEquals("bert", JobIdentity.of("bert-worker-0", Map.of("release", "bert")).jobName());
        assertEquals(new JobIdentity("llm", "node", 1, "jobset labels"), JobIdentity.of("llm-node-0-1-x2k9q",
                Map.of("jobset.sigs.k8s.io/jobset-name", "llm", "jobset.sigs.k8s.io/replicatedjob-name", "node",
                        "jobset.sigs.k8s.io/job-index", "0", "batch.kubernetes.io/job-completion-index", "1")));
    }

    @Test
    void freeCapacityAndChecksOverAModelWithoutFabric() {
        FabricModelBuilder b = new FabricModelBuilder();
        b.k8s().node(node("n1", Map.of(), null, q("nvidia.com/gpu", "8", "aliyun/erdma", "200", "cpu", "15890m")));
        b.k8s().allocatable("n2", q("nvidia.com/gpu", "8", "cpu", "16"), Evidence.at("n2.allocatable.json", 1, "{}"));
        PodSpecSummary noRdma = new PodSpecSummary(q("nvidia.com/gpu", "6"), Map.of(), Map.of("NCCL_IB_HCA", "erdma_0"),
                null, new ShmVolume("dshm", "emptyDir", "Memory", Quantity.parse("8Gi")), Map.of());
        b.k8s().pod(new K8sPod("j-master-0", "default", "n1", "Running", Map.of(), JobIdentity.of("j-master-0", Map.of()),
                noRdma, Evidence.at("pods.json", 10, "pod")), false);
        b.k8s().pod(new K8sPod("j-worker-0", "default", "n2", "Running", Map.of(), JobIdentity.of("j-worker-0", Map.of()),
                noRdma, Evidence.at("pods.json", 40, "pod")), false);
        b.k8s().pod(new K8sPod("j-worker-1", "default", null, "Pending", Map.of(), JobIdentity.of("j-worker-1", Map.of()),
                noRdma, Evidence.at("pods.json", 70, "pod")), false);
        b.k8s().pod(new K8sPod("done", "default", "n1", "Succeeded", Map.of(), null,
                new PodSpecSummary(q("nvidia.com/gpu", "2"), Map.of(), Map.of(), null, null, Map.of()), null), false);
        FabricModel m = b.build();
        assertEquals(2, m.k8sNodes().size());
        assertEquals(Quantity.parse("2"), m.k8s().free("n1").get("nvidia.com/gpu"), "the Succeeded pod holds nothing");
        assertEquals(1, m.jobs().size());
        assertEquals("pods", m.jobs().get(0).kind());
        FabricSummary s = FabricSummary.of(m, ErrorThresholds.defaults());
        assertEquals(2, s.k8sNodes());
        assertEquals(4, s.pods());
        assertEquals(16L, s.allocatable().get("nvidia.com/gpu"));
        assertEquals(31.89, s.allocatable().get("cpu").doubleValue(), 1e-9);
        List<Finding> f = Diagnosis.standard(ErrorThresholds.defaults()).run(org.fabricscope.model.diagnosis.CheckContext.of(m));
        Finding ins = f.stream().filter(x -> x.id().equals("insufficient-resources")).findFirst().orElseThrow();
        assertTrue(ins.title().contains("free n1 2 (short 4), n2 2 (short 4)"), ins.title());
        Finding nr = f.stream().filter(x -> x.id().equals("rdma-resource-not-requested")).findFirst().orElseThrow();
        assertEquals(List.of("pod default/j-master-0", "node n1"), nr.subjects());
        assertTrue(nr.remedies().stream().anyMatch(r -> r.contains("--device=aliyun/erdma=1")));
        Finding miss = f.stream().filter(x -> x.id().equals("rdma-resource-missing")).findFirst().orElseThrow();
        assertEquals("node n2", miss.subjects().get(0));
        assertEquals("n2.allocatable.json", miss.evidence().get(0).source());
        assertTrue(f.stream().noneMatch(x -> x.id().equals("shm-too-small") || x.id().equals("secondary-network-missing")));
    }

    @Test
    void fitExplainsEachNodeAsTheSchedulerWould() {
        FabricModelBuilder b = new FabricModelBuilder();
        Evidence e = Evidence.at("nodes.json", 1, "n");
        b.k8s().node(new K8sNode("tainted", Map.of("pool", "gpu"), List.of(new Taint("gpu", "", "NoSchedule")),
                q("nvidia.com/gpu", "8"), Map.of(), true, null, false, e, e));
        b.k8s().node(new K8sNode("cordoned", Map.of("pool", "gpu"), List.of(), q("nvidia.com/gpu", "8"), Map.of(), true, null,
                true, e, e));
        b.k8s().node(new K8sNode("cpu", Map.of("pool", "cpu"), List.of(new Taint("soft", "x", "PreferNoSchedule")),
                q("cpu", "64"), Map.of(), true, null, false, e, e));
        b.k8s().node(new K8sNode("free", Map.of("pool", "gpu"), List.of(new Taint("nvidia.com/gpu", "present", "NoSchedule")),
                q("nvidia.com/gpu", "8"), Map.of(), true, null, false, e, e));
        PodSpecSummary s = new PodSpecSummary(q("nvidia.com/gpu", "4"), Map.of(), Map.of(), null, null, Map.of("pool", "gpu"),
                Map.of(), List.of(new Toleration("nvidia.com/gpu", "Exists", "", "NoSchedule")));
        K8sPod p = new K8sPod("p", "ns", null, "Pending", Map.of(), null, s, null);
        b.k8s().pod(p, false);
        Map<String, NodeFit> fit = new java.util.HashMap<>();
        b.build().k8s().fit(p).forEach(f -> fit.put(f.node(), f));
        assertEquals(List.of("node(s) had untolerated taint {gpu: }"), fit.get("tainted").reasons());
        assertEquals(List.of("node(s) were unschedulable"), fit.get("cordoned").reasons());
        assertEquals(List.of("node(s) didn't match Pod's node affinity/selector", "Insufficient nvidia.com/gpu"),
                fit.get("cpu").reasons(), "PreferNoSchedule does not filter");
        assertTrue(fit.get("free").fits(), fit.get("free").toString());
        assertTrue(new Toleration("", "Exists", "", "").tolerates(new Taint("any", "v", "NoExecute")));
        assertTrue(!new Toleration("k", "Equal", "a", "NoSchedule").tolerates(new Taint("k", "b", "NoSchedule")));
    }

    @Test
    void templatesAreCheckedWhenNoPodsWereRead() {
        FabricModelBuilder b = new FabricModelBuilder();
        PodSpecSummary t = new PodSpecSummary(q("nvidia.com/gpu", "8"), Map.of(), Map.of("NCCL_SOCKET_IFNAME", "net1,net2"),
                null, null, Map.of());
        b.k8s().job(new TrainingJob("mj", "ns", "MPIJob", List.of(new TrainingJob.Replica("Worker", 4, t,
                Evidence.at("mj.yaml", 3, "MPIJob"))), List.of(), Evidence.at("mj.yaml", 1, "MPIJob ns/mj")));
        List<Finding> f = Diagnosis.standard(ErrorThresholds.defaults()).run(org.fabricscope.model.diagnosis.CheckContext.of(b.build()));
        assertEquals(List.of("secondary-network-missing", "shm-too-small"), f.stream().map(Finding::id).sorted().toList());
        assertEquals(List.of("job ns/mj Worker"), f.get(0).subjects());
        PodSpecSummary excl = new PodSpecSummary(Map.of(), Map.of(), Map.of("NCCL_SOCKET_IFNAME", "^docker,lo"), null, null,
                Map.of());
        assertTrue(excl.socketInterfaces().isEmpty());
    }
}
