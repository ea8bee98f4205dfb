package org.fabricscope.app.live.prom;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.fabricscope.model.FabricModelBuilder;
import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.core.Guids;
import org.fabricscope.model.fabric.FabricNode;
import org.fabricscope.model.fabric.NodeKind;
import org.fabricscope.model.fabric.PhysState;
import org.fabricscope.model.fabric.Port;
import org.fabricscope.model.fabric.PortState;

/**
 * The InfiniBand side of a {@link PromSnapshot} into the model builder. infiniband-exporter's series name
 * both ends of each cable (local and remote GUID and port), so they build the fabric themselves: nodes by
 * GUID (joining a loaded ibnetdiscover capture's, whose nodes come first), the active links between them,
 * and the counters by GUID and port. node_exporter's series name a host (its {@code instance}) and an HCA
 * port ({@code device}, {@code port}), no GUID: they join the node described {@code "<host> <device>"},
 * as ibnetdiscover names an HCA. Each port's counters become samples with their times: the first and last
 * of the window and every step where an error counter changed or a counter went backwards (a rate needs no
 * more; {@link #worthASample}), so the existing
 * {@code link-errors} check judges the rate per hour over the window.
 */
final class PromFabric {
    private PromFabric() {
    }

    /** The series of one port, by PMA counter name, and how to name and cite it. */
    private record PortSeries(String label, String selector, Map<String, PromSeries> counters) {
    }

    static void contribute(PromSnapshot s, FabricModelBuilder b) {
        Map<String, PortSeries> ib = group(s.of("infiniband-exporter"), PromMetrics.IB_EXPORTER, true, s, b);
        Map<String, PortSeries> node = group(s.of("node_exporter"), PromMetrics.NODE_EXPORTER, false, s, b);
        Map<Long, String> component = new HashMap<>();
        for (PromSeries x : s.of("infiniband-exporter")) {
            long g = guid(x.label("local_guid"));
            if (g != 0) {
                component.put(g, x.label("component"));
            }
        }
        for (PortSeries ps : ib.values()) {
            PromSeries any = ps.counters().values().iterator().next();
            Evidence ev = Evidence.query(s.source(), ps.selector(), s.end(), ps.label() + " cabled to "
                    + any.label("remote_name") + " port " + any.label("remote_port") + " (infiniband-exporter)");
            long lg = guid(any.label("local_guid"));
            int lp = number(any.label("local_port"));
            Port p = b.port(node(b, lg, component.get(lg), null, any.label("local_name"), ev), lp);
            active(b, p, ev);
            long rg = guid(any.label("remote_guid"));
            int rp = number(any.label("remote_port"));
            if (rg != 0 && rp > 0) {
                FabricNode rn = node(b, rg, component.get(rg), component.get(lg), any.label("remote_name"), ev);
                Port r = b.port(rn, rp);
                if (p.cable() == null || p.cable().other(p) != r) {
                    b.link(p, r, null, null, ev);
                }
                active(b, r, ev);
            }
            samples(s, b, ps, lg, lp, null);
        }
        Map<String, FabricNode> known = new HashMap<>();
        java.util.Set<String> warned = new java.util.HashSet<>();
        for (Map.Entry<String, PortSeries> e : node.entrySet()) {
            PortSeries ps = e.getValue();
            PromSeries any = ps.counters().values().iterator().next();
            String name = PromMetrics.nodeHost(any) + " " + any.label("device");
            FabricNode hca = known.computeIfAbsent(name, b::findNodeByName); // once per HCA, not once per sample
            if (hca == null) {
                if (warned.add(name)) { // said once per HCA
                    b.diagnostic(Diagnostic.warning(s.source(), 0, "node_exporter counters of \"" + name + "\" (" + ps.selector()
                            + ") match no HCA of the fabric: node_exporter gives no GUID, so they join an HCA described \""
                            + name + "\"; load the fabric's ibnetdiscover output, or read infiniband-exporter too"));
                }
                continue;
            }
            samples(s, b, ps, hca.guid(), number(any.label("port")), name);
        }
    }

