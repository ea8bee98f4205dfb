package org.fabricscope.importers.lldp;

import org.fabricscope.importers.core.FormatReader;
import org.fabricscope.importers.core.Head;
import org.fabricscope.importers.core.ImportPhase;
import org.fabricscope.importers.core.Numbers;
import org.fabricscope.importers.core.ReadContext;
import org.fabricscope.importers.core.TextLines;
import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.core.Evidence;

import java.io.IOException;
import java.io.InputStream;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A RoCE NIC's counters: {@code ethtool -S NETDEV} ({@code NIC statistics:} then indented {@code name: value}
 * lines; mlx5's {@code rx_prio3_pause}, {@code rx_discards_phy}, {@code rx_out_of_buffer} ...) and the RDMA
 * {@code hw_counters} as {@code grep . /sys/class/infiniband/DEV/ports/N/hw_counters/*} prints them
 * ({@code .../hw_counters/out_of_sequence:12}). A {@code date} line ({@code Fri Nov 27 03:04:07 UTC 2026}) or an
 * ISO-8601 instant before a sample gives its time, so two samples give rates. The netdev is the command line's
 * ({@code ethtool -S ens1f0np0}) or the file name's ({@code ethtool-S-ens1f0np0.txt}); the host as for LLDP
 * tables. Counters are placed on the NIC LLDP placed ({@link LldpFabric}), by netdev or RDMA device. Sources:
 * the mlx5 counter list in the Linux kernel's {@code Documentation/networking/device_drivers/ethernet/mellanox/
 * mlx5/counters.rst}; sysfs {@code hw_counters} (Documentation/ABI/stable/sysfs-class-infiniband).
 */
public final class RoceCountersReader implements FormatReader {
    public static final String ID = "roce-counters";
    /** Counters kept per sample; mlx5 prints about 1,000 with per-queue ones. */
    public static final int MAX_COUNTERS = 4096;
    private static final Pattern ETHTOOL_CMD = Pattern.compile("\\bethtool\\s+(?:-S|--statistics)\\s+(\\S+)");
    private static final Pattern STAT = Pattern.compile("^\\s+([A-Za-z0-9_.\\[\\]:-]+):\\s+(\\d{1,20})\\s*$");
    private static final Pattern HW = Pattern.compile("^/sys/class/infiniband/([^/\\s]+)/ports/(\\d{1,3})/hw_counters/([A-Za-z0-9_]+):(\\d{1,20})\\s*$");
    private static final Pattern FILE_NETDEV = Pattern.compile("^ethtool[-_]?(?:S[-_])?([A-Za-z0-9_.@-]+?)(?:\\.txt|\\.out|\\.log)?$");
    /** date(1)'s default output; in a holder so that it is built (time-zone names and all) only when a file has one. */
    private static final class Dates {
        static final DateTimeFormatter DATE = DateTimeFormatter.ofPattern("EEE MMM d HH:mm:ss zzz yyyy", Locale.ENGLISH);
    }

    @Override
    public String id() {
        return ID;
    }

    @Override
    public String label() {
        return "ethtool -S, RDMA hw_counters (grep . .../hw_counters/*)";
    }

    @Override
    public int maxConfidence() {
        return 75;
    }

    @Override
    public int confidence(Head head) {
        int hw = 0;
        boolean nicStats = false;
        for (String l : head.lines()) {
            String t = l.strip();
            if (HW.matcher(t).matches()) {
                hw++;
            }
            nicStats |= t.equals("NIC statistics:");
        }
        return nicStats || hw >= 2 ? 75 : NONE;
    }

    @Override
    public ImportPhase phase() {
        return ImportPhase.TOPOLOGY;
    }

    @Override
    public void read(InputStream in, ReadContext ctx) throws IOException {
        String host = LldpSections.hostFromPath(ctx.source());
        String netdev = LldpSections.netdevFromFile(ctx.source(), FILE_NETDEV);
        Instant time = null;
        LldpFabric fabric = ctx.state(LldpFabric.class, LldpFabric::new);
        Sample current = null;
        TextLines lines = ctx.lines(in);
        String line;
        while ((line = ctx.nextLine(lines)) != null) {
            String t = line.strip();
            Matcher cmd = ETHTOOL_CMD.matcher(t);
            String marker = LldpSections.marker(t);
            if (marker != null || cmd.find()) {
                current = flush(current, fabric, ctx);
                if (marker != null && !marker.isEmpty()) {
                    host = marker;
                }
                if (cmd.reset().find()) {
                    netdev = cmd.group(1);
                    // ethtool -S X | grep prio3 prints no header: the sample starts at the command
                    current = new Sample(host, netdev, null, 1, time, Evidence.at(ctx.source(), lines.lineNumber(), t));
                }
                continue;
            }
            Instant stamp = stamp(t);
            if (stamp != null) {
                if (current != null && current.counters.isEmpty()) {
                    current.time = stamp; // date; ethtool -S X: the date comes after the command line
                } else {
                    current = flush(current, fabric, ctx);
                }
                time = stamp;
                continue;
            }
            Evidence at = Evidence.at(ctx.source(), lines.lineNumber(), t);
            if (t.equals("NIC statistics:")) {
                if (current == null || !current.counters.isEmpty() || current.device != null) {
                    current = flush(current, fabric, ctx);
                    current = new Sample(host, netdev, null, 1, time, at);
                }
                continue;
            }
            Matcher m = HW.matcher(t);
            if (m.matches()) {
                int port = Integer.parseInt(m.group(2));
                if (current == null || current.device == null || !current.device.equals(m.group(1)) || current.port != port) {
                    current = flush(current, fabric, ctx);
                    current = new Sample(host, null, m.group(1), port, time, at);
                }
                current.put(m.group(3), m.group(4), ctx, lines.lineNumber());
                continue;
            }
            m = STAT.matcher(line);
            if (m.matches() && current != null && current.device == null) {
                current.put(m.group(1), m.group(2), ctx, lines.lineNumber());
            }
        }
        flush(current, fabric, ctx);
    }

    private static Sample flush(Sample s, LldpFabric fabric, ReadContext ctx) {
        if (s == null || s.counters.isEmpty()) {
            return null;
        }
        if (s.host.isEmpty() || (s.netdev == null && s.device == null)) {
            ctx.report(Diagnostic.warning(ctx.source(), s.at.line(), "counters whose " + (s.host.isEmpty() ? "host" : "interface")
                    + " is not known: keep the command line (root@gpu-node-01:~# ethtool -S ens1f0np0) or name the file "
                    + "gpu-node-01/ethtool-S-ens1f0np0.txt; skipped"));
            return null;
        }
        fabric.counters(s.host, s.netdev, s.device, s.port, s.counters, s.time, s.at);
        return null;
    }

    /** A {@code date} line or an ISO-8601 instant, else null. */
    static Instant stamp(String t) {
        if (t.length() < 19 || t.length() > 40 || !Character.isLetterOrDigit(t.charAt(0))) {
            return null;
        }
        try {
            return OffsetDateTime.parse(t).toInstant();
        } catch (DateTimeParseException e) {
            // not ISO-8601
        }
        try {
            return ZonedDateTime.parse(t.replaceAll("\\s+", " "), Dates.DATE).toInstant();
        } catch (DateTimeParseException e) {
            return null;
        }
    }


    /** One sample of one NIC's counters, being read. */
    private static final class Sample {
        final String host;
        final String netdev;
        final String device;
        final int port;
        Instant time;
        final Evidence at;
        final Map<String, Long> counters = new LinkedHashMap<>();
        private boolean full;

        Sample(String host, String netdev, String device, int port, Instant time, Evidence at) {
            this.host = host;
            this.netdev = netdev;
            this.device = device;
            this.port = port;
            this.time = time;
            this.at = at;
        }

        void put(String name, String value, ReadContext ctx, int line) {
            long v;
            try {
                v = Numbers.unsigned64(value, name);
            } catch (Numbers.OutOfRange e) {
                ctx.report(Diagnostic.warning(ctx.source(), line, name + ": " + e.getMessage() + "; counter skipped"));
                return;
            }
            if (counters.size() >= MAX_COUNTERS && !counters.containsKey(name)) {
                if (!full) {
                    full = true;
                    ctx.report(Diagnostic.warning(ctx.source(), line, "more than " + MAX_COUNTERS
                            + " counters in one sample (RoceCountersReader.MAX_COUNTERS): the rest of this sample not kept"));
                }
                return;
            }
            counters.put(name, v);
        }
    }
}
