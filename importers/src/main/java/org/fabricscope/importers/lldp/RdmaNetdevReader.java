package org.fabricscope.importers.lldp;

import org.fabricscope.importers.core.FormatReader;
import org.fabricscope.importers.core.Head;
import org.fabricscope.importers.core.ImportPhase;
import org.fabricscope.importers.core.ReadContext;
import org.fabricscope.importers.core.TextLines;
import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.core.Evidence;

import java.io.IOException;
import java.io.InputStream;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which netdev carries which RDMA device, on one host (or many, with the node markers of
 * {@link LldpSections}): iproute2's {@code rdma link show} ({@code link mlx5_0/1 state ACTIVE physical_state
 * LINK_UP netdev ens1f0np0}; an InfiniBand port has no {@code netdev}), Mellanox OFED's {@code ibdev2netdev}
 * ({@code mlx5_0 port 1 ==> ens1f0np0 (Up)}, and {@code -v}'s {@code 0000:3b:00.0 mlx5_0 (MT4123 - ...) ...
 * port 1 (ACTIVE) ==> ens1f0np0 (Up)}) and the sysfs listing {@code ls -d /sys/class/infiniband/*}{@code
 * /device/net/*} ({@code /sys/class/infiniband/mlx5_0/device/net/ens1f0np0}). The host is the marker's or
 * prompt's, else the file's folder or name. An Ethernet NIC that LLDP placed is then named by its RDMA device
 * as well ({@code gpu-node-01 mlx5_0}, port {@code ens1f0np0}), so NCCL's {@code NET/IB : Using [0]mlx5_0:1/RoCE}
 * joins a rank to its NIC and leaf as on InfiniBand.
 */
public final class RdmaNetdevReader implements FormatReader {
    public static final String ID = "rdma-netdev";
    static final Pattern RDMA_LINK = Pattern.compile("^link (\\S+)/(\\d{1,3})\\b.*$");
    private static final Pattern RDMA_LINK_NETDEV = Pattern.compile("\\bnetdev (\\S+)");
    private static final Pattern RDMA_LINK_STATE = Pattern.compile("\\bstate (\\S+)");
    static final Pattern IBDEV2NETDEV = Pattern.compile(
            "^(?:[0-9a-fA-F]{4}:[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\\.\\d )?(\\S+) (?:\\(.*\\) .*?)?port (\\d{1,3})(?: \\(\\w+\\))? ==> (\\S+) \\((\\w+)\\)\\s*$");
    static final Pattern SYSFS = Pattern.compile("^(?:/sys/class/infiniband/|/sys/devices/\\S*/infiniband/)([^/\\s]+)/device/net/([^/:\\s]+):?\\s*$");

    @Override
    public String id() {
        return ID;
    }

    @Override
    public String label() {
        return "rdma link show, ibdev2netdev, ls /sys/class/infiniband/*/device/net";
    }

    @Override
    public int maxConfidence() {
        return 80;
    }

    @Override
    public int confidence(Head head) {
        int content = 0;
        int ours = 0;
        for (String l : head.lines()) {
            String t = l.strip();
            if (t.isEmpty() || LldpSections.marker(t) != null) {
                continue;
            }
            content++;
            if (RDMA_LINK.matcher(t).matches() && t.contains(" state ") || IBDEV2NETDEV.matcher(t).matches()
                    || SYSFS.matcher(t).matches()) {
                ours++;
            }
        }
        return ours > 0 && ours * 2 >= content ? 80 : NONE;
    }

    @Override
    public ImportPhase phase() {
        return ImportPhase.TOPOLOGY;
    }

    @Override
    public void read(InputStream in, ReadContext ctx) throws IOException {
        String host = LldpSections.hostFromPath(ctx.source());
        LldpFabric fabric = ctx.state(LldpFabric.class, LldpFabric::new);
        TextLines lines = ctx.lines(in);
        String line;
        boolean warned = false;
        while ((line = ctx.nextLine(lines)) != null) {
            String t = line.strip();
            String marker = LldpSections.marker(t);
            if (marker != null) {
                host = marker;
                continue;
            }
            String dev = null;
            String port = "1";
            String netdev = null;
            Matcher m = IBDEV2NETDEV.matcher(t);
            if (m.matches()) {
                dev = m.group(1);
                port = m.group(2);
                netdev = m.group(3);
            } else if ((m = SYSFS.matcher(t)).matches()) {
                dev = m.group(1);
                netdev = m.group(2);
            } else if (t.startsWith("link ") && (m = RDMA_LINK.matcher(t)).matches()) {
                Matcher nd = RDMA_LINK_NETDEV.matcher(t);
                if (!nd.find()) {
                    continue; // an InfiniBand port: no netdev
                }
                dev = m.group(1);
                port = m.group(2);
                netdev = nd.group(1);
                Matcher st = RDMA_LINK_STATE.matcher(t);
                if (st.find() && !st.group(1).equals("ACTIVE")) {
                    ctx.report(Diagnostic.info(ctx.source(), lines.lineNumber(), dev + "/" + port + " (" + netdev
                            + ") is " + st.group(1) + ", not ACTIVE"));
                }
            }
            if (dev == null) {
                continue;
            }
            if (host.isEmpty()) {
                if (!warned) {
                    ctx.report(Diagnostic.warning(ctx.source(), lines.lineNumber(), "which host's RDMA devices these are is not "
                            + "known: put the file in a folder named after the host (gpu-node-01/rdma-link.txt) or write a line "
                            + "\"==> gpu-node-01 <==\" before its output; skipped"));
                    warned = true;
                }
                continue;
            }
            fabric.netdev(host, netdev, dev, Integer.parseInt(port), Evidence.at(ctx.source(), lines.lineNumber(), t));
        }
    }
}
