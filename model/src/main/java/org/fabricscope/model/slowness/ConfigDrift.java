package org.fabricscope.model.slowness;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;

import org.fabricscope.model.FabricModel;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.core.NaturalOrder;
import org.fabricscope.model.evidence.EnvVar;
import org.fabricscope.model.evidence.HostEvidence;
import org.fabricscope.model.training.GdrSupport;
import org.fabricscope.model.training.NcclProcess;
import org.fabricscope.model.training.Rank;

/**
 * What differs between the nodes of one job: per node (NCCL's host name: the pod in Kubernetes), the
 * {@code NCCL_*} variables NCCL reported as set by the environment or the pod's environment dump shows, NCCL's
 * version, the CUDA driver and runtime, the network and the NET, tuner and profiler plugins NCCL loaded, the
 * RDMA devices it used, GPU Direct RDMA on or off, and the locked-memory limit. Each key with two or more values
 * over the nodes is one {@link Drift}: the majority against the odd nodes, and what such a difference is known to do
 * ({@link DriftEffects}).
 *
 * <p>A node whose NCCL printed INFO lines, or whose environment dump was read, but that shows no value for a
 * variable another node set is counted as "(not set)":
 * NCCL reports every {@code NCCL_*} variable it reads from the environment, unless {@code NCCL_DEBUG_SUBSYS} leaves
 * out ENV, which the finding says. Facts a node did not print are unknown there, not different.
 */
public final class ConfigDrift {
    /** Variables that differ per node by design, or only change what is logged. */
    static final Set<String> IGNORED = Set.of("NCCL_HOSTID", "NCCL_DEBUG_FILE", "NCCL_TOPO_DUMP_FILE", "NCCL_COMM_ID",
            "NCCL_DEBUG", "NCCL_DEBUG_SUBSYS", "NCCL_RAS_ADDR", "NCCL_GRAPH_DUMP_FILE", "NCCL_DEBUG_TIMESTAMP_FORMAT",
            "NCCL_DEBUG_TIMESTAMP_LEVELS");
    /** What a node that printed INFO lines but not this variable has. */
    public static final String NOT_SET = "(not set)";

    private ConfigDrift() {
    }

