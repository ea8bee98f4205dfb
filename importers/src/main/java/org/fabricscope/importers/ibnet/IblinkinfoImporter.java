package org.fabricscope.importers.ibnet;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.fabricscope.importers.core.LineImporter;
import org.fabricscope.importers.core.Numbers;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.fabric.FabricNode;
import org.fabricscope.model.core.Guids;
import org.fabricscope.model.fabric.LinkSpeed;
import org.fabricscope.model.fabric.LinkWidth;
import org.fabricscope.model.fabric.NodeKind;
import org.fabricscope.model.fabric.NodeLookup;
import org.fabricscope.model.fabric.PhysState;
import org.fabricscope.model.fabric.Port;
import org.fabricscope.model.fabric.PortState;

/**
 * Reads {@code iblinkinfo} output (rdma-core infiniband-diags): {@code Switch: 0x<guid> <name>:}
 * and {@code CA: <name>:} headers, then per port
 * {@code LID PORT[EXT] ==( 4X 53.125 Gbps Active/  LinkUp)==> PEERLID PEERPORT[EXT] "peer" ( )},
 * or {@code ==(  Down/ Polling)==>} for a port with no link. The trailing parentheses carry
 * {@code Could be ...} when the link runs below what both ends support. Also the {@code -l}
 * one-line form, where each line starts with the node GUID and quoted name.
 */
public final class IblinkinfoImporter extends LineImporter {
    private static final Pattern HEADER = Pattern.compile("^(Switch|CA|Router):?\\s+(?:0x([0-9a-fA-F]+)\\s+)?(.*):\\s*$");
    private static final Pattern PORT = Pattern.compile(
            "^(?:0x([0-9a-fA-F]+)\\s+)?(?:\"(.*?)\"\\s+)?(\\d+)\\s+(\\d+)\\[\\s*([^\\]]*)\\]\\s*==\\((.*)\\)==>\\s*(.*)$");
    private static final Pattern LINK_UP = Pattern.compile(
            "^\\s*(\\d+)X\\s+([\\d.]+)\\s*Gbps(?:\\s*\\((FDR10)\\))?\\s+(\\w+)\\s*/\\s*([\\w ]+?)\\s*$", Pattern.CASE_INSENSITIVE);
    private static final Pattern LINK_DOWN = Pattern.compile("^\\s*(\\w+)\\s*/\\s*([\\w ]+?)\\s*$");
    private static final Pattern REMOTE = Pattern.compile(
            "^(?:0x[0-9a-fA-F]+\\s+)?(?:(\\d+)\\s+(\\d+)\\[\\s*([^\\]]*)\\]|\\[\\s*\\])\\s*\"(.*)\"\\s*\\((.*)\\)\\s*$");
    private static final Pattern COULD_WIDTH = Pattern.compile("Could be (\\d+)X", Pattern.CASE_INSENSITIVE);
    private static final Pattern COULD_SPEED = Pattern.compile("Could be ([\\d.]+)\\s*Gbps", Pattern.CASE_INSENSITIVE);
    private static final Pattern COULD_NAME = Pattern.compile("Could be (FDR10|FDR|EDR|HDR|NDR|XDR|QDR|DDR|SDR)\\b");

    private record PendingLink(Port local, int remoteLid, int remotePort, String remoteName, LinkWidth width,
                               LinkSpeed speed, Evidence evidence) {
    }

    private FabricNode current;
    /** The header above was refused (its GUID out of range): its port lines are skipped with it. */
    private boolean skipping;
    private NodeKind currentKind;
    private String currentName;
    private final Map<Integer, FabricNode> lids = new HashMap<>();
    private final List<PendingLink> links = new ArrayList<>();

    /** One line; a field out of range (LID, port, GUID, rate) skips it with a diagnostic. */
    @Override
    protected void line(String raw) {
        try {
            record(raw);
        } catch (Numbers.OutOfRange e) {
            bad(e.getMessage() + "; line skipped");
        }
    }

