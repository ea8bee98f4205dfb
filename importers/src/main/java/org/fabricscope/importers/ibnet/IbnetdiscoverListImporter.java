package org.fabricscope.importers.ibnet;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.fabricscope.importers.core.LineImporter;
import org.fabricscope.model.fabric.FabricNode;
import org.fabricscope.model.core.Guids;
import org.fabricscope.model.fabric.NodeKind;

/**
 * Reads {@code ibnetdiscover -l/-S/-H/-R} node lists:
 * {@code Switch : 0x<guid> ports 36 devid 0xc738 vendid 0x2c9 "name"}. Nodes only, no cables.
 */
public final class IbnetdiscoverListImporter extends LineImporter {
    private static final Pattern LINE = Pattern.compile(
            "^(Switch|Ca|Router)\\s*:\\s+0x([0-9a-fA-F]+)\\s+ports\\s+(\\d+)\\s+devid\\s+0x([0-9a-fA-F]+)\\s+vendid\\s+0x([0-9a-fA-F]+)\\s+\"(.*)\"\\s*$");

    @Override
    protected void line(String raw) {
        String l = content(raw);
        Matcher m = l == null ? null : matchOrReport(LINE, l, "a node list line like Switch : 0x<guid> ports 36 devid 0x... vendid 0x... \"name\"");
        if (m == null) {
            return;
        }
        NodeKind kind = switch (m.group(1)) {
            case "Switch" -> NodeKind.SWITCH;
            case "Router" -> NodeKind.ROUTER;
            default -> NodeKind.CA;
        };
        FabricNode n = builder.node(Guids.parse(m.group(2)), kind);
        builder.setNodeInfo(n, parseInt(m.group(3)), 0, parseHexInt(m.group(5)), parseHexInt(m.group(4)));
        builder.offerDescription(n, m.group(6));
        builder.setEvidence(n, evidence(l));
    }
}
