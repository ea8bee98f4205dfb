package org.fabricscope.model.host;

import static org.fabricscope.model.host.AffinityMatrix.busOf;
import static org.fabricscope.model.host.AffinityMatrix.classify;
import static org.fabricscope.model.host.AffinityMatrix.cpuOf;
import static org.fabricscope.model.host.AffinityMatrix.pciOf;
import static org.fabricscope.model.host.AffinityMatrix.top;

import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

import org.fabricscope.model.core.Vertex;
import org.fabricscope.model.host.AffinityMatrix.Cell;

/**
 * The nearest column of each GPU of a computed matrix, in time linear in the PCIe tree and the
 * columns (no GPU x NIC table). For each column, walk up from its PCI device once, recording at
 * every ancestor the lowest column below it and at its parent the lowest column right below it;
 * index the columns by CPU and top-level bus. Then a GPU's nearest column is among a few
 * candidates, the lowest-numbered column of each kind it could be (same PCIe switch; below one of
 * its switches; same CPU and root bus; a CPU-attached NIC of its CPU; same CPU, another root
 * bus; another CPU), and {@link AffinityMatrix#classify} decides between them. The candidates cover every
 * path type, so the result equals a scan of the whole row: lowest path type, then lowest index.
 */
final class NearestColumns {
    private final List<Vertex> devices;
    private final int gpuCount;
    private final boolean pcieOnly;
    /** Only nets count ({@link AffinityMatrix#nearestNet}), or nets and net-less NICs ({@link AffinityMatrix#nearestNicType}). */
    private final boolean netsOnly;
    private final Map<PciDevice, Integer> lowestAt = new IdentityHashMap<>();
    private final Map<PciDevice, Integer> lowestChild = new IdentityHashMap<>();
    private final Map<PciDevice, Integer> lowestBelow = new IdentityHashMap<>();
    private final Map<Cpu, Map<String, Integer>> lowestByCpuBus = new IdentityHashMap<>();
    private final Map<Cpu, int[]> lowestTwoBusesByCpu = new IdentityHashMap<>();
    private final Map<Cpu, Integer> lowestCpuAttached = new IdentityHashMap<>();
    /** The lowest column, and the lowest on another CPU than its CPU (or on none). */
    private int lowest = -1;
    private int lowestOtherCpu = -1;

    NearestColumns(List<Vertex> devices, int gpuCount, boolean pcieOnly, boolean netsOnly) {
        this.devices = devices;
        this.gpuCount = gpuCount;
        this.pcieOnly = pcieOnly;
        this.netsOnly = netsOnly;
    }

    /** Fills, per GPU row, the nearest net ({@code nearestNet}, when only nets count) or the path type to the nearest column. */
    void fill(NetPort[] nearestNet, PathType[] nearestType) {
        for (int j = gpuCount; j < devices.size(); j++) {
            Vertex v = devices.get(j);
            if (netsOnly && !(v instanceof NetPort)) {
                continue;
            }
            index(j, v);
        }
        if (lowest < 0) {
            return;
        }
        for (int i = 0; i < gpuCount; i++) {
            int best = -1;
            Cell bestCell = null;
            for (int j : candidates((Gpu) devices.get(i))) {
                if (j < 0) {
                    continue;
                }
                Cell c = classify(devices.get(i), devices.get(j), pcieOnly);
                int order = bestCell == null ? -1 : c.type().compareTo(bestCell.type());
                if (bestCell == null || order < 0 || (order == 0 && j < best)) {
                    best = j;
                    bestCell = c;
                }
            }
            if (netsOnly) {
                nearestNet[i] = (NetPort) devices.get(best);
            } else {
                nearestType[i] = bestCell.type();
            }
        }
    }

    private void index(int j, Vertex v) {
        if (lowest < 0) {
            lowest = j;
        } else if (lowestOtherCpu < 0 && (cpuOf(v) == null || cpuOf(v) != cpuOf(devices.get(lowest)))) {
            lowestOtherCpu = j;
        }
        Cpu cpu = cpuOf(v);
        PciDevice p = pciOf(v);
        if (cpu == null) {
            return;
        }
        if (p == null) {
            lowestCpuAttached.putIfAbsent(cpu, j);
            return;
        }
        lowestAt.putIfAbsent(p, j);
        if (p.parent != null) {
            lowestChild.putIfAbsent(p.parent, j);
        }
        // columns come in increasing order: an ancestor already marked was marked lower, and so
        // were all above it, so the walk stops there (each ancestor is walked once in all)
        for (PciDevice x = p.parent; x != null && !lowestBelow.containsKey(x); x = x.parent) {
            lowestBelow.put(x, j);
        }
        String bus = busOf(top(p).busId);
        lowestByCpuBus.computeIfAbsent(cpu, k -> new HashMap<>()).putIfAbsent(bus, j);
        int[] two = lowestTwoBusesByCpu.get(cpu);
        if (two == null) {
            lowestTwoBusesByCpu.put(cpu, new int[] {j, -1});
        } else if (two[1] < 0 && !bus.equals(busOf(top(pciOf(devices.get(two[0]))).busId))) {
            two[1] = j;
        }
    }

    private int[] candidates(Gpu g) {
        PciDevice pa = pciOf(g);
        Cpu ca = cpuOf(g);
        if (pa == null || ca == null) {
            return new int[] {lowest}; // SYS to every column
        }
        String bus = busOf(top(pa).busId);
        int[] two = lowestTwoBusesByCpu.get(ca);
        int otherBus = -1;
        if (two != null) {
            otherBus = !bus.equals(busOf(top(pciOf(devices.get(two[0]))).busId)) ? two[0] : two[1];
        }
        Map<String, Integer> byBus = lowestByCpuBus.get(ca);
        int otherCpu = cpuOf(devices.get(lowest)) != ca ? lowest : lowestOtherCpu;
        return new int[] {
            lowestAt.getOrDefault(pa, -1),                                               // X/PIX: the same device
            pa.parent == null ? -1 : lowestChild.getOrDefault(pa.parent, -1),            // PIX: the same switch
            pa.parent == null ? -1 : lowestBelow.getOrDefault(top(pa), -1),              // PXB: below its top switch
            byBus == null ? -1 : byBus.getOrDefault(bus, -1),                            // PHB: the same root bus
            lowestCpuAttached.getOrDefault(ca, -1),                                      // PHB: a NIC on its CPU
            otherBus,                                                                    // NODE: another root bus
            otherCpu,                                                                    // SYS: another CPU
        };
    }
}
