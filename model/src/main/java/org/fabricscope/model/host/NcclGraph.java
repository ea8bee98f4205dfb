package org.fabricscope.model.host;

import java.util.List;

import org.fabricscope.model.core.Evidence;

/**
 * One {@code <graph>} of an NCCL graph dump ({@code NCCL_GRAPH_DUMP_FILE}, src/graph/search.cc):
 * the channels NCCL chose for one algorithm. Graph ids (init.cc): 0 ring, 1 tree, 2 collnet-chain,
 * 3 NVLS, 4 collnet-direct; {@code pattern} is an {@code NCCL_TOPO_PATTERN_*} value.
 */
public record NcclGraph(int id, int pattern, int nchannels, String speedIntra, String speedInter,
                        String latencyInter, String typeIntra, String typeInter, int crossNic, int sameChannels,
                        List<Channel> channels, Evidence evidence) {
    public NcclGraph {
        channels = List.copyOf(channels);
    }

    /** One step of a channel: a GPU (by CUDA dev) or a net (by NCCL net dev). */
    public record Step(boolean net, long dev, int rank) {
    }

    public record Channel(List<Step> steps, Evidence evidence) {
        public Channel {
            steps = List.copyOf(steps);
        }
    }

    /** {@code ring}, {@code tree}, {@code collnet-chain}, {@code nvls}, {@code collnet-direct}, or {@code graph-N}. */
    public String algorithm() {
        return switch (id) {
            case 0 -> "ring";
            case 1 -> "tree";
            case 2 -> "collnet-chain";
            case 3 -> "nvls";
            case 4 -> "collnet-direct";
            default -> "graph-" + id;
        };
    }

    /** {@code balanced-tree}, {@code split-tree}, {@code tree}, {@code ring}, {@code nvls}, {@code collnet-direct}. */
    public String patternName() {
        return switch (pattern) {
            case 1 -> "balanced-tree";
            case 2 -> "split-tree";
            case 3 -> "tree";
            case 4 -> "ring";
            case 5 -> "nvls";
            case 6 -> "collnet-direct";
            default -> "pattern-" + pattern;
        };
    }
}
