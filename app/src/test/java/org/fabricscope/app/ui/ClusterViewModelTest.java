package org.fabricscope.app.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;

import org.fabricscope.importers.FabricImporter;
import org.fabricscope.importers.ImportProgress;
import org.fabricscope.importers.core.Cancellation;
import org.fabricscope.model.FabricModel;
import org.fabricscope.model.k8s.K8sEvent;
import org.fabricscope.model.k8s.K8sPod;
import org.junit.jupiter.api.Test;

/** The Kubernetes tab's pod columns and its events list: filtered, the selected pod's first or alone. */
class ClusterViewModelTest {
    static final Path STATUS = Path.of("src", "test", "resources", "k8s-status");

    private final FabricModel model = new FabricImporter().importPaths(List.of(STATUS), ImportProgress.NONE,
            Cancellation.NEVER).model();
    private final ClusterViewModel vm = new ClusterViewModel(j -> { }, h -> { });

    private K8sPod pod(String name) {
        return vm.pods().stream().filter(p -> p.name().equals(name)).findFirst().orElseThrow();
    }

    private List<String> reasons() {
        return vm.events().stream().map(K8sEvent::reason).toList();
    }

    @Test
    void podCellsSayRestartsRequestsLastEventAndExitCodes() {
        vm.show(model);
        K8sPod w1 = pod("train-worker-1");
        assertEquals("4", ClusterViewModel.restartsText(w1));
        assertEquals("setup: 0 Completed; trainer: running, last 137 OOMKilled; sidecar: waiting, last 1 Error",
                ClusterViewModel.exitCodesText(w1));
        assertEquals("Normal Pulled: image pulled", vm.lastEventText(w1));
        K8sPod w2 = pod("train-worker-2");
        assertEquals("", ClusterViewModel.restartsText(w2), "no statuses: not known, not zero");
        assertEquals("Warning FailedScheduling (x4): 0/2 nodes are available: 2 Insufficient nvidia.com/gpu.",
                vm.lastEventText(w2));
        assertEquals("Pod/ml/train-worker-2", ClusterViewModel.objectText(vm.lastEvent(w2)));
    }

    @Test
    void eventsAreFilteredAndTheSelectedPodsComeFirstOrAlone() {
        vm.show(model);
        // the OOMKilled container status is an event of its pod too (rank-exited reads it)
        assertEquals(List.of("FailedScheduling", "OOMKilled", "Pulled"), reasons(), "warnings first");
        assertEquals("Events: 3 of 3", vm.eventsHeadingProperty().get());
        vm.eventPodProperty().set(pod("train-worker-1"));
        assertEquals(List.of("OOMKilled", "Pulled", "FailedScheduling"), reasons(), "the pod's events first");
        vm.onlyPodEventsProperty().set(true);
        assertEquals(List.of("OOMKilled", "Pulled"), reasons());
        assertTrue(vm.eventsHeadingProperty().get().endsWith("2 of pod train-worker-1 only"), vm.eventsHeadingProperty().get());
        vm.onlyPodEventsProperty().set(false);
        vm.eventFilterProperty().set("insufficient");
        assertEquals(List.of("FailedScheduling"), reasons(), "the message matches, any case");
        vm.eventFilterProperty().set("");
        vm.show(model);
        assertEquals(3, vm.events().size(), "a new load clears the pod");
    }
}
