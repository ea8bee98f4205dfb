package org.fabricscope.importers.k8s;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.fabricscope.importers.ImportResult;
import org.fabricscope.importers.TestSupport;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.core.Subject;
import org.fabricscope.model.diagnosis.Diagnosis;
import org.fabricscope.model.diagnosis.ErrorThresholds;
import org.fabricscope.model.k8s.K8sEvent;
import org.junit.jupiter.api.Test;

/** A container the kubelet OOM-killed, as the pod's status says it (no event needed). */
class PodStatusOomTest {
    private static final String POD = """
            {"apiVersion": "v1", "kind": "Pod",
             "metadata": {"name": "train-worker-1", "namespace": "ml"},
             "spec": {"nodeName": "gpu-b", "containers": [{"name": "trainer", "image": "x"}]},
             "status": {"phase": "Running",
               "containerStatuses": [{"name": "trainer", "restartCount": 1,
                 "state": {"running": {}},
                 "lastState": {"terminated": {"reason": "OOMKilled", "exitCode": 137}}}]}}
            """;

    /** torchrun's summary on the other pod: the worker's rank died by SIGKILL, the master's only reported it. */
    private static final String WORKER_LOG = """
            train-worker-1:500:500 [0] NCCL INFO NCCL version 2.21.5+cuda12.4
            train-worker-1:500:500 [0] NCCL INFO comm 0x1 rank 1 nranks 2 cudaDev 0 nvmlDev 0 busId 1b000 commId 0xabc - Init COMPLETE
            """;

    @Test
    void anOomKilledContainerInThePodStatusIsAnEventOfThePod() {
        ImportResult r = TestSupport.importTexts("pod.json", POD);
        List<K8sEvent> oom = r.model().events().stream().filter(e -> e.reason().equals("OOMKilled")).toList();
        assertEquals(1, oom.size(), r.model().events().toString());
        assertEquals("train-worker-1", oom.get(0).objectName());
        assertEquals("ml", oom.get(0).namespace());
        assertTrue(oom.get(0).message().contains("trainer") && oom.get(0).message().contains("137"), oom.get(0).message());
        assertEquals("pod.json", oom.get(0).evidence().source());
    }

    @Test
    void rankExitedNamesTheOomKilledPod() {
        ImportResult r = TestSupport.importTexts("pod.json", POD, "train-worker-1.log", WORKER_LOG);
        List<Finding> f = Diagnosis.standard(ErrorThresholds.defaults()).run(r.model(), ErrorThresholds.defaults());
        Finding exited = f.stream().filter(x -> x.id().equals("rank-exited")).findFirst()
                .orElseThrow(() -> new AssertionError(f.toString()));
        assertTrue(exited.refs().stream().anyMatch(s -> s instanceof Subject.PodRef p && p.pod().equals("train-worker-1")),
                exited.refs().toString());
        assertTrue(exited.title().contains("OOMKilled"), exited.title());
    }

    @Test
    void aContainerThatExitedNormallyIsNoEvent() {
        ImportResult r = TestSupport.importTexts("pod.json", POD.replace("OOMKilled", "Completed").replace("137", "0"));
        assertTrue(r.model().events().stream().noneMatch(e -> e.reason().equals("OOMKilled")));
    }
}
