package org.fabricscope.importers.lldp;

import org.fabricscope.model.core.Evidence;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code lldpcli show neighbors -f keyvalue}: {@code lldp.IFACE.chassis.mac=62:1c:...},
 * {@code lldp.IFACE.chassis.name=spine-01}, {@code lldp.IFACE.chassis.Bridge.enabled=on},
 * {@code lldp.IFACE.port.ifname=Ethernet0}, {@code lldp.IFACE.port.descr=...}. The interface name may hold
 * dots ({@code eth0.100}): it runs up to the first of lldpcli's own keys that follows it. lldpcli joins
 * several neighbours of one interface into one set of keys, so a second chassis id on the same interface
 * starts a second neighbour. Source: lldpd {@code src/client/kv_writer.c}.
 */
final class LldpKeyValue {
    static final Pattern LINE = Pattern.compile(
            "^lldp\\.(.+?)\\.(via|rid|age|chassis|port|vlan|ppvid|pi|lldp-med|unknown-tlvs|unknown-tlv|custom-tlv)(?:\\.([^=]*))?=(.*)$");
    private static final List<String> CHASSIS_ID_TYPES = List.of("mac", "ip", "ifname", "local", "ifalias");

    private LldpKeyValue() {
    }

    static List<LldpNeighbour> parse(String source, LldpSections.Section s) {
        Map<String, NeighbourDraft> open = new LinkedHashMap<>();
        List<NeighbourDraft> all = new ArrayList<>();
        for (int i = 0; i < s.lines().size(); i++) {
            String t = s.lines().get(i).strip();
            Matcher m = LINE.matcher(t);
            if (!m.matches()) {
                continue;
            }
            String iface = m.group(1);
            String part = m.group(2);
            String sub = m.group(3) == null ? "" : m.group(3);
            String value = m.group(4);
            NeighbourDraft d = open.get(iface);
            boolean newChassis = part.equals("chassis") && CHASSIS_ID_TYPES.contains(sub) && d != null && !d.chassisId.isEmpty();
            if (d == null || newChassis) {
                d = new NeighbourDraft(iface, Evidence.at(source, s.firstLine() + i, t));
                open.put(iface, d);
                all.add(d);
            }
            if (part.equals("chassis")) {
                if (CHASSIS_ID_TYPES.contains(sub)) {
                    d.chassisIdType = sub;
                    d.chassisId = value;
                } else if (sub.equals("name")) {
                    d.sysName = value;
                } else if (sub.equals("descr")) {
                    d.sysDescr = value;
                } else if (sub.equals("mgmt-ip")) {
                    d.mgmt(value);
                } else if (sub.endsWith(".enabled")) {
                    d.capability(sub.substring(0, sub.length() - ".enabled".length()), value.strip().equals("on"));
                }
            } else if (part.equals("port")) {
                if (CHASSIS_ID_TYPES.contains(sub)) {
                    d.portIdType = sub;
                    d.portId = value;
                } else if (sub.equals("descr")) {
                    d.portDescr = value;
                }
            }
        }
        List<LldpNeighbour> out = new ArrayList<>();
        for (NeighbourDraft d : all) {
            out.add(d.build());
        }
        return out;
    }
}
