package org.fabricscope.app.live.prom;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.fabricscope.model.FabricModelBuilder;
import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.incident.Signature;
import org.fabricscope.model.incident.SignatureCatalogue;
import org.fabricscope.model.incident.SignatureMatch;
import org.fabricscope.model.incident.Stamp;

/**
 * What happened inside the window, with its time, for the timeline: a link flap at each step where a
 * port's LinkDownedCounter rose (node_exporter or infiniband-exporter), an Xid at each step where DCGM's
 * last-Xid gauge changed to a non-zero value, and a DCGM error counter (PCIe replays, NVLink errors, ECC,
 * remapped rows) that rose, at its first increase with its rate. Each is a match of a {@code prometheus.*}
 * signature citing the series' query and the sample's time. NCCL Inspector's bus bandwidth, which says
 * how fast and not what failed, is summarised as notes: the slowest collective buckets of the window.
 */
final class PromEvents {
    /** NCCL Inspector buckets named in the notes. */
    static final int NCCL_NOTES = 5;
    /** A bucket whose lowest bus bandwidth is under this share of the median bucket's lowest is named. */
    static final double SLOW_SHARE = 0.75;

    private PromEvents() {
    }

    static void contribute(PromSnapshot s, FabricModelBuilder b) {
        List<SignatureMatch> found = new ArrayList<>();
        Signature flap = signature("prometheus.ib-link-downed");
        Signature xid = signature("prometheus.dcgm-xid");
        Signature gpu = signature("prometheus.dcgm-errors-rising");
        for (PromSeries x : s.of("node_exporter")) {
            if (x.name().equals("node_infiniband_link_downed_total")) {
                String host = PromMetrics.nodeHost(x);
                flaps(s, x, host, host + " " + x.label("device") + " port " + x.label("port"), flap, found);
            }
        }
        for (PromSeries x : s.of("infiniband-exporter")) {
            if (x.name().equals("infiniband_linkdownedcounter_total")) {
                String name = x.label("local_name").strip();
                String host = "ca".equals(x.label("component")) && name.indexOf(' ') > 0 ? name.substring(0, name.indexOf(' ')) : "";
                flaps(s, x, host, (name.isEmpty() ? x.label("local_guid") : name) + " port " + x.label("local_port"), flap, found);
            }
        }
        for (PromSeries x : s.of("dcgm")) {
            if (x.name().equals(PromMetrics.DCGM_XID)) {
                xids(s, x, xid, found);
            } else if (PromMetrics.DCGM_COUNTERS.contains(x.name())) {
                rising(s, x, gpu, found);
            }
        }
        if (found.size() > PromLimits.MAX_EVENTS) {
            b.diagnostic(Diagnostic.warning(s.source(), 0, found.size() + " link flaps, Xids and GPU counter increases in the "
                    + "window; the first " + PromLimits.MAX_EVENTS + " in time are kept (PromLimits.MAX_EVENTS)"));
            found.sort(Comparator.comparing(SignatureMatch::stamp));
            found = new ArrayList<>(found.subList(0, PromLimits.MAX_EVENTS));
        }
        if (!found.isEmpty()) {
            b.incident().observed(s.source(), found);
        }
        nccl(s, b);
    }

    private static void flaps(PromSnapshot s, PromSeries x, String host, String port, Signature sig, List<SignatureMatch> out) {
        for (int i = 1; i < x.size(); i++) {
            double a = x.values()[i - 1];
            double v = x.values()[i];
            if (!Double.isFinite(a) || !Double.isFinite(v) || v == a) {
                continue;
            }
            long increase = (long) (v > a ? v - a : v); // below the one before: cleared, counts from 0
            if (increase > 0) {
                String text = "LinkDownedCounter +" + increase + " on " + port + " (" + x.name() + ")";
                add(s, x, sig, text, host, x.time(i), out);
            }
        }
    }

    private static void xids(PromSnapshot s, PromSeries x, Signature sig, List<SignatureMatch> out) {
        for (int i = 1; i < x.size(); i++) {
            double a = x.values()[i - 1];
            double v = x.values()[i];
            if (Double.isFinite(v) && v > 0 && v != a) {
                String host = or(PromMetrics.dcgmHost(x), "?");
                String text = PromMetrics.DCGM_XID + "=" + (long) v + " on GPU " + or(x.label("gpu"), "?") + " "
                        + or(x.label("UUID"), or(x.label("uuid"), "-")) + " of " + host;
                add(s, x, sig, text, host, x.time(i), out);
            }
        }
    }

