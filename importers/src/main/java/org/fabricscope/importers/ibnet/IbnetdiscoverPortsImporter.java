package org.fabricscope.importers.ibnet;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.fabricscope.importers.core.LineImporter;
import org.fabricscope.importers.core.Numbers;
import org.fabricscope.model.fabric.FabricNode;
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

    /** One line; a LID, port or GUID out of range skips it with a diagnostic. */
    @Override
    protected void line(String raw) {
        try {
            record(raw);
        } catch (Numbers.OutOfRange e) {
            bad(e.getMessage() + "; line skipped");
        }
    }

    private void record(String raw) {
        String l = content(raw);
        Matcher m = l == null ? null : matchOrReport(LINE, l, "an ibnetdiscover -p line like \"SW     2    1 0x0002c90200400000 4x HDR - CA ...\"");
        if (m == null) {
            return;
        }
        long localGuid = IbnetdiscoverImporter.guid(m.group(4), "GUID");
        int localLid = Numbers.lid(m.group(2));
        int localPort = Numbers.port(m.group(3));
        boolean peered = m.group(7) != null;
        long remoteGuid = peered ? IbnetdiscoverImporter.guid(m.group(10), "peer GUID") : 0;
        int remoteLid = peered ? Numbers.lid(m.group(8)) : 0;
        int remotePort = peered ? Numbers.port(m.group(9)) : 0;
        FabricNode local = node(m.group(1), localGuid, m.group(11) != null ? m.group(11) : m.group(13));
        Port lp = builder.port(local, localPort);
        address(local, lp, localLid, localGuid);
        LinkWidth w = LinkWidth.parse(m.group(5));
        LinkSpeed s = LinkSpeed.parse(m.group(6));
        if (!peered) {
            return;
        }
        FabricNode remote = node(m.group(7), remoteGuid, m.group(12));
        Port rp = builder.port(remote, remotePort);
        address(remote, rp, remoteLid, remoteGuid);
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
