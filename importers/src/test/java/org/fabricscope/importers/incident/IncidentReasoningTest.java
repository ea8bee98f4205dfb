package org.fabricscope.importers.incident;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.fabricscope.importers.FabricImporter;
import org.fabricscope.importers.ImportProgress;
import org.fabricscope.importers.core.Cancellation;
import org.fabricscope.model.FabricModel;
import org.fabricscope.model.incident.CauseClass;
import org.fabricscope.model.incident.reasoning.Incident;
import org.fabricscope.model.incident.reasoning.IncidentEvent;
import org.fabricscope.model.incident.reasoning.IncidentReasoner;
import org.fabricscope.model.incident.Role;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The reasoning over logs written as the sources print them: which failure came first (by stamps, by
 * blame between peers, by silence), what follows from it, and that healthy logs conclude nothing.
 */
class IncidentReasoningTest {
    @TempDir
    Path dir;

    private static final String INIT0 = "trainer-worker-0:811:811 [0] NCCL INFO comm 0x55d0c0 rank 0 nranks 2 cudaDev 0 nvmlDev 0"
            + " busId 18000 commId 0x7d2c5b6ef0a1b2c3 - Init COMPLETE\n";
    private static final String INIT1 = "trainer-worker-1:812:812 [0] NCCL INFO comm 0x55d0c1 rank 1 nranks 2 cudaDev 0 nvmlDev 0"
            + " busId 18000 commId 0x7d2c5b6ef0a1b2c3 - Init COMPLETE\n";

    private FabricModel load(String... nameAndText) throws IOException {
        List<Path> files = new java.util.ArrayList<>();
        for (int i = 0; i < nameAndText.length; i += 2) {
            Path p = dir.resolve(nameAndText[i]);
            Files.writeString(p, nameAndText[i + 1]);
            files.add(p);
        }
        return new FabricImporter().importPaths(files, ImportProgress.NONE, Cancellation.NEVER).model();
    }

    @Test
    void theRankThatRanOutOfGpuMemoryIsTheRootNotThePeerThatSawItGo() throws IOException {
        FabricModel m = load("trainer-worker-0.log", INIT0
                        + "[rank0]:[E1126 15:47:42.790211 811 ProcessGroupNCCL.cpp:1895] [PG ID 0 PG GUID 0(default_pg) Rank 0]"
                        + " Process group watchdog thread terminated with exception: NCCL error: remote process exited or there"
                        + " was a network error, NCCL version 2.28.9\n",
                "trainer-worker-1.log", INIT1
                        + "[rank1]:[W1126 15:47:40.100000 812 ProcessGroupNCCL.cpp:4751] step 3\n"
                        + "[rank1]: Traceback (most recent call last):\n"
                        + "[rank1]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 80.00 GiB. GPU 0 has a total"
                        + " capacity of 79.19 GiB of which 78.41 GiB is free. Including non-PyTorch memory, this process has"
                        + " 788.00 MiB memory in use.\n");
        Incident incident = IncidentReasoner.reason(m);
        IncidentEvent root = incident.rootCause();
        assertNotNull(root, incident.events().toString());
        assertEquals(CauseClass.GPU_MEMORY, root.causeClass(), root.toString());
        assertEquals(1, root.who().rank());
        IncidentEvent reaction = incident.events().stream().filter(e -> e.who().rank() == 0 && e.role() == Role.CONSEQUENCE)
                .findFirst().orElseThrow();
        assertEquals(root.seq(), incident.causeOf().get(reaction.seq()), "rank 0's report follows rank 1's failure");
        // the one owner of rank placement answers for the reasoning, the checks and the views alike
        org.fabricscope.model.ranks.RankMap ranks = org.fabricscope.model.ranks.RankMap.of(m);
        assertEquals(1, ranks.worldRankOf("trainer-worker-1", 812));
        assertEquals(-1, ranks.worldRankOf("trainer-worker-1", 999));
        assertEquals("trainer-worker-1", ranks.worldSite(1).rank().host());
        assertNull(ranks.worldSite(7));
    }