    private static void rising(PromSnapshot s, PromSeries x, Signature sig, List<SignatureMatch> out) {
        int firstRise = -1;
        double increase = 0;
        for (int i = 1; i < x.size(); i++) {
            double a = x.values()[i - 1];
            double v = x.values()[i];
            if (!Double.isFinite(a) || !Double.isFinite(v) || v == a) {
                continue;
            }
            double d = v > a ? v - a : v;
            if (d > 0) {
                increase += d;
                firstRise = firstRise < 0 ? i : firstRise;
            }
        }
        if (firstRise < 0 || x.size() < 2) {
            return;
        }
        double hours = (x.millis()[x.size() - 1] - x.millis()[0]) / 3_600_000.0;
        String host = or(PromMetrics.dcgmHost(x), "?");
        String text = String.format(Locale.ROOT, "GPU counter %s +%d on GPU %s of %s (%.1f/h)", x.name(), (long) increase,
                or(x.label("gpu"), "?"), host, hours > 0 ? increase / hours : increase);
        add(s, x, sig, text, host, x.time(firstRise), out);
    }

    private static void add(PromSnapshot s, PromSeries x, Signature sig, String text, String host, Instant time,
                            List<SignatureMatch> out) {
        Map<String, String> fields = sig == null ? null : sig.match(text);
        if (fields == null) {
            return; // a label with spaces the canonical text cannot hold; the counters still reach the checks
        }
        Evidence ev = Evidence.query(s.source(), selector(x), time, text);
        out.add(new SignatureMatch(sig, fields, host, -1, -1, new Stamp(time.toEpochMilli(), true, true), ev));
    }

    /** The series as a PromQL selector a user can paste: {@code name{label="value",...}}. */
    static String selector(PromSeries x) {
        StringBuilder sb = new StringBuilder(x.name()).append('{');
        boolean first = true;
        for (Map.Entry<String, String> e : new java.util.TreeMap<>(x.labels()).entrySet()) {
            if (e.getKey().equals("__name__")) {
                continue;
            }
            sb.append(first ? "" : ",").append(e.getKey()).append("=\"")
                    .append(e.getValue().replace("\\", "\\\\").replace("\"", "\\\"")).append('"');
            first = false;
        }
        return sb.append('}').toString();
    }

    /** The slowest NCCL Inspector buckets of the window (their lowest bus bandwidth), as notes. */
    private static void nccl(PromSnapshot s, FabricModelBuilder b) {
        record Low(PromSeries x, double gbs, Instant at) {
        }
        List<Low> lows = new ArrayList<>();
        for (PromSeries x : s.of("nccl-inspector")) {
            int best = -1;
            for (int i = 0; i < x.size(); i++) {
                if (Double.isFinite(x.values()[i]) && (best < 0 || x.values()[i] < x.values()[best])) {
                    best = i;
                }
            }
            if (best >= 0) {
                lows.add(new Low(x, x.values()[best], x.time(best)));
            }
        }
        if (lows.isEmpty()) {
            return;
        }
        lows.sort(Comparator.comparingDouble(Low::gbs));
        double median = lows.get(lows.size() / 2).gbs();
        List<Low> slow = lows.stream().filter(l -> l.gbs() < SLOW_SHARE * median).limit(NCCL_NOTES).toList();
        b.diagnostic(Diagnostic.info(s.source(), 0, String.format(Locale.ROOT, "NCCL Inspector: %d bus bandwidth series in "
                + "the window, median of their lowest %.3g GB/s; %d below %.0f%% of it", lows.size(), median, slow.size(),
                SLOW_SHARE * 100)));
        for (Low l : slow) {
            PromSeries x = l.x();
            String what = x.label("collective").isEmpty() ? x.label("p2p_operation") : x.label("collective");
            b.diagnostic(Diagnostic.info(s.source(), 0, String.format(Locale.ROOT,
                    "NCCL Inspector: %s %s on %s GPU %s (%s, %s ranks) fell to %.3g GB/s bus bandwidth at %s",
                    what, x.label("message_size"), x.label("node"), x.label("gpu"), x.label("comm_name"), x.label("nranks"),
                    l.gbs(), l.at())));
        }
    }

    private static Signature signature(String id) {
        Signature s = SignatureCatalogue.active().byId(id);
        return s != null ? s : SignatureCatalogue.bundled().byId(id);
    }

    private static String or(String v, String fallback) {
        return v == null || v.isBlank() ? fallback : v.replaceAll("\\s+", "_");
    }
}
