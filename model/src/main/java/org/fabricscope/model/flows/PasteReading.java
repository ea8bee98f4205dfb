package org.fabricscope.model.flows;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.fabricscope.model.FabricModel;
import org.fabricscope.model.core.Plural;
import org.fabricscope.model.evidence.DeviceFile;
import org.fabricscope.model.evidence.GidEntry;
import org.fabricscope.model.evidence.HcaPortStatus;
import org.fabricscope.model.evidence.HostEvidence;
import org.fabricscope.model.evidence.NetInterface;
import org.fabricscope.model.k8s.K8sEvent;
import org.fabricscope.model.k8s.K8sPod;

/**
 * What a model read from one paste holds, a line per fact, as the Troubleshoot panel shows it under
 * the paste ("locked-memory limit 64 kB", "mlx5_0 port 1: active, link up, 200"): so that the user sees
 * what FabricScope made of the output before it counts. At most {@link #MAX_LINES} lines, the rest counted.
 */
public final class PasteReading {
    public static final int MAX_LINES = 8;

    private PasteReading() {
    }

    /** The facts of {@code model} (read from one paste alone), a line each; empty when it holds none. */
    public static List<String> describe(FabricModel model) {
        List<String> out = new ArrayList<>();
        for (HostEvidence h : model.hostEvidence().values()) {
            host(h, out);
        }
        for (K8sPod p : model.pods()) {
            out.add("pod " + p.key() + (p.phase() == null || p.phase().isEmpty() ? "" : " (" + p.phase() + ")"));
        }
        for (K8sEvent e : model.events()) {
            out.add("event " + e.reason() + (e.message().isEmpty() ? "" : ": " + e.message()));
        }
        if (!model.nodes().isEmpty()) {
            out.add(Plural.of(model.nodes().size(), "fabric node") + ", " + Plural.of(model.cables().size(), "cable"));
        }
        int ranks = model.trainingLog().ranks().size();
        if (ranks > 0) {
            out.add(Plural.of(ranks, "training rank"));
        }
        if (out.size() > MAX_LINES) {
            int more = out.size() - (MAX_LINES - 1);
            out = new ArrayList<>(out.subList(0, MAX_LINES - 1));
            out.add("and " + more + " more");
        }
        return out;
    }

    private static void host(HostEvidence h, List<String> out) {
        for (HcaPortStatus p : h.hcaPorts()) {
            List<String> parts = new ArrayList<>();
            if (p.state() != org.fabricscope.model.fabric.PortState.UNKNOWN) {
                parts.add(words(p.state().name()));
            }
            if (p.physState() != org.fabricscope.model.fabric.PhysState.UNKNOWN) {
                parts.add(words(p.physState().name()));
            }
            if (!p.rate().isEmpty()) {
                parts.add("rate " + p.rate());
            }
            if (!p.linkLayer().isEmpty()) {
                parts.add(p.linkLayer());
            }
            out.add(p.device() + " port " + p.port() + (parts.isEmpty() ? "" : ": " + String.join(", ", parts)));
        }
        Map<String, List<GidEntry>> tables = new LinkedHashMap<>();
        for (GidEntry g : h.gids()) {
            tables.computeIfAbsent(g.device() + " port " + g.port(), k -> new ArrayList<>()).add(g);
        }
        tables.forEach((port, entries) -> {
            List<Integer> v4 = entries.stream().filter(g -> g.roceV2() && g.ipv4() != null).map(GidEntry::index).toList();
            out.add("GID table of " + port + ": " + Plural.of(entries.stream().filter(g -> !g.empty()).count(), "entry", "entries")
                    + (v4.isEmpty() ? ", no RoCE v2 IPv4 entry" : ", RoCE v2 IPv4 at index " + v4.stream().map(String::valueOf)
                    .reduce((a, b) -> a + ", " + b).orElse("")));
        });
        if (h.memlock() != null) {
            out.add("locked-memory limit " + h.memlock().text());
        }
        for (DeviceFile f : h.deviceFiles()) {
            out.add("/dev/infiniband/" + f.name() + " " + f.mode() + " " + f.owner() + ":" + f.group());
        }
        for (NetInterface i : h.interfaces()) {
            out.add("interface " + i.name() + (i.state() == null || i.state().isEmpty() ? "" : " " + i.state())
                    + (i.addresses().isEmpty() ? "" : " " + String.join(" ", i.addresses())));
        }
        if (h.shm() != null) {
            out.add("/dev/shm " + h.shm().size());
        }
        h.env().values().forEach(v -> out.add(v.name() + "=" + v.value()));
        h.pciLinks().forEach(l -> out.add("PCIe " + l.busId() + ": x" + l.staWidth() + " at " + l.staGts() + " GT/s (capable x"
                + l.capWidth() + " at " + l.capGts() + " GT/s)"));
        h.erdma().forEach(e -> out.add(e.summary()));
        h.oomKills().forEach(k -> out.add(k.summary()));
    }

    /** {@code LINK_UP} as {@code link up}. */
    private static String words(String constant) {
        return constant.toLowerCase(Locale.ROOT).replace('_', ' ');
    }
}
