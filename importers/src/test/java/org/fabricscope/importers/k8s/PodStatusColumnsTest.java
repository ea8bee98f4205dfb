package org.fabricscope.importers.k8s;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.fabricscope.importers.ImportResult;
import org.fabricscope.importers.TestSupport;
import org.fabricscope.model.k8s.ContainerStatus;
import org.fabricscope.model.k8s.K8sEvent;
import org.fabricscope.model.k8s.K8sPod;
import org.junit.jupiter.api.Test;

/** What the Kubernetes tab's pod and event columns need: restarts, exit codes and when events were last seen. */
class PodStatusColumnsTest {
    private static final String PODS = """
            {"apiVersion": "v1", "kind": "List", "items": [
             {"apiVersion": "v1", "kind": "Pod",
              "metadata": {"name": "train-worker-1", "namespace": "ml"},
              "spec": {"nodeName": "gpu-b", "containers": [{"name": "trainer", "image": "x"}, {"name": "sidecar", "image": "y"}]},
              "status": {"phase": "Running",
                "initContainerStatuses": [{"name": "setup", "restartCount": 0,
                  "state": {"terminated": {"reason": "Completed", "exitCode": 0}}}],
                "containerStatuses": [
                  {"name": "trainer", "restartCount": 3, "state": {"running": {}},
                   "lastState": {"terminated": {"reason": "OOMKilled", "exitCode": 137}}},
                  {"name": "sidecar", "restartCount": 1, "state": {"waiting": {"reason": "CrashLoopBackOff"}},
                   "lastState": {"terminated": {"reason": "Error", "exitCode": 1}}}]}},
             {"apiVersion": "v1", "kind": "Pod",
              "metadata": {"name": "train-worker-2", "namespace": "ml"},
              "spec": {"containers": [{"name": "trainer", "image": "x"}]},
              "status": {"phase": "Pending"}}]}
            """;

    private static final String EVENTS = """
            {"apiVersion": "v1", "kind": "List", "items": [
             {"apiVersion": "v1", "kind": "Event", "metadata": {"name": "a", "namespace": "ml", "creationTimestamp": "2026-11-20T07:40:00Z"},
              "involvedObject": {"kind": "Pod", "name": "train-worker-2", "namespace": "ml"},
              "type": "Warning", "reason": "FailedScheduling", "count": 4,
              "message": "0/2 nodes are available: 2 Insufficient nvidia.com/gpu.",
              "firstTimestamp": "2026-11-20T07:41:05Z", "lastTimestamp": "2026-11-20T07:45:10Z"},
             {"apiVersion": "events.k8s.io/v1", "kind": "Event", "metadata": {"name": "b", "namespace": "ml"},
              "regarding": {"kind": "Pod", "name": "train-worker-1", "namespace": "ml"},
              "type": "Normal", "reason": "Pulled", "note": "image pulled", "eventTime": "2026-11-20T07:50:00.000000Z"}]}
            """;

    @Test
    void containerStatusesGiveRestartsAndExitCodes() {
        ImportResult r = TestSupport.importTexts("pods.json", PODS);
        K8sPod p = r.model().pods().stream().filter(x -> x.name().equals("train-worker-1")).findFirst().orElseThrow();
        assertEquals(3, p.containers().size(), "the init container too");
        ContainerStatus setup = p.containers().get(0);
        assertTrue(setup.init());
        assertEquals(0, setup.exitCode());
        assertEquals(4, p.restarts(), "kubectl's RESTARTS: the app containers' restarts");
        assertEquals("setup: 0 Completed; trainer: running, last 137 OOMKilled; sidecar: waiting, last 1 Error", p.exitCodes());
        K8sPod pending = r.model().pods().stream().filter(x -> x.name().equals("train-worker-2")).findFirst().orElseThrow();
        assertEquals(List.of(), pending.containers());
        assertEquals("", pending.exitCodes());
    }

    @Test
    void eventsKeepWhenTheyWereLastSeen() {
        ImportResult r = TestSupport.importTexts("events.json", EVENTS);
        K8sEvent sched = r.model().events().stream().filter(e -> e.reason().equals("FailedScheduling")).findFirst().orElseThrow();
        assertEquals("2026-11-20T07:45:10Z", sched.lastSeen(), "lastTimestamp, not the first or the creation");
        assertEquals(4, sched.count());
        K8sEvent pulled = r.model().events().stream().filter(e -> e.reason().equals("Pulled")).findFirst().orElseThrow();
        assertEquals("2026-11-20T07:50:00.000000Z", pulled.lastSeen(), "events.k8s.io: eventTime");
    }

    @Test
    void anEventsTableGivesTheAgeWithoutTheRepeats() {
        ImportResult r = TestSupport.importTexts("events.txt", """
                LAST SEEN            TYPE      REASON             OBJECT                 MESSAGE
                3m12s (x5 over 10m)  Warning   FailedScheduling   pod/train-worker-2     0/2 nodes are available: 2 Insufficient nvidia.com/gpu.
                45s                  Normal    Scheduled          pod/train-worker-1     Successfully assigned ml/train-worker-1 to gpu-b
                """);
        List<K8sEvent> ev = r.model().events();
        assertEquals(2, ev.size(), r.model().diagnostics().toString());
        assertEquals("3m12s", ev.get(0).lastSeen());
        assertEquals(5, ev.get(0).count());
        assertEquals("45s", ev.get(1).lastSeen());
    }

    @Test
    void describePodGivesStatesRestartsExitCodesAndEventAges() {
        ImportResult r = TestSupport.importTexts("describe.txt", """
                Name:             train-worker-1
                Namespace:        ml
                Node:             gpu-b/10.0.0.2
                Status:           Running
                Containers:
                  trainer:
                    Image:          x
                    State:          Running
                      Started:      Fri, 20 Nov 2026 07:52:00 +0000
                    Last State:     Terminated
                      Reason:       OOMKilled
                      Exit Code:    137
                      Started:      Fri, 20 Nov 2026 07:41:00 +0000
                    Ready:          True
                    Restart Count:  2
                    Requests:
                      cpu:     8
                Events:
                  Type     Reason     Age                From     Message
                  ----     ------     ----               ----     -------
                  Warning  BackOff    67s (x3 over 5m)   kubelet  Back-off restarting failed container trainer
                """);
        K8sPod p = r.model().pods().get(0);
        assertEquals(List.of(new ContainerStatus("trainer", false, 2, "running", "", null, "OOMKilled", 137)), p.containers(),
                r.model().diagnostics().toString());
        assertEquals(2, p.restarts());
        assertEquals("trainer: running, last 137 OOMKilled", p.exitCodes());
        K8sEvent backoff = r.model().events().get(0);
        assertEquals("67s", backoff.lastSeen());
        assertEquals(3, backoff.count());
        assertNull(p.containers().get(0).exitCode());
    }
}
