package org.fabricscope.model.bandwidth;

import java.util.List;

import org.fabricscope.model.core.Evidence;

/**
 * What an nccl-tests run's bus bandwidth should reach on its path: the bandwidth of the slowest hop
 * in GB/s per direction (bus bandwidth is normalised to be compared with exactly that, see
 * NVIDIA/nccl-tests {@code doc/PERFORMANCE.md}), which kind of hop it is, where the number came from
 * in words ({@code "NVLink4 x 18 links ... from vm.topo.xml"}), the hosts of the run and the evidence
 * lines the number rests on. Computed by {@link BusBwExpectations}.
 */
public record BusBwExpectation(double gbPerSec, Hop hop, String source, List<String> hosts, List<Evidence> evidence) {
    /** The kind of link that limits the run. */
    public enum Hop {
        /** NVLink between the GPUs of one host (direct or through NVSwitches). */
        NVLINK,
        /** PCIe: GPUs of one host without NVLink between them. */
        PCIE,
        /** The NICs of a host, for runs across hosts (InfiniBand, RoCE or sockets). */
        NETWORK,
        /** Alibaba Cloud eRDMA NICs, counted by instance type (the PAI eRDMA guide's table). */
        ERDMA
    }

    public BusBwExpectation {
        source = source == null ? "" : source;
        hosts = List.copyOf(hosts);
        evidence = List.copyOf(evidence);
    }
}
