package org.fabricscope.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.fabricscope.importers.FabricImporter;
import org.fabricscope.importers.ImportProgress;
import org.fabricscope.importers.core.Cancellation;
import org.fabricscope.model.FabricModel;
import org.fabricscope.model.incident.reasoning.Incident;
import org.fabricscope.model.incident.reasoning.IncidentEvent;
import org.fabricscope.model.incident.reasoning.IncidentReasoner;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Each real failure captured on a GPU host (gpu-captures/incidents-*, launch-prefixes-*, stalled-ranks-*) against what really happened
 * in it ({@code truth.json}, written from how the failure was made): the root cause's class, and its
 * pod and rank where the inputs can tell them; healthy captures conclude nothing.
 */
class IncidentCapturesTest {
    private static final Path CAPTURES = Samples.root().resolve("gpu-captures").resolve("incidents-h100x2-nccl-2.28.9");
    /** The same kinds of failure printed behind torchrun's worker prefixes ({@code --tee 3}, a prefix template). */
    private static final Path LAUNCH_PREFIXES = Samples.root().resolve("gpu-captures")
            .resolve("launch-prefixes-h200x2-nccl-2.28.9");
    /** A rank that stalled past the timeout with the dump signal off, rank 0 stalled, a rank gone, a subgroup. */
    private static final Path STALLED = Samples.root().resolve("gpu-captures").resolve("stalled-ranks-h200x2-nccl-2.28.9");

    private static FabricModel load(Path dir, Path... more) throws IOException {
        List<Path> files = new ArrayList<>();
        for (String name : GoldenFilesTest.inputs(Samples.root(), dir)) {
            files.add(Path.of(name)); // relative to the working directory, as the CLI is given them
        }
        files.addAll(List.of(more));
        return new FabricImporter().importPaths(files, ImportProgress.NONE, Cancellation.NEVER).model();
    }

    @TestFactory
    Stream<DynamicTest> eachCaptureConcludesOnWhatReallyHappened() throws IOException {
        List<Path> dirs = new ArrayList<>();
        for (Path set : List.of(CAPTURES, LAUNCH_PREFIXES, STALLED)) {
            try (Stream<Path> s = Files.list(set)) {
                dirs.addAll(s.filter(d -> Files.exists(d.resolve("truth.json"))).sorted().toList());
            }
        }
        assertTrue(dirs.size() >= 25, dirs.toString());
        return dirs.stream().map(d -> DynamicTest.dynamicTest(d.getFileName().toString(), () -> check(d)));
    }

    /**
     * The same captures as a run prints them without the flight recorder's dump on timeout: where the dump signal
     * is off ({@code TORCH_NCCL_DUMP_ON_TIMEOUT=0}) or the release predates it, no rank answers the first timeout with
     * its own progress ({@code Received a dump signal due to a collective timeout ... Last enqueued NCCL work: N},
     * {@code Observed flight recorder dump signal}, {@code First PG on this rank to signal dumping}). The root cause
     * must not change: a rank that stalled and then went on is told by when its reports came, not by their counts.
     */
    @TestFactory
    Stream<DynamicTest> eachCaptureConcludesTheSameWithoutTheDumpSignalsReports(@TempDir Path tmp) throws IOException {
        List<Path> dirs = new ArrayList<>();
        for (Path set : List.of(CAPTURES, LAUNCH_PREFIXES, STALLED)) {
            try (Stream<Path> s = Files.list(set)) {
                dirs.addAll(s.filter(d -> Files.exists(d.resolve("truth.json"))).sorted().toList());
            }
        }
        List<DynamicTest> tests = new ArrayList<>();
        for (Path d : dirs) {
            tests.add(DynamicTest.dynamicTest(d.getFileName().toString(), () -> {
                List<Path> files = new ArrayList<>();
                Path to = tmp.resolve(d.getFileName().toString());
                for (String name : GoldenFilesTest.inputs(Samples.root(), d)) {
                    Path from = Path.of(name);
                    Path copy = to.resolve(d.toAbsolutePath().normalize().relativize(from.toAbsolutePath().normalize()).toString());
                    Files.createDirectories(copy.getParent());
                    if (Files.isRegularFile(from) && name.endsWith(".log")) {
                        List<String> kept = Files.readAllLines(from, java.nio.charset.StandardCharsets.ISO_8859_1).stream()
                                .filter(l -> !l.contains("Received a dump signal") && !l.contains("flight recorder dump signal")
                                        && !l.contains("to signal dumping")).toList();
                        Files.write(copy, kept, java.nio.charset.StandardCharsets.ISO_8859_1);
                    } else if (Files.isRegularFile(from)) {
                        Files.copy(from, copy);
                    } else {
                        continue; // a folder (a flight recorder capture) is not a log to strip
                    }
                    files.add(copy);
                }
                FabricModel m = new FabricImporter().importPaths(files, ImportProgress.NONE, Cancellation.NEVER).model();
                check(d, IncidentReasoner.reason(m));
            }));
        }
        return tests.stream();
    }

