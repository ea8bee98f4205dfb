package org.fabricscope.model.flows;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import org.fabricscope.model.FabricModelBuilder;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.evidence.OomKill;
import org.fabricscope.model.k8s.ContainerStatus;
import org.fabricscope.model.k8s.JobIdentity;
import org.fabricscope.model.k8s.K8sEvent;
import org.fabricscope.model.k8s.K8sPod;
import org.fabricscope.model.training.NcclEvent;
import org.junit.jupiter.api.Test;

/**
 * The job-crashed flow on a rank that died of a signal: a SIGKILL is only "out of memory" on evidence of
 * memory (an OOMKilled status or event, the kernel's OOM killer, CUDA out of memory); without it the flow
 * concludes killed-by-signal on the rank-exited finding and says how to tell the OOM killer, a preemption
 * and a person apart.
 */
class JobCrashedFlowTest {
    private static final Evidence E = Evidence.at("torchrun-stderr.log", 37, "exitcode  : -9 (pid: 727)");

    /** torchrun's root-cause entry: rank 1 (pid 727 on worker-1) with this exit code and signal. */
    static NcclEvent childFailed(String exit, String signal) {
        Map<String, String> f = new LinkedHashMap<>();
        f.put("rank", "1");
        f.put("localRank", "1");
        f.put("pid", "727");
        f.put("host", "llm-worker-1");
        f.put("exitcode", exit);
        if (signal != null) {
            f.put("signal", signal);
        }
        f.put("rootCause", "true");
        return new NcclEvent(NcclEvent.Kind.CHILD_FAILED, "", -1, 1, "rank 1 failed", f, E);
    }

    static K8sPod pod(String phase, ContainerStatus... statuses) {
        return new K8sPod("llm-worker-1", "ml", "node-7", phase, Map.of(), new JobIdentity("llm", "worker", 1, "label"),
                null, Evidence.at("pods.yaml", 12, "name: llm-worker-1"), List.of(statuses));
    }

    static FlowResult crash(Consumer<FabricModelBuilder> fill) {
        FabricModelBuilder b = new FabricModelBuilder();
        fill.accept(b);
        return HostEvidenceFactsTest.walk(HostEvidenceFactsTest.context(b.build()), "job-crashed");
    }

    @Test
    void aSigkillWithoutMemoryEvidenceIsKilledBySignalNotOutOfMemory() {
        FlowResult r = crash(b -> b.training().addEvent(childFailed("-9", "SIGKILL")));
        assertEquals(FlowResult.Status.CONCLUDED, r.status(), r.reason());
        assertEquals("killed-by-signal", r.conclusion().id());
        assertEquals("rank-exited", r.conclusion().finding());
        assertEquals(Verdict.UNKNOWN, HostEvidenceFactsTest.step(r, "oom").answer().verdict(), "SIGKILL alone proves no OOM");
        assertTrue(HostEvidenceFactsTest.step(r, "oom").answer().detail().contains("no OOMKilled status or event"),
                HostEvidenceFactsTest.step(r, "oom").answer().detail());
        assertEquals(Verdict.YES, HostEvidenceFactsTest.step(r, "killed").answer().verdict());
        String text = r.conclusion().text();
        assertTrue(text.contains("OOM killer") && text.contains("preempts") && text.contains("kill -9"), text);
        String remedies = String.join("\n", r.conclusion().remedies());
        assertTrue(remedies.contains("Reason: OOMKilled") && remedies.contains("dmesg -T | grep -i -E")
                && remedies.contains("kubectl describe node"), remedies);
        // the finding the conclusion names is raised on the same input
        List<Finding> exited = HostEvidenceFactsTest.context(build(b -> b.training().addEvent(childFailed("-9", "SIGKILL"))))
                .findings("rank-exited");
        assertEquals(1, exited.size());
    }

    private static org.fabricscope.model.FabricModel build(Consumer<FabricModelBuilder> fill) {
        FabricModelBuilder b = new FabricModelBuilder();
        fill.accept(b);
        return b.build();
    }

    @Test
    void exitCode137FromAContainerIsASigkillToo() {
        FlowResult r = crash(b -> b.training().addEvent(childFailed("137", null)));
        assertEquals("killed-by-signal", r.conclusion().id());
        assertTrue(HostEvidenceFactsTest.step(r, "killed").answer().detail().contains("died of SIGKILL (exit code 137)"),
                HostEvidenceFactsTest.step(r, "killed").answer().detail());
    }

    @Test
    void anOomKilledEventOrStatusConcludesOutOfMemory() {
        FlowResult event = crash(b -> {
            b.training().addEvent(childFailed("-9", "SIGKILL"));
            b.k8s().event(K8sEvent.of("ml", "Pod", "llm-worker-1", "Warning", "OOMKilled",
                    "container worker terminated: OOMKilled, exit code 137", 1, "pod status", Evidence.at("pods.yaml", 40, "OOMKilled")));
        });
        assertEquals("out-of-memory", event.conclusion().id());
        assertEquals(Verdict.YES, HostEvidenceFactsTest.step(event, "oom").answer().verdict());

        FlowResult status = crash(b -> {
            b.training().addEvent(childFailed("-9", "SIGKILL"));
            b.k8s().pod(pod("Running", new ContainerStatus("worker", false, 1, "running", "", null, "OOMKilled", 137)), false);
        });
        assertEquals("out-of-memory", status.conclusion().id());
        assertTrue(HostEvidenceFactsTest.step(status, "oom").answer().detail().contains("last 137 OOMKilled"),
                HostEvidenceFactsTest.step(status, "oom").answer().detail());
    }

    @Test
    void theKernelsOomKillerConcludesOutOfMemory() {
        FlowResult r = crash(b -> {
            b.training().addEvent(childFailed("-9", "SIGKILL"));
            b.hostEvidence().file("node-7/dmesg.txt", List.of("node-7")).oomKill(new OomKill(413127, "python", true,
                    "Memory cgroup out of memory: Killed process 413127 (python)", Evidence.at("node-7/dmesg.txt", 19, "x")));
        });
        assertEquals("out-of-memory", r.conclusion().id());
        Answer oom = HostEvidenceFactsTest.step(r, "oom").answer();
        assertTrue(oom.detail().contains("node-7: python (pid 413127), over its memory cgroup's limit"), oom.detail());
        assertEquals("node-7/dmesg.txt", oom.evidence().get(0).source());
    }

    @Test
    void anOomKilledPodOfAnotherJobIsNotThisRanksMemory() {
        FlowResult r = crash(b -> {
            b.training().addEvent(childFailed("-9", "SIGKILL"));
            b.k8s().pod(pod("Running"), false);
            b.k8s().event(K8sEvent.of("ml", "Pod", "someone-elses-notebook", "Warning", "OOMKilled",
                    "container nb terminated: OOMKilled, exit code 137", 1, "pod status", Evidence.at("ev.txt", 3, "OOMKilled")));
        });
        assertEquals("killed-by-signal", r.conclusion().id());
    }

    @Test
    void otherSignalsKeepTheirConclusions() {
        assertEquals("terminated", crash(b -> b.training().addEvent(childFailed("-15", "SIGTERM"))).conclusion().id());
        assertEquals("exited", crash(b -> b.training().addEvent(childFailed("1", null))).conclusion().id());
    }
}