    /** The series of {@code kind} grouped by port: by GUID and port (infiniband-exporter) or host, device and port. */
    private static Map<String, PortSeries> group(List<PromSeries> all, Map<String, String> names, boolean byGuid,
                                                 PromSnapshot s, FabricModelBuilder b) {
        Map<String, PortSeries> out = new LinkedHashMap<>();
        int bad = 0;
        String example = null;
        for (PromSeries x : all) {
            String counter = names.get(x.name());
            if (counter == null) {
                continue;
            }
            String key;
            String label;
            String selector;
            if (byGuid) {
                long g = guid(x.label("local_guid"));
                int port = number(x.label("local_port"));
                if (g == 0 || port <= 0) {
                    bad++;
                    example = example == null ? x.labels().toString() : example;
                    continue;
                }
                key = g + ":" + port;
                label = (x.label("local_name").isEmpty() ? Guids.format(g) : x.label("local_name")) + " port " + port;
                selector = "{__name__=~\"infiniband_.+_total\",local_guid=\"" + x.label("local_guid") + "\",local_port=\""
                        + x.label("local_port") + "\"}";
            } else {
                String host = PromMetrics.nodeHost(x);
                int port = number(x.label("port"));
                if (host.isEmpty() || x.label("device").isEmpty() || port <= 0) {
                    bad++;
                    example = example == null ? x.labels().toString() : example;
                    continue;
                }
                key = host + "\u0000" + x.label("device") + "\u0000" + port;
                label = host + " " + x.label("device") + " port " + port;
                selector = "{__name__=~\"node_infiniband_.+_total\",instance=\"" + x.label("instance") + "\",device=\""
                        + x.label("device") + "\",port=\"" + x.label("port") + "\"}";
            }
            out.computeIfAbsent(key, k -> new PortSeries(label, selector, new LinkedHashMap<>())).counters().put(counter, x);
        }
        if (bad > 0) {
            b.diagnostic(Diagnostic.warning(s.source(), 0, bad + " " + (byGuid ? "infiniband-exporter" : "node_exporter")
                    + " series without a usable " + (byGuid ? "local_guid and local_port" : "host, device and port")
                    + " were skipped, e.g. " + PromHttp.oneLine(example)));
        }
        return out;
    }

    /** The node with this GUID (or port GUID) as the builder knows it, else a new one named {@code name}. */
    private static FabricNode node(FabricModelBuilder b, long guid, String component, String peerComponent, String name,
                                   Evidence ev) {
        FabricNode n = b.findNodeByPortGuid(guid);
        if (n == null) {
            // a remote end that reports no series of its own: most likely the other kind (an HCA's peer is a switch)
            boolean sw = component != null ? component.equals("switch") : "ca".equals(peerComponent);
            n = b.node(guid, sw ? NodeKind.SWITCH : NodeKind.CA);
            b.setEvidence(n, ev);
        }
        b.offerDescription(n, name);
        return n;
    }

    /** infiniband-exporter reports active links only: a port of unknown state is Active/LinkUp. */
    private static void active(FabricModelBuilder b, Port p, Evidence ev) {
        if (p.state() == PortState.UNKNOWN) {
            b.setPortState(p, PortState.ACTIVE, PhysState.LINK_UP, null, null, ev);
        }
    }

