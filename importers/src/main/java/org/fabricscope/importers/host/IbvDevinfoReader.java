package org.fabricscope.importers.host;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.fabricscope.importers.core.Head;
import org.fabricscope.importers.core.ReadContext;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.evidence.GidEntry;
import org.fabricscope.model.evidence.HcaFact;
import org.fabricscope.model.evidence.HostEvidenceBuilder.Draft;

/**
 * {@code ibv_devinfo} and {@code ibv_devinfo -v} (rdma-core {@code libibverbs/examples/devinfo.c}):
 * {@code hca_id:\tmlx5_0}, {@code node_guid:}, then per port {@code port:\t1} with
 * {@code state:\t\tPORT_ACTIVE (4)}, {@code sm_lid:}, {@code port_lid:}, {@code link_layer:}, and with
 * {@code -v} {@code phys_state:}, {@code active_width:}, {@code active_speed:} and the {@code GID[  N]:}
 * lines (8 groups, or the compact form with {@code , RoCE v2} after it), and {@code active_mtu:\t4096 (5)}: the
 * port's path MTU, which a RoCE port's netdev MTU must hold with the RoCE headers ({@code roce-mtu-mismatch}); the
 * device's {@code fw_ver}, {@code vendor_part_id} and {@code board_id} and each port's {@code active_mtu} also as
 * {@link HcaFact}s, which compare reads.
 */
public final class IbvDevinfoReader extends HostEvidenceReader {
    public static final String ID = "ibv-devinfo";
    private static final Pattern HCA = Pattern.compile("^hca_id:\\s*(\\S{1,64})\\s*$");
    private static final Pattern FIELD = Pattern.compile("^\\s+([a-z_]+):\\s*(.*)$");
    private static final Pattern ACTIVE_MTU = Pattern.compile("^(\\d{3,4})\\b.*");
    private static final Pattern GID = Pattern.compile("^\\s+GID\\[\\s*(\\d{1,9})\\]:\\s*([0-9A-Fa-f:.]+)(?:,\\s*(.*))?$");

    @Override
    public String id() {
        return ID;
    }

    @Override
    public String label() {
        return "ibv_devinfo";
    }

    @Override
    public int maxConfidence() {
        return 72;
    }

    @Override
    public int confidence(Head head) {
        boolean hca = false;
        boolean fields = false;
        for (String l : content(head)) {
            if (HCA.matcher(l).matches()) {
                hca = true;
            } else {
                String t = l.strip();
                if (t.startsWith("state:") && t.contains("PORT_") || t.startsWith("phys_port_cnt:")
                        || t.startsWith("transport:") || t.startsWith("node_guid:")) {
                    fields = true;
                }
            }
        }
        return hca && fields ? maxConfidence() : NONE;
    }

    @Override
    Parser parser(Draft draft, ReadContext ctx) {
        PortBlock b = new PortBlock();
        String[] width = {""};
        return new Parser() {
            @Override
            public void line(String line, Evidence at) {
                Matcher m = HCA.matcher(line);
                if (m.matches()) {
                    end();
                    b.device = m.group(1);
                    b.nodeGuid = 0;
                    return;
                }
                m = GID.matcher(line);
                if (m.matches()) {
                    String gid = Gids.normalize(m.group(2));
                    int index = intOr(m.group(1), 10, "GID index");
                    if (gid != null && index >= 0 && b.port >= 0) {
                        String type = m.group(3) == null ? "" : m.group(3).strip();
                        draft.gid(new GidEntry(b.device, b.port, index, gid, type.length() > 20 ? "" : type, "", at));
                        if (index == 0 && b.portGuid == 0 && gid.startsWith("fe80:") && !b.linkLayer.equals("Ethernet")) {
                            b.portGuid = Gids.interfaceId(gid);
                        }
                    }
                    return;
                }
                m = FIELD.matcher(line);
                if (!m.matches()) {
                    return;
                }
                String v = m.group(2).strip();
                switch (m.group(1)) {
                    case "node_guid" -> b.nodeGuid = PortBlock.guid(v);
                    case "port" -> {
                        end();
                        b.port = port(v);
                        b.start = at;
                    }
                    case "state" -> {
                        b.state = PortBlock.state(v);
                        b.evidence = at;
                    }
                    case "phys_state" -> b.phys = PortBlock.phys(v);
                    case "sm_lid" -> b.smLid = PortBlock.lid(v);
                    case "port_lid" -> b.lid = PortBlock.lid(v);
                    case "link_layer" -> b.linkLayer = v;
                    case "fw_ver" -> fact(draft, b.device, 0, HcaFact.FIRMWARE, v, at);
                    case "vendor_part_id" -> fact(draft, b.device, 0, HcaFact.PART_ID, v, at);
                    case "board_id" -> fact(draft, b.device, 0, HcaFact.BOARD_ID, v, at);
                    case "active_mtu" -> {
                        b.activeMtu = mtu(v);
                        if (b.port > 0) {
                            fact(draft, b.device, b.port, HcaFact.ACTIVE_MTU, v.replaceFirst("\\s*\\(\\d+\\)$", ""), at);
                        }
                    }
                    case "active_width" -> width[0] = v.replaceFirst("\\s*\\(\\d+\\)$", "");
                    case "active_speed" -> {
                        String s = v.replaceFirst("\\s*\\(\\d+\\)$", "");
                        b.rate = (width[0].isEmpty() ? s : width[0] + " " + s);
                        if (b.rate.length() > 30) {
                            b.rate = "";
                        }
                    }
                    default -> { }
                }
            }

            @Override
            public void end() {
                b.flush(draft);
                width[0] = "";
            }
        };
    }

    /** {@code 4096 (5)}: one of the IB MTUs 256..4096, else -1 (unknown). */
    static int mtu(String v) {
        Matcher m = ACTIVE_MTU.matcher(v.strip());
        if (!m.matches()) {
            return -1;
        }
        int b = Integer.parseInt(m.group(1));
        return b == 256 || b == 512 || b == 1024 || b == 2048 || b == 4096 ? b : -1;
    }
}
