package org.fabricscope.app.live.prom;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

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
 * of the window and every step where one changed (a counter's rate needs no more), so the existing
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
        Map<String, Boolean> known = new HashMap<>();
        java.util.Set<String> warned = new java.util.HashSet<>();
        for (Map.Entry<String, PortSeries> e : node.entrySet()) {
            PortSeries ps = e.getValue();
            PromSeries any = ps.counters().values().iterator().next();
            String name = PromMetrics.nodeHost(any) + " " + any.label("device");
            boolean found = known.computeIfAbsent(name, n -> b.findNodeByName(n) != null);
            if (!found) {
                if (warned.add(name)) { // said once per HCA
                    b.diagnostic(Diagnostic.warning(s.source(), 0, "node_exporter counters of \"" + name + "\" (" + ps.selector()
                        + ") match no HCA of the fabric: node_exporter gives no GUID, so they join an HCA described \""
                        + name + "\"; load the fabric's ibnetdiscover output, or read infiniband-exporter too"));
                }
                continue;
            }
            samples(s, b, ps, 0, number(any.label("port")), name);
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
        TreeSet<Long> times = new TreeSet<>();
        for (PromSeries x : ps.counters().values()) {
            for (long t : x.millis()) {
                times.add(t);
            }
        }
        Map<String, Integer> at = new HashMap<>();
        Map<String, Long> previous = null;
        Long last = times.isEmpty() ? null : times.last();
        for (long t : times) {
            Map<String, Long> now = new LinkedHashMap<>();
            for (Map.Entry<String, PromSeries> e : ps.counters().entrySet()) {
                PromSeries x = e.getValue();
                int i = at.getOrDefault(e.getKey(), 0);
                while (i < x.size() && x.millis()[i] < t) {
                    i++;
                }
                at.put(e.getKey(), i);
                if (i < x.size() && x.millis()[i] == t && Double.isFinite(x.values()[i]) && x.values()[i] >= 0) {
                    now.put(e.getKey(), x.values()[i] >= 0x1p63 ? Long.MAX_VALUE : (long) x.values()[i]);
                } else if (previous != null && previous.containsKey(e.getKey())) {
                    now.put(e.getKey(), previous.get(e.getKey())); // a missed scrape: the value holds
                }
            }
            if (now.isEmpty() || previous != null && now.equals(previous) && t != last) {
                continue;
            }
            Instant time = Instant.ofEpochMilli(t);
            Evidence ev = Evidence.query(s.source(), ps.selector(), time, ps.label() + ": " + text(now));
            b.counters(0, port, guid, nodeName, now, ev, false, time);
            previous = now;
        }
    }

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
