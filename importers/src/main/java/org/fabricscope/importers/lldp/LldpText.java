package org.fabricscope.importers.lldp;

import org.fabricscope.model.core.Evidence;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * lldpcli's plain text ({@code lldpcli show neighbors [details|summary]}, {@code lldpctl}; SONiC's
 * {@code show lldp neighbors} prints the same through {@code lldpctl}): an {@code Interface:    NAME, via:
 * LLDP, RID: 4, Time: ...} line per neighbour, then indented {@code Chassis:} and {@code Port:} blocks of
 * {@code Key:   value} lines ({@code ChassisID:    mac 62:1c:...}, {@code SysName:}, {@code SysDescr:},
 * {@code MgmtIP:}, {@code Capability:   Bridge, on}, {@code PortID:       ifname Ethernet0},
 * {@code PortDescr:}). Source: lldpd {@code src/client/text_writer.c} and {@code display.c}.
 */
final class LldpText {
    static final Pattern INTERFACE = Pattern.compile("^Interface:\\s+(\\S+?),\\s+via:\\s*(\\S+).*$");
    private static final Pattern KEY = Pattern.compile("^\\s+([A-Za-z][A-Za-z0-9 -]{0,40}):\\s*(.*)$");
    private static final Pattern TYPED = Pattern.compile("^(mac|ifname|local|ip|ifalias|unhandled|mac address)\\s+(.+)$");

    private LldpText() {
    }

    static List<LldpNeighbour> parse(String source, LldpSections.Section s) {
        List<LldpNeighbour> out = new ArrayList<>();
        NeighbourDraft d = null;
        String block = "";
        for (int i = 0; i < s.lines().size(); i++) {
            String line = s.lines().get(i);
            String t = line.strip();
            Matcher m = INTERFACE.matcher(t);
            if (m.matches()) {
                if (d != null) {
                    out.add(d.build());
                }
                d = new NeighbourDraft(m.group(1), Evidence.at(source, s.firstLine() + i, t));
                block = "";
                continue;
            }
            if (d == null) {
                continue;
            }
            m = KEY.matcher(line);
            if (!m.matches()) {
                continue;
            }
            String key = m.group(1).strip();
            String value = m.group(2).strip();
            switch (key) {
                case "Chassis", "Port", "VLAN", "LLDP-MED", "UnknownTLVs", "PPVID", "PI" -> block = key;
                case "ChassisID" -> {
                    Matcher tm = TYPED.matcher(value);
                    d.chassisIdType = tm.matches() ? tm.group(1) : "";
                    d.chassisId = tm.matches() ? tm.group(2) : value;
                }
                case "SysName" -> d.sysName = value;
                case "SysDescr" -> d.sysDescr = value;
                case "MgmtIP" -> d.mgmt(value);
                case "Capability" -> {
                    int comma = value.lastIndexOf(',');
                    if (comma > 0) {
                        d.capability(value.substring(0, comma), value.substring(comma + 1).strip().equals("on"));
                    }
                }
                case "PortID" -> {
                    if (block.equals("Port") || block.isEmpty()) {
                        Matcher tm = TYPED.matcher(value);
                        d.portIdType = tm.matches() ? tm.group(1) : "";
                        d.portId = tm.matches() ? tm.group(2) : value;
                    }
                }
                case "PortDescr" -> d.portDescr = value;
                default -> {
                }
            }
        }
        if (d != null) {
            out.add(d.build());
        }
        return out;
    }
}
