package org.fabricscope.app.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.List;

import org.fabricscope.app.nav.Samples;
import org.fabricscope.model.ranks.RankSite;
import org.fabricscope.model.training.Rank;
import org.junit.jupiter.api.Test;

/** The Training tab's GPU column: the physical index (nvidia-smi, NVML) beside the CUDA index the rank saw. */
class TrainingGpuTextTest {
    @Test
    void theGpuReadsPhysicalThenCudaIndex() {
        List<RankSite> sites = Samples.analysis(Samples.RAIL, Samples.TRAINING).ranks().sites();
        assertFalse(sites.isEmpty());
        for (RankSite s : sites) {
            String physical = s.gpu() != null ? s.gpu().label() : "GPU" + s.rank().nvmlDev();
            assertEquals(physical + " (CUDA " + s.rank().cudaDev() + ") " + s.rank().busId(), TrainingView.gpuText(s));
        }
        Rank r = sites.get(0).rank();
        // a process that sees its GPU as CUDA 0 under CUDA_VISIBLE_DEVICES=5 (NVML 5), with no topology
        Rank renumbered = new Rank(r.host(), r.pid(), 0, 5, r.busId(), r.commId(), r.rank(), r.nranks(), r.ncclVersion(),
                r.initStarted(), r.initCompleted(), r.netDevices(), r.network(), r.noIbDevice(), r.env(), r.evidence());
        RankSite alone = new RankSite(renumbered, null, null, null, null, null, null, null);
        assertEquals("GPU5 (CUDA 0) " + r.busId(), TrainingView.gpuText(alone));
    }
}