    private void record(String raw) {
        String l = raw.strip();
        if (l.isEmpty() || l.startsWith("#") || l.startsWith("ibwarn:")) {
            return;
        }
        Matcher h = HEADER.matcher(l);
        if (h.matches()) {
            currentKind = switch (h.group(1)) {
                case "Switch" -> NodeKind.SWITCH;
                case "Router" -> NodeKind.ROUTER;
                default -> NodeKind.CA;
            };
            currentName = h.group(3).strip();
            current = null;
            if (h.group(2) != null) {
                long guid;
                try {
                    guid = IbnetdiscoverImporter.guid(h.group(2), "node GUID");
                } catch (Numbers.OutOfRange e) {
                    currentKind = null;
                    currentName = null;
                    bad(e.getMessage() + "; the ports below it are skipped");
                    skipping = true;
                    return;
                }
                current = builder.node(guid, currentKind);
                builder.offerDescription(current, currentName);
                builder.setEvidence(current, evidence(l));
            }
            skipping = false;
            return;
        }
        Matcher p = PORT.matcher(l);
        if (!p.matches()) {
            bad("expected an iblinkinfo port line like \"1    1[  ] ==( 4X 53.125 Gbps Active/  LinkUp)==> 3 1[  ] \\\"peer\\\" ( )\"; got: "
                    + IbnetdiscoverImporter.shorten(l));
            return;
        }
        if (skipping && p.group(2) == null) {
            return; // a port of a node whose header was refused
        }
        // every number first: a line with one out of range changes nothing
        long portGuid = p.group(1) == null ? 0 : IbnetdiscoverImporter.guid(p.group(1), "port GUID");
        int lid = Numbers.lid(p.group(3));
        int portNo = Numbers.port(p.group(4));
        String ext = p.group(5).strip();
        int extNo = ext.isEmpty() ? 0 : Numbers.port(ext);
        String link = p.group(6);
        Matcher up = LINK_UP.matcher(link);
        boolean isUp = up.matches();
        double laneGbps = isUp && up.group(3) == null ? gbps(up.group(2)) : -1;
        Matcher r = REMOTE.matcher(p.group(7));
        boolean remoteKnown = r.matches();
        int remoteLid = remoteKnown && r.group(1) != null ? Numbers.lid(r.group(1)) : -1;
        int remotePort = remoteKnown && r.group(1) != null ? Numbers.port(r.group(2)) : -1;
        String remoteNote = remoteKnown ? r.group(5) : p.group(7);
        Matcher cs = COULD_SPEED.matcher(remoteNote);
        double couldGbps = cs.find() ? gbps(cs.group(1)) : -1;
        FabricNode node = current;
        if (p.group(1) != null) {
            // a port GUID: a CA's port line and -l lines start with it
            long guid = portGuid;
            FabricNode known = builder.findNodeByPortGuid(guid);
            if (known != null) {
                node = known;
            } else if (node == null || p.group(2) != null) {
                NodeKind kind = currentKind != null ? currentKind : NodeKind.SWITCH;
                node = builder.node(guid, kind);
            }
            if (p.group(2) == null) {
                current = node; // the CA header's later ports belong to the same adapter
            }
            builder.offerDescription(node, p.group(2) != null ? p.group(2).strip() : currentName);
            builder.setEvidence(node, evidence(l));
        }
        if (node == null) {
            bad("port line with no node: it must follow a \"Switch: 0x<guid> <name>:\" or \"CA: <name>:\" header");
            return;
        }
        Port port = builder.port(node, portNo);
        if (node.isSwitch()) {
            if (lid > 0 && node.lid() == 0) {
                builder.setSwitchPort0(node, lid, 0, null);
            }
        } else {
            builder.setPortAddress(port, portGuid, lid, 0);
        }
        if (lid > 0) {
            lids.putIfAbsent(lid, node);
        }
        if (extNo > 0) {
            builder.setExtNumber(port, extNo);
        }
        LinkWidth width = null;
        LinkSpeed speed = null;
        PortState state;
        PhysState phys;
        if (isUp) {
            width = LinkWidth.parse(up.group(1));
            speed = up.group(3) != null ? LinkSpeed.FDR10 : LinkSpeed.fromLaneGbps(laneGbps);
            state = PortState.parse(up.group(4));
            phys = PhysState.parse(up.group(5));
        } else {
            Matcher down = LINK_DOWN.matcher(link);
            if (!down.matches()) {
                bad("link state not understood: \"(" + link + ")\"");
                return;
            }
            state = PortState.parse(down.group(1));
            phys = PhysState.parse(down.group(2));
        }
        LinkWidth couldW = null;
        LinkSpeed couldS = null;
        Matcher cw = COULD_WIDTH.matcher(remoteNote);
        if (cw.find()) {
            couldW = LinkWidth.parse(cw.group(1));
        }
        if (couldGbps >= 0) {
            couldS = LinkSpeed.fromLaneGbps(couldGbps);
        }
        Matcher cn = COULD_NAME.matcher(remoteNote);
        if (couldS == null && cn.find()) {
            couldS = LinkSpeed.parse(cn.group(1));
        }
        if (speed == LinkSpeed.QDR && couldS == LinkSpeed.FDR10) {
            speed = LinkSpeed.QDR; // "Found link at QDR but expected speed is FDR10"
        }
        Evidence ev = evidence(l);
        builder.setPortRate(port, width, speed);
        builder.setPortState(port, state, phys, couldW, couldS, ev);
        if (remoteLid >= 0 && state != PortState.DOWN) {
            links.add(new PendingLink(port, remoteLid, remotePort, r.group(4), width, speed, ev));
        }
    }

    /** A lane rate such as {@code 53.125}; text that is no number ({@code 1.2.3}) is out of range. */
    private static double gbps(String text) {
        try {
            double v = Double.parseDouble(text);
            if (v >= 0 && v < 1e6) {
                return v;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new Numbers.OutOfRange("rate", text + " Gbps", "a decimal number of Gbps");
    }

    @Override
    protected void end() {
        NodeLookup known = null; // indexed once, on the first peer to look for
        for (PendingLink pl : links) {
            if (pl.local.cable() != null) {
                continue; // ibnetdiscover (or the other end's line) already placed this cable
            }
            FabricNode remote = lids.get(pl.remoteLid);
            if (remote == null) {
                known = known != null ? known : builder.lookup();
                remote = known.byLid(pl.remoteLid);
                if (remote == null) {
                    remote = known.byName(pl.remoteName);
                }
            }
            if (remote == null) {
                builder.diagnostic(org.fabricscope.model.core.Diagnostic.info(source, pl.evidence.line(),
                        "peer \"" + pl.remoteName + "\" (LID " + pl.remoteLid + ") is not described in the loaded files; "
                                + "its cable is left out"));
                continue;
            }
            builder.link(pl.local, builder.port(remote, pl.remotePort), pl.width, pl.speed, pl.evidence);
        }
    }
}