    /**
     * Rank 1 stalled before collective #4 of process group 1 and later went on: its first report (the dump signal,
     * enqueued 3) names it, not its last (enqueued 6), and not rank 0's report of another process group, whose
     * sequence numbers count apart (enqueued 2 in group 0). A group is its GUID, the same on every rank: rank 1 made
     * another group first, so its local PG ID of the same group is 2. The lines are torch 2.11's (the capture
     * launch-prefixes-h200x2-nccl-2.28.9/tee-collective-timeout), the second group added.
     */
    @Test
    void theRankThatNeverJoinedIsNamedByItsFirstReportInTheGroupThatTimedOut() throws IOException {
        FabricModel m = load("trainer-worker-0.log", INIT0
                        + "[rank0]:[E1128 17:08:59.542936807 ProcessGroupNCCL.cpp:689] [Rank 0] Watchdog caught collective"
                        + " operation timeout: WorkNCCL(SeqNum=4, OpType=ALLREDUCE, NumelIn=16777216, NumelOut=16777216,"
                        + " Timeout(ms)=20000) ran for 20096 milliseconds before timing out.\n"
                        + "[rank0]:[E1128 17:08:59.553368318 ProcessGroupNCCL.cpp:2303] [PG ID 1 PG GUID 1(tp) Rank 0]  failure"
                        + " detected by watchdog at work sequence id: 4 PG status: last enqueued work: 4, last completed work: 3\n"
                        + "[rank0]:[E1128 17:09:06.100000000 ProcessGroupNCCL.cpp:1914] [PG ID 0 PG GUID 0(default_pg) Rank 0]"
                        + " Received a dump signal due to a collective timeout from  rank 1 and we will try our best to dump the"
                        + " debug info. Last enqueued NCCL work: 2, last completed NCCL work: 2.This is most likely caused by"
                        + " incorrect usages of collectives\n",
                "trainer-worker-1.log", INIT1
                        + "[rank1]:[E1128 17:09:05.047527581 ProcessGroupNCCL.cpp:1914] [PG ID 2 PG GUID 1(tp) Rank 1] Received a"
                        + " dump signal due to a collective timeout from  rank 0 and we will try our best to dump the debug info."
                        + " Last enqueued NCCL work: 3, last completed NCCL work: 3.This is most likely caused by incorrect"
                        + " usages of collectives\n"
                        + "[rank1]:[E1128 17:10:00.455797669 ProcessGroupNCCL.cpp:2303] [PG ID 2 PG GUID 1(tp) Rank 1]  failure"
                        + " detected by watchdog at work sequence id: 6 PG status: last enqueued work: 6, last completed work: 5\n");
        IncidentEvent root = IncidentReasoner.reason(m).rootCause();
        assertNotNull(root);
        assertEquals("fabricscope.rank-never-joined", root.id(), root.line());
        assertEquals(1, root.who().rank(), root.line());
        assertTrue(root.title().contains("#3"), root.title());
    }