    /**
     * One key whose value differs between nodes.
     *
     * @param key      the variable or fact ({@code NCCL_PROTO}, {@code nccl-version} ...)
     * @param values   value -> the nodes that have it, the majority first
     * @param majority the value most nodes have, null on a tie
     * @param odd      the nodes that differ from the majority (every node on a tie)
     * @param effect   what such a difference is known to do
     * @param evidence one line per value where one was read
     */
    public record Drift(String key, Map<String, List<String>> values, String majority, List<String> odd,
                        DriftEffects.Effect effect, List<Evidence> evidence) {
        public Drift {
            values = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(values));
            odd = List.copyOf(odd);
            evidence = List.copyOf(evidence);
        }
    }

    /** The differences over the model's nodes, the most harmful first; empty with fewer than two nodes. */
    public static List<Drift> of(FabricModel model) {
        return model.derived(ConfigDrift.class, ConfigDrift::compute);
    }

    /**
     * The nodes whose settings can be compared: those whose NCCL printed INFO lines (a variable it did not report is
     * taken as unset) and those whose pod environment was dumped (it lists every variable the pod has). With fewer
     * than two, no drift can be judged, which is not the same as none.
     */
    public static Set<String> printedNodes(FabricModel model) {
        Set<String> printed = new HashSet<>();
        model.trainingLog().processes().forEach(p -> printed.add(p.host()));
        model.trainingLog().ranks().forEach(r -> printed.add(r.host()));
        for (HostEvidence h : model.hostEvidence().values()) {
            if (!h.env().isEmpty()) {
                printed.add(h.host());
            }
        }
        return printed;
    }

    private static List<Drift> compute(FabricModel model) {
        // node -> key -> value (and a line showing it)
        Map<String, Map<String, String>> nodes = new TreeMap<>(NaturalOrder.INSTANCE);
        // the same node maps by exact name: the tree (whose order merges names that differ only in case or leading
        // zeros) is asked once a name, not once a process and a rank (thousands of natural-order compares)
        Map<String, Map<String, String>> byName = new HashMap<>();
        Function<String, Map<String, String>> node = h -> byName.computeIfAbsent(h,
                x -> nodes.computeIfAbsent(x, y -> new TreeMap<>()));
        Map<String, Evidence> lines = new LinkedHashMap<>();
        Set<String> printed = printedNodes(model); // only asked whether it holds one
        for (NcclProcess p : model.trainingLog().processes()) {
            Map<String, String> n = node.apply(p.host());
            p.env().forEach((k, v) -> put(n, k, v));
            p.facts().forEach((k, v) -> put(n, k, v));
        }
        for (Rank r : model.trainingLog().ranks()) {
            Map<String, String> n = node.apply(r.host());
            r.env().forEach((k, v) -> put(n, k, v));
            if (r.ncclVersion() != null && !r.ncclVersion().isEmpty()) {
                put(n, NcclProcess.NCCL_VERSION, r.ncclVersion());
            }
            if (!r.rdmaDevices().isEmpty()) {
                put(n, "rdma-devices", String.join(",", new TreeSet<>(r.rdmaDevices())));
            }
            if (r.evidence() != null) {
                lines.putIfAbsent(r.host(), r.evidence());
            }
        }
        for (GdrSupport g : model.trainingLog().gdrSupport()) {
            if (g.isRdma()) {
                put(node.apply(g.host()), "gpu-direct-rdma", g.enabled() ? "on" : "off");
            }
        }
        for (HostEvidence h : model.hostEvidence().values()) {
            Map<String, String> n = node.apply(h.host());
            for (EnvVar e : h.env().values()) {
                if (e.name().startsWith("NCCL_")) {
                    n.putIfAbsent(e.name(), e.value());
                }
            }
            if (h.memlock() != null) {
                n.putIfAbsent("memlock", h.memlock().unlimited() ? "unlimited" : h.memlock().kbytes() + " KB");
            }
        }
        nodes.entrySet().removeIf(e -> e.getValue().isEmpty() && !printed.contains(e.getKey())); // known to set nothing: kept
        if (nodes.size() < 2) {
            return List.of();
        }
        Set<String> keys = new TreeSet<>();
        nodes.values().forEach(m -> keys.addAll(m.keySet()));
        List<Drift> out = new ArrayList<>();
        for (String key : keys) {
            if (IGNORED.contains(key)) {
                continue;
            }
            Map<String, List<String>> byValue = new LinkedHashMap<>();
            for (Map.Entry<String, Map<String, String>> n : nodes.entrySet()) {
                String v = n.getValue().get(key);
                if (v == null && key.startsWith("NCCL_") && printed.contains(n.getKey())) {
                    v = NOT_SET;
                }
                if (v != null) {
                    byValue.computeIfAbsent(v, x -> new ArrayList<>()).add(n.getKey());
                }
            }
            if (byValue.size() < 2) {
                continue;
            }
            out.add(drift(key, byValue, model, lines));
        }
        out.sort(Comparator.comparing(Drift::effect));
        return out;
    }

    private static void put(Map<String, String> node, String key, String value) {
        String v = value == null ? "" : value.strip();
        if (v.endsWith(".")) {
            v = v.substring(0, v.length() - 1); // "NCCL_NVLS_ENABLE set by environment to 0."
        }
        String had = node.get(key);
        if (had == null) {
            node.put(key, v);
        } else if (!had.equals(v) && !List.of(had.split("\\|")).contains(v)) {
            node.put(key, had + "|" + v); // the node's own processes disagree
        }
    }

    private static Drift drift(String key, Map<String, List<String>> byValue, FabricModel model, Map<String, Evidence> lines) {
        List<Map.Entry<String, List<String>>> sorted = new ArrayList<>(byValue.entrySet());
        sorted.sort(Comparator.comparingInt((Map.Entry<String, List<String>> e) -> -e.getValue().size()));
        Map<String, List<String>> values = new LinkedHashMap<>();
        sorted.forEach(e -> values.put(e.getKey(), e.getValue()));
        boolean tie = sorted.get(0).getValue().size() == sorted.get(1).getValue().size();
        String majority = tie ? null : sorted.get(0).getKey();
        List<String> odd = new ArrayList<>();
        for (Map.Entry<String, List<String>> e : sorted) {
            if (!e.getKey().equals(majority)) {
                odd.addAll(e.getValue());
            }
        }
        List<Evidence> ev = new ArrayList<>();
        for (Map.Entry<String, List<String>> e : sorted) {
            Evidence line = lines.get(e.getValue().get(0));
            ev.add(Evidence.at(line == null ? "" : line.source(), line == null ? 0 : line.line(),
                    e.getValue().get(0) + ": " + key + " = " + e.getKey()));
        }
        return new Drift(key, values, majority, odd, DriftEffects.of(key), ev);
    }
}
