package org.fabricscope.importers.ibnet;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.fabricscope.importers.core.LineImporter;
import org.fabricscope.model.fabric.FabricNode;
import org.fabricscope.model.core.Guids;
import org.fabricscope.model.fabric.LinkSpeed;
import org.fabricscope.model.fabric.LinkWidth;
import org.fabricscope.model.fabric.NodeKind;
import org.fabricscope.model.fabric.Port;

/**
 * Reads {@code ibnetdiscover -p} (ports) output:
 * {@code SW  LID PORT 0xGUID 4x HDR - CA  LID PORT 0xGUID ( 'local' - 'remote' )}, or for a
 * port with no peer the local fields then the node name alone.
 */
public final class IbnetdiscoverPortsImporter extends LineImporter {
    private static final Pattern LINE = Pattern.compile(
            "^(SW|CA|RT)\\s+(\\d+)\\s+(\\d+)\\s+0x([0-9a-fA-F]+)\\s+(\\S+)\\s+(\\S+)"
                    + "(?:\\s+-\\s+(SW|CA|RT)\\s+(\\d+)\\s+(\\d+)\\s+0x([0-9a-fA-F]+)\\s+\\(\\s*'(.*)'\\s+-\\s+'(.*)'\\s*\\)"
                    + "|\\s+'(.*)')?\\s*$");

    @Override
    protected void line(String raw) {
        String l = content(raw);
        Matcher m = l == null ? null : matchOrReport(LINE, l, "an ibnetdiscover -p line like \"SW     2    1 0x0002c90200400000 4x HDR - CA ...\"");
        if (m == null) {
            return;
        }
        FabricNode local = node(m.group(1), Guids.parse(m.group(4)), m.group(11) != null ? m.group(11) : m.group(13));
        Port lp = builder.port(local, parseInt(m.group(3)));
        address(local, lp, parseInt(m.group(2)), Guids.parse(m.group(4)));
        LinkWidth w = LinkWidth.parse(m.group(5));
        LinkSpeed s = LinkSpeed.parse(m.group(6));
        if (m.group(7) == null) {
            return;
        }
        FabricNode remote = node(m.group(7), Guids.parse(m.group(10)), m.group(12));
        Port rp = builder.port(remote, parseInt(m.group(9)));
        address(remote, rp, parseInt(m.group(8)), Guids.parse(m.group(10)));
        builder.setPortRate(lp, w, s);
        builder.setPortRate(rp, w, s);
        builder.link(lp, rp, w, s, evidence(l));
    }

    private FabricNode node(String type, long guid, String name) {
        NodeKind kind = switch (type) {
            case "SW" -> NodeKind.SWITCH;
            case "RT" -> NodeKind.ROUTER;
            default -> NodeKind.CA;
        };
        FabricNode n = builder.findNodeByPortGuid(guid); // -p prints port GUIDs: a CA's differs from its node GUID
        if (n == null) {
            n = builder.node(guid, kind);
        }
        builder.offerDescription(n, name);
        builder.setEvidence(n, evidence("" + name));
        return n;
    }

    private void address(FabricNode n, Port p, int lid, long guid) {
        if (n.isSwitch()) {
            if (n.lid() == 0) {
                builder.setSwitchPort0(n, lid, 0, null);
            }
        } else {
            builder.setPortAddress(p, guid, lid, 0);
        }
    }
}
