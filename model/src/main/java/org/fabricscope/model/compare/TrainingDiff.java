package org.fabricscope.model.compare;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

import org.fabricscope.model.FabricModel;
import org.fabricscope.model.evidence.EnvVar;
import org.fabricscope.model.evidence.HostEvidence;
import org.fabricscope.model.forensics.FlightRecorderDump;
import org.fabricscope.model.forensics.NcclTestRun;
import org.fabricscope.model.training.ChannelLink;
import org.fabricscope.model.training.NcclProcess;
import org.fabricscope.model.training.Rank;
import org.fabricscope.model.training.Transport;

/**
 * The training layer's differences: per host, the NCCL version, network and NET plugin NCCL reported and every
 * {@code NCCL_*} variable set (NCCL's "set by environment" lines, the ranks' environment, a pod's environment
 * dump); PyTorch's flight recorder format and the NCCL version PyTorch linked (per dump's rank: the logs carry no
 * PyTorch version); the transport chosen between each pair of ranks (the slowest over their channels); and each
 * nccl-tests run's peak and average bus bandwidth (runs matched by test name and order of appearance).
 */
final class TrainingDiff {
    private TrainingDiff() {
    }

    static void compare(FabricModel before, FabricModel after, List<Change> out) {
        Map<String, Map<String, String>> b = perHost(before);
        Map<String, Map<String, String>> a = perHost(after);
        for (String host : Values.union(b.keySet(), a.keySet())) {
            Values.compare(Change.TRAINING, host, "", b.getOrDefault(host, Map.of()), a.getOrDefault(host, Map.of()), out);
        }
        Values.compare(Change.TRAINING, "flight recorder", "", recorder(before), recorder(after), out);
        Map<String, String> tb = transports(before);
        Map<String, String> ta = transports(after);
        for (String pair : Values.union(tb.keySet(), ta.keySet())) {
            String x = tb.get(pair);
            String y = ta.get(pair);
            if (x == null ? y != null : !x.equals(y)) {
                out.add(Change.of(Change.TRAINING, pair, "transport", x, y));
            }
        }
        Map<String, Map<String, String>> rb = runs(before);
        Map<String, Map<String, String>> ra = runs(after);
        for (String run : Values.union(rb.keySet(), ra.keySet())) {
            Values.compare(Change.TRAINING, run, "", rb.getOrDefault(run, Map.of()), ra.getOrDefault(run, Map.of()), out);
        }
    }

    private static Map<String, Map<String, String>> perHost(FabricModel m) {
        Map<String, Map<String, String>> out = new LinkedHashMap<>();
        for (Rank r : m.trainingLog().ranks()) {
            Map<String, String> f = out.computeIfAbsent(r.host(), k -> new TreeMap<>());
            if (r.ncclVersion() != null) {
                f.put("nccl version", r.ncclVersion());
            }
            env(f, r.env());
        }
        for (NcclProcess p : m.trainingLog().processes()) {
            Map<String, String> f = out.computeIfAbsent(p.host(), k -> new TreeMap<>());
            fact(f, "nccl version", p.facts().get(NcclProcess.NCCL_VERSION));
            fact(f, "network", p.facts().get(NcclProcess.NETWORK));
            fact(f, "net plugin", p.facts().get(NcclProcess.NET_PLUGIN));
            env(f, p.env());
        }
        for (HostEvidence h : m.hostEvidence().values()) {
            for (EnvVar v : h.env().values()) {
                if (v.name().startsWith("NCCL_")) {
                    out.computeIfAbsent(h.host(), k -> new TreeMap<>()).putIfAbsent(v.name(), v.value());
                }
            }
        }
        return out;
    }

    private static void fact(Map<String, String> f, String k, String v) {
        if (v != null && !v.isEmpty()) {
            f.putIfAbsent(k, v);
        }
    }

    private static void env(Map<String, String> f, Map<String, String> env) {
        for (Map.Entry<String, String> e : env.entrySet()) {
            if (e.getKey().startsWith("NCCL_")) {
                f.putIfAbsent(e.getKey(), e.getValue());
            }
        }
    }

    /** The flight recorder dumps' format versions and the NCCL version PyTorch linked, as sets over all dumps. */
    private static Map<String, String> recorder(FabricModel m) {
        TreeSet<String> version = new TreeSet<>();
        TreeSet<String> lib = new TreeSet<>();
        for (FlightRecorderDump d : m.forensics().flightRecorder()) {
            if (d.version() != null && !d.version().isEmpty()) {
                version.add(d.version());
            }
            if (d.commLibVersion() != null && !d.commLibVersion().isEmpty()) {
                lib.add(d.commLibVersion());
            }
        }
        Map<String, String> out = new LinkedHashMap<>();
        if (!version.isEmpty()) {
            out.put("pytorch dump format", String.join(", ", version));
        }
        if (!lib.isEmpty()) {
            out.put("pytorch nccl version", String.join(", ", lib));
        }
        return out;
    }

    /** {@code ranks 0 and 1} -> the slowest transport over every channel between them, of any communicator. */
    private static Map<String, String> transports(FabricModel m) {
        Map<String, Transport> worst = new LinkedHashMap<>();
        for (ChannelLink c : m.trainingLog().channels()) {
            int x = Math.min(c.fromRank(), c.toRank());
            int y = Math.max(c.fromRank(), c.toRank());
            if (x == y) {
                continue;
            }
            worst.merge("ranks " + x + " and " + y, c.transport(), (p, q) -> p.compareTo(q) >= 0 ? p : q);
        }
        Map<String, String> out = new LinkedHashMap<>();
        worst.forEach((k, v) -> out.put(k, v.label()));
        return out;
    }

    /** {@code all_reduce_perf run 1} -> its peak and average bus bandwidth in GB/s. */
    private static Map<String, Map<String, String>> runs(FabricModel m) {
        Map<String, Integer> seen = new LinkedHashMap<>();
        Map<String, Map<String, String>> out = new LinkedHashMap<>();
        for (NcclTestRun r : m.forensics().ncclTests()) {
            String test = r.test().isEmpty() ? "nccl-tests" : r.test();
            int n = seen.merge(test, 1, Integer::sum);
            Map<String, String> f = new LinkedHashMap<>();
            double peak = r.peakBusBw();
            if (!Double.isNaN(peak) && peak > 0) {
                f.put("peak busbw", gb(peak));
            }
            if (!Double.isNaN(r.avgBusBw())) {
                f.put("avg busbw", gb(r.avgBusBw()));
            }
            out.put(test + " run " + n, f);
        }
        return out;
    }

    private static String gb(double v) {
        return String.format(java.util.Locale.ROOT, "%.2f GB/s", v);
    }
}
