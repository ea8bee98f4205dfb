package org.fabricscope.model.flows;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.fabricscope.model.FabricModelBuilder;
import org.fabricscope.model.analysis.Analysis;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.k8s.JobIdentity;
import org.fabricscope.model.k8s.K8sNode;
import org.fabricscope.model.k8s.K8sPod;
import org.fabricscope.model.k8s.PodSpecSummary;
import org.fabricscope.model.k8s.Quantity;
import org.fabricscope.model.training.Rank;
import org.junit.jupiter.api.Test;

/**
 * Facts and flow paths the bundled scenarios do not reach: an eRDMA job on Alibaba Cloud instance
 * types (the PAI eRDMA guide's table and presets), environment values, CPU limits, NCCL versions.
 */
class FlowFactsTest {
    private static final Evidence E = Evidence.at("x.yaml", 1, "x");

    private static Map<String, Quantity> q(String... kv) {
        Map<String, Quantity> m = new TreeMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], Quantity.parse(kv[i + 1]));
        }
        return m;
    }

    /** Two eRDMA workers on two nodes of the given instance type, with this environment and CPU limit. */
    static FlowContext erdmaJob(String instanceType, Map<String, String> env, String cpuLimit, String ncclVersion) {
        FabricModelBuilder b = new FabricModelBuilder();
        for (String n : List.of("node-a", "node-b")) {
            Map<String, String> labels = new LinkedHashMap<>();
            labels.put("node.kubernetes.io/instance-type", instanceType);
            Map<String, Quantity> alloc = q("nvidia.com/gpu", "8", "aliyun/erdma", "200", "cpu", "128");
            b.k8s().node(new K8sNode(n, labels, List.of(), alloc, alloc, true, null, false, E, E));
        }
        Map<String, Quantity> limits = cpuLimit == null ? q("nvidia.com/gpu", "8", "aliyun/erdma", "1")
                : q("nvidia.com/gpu", "8", "aliyun/erdma", "1", "cpu", cpuLimit);
        int i = 0;
        for (String n : List.of("node-a", "node-b")) {
            String name = "bert-worker-" + i++;
            b.k8s().pod(new K8sPod(name, "ml", n, "Running", Map.of(), JobIdentity.of(name, Map.of()),
                    new PodSpecSummary(Map.of(), limits, env, null, null, Map.of()), E), false);
        }
        if (ncclVersion != null) {
            b.training().putRank(new Rank("bert-worker-0", 7, 0, 0, "1b000", "c1", 0, 16, ncclVersion, true, true,
                    List.of("erdma_0:1/RoCE"), "IB", false, Map.of(), Evidence.at("bert-worker-0.log", 3, "Init START")));
        }
        return FlowContext.of(Analysis.of(b.build(), null));
    }

    static Answer ask(FlowContext c, String json) {
        FlowLoader.Loaded l = FlowLoader.standard().load("t", ("""
                {"id": "t", "title": "t", "entry": {"findings": ["tcp-fallback"]},
                 "steps": [{"id": "s", "question": "q", "ask": %s, "otherwise": "c"}],
                 "conclusions": [{"id": "c", "text": "c", "remedies": ["r"]}]}""").formatted(json).getBytes());
        assertEquals(List.of(), l.errors());
        return FlowFacts.standard().answer(l.flow().first().ask(), c);
    }

    static final Map<String, String> PRESETS = Map.of("NCCL_IB_HCA", "erdma", "NCCL_IB_GID_INDEX", "1",
            "NCCL_IB_QPS_PER_CONNECTION", "8");
    static final String TABLE = "{\"fact\": \"instance-type-in\", \"scope\": \"ecs.\", \"types\": {\"ecs.ebmgn8v.48xlarge\": 2}}";

    @Test
    void instanceTypesFromThePaiErdmaGuidesTable() {
        Answer yes = ask(erdmaJob("ecs.ebmgn8v.48xlarge", PRESETS, null, null), TABLE);
        assertEquals(Verdict.YES, yes.verdict());
        assertEquals("2", yes.values().get("erdma-nics"));
        assertEquals("ecs.ebmgn8v.48xlarge", yes.values().get("instance-type"));
        Answer no = ask(erdmaJob("ecs.g7.8xlarge", PRESETS, null, null), TABLE);
        assertEquals(Verdict.NO, no.verdict());
        assertEquals("node node-a is a ecs.g7.8xlarge, not in the table", no.detail());
        assertEquals(Verdict.UNKNOWN, ask(erdmaJob("p5.48xlarge", PRESETS, null, null), TABLE).verdict(),
                "not an Alibaba Cloud instance: the table says nothing");
    }

    @Test
    void environmentValuesCpuLimitsAndVersions() {
        FlowContext c = erdmaJob("ecs.ebmgn8v.48xlarge", Map.of("NCCL_IB_HCA", "mlx5"), "8", "2.18.3");
        Answer hca = ask(c, "{\"fact\": \"env-set\", \"name\": \"NCCL_IB_HCA\", \"value\": \"erdma\"}");
        assertEquals(Verdict.NO, hca.verdict());
        assertTrue(hca.detail().startsWith("pod ml/bert-worker-0 sets NCCL_IB_HCA=mlx5, not erdma"), hca.detail());
        assertEquals("bert-worker-0", hca.values().get("pod"));
        assertEquals(Verdict.YES, ask(c, "{\"fact\": \"env-set\", \"name\": \"NCCL_IB_HCA\", \"in\": \"any\"}").verdict());
        Answer cpu = ask(c, "{\"fact\": \"cpu-limit-per-gpu-below\", \"cores\": 2}");
        assertEquals(Verdict.YES, cpu.verdict(), "8 cores for 8 GPUs");
        assertTrue(cpu.detail().contains("1 per GPU, below 2"), cpu.detail());
        Answer v = ask(c, "{\"fact\": \"nccl-version-at-least\", \"version\": \"2.19\"}");
        assertEquals(Verdict.NO, v.verdict());
        assertEquals("2.18.3", v.values().get("nccl-version"));
        assertEquals(Verdict.YES, ask(c, "{\"fact\": \"erdma-setup\"}").verdict());
        assertEquals(Verdict.YES, ask(c, "{\"fact\": \"roce-in-use\"}").verdict(), "erdma_0:1/RoCE");
        assertEquals(Verdict.YES, ask(c, "{\"fact\": \"allocatable-has\", \"resource\": \"aliyun/erdma\"}").verdict());
    }

    /** The no-rdma-device flow on a job whose symptom comes from its own findings. */
    private static FlowResult noRdma(FlowContext c) {
        Flow f = FlowLibrary.builtIn().flow("no-rdma-device");
        Flow always = new Flow(f.id(), f.title(), f.description(), f.sources(),
                new Flow.Entry(List.of(), List.of(new FactCall("erdma-setup", Map.of())), "all"), f.steps(), f.conclusions(), f.source());
        return FlowEngine.standard().run(always, c, Map.of());
    }

    @Test
    void anErdmaJobWithAnOldNcclOrWithoutThePresetsGetsThePaiErdmaGuidesFix() {
        FlowResult old = noRdma(erdmaJob("ecs.ebmgn8v.48xlarge", PRESETS, null, "2.18.3"));
        assertEquals("nccl-too-old", old.conclusion().id(), old.steps().toString());
        assertTrue(old.conclusion().text().startsWith("bert-worker-0:7 runs NCCL 2.18.3, older than 2.19"), old.conclusion().text());

        FlowResult presets = noRdma(erdmaJob("ecs.ebmgn8v.48xlarge", Map.of("NCCL_IB_HCA", "erdma"), null, "2.21.5"));
        assertEquals("erdma-presets", presets.conclusion().id());
        assertEquals(List.of("multi-node", "resource-requested", "node-offers", "instance-type", "nccl-no-device", "erdma",
                "nccl-version", "erdma-hca", "erdma-gid"), presets.steps().stream().map(FlowResult.StepResult::id).toList());
        assertTrue(presets.conclusion().remedies().stream().anyMatch(r -> r.contains("--env NCCL_IB_GID_INDEX=1")));

        FlowResult ok = noRdma(erdmaJob("ecs.ebmgn8v.48xlarge", PRESETS, null, "2.21.5"));
        assertEquals(FlowResult.Status.NEEDS_INPUT, ok.status(), "everything set: ibv_devinfo on the node is next");
        FlowResult.StepResult last = ok.steps().get(ok.steps().size() - 1);
        assertEquals("port-active", last.id());
        assertEquals("ibv_devinfo", last.command());
        assertTrue(last.expect().contains("node node-a is a ecs.ebmgn8v.48xlarge (2)"), last.expect());

        FlowResult wrongType = noRdma(erdmaJob("ecs.g7.8xlarge", PRESETS, null, "2.21.5"));
        assertEquals("instance-without-erdma", wrongType.conclusion().id());
    }
}