    /**
     * Four ranks in two subgroups "tp", {0,1} and {2,3}: rank 3 (rank 1 of its group) stalled. ProcessGroupNCCL's
     * prefix and its "[Rank N]" hold the rank within the group, c10's "[rankN]:" tag the global one: the root is rank 3,
     * not rank 1, which sat healthy in the other group (the subgroup capture's lines, as four ranks print them).
     */
    @Test
    void aSubgroupsRankIsItsGlobalRank() throws IOException {
        FabricModel m = load("trainer-worker-1.log",
                "[rank2]:[E1128 20:03:56.337387563 ProcessGroupNCCL.cpp:689] [Rank 0] Watchdog caught collective operation"
                        + " timeout: WorkNCCL(SeqNum=4, OpType=ALLREDUCE, NumelIn=16777216, NumelOut=16777216, Timeout(ms)=20000)"
                        + " ran for 20071 milliseconds before timing out.\n"
                        + "[rank2]:[E1128 20:03:56.337560969 ProcessGroupNCCL.cpp:2303] [PG ID 2 PG GUID 2(tp) Rank 0]  failure"
                        + " detected by watchdog at work sequence id: 4 PG status: last enqueued work: 4, last completed work: 3\n"
                        + "[rank3]:[E1128 20:04:46.904447881 ProcessGroupNCCL.cpp:689] [Rank 1] Watchdog caught collective operation"
                        + " timeout: WorkNCCL(SeqNum=4, OpType=ALLREDUCE, NumelIn=16777216, NumelOut=16777216, Timeout(ms)=20000)"
                        + " ran for 20036 milliseconds before timing out.\n"
                        + "[rank3]:[E1128 20:04:46.904639051 ProcessGroupNCCL.cpp:2303] [PG ID 2 PG GUID 2(tp) Rank 1]  failure"
                        + " detected by watchdog at work sequence id: 4 PG status: last enqueued work: 4, last completed work: 3\n"
                        + "  what():  [PG ID 2 PG GUID 2(tp) Rank 0] Process group watchdog thread terminated with exception:"
                        + " [Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=4, OpType=ALLREDUCE,"
                        + " NumelIn=16777216, NumelOut=16777216, Timeout(ms)=20000) ran for 20071 milliseconds before timing out.\n");
        org.fabricscope.model.incident.reasoning.Incident incident = IncidentReasoner.reason(m);
        IncidentEvent root = incident.rootCause();
        assertNotNull(root);
        assertEquals("fabricscope.rank-never-joined", root.id(), root.line());
        assertEquals(3, root.who().rank(), root.line());
        // every event is rank 2's or rank 3's: the untagged what() line takes rank 2, its group rank 0's tagged owner
        for (IncidentEvent e : incident.events()) {
            assertTrue(e.who().rank() == 2 || e.who().rank() == 3, e.line());
        }
        assertTrue(incident.events().stream().anyMatch(e -> e.evidence().text().startsWith("what():")
                && e.who().rank() == 2), "the what() line is rank 2's");
    }

    private static String summary(String host, int rank, long pid) {
        return "E1123 09:30:02.250000 753 torch/distributed/elastic/multiprocessing/api.py:986] failed (exitcode: 1)"
                + " local_rank: 0 (pid: " + pid + ") of binary: /opt/torch/.venv/bin/python\n"
                + "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: \n"
                + "============================================================\n/work/job.py FAILED\n"
                + "------------------------------------------------------------\nFailures:\n  <NO_OTHER_FAILURES>\n"
                + "------------------------------------------------------------\n"
                + "Root Cause (first observed failure):\n[0]:\n  time      : 2026-11-23_09:30:02\n  host      : " + host + "\n"
                + "  rank      : " + rank + " (local_rank: " + rank + ")\n  exitcode  : 1 (pid: " + pid + ")\n"
                + "  error_file: <N/A>\n  traceback : To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html\n"
                + "============================================================\n";
    }

    /**
     * An init failure: NCCL's debug file names the process {@code vm:795} (no Init line completed, so no rank), torchrun's
     * summary rank 0, pid 795, on localhost. In a standalone job (every summary entry on the loopback host) the pid is
     * that worker (the capture h200x2-failures-nccl-2.28.9/no-rdma-device); once two hosts' processes had pid 795, or
     * the summary names another host, it names no one.
     */
    @Test
    void aStandaloneJobsSummaryNamesTheRankOfAnNcclProcessByItsPid() throws IOException {
        String warn = "[2026-11-23 09:30:01] vm:795:795 [0] plugin/net.cc:379 NCCL WARN Failed to initialize any NET plugin\n";
        FabricModel m = load("nccl.vm.795.log", warn, "torchrun-stderr.log", summary("localhost", 0, 795));
        IncidentEvent root = IncidentReasoner.reason(m).rootCause();
        assertNotNull(root);
        assertEquals(0, root.who().rank(), root.line());
        assertEquals(-1, IncidentReasoner.reason(load("nccl.vm.795.log", warn, "torchrun-stderr.log",
                summary("trainer-worker-1", 0, 795))).rootCause().who().rank(), "another host's pid 795");
        String other = "pod-b:795:795 [0] NCCL INFO ncclCommInitRankConfig comm 0x1 rank 1 nranks 2 cudaDev 0 nvmlDev 0"
                + " busId 18000 commId 0x9 - Init START\n";
        assertEquals(-1, IncidentReasoner.reason(load("nccl.vm.795.log", warn, "pod-b.log", other, "torchrun-stderr.log",
                summary("localhost", 0, 795))).rootCause().who().rank(), "two hosts had pid 795");
    }

