package org.fabricscope.model.host;

import java.util.List;
import java.util.Map;

import org.fabricscope.model.core.Evidence;

/**
 * A matrix as {@code nvidia-smi topo -m} (or {@code -mp}) prints it: device names ({@code GPU0},
 * {@code NIC0}), one label per pair ({@code X}, {@code NV18}, {@code PIX} ...), each GPU's CPU and
 * NUMA affinity, and the NIC legend ({@code NIC0 -> mlx5_0}).
 */
public record NvidiaSmiMatrix(List<String> devices, List<List<String>> cells, Map<String, String> cpuAffinity,
                              Map<String, String> numaAffinity, Map<String, String> nicLegend, Evidence evidence) {
    public NvidiaSmiMatrix {
        devices = List.copyOf(devices);
        cells = cells.stream().map(List::copyOf).toList();
        cpuAffinity = org.fabricscope.model.core.OrderedMaps.copyOf(cpuAffinity);
        numaAffinity = org.fabricscope.model.core.OrderedMaps.copyOf(numaAffinity);
        nicLegend = org.fabricscope.model.core.OrderedMaps.copyOf(nicLegend);
    }

    /** The label between two devices by name, or null when either is not in the matrix. */
    public String label(String row, String column) {
        int r = devices.indexOf(row);
        int c = devices.indexOf(column);
        if (r < 0 || c < 0 || r >= cells.size() || c >= cells.get(r).size()) {
            return null;
        }
        return cells.get(r).get(c);
    }

    /** Whether any cell is an NVLink label: a {@code topo -m} matrix rather than {@code topo -mp}. */
    public boolean hasNvlink() {
        return cells.stream().flatMap(List::stream).anyMatch(s -> s.startsWith("NV"));
    }
}
