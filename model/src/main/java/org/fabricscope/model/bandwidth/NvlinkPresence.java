package org.fabricscope.model.bandwidth;

import java.util.Optional;

import org.fabricscope.model.FabricModel;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.forensics.NcclTestDevice;
import org.fabricscope.model.forensics.NcclTestRun;
import org.fabricscope.model.host.Gpu;
import org.fabricscope.model.host.HostTopology;
import org.fabricscope.model.host.NvLink;
import org.fabricscope.model.host.NvidiaSmiMatrix;

/**
 * Whether the evidence shows NVLink between the GPUs of a host, and where: the host's topology (NCCL's dump
 * or {@code nvidia-smi topo -m}), else the GPU model named in an nccl-tests run on that host ({@link GpuModels}).
 */
public final class NvlinkPresence {
    private NvlinkPresence() {
    }

    /** Where NVLink shows, in words with its evidence line; empty when nothing loaded tells. */
    public record Seen(String words, Evidence evidence) {
    }

    public static Optional<Seen> of(FabricModel model, String host) {
        HostTopology t = BusBwExpectations.topology(model, host);
        if (t != null) {
            for (Gpu g : t.gpus()) {
                for (NvLink l : g.nvlinks()) {
                    if (l.count() > 0) {
                        return Optional.of(new Seen(String.format(java.util.Locale.ROOT, "%d NVLinks of %s in %s", l.count(),
                                g.label(), name(l.evidence() != null ? l.evidence().source() : t.source())), l.evidence()));
                    }
                }
            }
            for (NvidiaSmiMatrix m : t.reportedMatrices()) {
                if (m.hasNvlink()) {
                    return Optional.of(new Seen("NV# between GPUs in nvidia-smi topo -m ("
                            + name(m.evidence() == null ? t.source() : m.evidence().source()) + ")", m.evidence()));
                }
            }
        }
        for (NcclTestRun run : model.forensics().ncclTests()) {
            for (NcclTestDevice d : run.devices()) {
                if (d.host().equals(host) && GpuModels.nvlinkByName(d.name(), host, "", java.util.List.of()).isPresent()) {
                    return Optional.of(new Seen("the GPU model " + d.name().trim() + " (SXM, NVLink) in " + name(run.source()),
                            Evidence.at(run.source(), run.line(), d.name().trim())));
                }
            }
        }
        return Optional.empty();
    }

    private static String name(String path) {
        return path == null ? "" : path.replaceAll(".*[/\\\\]", "");
    }
}
