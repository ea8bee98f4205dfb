package org.fabricscope.importers.forensics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.fabricscope.model.FabricModel;
import org.fabricscope.model.bandwidth.BusBwExpectation;
import org.fabricscope.model.bandwidth.BusBwExpectations;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.forensics.NcclTestRun;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code busbw-below-expected} on real runs of all_reduce_perf on one 2x H200 host
 * ({@code sample-fabrics/gpu-captures/h200x2-busbw-nccl-2.28.9}): the host's NCCL topology dump sets the
 * expectation (18 NVLink4 links, 450 GB/s); the healthy run (328 GB/s) raises nothing, the runs with
 * P2P (27.7 GB/s, SHM) and P2P and SHM (4.1 GB/s, sockets) disabled do; without the topology, nothing.
 */
class BusBwRealCaptureTest {
    static final Path DIR = Path.of("..", "sample-fabrics", "gpu-captures", "h200x2-busbw-nccl-2.28.9");
    static final Path HEALTHY = DIR.resolve("all_reduce_perf-g2-healthy.txt");
    static final Path SHM = DIR.resolve("all_reduce_perf-g2-p2p-disabled.txt");
    static final Path SOCKET = DIR.resolve("all_reduce_perf-g2-p2p-shm-disabled.txt");
    static final Path TOPO = DIR.resolve("vm.topo.xml");

    @BeforeEach
    void captures() {
        assumeTrue(Files.isDirectory(DIR), "captures not present");
    }

    @Test
    void theTopologyDumpSetsTheExpectation() {
        FabricModel m = ForensicsFixtures.load(HEALTHY, TOPO);
        assertEquals("", ForensicsFixtures.diagnostics(m));
        NcclTestRun run = m.forensics().ncclTests().get(0);
        BusBwExpectation e = BusBwExpectations.of(m, run).orElseThrow();
        assertEquals(450, e.gbPerSec(), 1e-9);
        assertEquals("NVLink4 x 18 links x 25 GB/s (GPU0, sm 90) from vm.topo.xml of host vm", e.source());
        assertEquals(328.26, run.peakBusBw(), 1e-9);
    }

    @Test
    void healthyRunRaisesNothingDegradedOnesDo() {
        assertTrue(ForensicsFixtures.findings(ForensicsFixtures.load(HEALTHY, TOPO), "busbw-below-expected").isEmpty());
        List<Finding> f = ForensicsFixtures.findings(ForensicsFixtures.load(HEALTHY, SHM, SOCKET, TOPO, DIR.resolve("logs")),
                "busbw-below-expected");
        assertEquals(2, f.size(), f.toString());
        Finding shm = f.stream().filter(x -> x.title().contains("p2p-disabled.txt")).findFirst().orElseThrow();
        assertTrue(shm.title().contains("peak bus bandwidth 27.7 GB/s (at 512 MiB) is 6% of the expected 450 GB/s"), shm.title());
        assertTrue(shm.title().endsWith("NCCL's log shows it went via SHM on 4 channels; set by the environment: NCCL_P2P_DISABLE=1"),
                shm.title());
        assertTrue(shm.remedies().get(0).contains("NCCL_P2P_DISABLE=1"), shm.remedies().toString());
        Finding socket = f.stream().filter(x -> x.title().contains("p2p-shm-disabled.txt")).findFirst().orElseThrow();
        assertTrue(socket.title().contains("peak bus bandwidth 4.1 GB/s (at 1 GiB) is 1% of the expected 450 GB/s"), socket.title());
        assertTrue(socket.title().contains("NCCL's log shows it went via NET/Socket on "), socket.title());
        assertTrue(socket.title().endsWith("; set by the environment: NCCL_P2P_DISABLE=1, NCCL_SHM_DISABLE=1"), socket.title());
    }

    @Test
    void withoutTheTopologyTheGpuNameSetsTheExpectationAndTheMissingLogIsSaid() {
        FabricModel m = ForensicsFixtures.load(SHM, SOCKET);
        List<Finding> f = ForensicsFixtures.findings(m, "busbw-below-expected");
        assertEquals(2, f.size(), f.toString());
        assertTrue(f.get(0).title().contains("of the expected 450 GB/s (NVLink4 x 18 links x 25 GB/s per direction of H200 SXM GPUs"),
                f.get(0).title());
        assertTrue(f.get(0).remedies().get(0).startsWith("No NCCL log of this run was loaded"), f.get(0).remedies().toString());
        assertEquals(450, BusBwExpectations.of(m, m.forensics().ncclTests().get(0)).orElseThrow().gbPerSec(), 1e-9);
    }
}