    @Test
    void aRankWithNoWordOfItsOwnThatItsPeerReportsGoneWasKilledFromOutside() throws IOException {
        FabricModel m = load("trainer-worker-0.log", INIT0
                        + "[rank0]:[E1126 15:47:42.790211 811 ProcessGroupNCCL.cpp:1895] [PG ID 0 PG GUID 0(default_pg) Rank 0]"
                        + " Process group watchdog thread terminated with exception: NCCL error: remote process exited or there"
                        + " was a network error, NCCL version 2.28.9\n",
                "trainer-worker-1.log", INIT1 + "[rank1]: step 3 loss 2.31\n");
        IncidentEvent root = IncidentReasoner.reason(m).rootCause();
        assertNotNull(root);
        assertEquals("fabricscope.silent-death", root.id());
        assertEquals(1, root.who().rank(), root.toString());
        assertEquals(CauseClass.DEAD_RANK, root.causeClass());
    }

    @Test
    void stampsOfTwoNodesWithinTheSkewAreNotOrderedByThemAlone() throws IOException {
        FabricModel m = load("trainer-worker-0.log", INIT0
                        + "2026-11-26T15:47:41.500Z [rank0]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB."
                        + " GPU 0 has a total capacity of 79.19 GiB of which 1.00 GiB is free.\n",
                "trainer-worker-1.log", INIT1
                        + "2026-11-26T15:47:42.000Z [rank1]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB."
                        + " GPU 0 has a total capacity of 79.19 GiB of which 1.00 GiB is free.\n");
        Incident incident = IncidentReasoner.reason(m);
        assertEquals(0, incident.rootCause().who().rank());
        assertTrue(incident.notes().stream().anyMatch(n -> n.contains("clock skew")), incident.notes().toString());
    }

    /**
     * A launcher's traceback carries no stamp: its lines take the last one before them in the file (torchrun's
     * start-up banner, 3 s before), which only says they were printed then or later. The process's own stamped
     * WARN of the same failure, after that bound, is not beaten by it: the root names the process that failed.
     */
    @Test
    void aLineWhoseTimeIsTakenFromAnEarlierLineDoesNotComeBeforeALineWithItsOwn() throws IOException {
        FabricModel m = load("torchrun-stderr.log", """
                        W1123 09:29:58.153000 753 torch/distributed/run.py:851] *****************************************
                        Traceback (most recent call last):
                        torch.distributed.DistBackendError: NCCL error in: /pytorch/torch/csrc/distributed/c10d/NCCLUtils.cpp:93, \
                        invalid usage (run with NCCL_DEBUG=WARN for details), NCCL version 2.28.9
                        ncclInvalidUsage: This usually reflects invalid usage of NCCL library.
                        Last error:
                        Failed to initialize any NET plugin
                        """,
                "nccl.trainer-worker-0.811.log", """
                        trainer-worker-0:811:811 [0] NCCL INFO NET/IB : No device found.
                        trainer-worker-0:811:811 [0] NCCL INFO Failed to initialize NET plugin IB
                        [2026-11-23 09:30:01] trainer-worker-0:811:811 [0] plugin/net.cc:379 NCCL WARN Failed to initialize any NET plugin
                        """);
        Incident incident = IncidentReasoner.reason(m);
        IncidentEvent root = incident.rootCause();
        assertNotNull(root, incident.events().toString());
        assertEquals("trainer-worker-0", root.who().host(), root.toString());
        assertFalse(root.stamp().inferred());
        IncidentEvent traceback = incident.events().stream()
                .filter(e -> e.evidence().source().endsWith("torchrun-stderr.log") && e.role() == Role.CONSEQUENCE)
                .findFirst().orElseThrow();
        assertTrue(traceback.stamp().inferred(), traceback.toString());
        assertEquals(root.seq(), incident.causeOf().get(traceback.seq()), "the traceback follows the process's failure");
    }