    private static void check(Path dir) throws IOException {
        check(dir, IncidentReasoner.reason(load(dir)));
    }

    private static void check(Path dir, Incident incident) throws IOException {
        JsonNode truth = Samples.json(dir.resolve("truth.json")).get("rootCause");
        IncidentEvent root = incident.rootCause();
        if (truth == null || truth.isNull()) {
            assertNull(root, () -> "a healthy capture concluded " + root);
            return;
        }
        assertNotNull(root, "no root cause; events: " + incident.events());
        assertEquals(truth.get("class").asText(), root.causeClass().id(), root.line());
        String pod = truth.path("pod").asText("");
        boolean rendezvousAlone = dir.getFileName().toString().startsWith("rendezvous-incomplete");
        if (!pod.isEmpty() && !rendezvousAlone) {
            String lane = root.who().pod().isEmpty() ? root.who().host() : root.who().pod();
            assertEquals(pod, lane, root.line());
        }
        if (truth.hasNonNull("rank") && root.who().rank() >= 0) {
            assertEquals(truth.get("rank").asInt(), root.who().rank(), root.line());
        }
    }

    /**
     * A rendezvous whose missing member printed nothing: the logs alone cannot name it (the conclusion
     * says so); with the job's pods loaded, the one still Pending is named, with its phase.
     */
    @Test
    void aRendezvousThatNeverCompletedNamesTheMissingMemberFromThePods(@TempDir Path tmp) throws IOException {
        Path dir = CAPTURES.resolve("rendezvous-incomplete-plain");
        Incident alone = IncidentReasoner.reason(load(dir));
        assertTrue(alone.notes().stream().anyMatch(n -> n.contains("no input names the member that never joined")),
                alone.notes().toString());
        Path pods = tmp.resolve("pods.json");
        Files.writeString(pods, """
                {"apiVersion": "v1", "kind": "List", "items": [
                 {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "trainer-worker-0", "namespace": "ml",
                   "labels": {"training.kubeflow.org/job-name": "trainer", "training.kubeflow.org/replica-type": "worker"}},
                  "spec": {"nodeName": "gpu-node-a", "containers": [{"name": "pytorch", "image": "pytorch",
                   "resources": {"limits": {"nvidia.com/gpu": "1"}}}]},
                  "status": {"phase": "Running"}},
                 {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "trainer-worker-1", "namespace": "ml",
                   "labels": {"training.kubeflow.org/job-name": "trainer", "training.kubeflow.org/replica-type": "worker"}},
                  "spec": {"containers": [{"name": "pytorch", "image": "pytorch",
                   "resources": {"limits": {"nvidia.com/gpu": "1"}}}]},
                  "status": {"phase": "Pending"}}]}
                """);
        IncidentEvent root = IncidentReasoner.reason(load(dir, pods)).rootCause();
        assertEquals("fabricscope.rendezvous-member-missing", root.id(), root.line());
        assertEquals("trainer-worker-1", root.who().pod());
        assertTrue(root.title().contains("Pending"), root.title());
    }
}