    /** The port's samples: the first, the last, and every time a counter changed. */
    private static void samples(PromSnapshot s, FabricModelBuilder b, PortSeries ps, long guid, int port, String nodeName) {
        List<String> names = new ArrayList<>(ps.counters().keySet());
        PromSeries[] xs = ps.counters().values().toArray(new PromSeries[0]);
        int k = xs.length;
        long[] times = java.util.Arrays.stream(xs).flatMapToLong(x -> java.util.Arrays.stream(x.millis())).sorted().distinct()
                .toArray();
        int[] idx = new int[k];
        long[] cur = new long[k];
        boolean[] has = new boolean[k];
        long[] prev = null;
        boolean[] prevHas = null;
        for (int ti = 0; ti < times.length; ti++) {
            long t = times[ti];
            boolean any = false;
            for (int j = 0; j < k; j++) {
                PromSeries x = xs[j];
                int i = idx[j];
                while (i < x.size() && x.millis()[i] < t) {
                    i++;
                }
                idx[j] = i;
                if (i < x.size() && x.millis()[i] == t && Double.isFinite(x.values()[i]) && x.values()[i] >= 0) {
                    cur[j] = x.values()[i] >= 0x1p63 ? Long.MAX_VALUE : (long) x.values()[i];
                    has[j] = true;
                } else {
                    has[j] = prevHas != null && prevHas[j]; // a missed scrape: the value holds
                    cur[j] = has[j] ? prev[j] : 0;
                }
                any |= has[j];
            }
            if (!any || prev != null && ti != times.length - 1 && !worthASample(names, prev, prevHas, cur, has)) {
                continue;
            }
            Map<String, Long> now = new LinkedHashMap<>();
            for (int j = 0; j < k; j++) {
                if (has[j]) {
                    now.put(names.get(j), cur[j]);
                }
            }
            Instant time = Instant.ofEpochMilli(t);
            Evidence ev = Evidence.query(s.source(), ps.selector(), time, ps.label() + ": " + text(now));
            b.counters(0, port, guid, nodeName, now, ev, false, time);
            prev = cur.clone();
            prevHas = has.clone();
        }
    }

    /**
     * Whether a step's counters are kept as a sample: an error counter changed, or any counter went
     * backwards (cleared). PortXmitWait grows on every busy port at every step; its rate needs the
     * window's first and last sample only, so its growth alone keeps no sample (5,000 ports: 10,000
     * samples instead of 600,000).
     */
    private static boolean worthASample(List<String> names, long[] before, boolean[] beforeHas, long[] now, boolean[] nowHas) {
        for (int j = 0; j < now.length; j++) {
            if (nowHas[j] != beforeHas[j]) {
                return true;
            }
            if (!nowHas[j] || now[j] == before[j]) {
                continue;
            }
            if (Long.compareUnsigned(now[j], before[j]) < 0 || !CONGESTION.contains(names.get(j))) {
                return true;
            }
        }
        return false;
    }

    /** Counters that grow on a healthy busy port: a change of these alone keeps no sample. */
    static final java.util.Set<String> CONGESTION = java.util.Set.of("PortXmitWait");

    private static String text(Map<String, Long> counters) {
        List<String> nonzero = new ArrayList<>();
        counters.forEach((k, v) -> {
            if (v != 0) {
                nonzero.add(k + "=" + Long.toUnsignedString(v));
            }
        });
        return nonzero.isEmpty() ? "error counters all 0" : String.join(", ", nonzero);
    }

    /** A GUID as the exporter prints it ({@code 0x7cfe900300a5b0c0}, leading zeros optional); 0 when not one. */
    static long guid(String text) {
        String t = text.strip().toLowerCase(java.util.Locale.ROOT);
        if (t.startsWith("0x")) {
            t = t.substring(2);
        }
        if (t.isEmpty() || t.length() > 16 || !t.chars().allMatch(c -> Character.digit(c, 16) >= 0)) {
            return 0;
        }
        return Long.parseUnsignedLong(t, 16);
    }

    /** A port number (1-254); 0 when not one. */
    static int number(String text) {
        String t = text.strip();
        if (t.isEmpty() || t.length() > 3 || !t.chars().allMatch(Character::isDigit)) {
            return 0;
        }
        int n = Integer.parseInt(t);
        return n >= 1 && n <= 254 ? n : 0;
    }
}
