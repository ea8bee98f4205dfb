package org.fabricscope.importers.lldp;

import org.fabricscope.importers.core.FormatReader;
import org.fabricscope.importers.core.Head;
import org.fabricscope.importers.core.ImportPhase;
import org.fabricscope.importers.core.ReadContext;
import org.fabricscope.importers.core.TextLines;
import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.fabric.RoceQos;

import java.io.IOException;
import java.io.InputStream;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Mellanox OFED's {@code mlnx_qos -i NETDEV}: {@code Priority trust state: dscp}, then {@code PFC
 * configuration:} with a {@code priority 0 1 2 3 4 5 6 7} row and an {@code enabled 0 0 0 1 0 0 0 0} row
 * and the {@code dscp2prio mapping:} rows ({@code prio:3 dscp:31,30,29,28,27,26,25,24,}), which say on which priority
 * each DSCP value lands under trust dscp (the buffer, ETS and rate-limit lines are not read). The netdev is the {@code -i} of the command line
 * the file shows ({@code root@gpu-node-01:~# mlnx_qos -i ens1f0np0}; several per file), else the file's name
 * after {@code mlnx_qos-} ({@code gpu-node-01/mlnx_qos-ens1f0np0.txt}); the host as for LLDP tables. The
 * settings go to the NIC that LLDP placed ({@link LldpFabric}). Source: the Mellanox community post
 * "mlnx_qos" (MLNX_OFED 4.2), which shows {@code mlnx_qos -i eth2}'s output.
 */
public final class MlnxQosReader implements FormatReader {
    public static final String ID = "mlnx-qos";
    private static final Pattern PFC_TITLE = Pattern.compile("^PFC configuration:\\s*$");
    private static final Pattern TRUST = Pattern.compile("^Priority trust (?:state|mode):\\s*(\\S+)\\s*$");
    private static final Pattern COMMAND = Pattern.compile("\\bmlnx_qos\\b.*?(?:-i|--interface)[= ]\\s*(\\S+)");
    private static final Pattern PRIORITY_ROW = Pattern.compile("^priority((?:\\s+\\d){8})\\s*$");
    private static final Pattern ENABLED_ROW = Pattern.compile("^enabled((?:\\s+[01]){8})\\s*$");
    private static final Pattern DSCP_ROW = Pattern.compile("^prio:\\s*([0-7])\\s+dscp:\\s*([0-9,\\s]*)$");
    private static final Pattern FILE_NETDEV = Pattern.compile("^(?:mlnx[_-]qos|qos)[-_.]([A-Za-z0-9_.@-]+?)(?:\\.txt|\\.out|\\.log)?$");

    @Override
    public String id() {
        return ID;
    }

    @Override
    public String label() {
        return "mlnx_qos -i";
    }

    @Override
    public int maxConfidence() {
        return 85;
    }

    @Override
    public int confidence(Head head) {
        boolean pfc = false;
        boolean other = false;
        for (String l : head.lines()) {
            String t = l.strip();
            pfc |= PFC_TITLE.matcher(t).matches();
            other |= TRUST.matcher(t).matches() || t.startsWith("DCBX mode:") || ENABLED_ROW.matcher(t).matches();
        }
        return pfc && other ? 85 : NONE;
    }

    @Override
    public ImportPhase phase() {
        return ImportPhase.TOPOLOGY;
    }

    @Override
    public void read(InputStream in, ReadContext ctx) throws IOException {
        String host = LldpSections.hostFromPath(ctx.source());
        String netdev = LldpSections.netdevFromFile(ctx.source(), FILE_NETDEV);
        String trust = "";
        int[] dscp = newDscpTable();
        int dscpLine = 0;
        boolean inPfc = false;
        boolean priorityRow = false;
        LldpFabric fabric = ctx.state(LldpFabric.class, LldpFabric::new);
        TextLines lines = ctx.lines(in);
        String line;
        while ((line = ctx.nextLine(lines)) != null) {
            String t = line.strip();
            Matcher cmd = COMMAND.matcher(t);
            String marker = LldpSections.marker(t);
            if (marker != null || cmd.find()) {
                if (marker != null && !marker.isEmpty()) {
                    host = marker;
                }
                if (cmd.reset().find()) {
                    netdev = cmd.group(1);
                    trust = "";
                    dscp = newDscpTable();
                    dscpLine = 0;
                    inPfc = false;
                }
                continue;
            }
            Matcher m = TRUST.matcher(t);
            if (m.matches()) {
                trust = m.group(1).toLowerCase(Locale.ROOT);
                continue;
            }
            m = DSCP_ROW.matcher(t);
            if (m.matches()) {
                int prio = Integer.parseInt(m.group(1));
                for (String d : m.group(2).split("[,\\s]+")) {
                    int v = d.isEmpty() ? -1 : d.length() > 2 ? 64 : Integer.parseInt(d);
                    if (v >= 0 && v < RoceQos.DSCP_VALUES) {
                        dscp[v] = prio;
                    } else if (v >= RoceQos.DSCP_VALUES) {
                        ctx.report(Diagnostic.warning(ctx.source(), lines.lineNumber(), "DSCP " + d + " is past 63 (DSCP has 6 bits); ignored"));
                    }
                }
                dscpLine = lines.lineNumber();
                continue;
            }
            if (PFC_TITLE.matcher(t).matches()) {
                inPfc = true;
                priorityRow = false;
                continue;
            }
            if (inPfc && PRIORITY_ROW.matcher(t).matches()) {
                priorityRow = PRIORITY_ROW.matcher(t).replaceAll("$1").strip().replaceAll("\\s+", " ").equals("0 1 2 3 4 5 6 7");
                continue;
            }
            m = ENABLED_ROW.matcher(t);
            if (inPfc && m.matches()) {
                inPfc = false;
                if (!priorityRow) {
                    ctx.report(Diagnostic.warning(ctx.source(), lines.lineNumber(), "a PFC \"enabled\" row without the "
                            + "\"priority 0 1 2 3 4 5 6 7\" row above it: which priority each column is cannot be told; skipped"));
                    continue;
                }
                String[] bits = m.group(1).strip().split("\\s+");
                int mask = 0;
                for (int p = 0; p < 8; p++) {
                    if (bits[p].equals("1")) {
                        mask |= 1 << p;
                    }
                }
                Evidence at = Evidence.at(ctx.source(), lines.lineNumber(), t);
                if (host.isEmpty() || netdev == null) {
                    ctx.report(Diagnostic.warning(ctx.source(), lines.lineNumber(), "mlnx_qos output whose "
                            + (host.isEmpty() ? "host" : "interface") + " is not known: keep the command line (root@gpu-node-01:~# "
                            + "mlnx_qos -i ens1f0np0) or name the file gpu-node-01/mlnx_qos-ens1f0np0.txt; skipped"));
                    continue;
                }
                fabric.qos(host, netdev, new RoceQos(trust, mask, dscpTable(dscp, dscpLine, ctx), at));
            }
        }
    }

    private static int[] newDscpTable() {
        int[] t = new int[RoceQos.DSCP_VALUES];
        java.util.Arrays.fill(t, -1);
        return t;
    }

    /** The table read, when it names all 64 DSCP values; else empty (the default table applies) with a warning if it named some. */
    private static java.util.List<Integer> dscpTable(int[] t, int line, ReadContext ctx) {
        long named = java.util.Arrays.stream(t).filter(p -> p >= 0).count();
        if (named == RoceQos.DSCP_VALUES) {
            return java.util.Arrays.stream(t).boxed().toList();
        }
        if (named > 0) {
            ctx.report(Diagnostic.warning(ctx.source(), line, "the dscp2prio mapping names " + named + " of the 64 DSCP values: "
                    + "which priority the others land on cannot be told; the default table (priority = DSCP / 8) is used"));
        }
        return java.util.List.of();
    }
}
