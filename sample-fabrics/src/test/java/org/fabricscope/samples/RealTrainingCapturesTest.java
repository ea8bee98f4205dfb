package org.fabricscope.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.fabricscope.importers.ImportResult;
import org.fabricscope.model.analysis.FabricSummary;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.core.Severity;
import org.fabricscope.model.diagnosis.ErrorThresholds;
import org.junit.jupiter.api.Test;

/**
 * The real 2xH200 captures (NCCL 2.28.9, PyTorch 2.11) of gpu-captures/h200x2-nccl-2.28.9: a
 * shared-memory run reads as SHM between the two ranks with no finding, and a real collective
 * timeout names rank 0's watchdog, the collective, and rank 1 as the rank that lagged.
 */
class RealTrainingCapturesTest {
    private static final Path DIR = Samples.root().resolve("gpu-captures/h200x2-nccl-2.28.9");

    @Test
    void shmRunIsTwoRanksTalkingThroughSharedMemoryBecauseTheEnvironmentSwitchedP2pOff() {
        ImportResult r = Samples.load(List.of(DIR.resolve("shm")));
        FabricSummary s = FabricSummary.of(r.model(), ErrorThresholds.defaults());
        assertEquals(2, s.ranks());
        assertEquals(Map.of("SHM", 1), s.transports());
        assertEquals(List.of("2.28.9"), List.copyOf(s.ncclVersions()));
        List<Finding> f = Samples.diagnose(r.model());
        // the job runs, but over host memory: the one warning is the transport and the variable that chose it
        List<Finding> warnings = f.stream().filter(x -> x.severity() != Severity.INFO).toList();
        assertEquals(List.of("transport-downgraded"), warnings.stream().map(Finding::id).toList(), f.toString());
        assertTrue(warnings.get(0).title().endsWith("via SHM/direct/direct (4 channels) instead of directly (P2P): "
                + "NCCL_P2P_DISABLE=1 set by the environment"), warnings.get(0).title());
    }

    @Test
    void realTimeoutNamesTheWatchdogRankTheCollectiveAndTheLaggingRank() {
        ImportResult r = Samples.load(List.of(DIR.resolve("hang")));
        List<Finding> f = Samples.diagnose(r.model());
        Finding t = f.stream().filter(x -> x.id().equals("nccl-timeout")).findFirst().orElseThrow(() -> new AssertionError(f));
        assertEquals(Severity.ERROR, t.severity());
        assertTrue(t.title().contains("ALLREDUCE") && t.title().contains("SeqNum 3"), t.title());
        assertTrue(t.title().contains("rank 1 lagged"), "rank 1 enqueued only 2 works, rank 0 enqueued 3: " + t.title());
        assertTrue(t.evidence().stream().anyMatch(e -> e.source().endsWith("torchrun-stdout.log") && e.line() > 0));
        assertTrue(f.stream().noneMatch(x -> x.id().equals("tcp-fallback") || x.id().equals("rdma-device-missing")),
                "one host: no network is expected: " + f);
    }
}