    @Test
    void aPyTorchJobsFailedConditionIsAnEventThatFollowsItsPodsFailure() throws IOException {
        FabricModel m = load("job.json", """
                {"apiVersion": "kubeflow.org/v1", "kind": "PyTorchJob", "metadata": {"name": "llama-ft", "namespace": "ml"},
                 "spec": {"pytorchReplicaSpecs": {"Worker": {"replicas": 2, "template": {"spec": {"containers": [
                   {"name": "pytorch", "image": "pytorch", "resources": {"limits": {"nvidia.com/gpu": "1"}}}]}}}}},
                 "status": {"conditions": [
                   {"type": "Created", "status": "True", "reason": "PyTorchJobCreated", "message": "PyTorchJob llama-ft is created.",
                    "lastTransitionTime": "2026-11-26T15:40:00Z"},
                   {"type": "Failed", "status": "True", "reason": "PyTorchJobFailed",
                    "message": "PyTorchJob llama-ft is failed because 1 Worker replica(s) failed.",
                    "lastTransitionTime": "2026-11-26T15:47:50Z"}]}}
                """, "trainer-worker-1.log", INIT1
                + "2026-11-26T15:47:41.000Z [rank1]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB."
                + " GPU 0 has a total capacity of 79.19 GiB of which 1.00 GiB is free.\n");
        Incident incident = IncidentReasoner.reason(m);
        IncidentEvent failed = incident.events().stream().filter(e -> e.id().equals("kubernetes.kubeflow-job-failed"))
                .findFirst().orElseThrow(() -> new AssertionError(incident.events().toString()));
        assertEquals("2026-11-26T15:47:50Z", failed.stamp().iso());
        assertEquals(CauseClass.GPU_MEMORY, incident.rootCause().causeClass());
        assertEquals(incident.rootCause().seq(), incident.causeOf().get(failed.seq()), "the job failed because its pod did");
    }

    @Test
    void aUserSignatureFileThatDoesNotLoadIsAnImportProblemNamingItsFileEntryAndField() throws IOException {
        Path folder = dir.resolve("signatures");
        Files.createDirectories(folder);
        Files.writeString(folder.resolve("mine.json"), "{\"schema\": 1, \"source\": \"user\", \"signatures\": [{\"id\": \"user.x\"}]}");
        org.fabricscope.model.incident.SignatureCatalogue.install(org.fabricscope.model.incident.SignatureCatalogue.bundled().plus(folder));
        try {
            FabricModel m = load("trainer-worker-1.log", INIT1 + "[rank1]: step 1\n");
            assertTrue(m.diagnostics().stream().anyMatch(d -> d.source().endsWith("mine.json")
                    && d.message().startsWith("signature not loaded: user.x: title: is required")), m.diagnostics().toString());
        } finally {
            org.fabricscope.model.incident.SignatureCatalogue.install(null);
        }
    }

    @Test
    void healthyLogsConcludeNothing() throws IOException {
        FabricModel m = load("trainer-worker-0.log", INIT0 + "[rank0]: step 1 loss 2.31\n[rank0]: step 2 loss 2.20\n",
                "trainer-worker-1.log", INIT1 + "[rank1]: step 1 loss 2.31\n");
        Incident incident = IncidentReasoner.reason(m);
        assertNull(incident.rootCause(), incident.events().toString());
        assertFalse(incident.hasFailure());
    }

    @Test
    void healthyRealCapturesConcludeNothing() {
        for (String capture : List.of("h200x2-nccl-2.28.9/shm", "h100x1-nccl-2.28.9")) {
            Path d = Path.of("..", "sample-fabrics", "gpu-captures").resolve(capture);
            List<Path> files;
            try (var s = Files.list(d)) {
                files = s.filter(Files::isRegularFile).sorted().toList();
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            FabricModel m = new FabricImporter().importPaths(files, ImportProgress.NONE, Cancellation.NEVER).model();
            Incident incident = IncidentReasoner.reason(m);
            assertNull(incident.rootCause(), capture + ": " + incident.events());
        }
    }
}
