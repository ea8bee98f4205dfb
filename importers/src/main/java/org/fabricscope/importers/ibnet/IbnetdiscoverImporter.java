package org.fabricscope.importers.ibnet;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.fabricscope.importers.core.LineImporter;
import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.fabric.FabricNode;
import org.fabricscope.model.core.Guids;
import org.fabricscope.model.fabric.NodeKind;
import org.fabricscope.model.fabric.Port;

/**
 * Reads {@code ibnetdiscover} topology output, the grammar of rdma-core's
 * {@code infiniband-diags/ibnetdiscover.c} (see docs/formats.md): node id blocks, Switch/Ca/Rt
 * lines with enhanced or base port 0, port lines with and without port GUIDs and {@code [ext N]},
 * {@code -g} chassis grouping, {@code -f} s/w/v suffixes, {@code --diff} prefixes, and captures
 * whose tabs were lost or whose lines end in CRLF or stray spaces.
 */
public final class IbnetdiscoverImporter extends LineImporter {
    private static final Pattern ID_LINE = Pattern.compile(
            "^(vendid|devid|sysimgguid|switchguid|caguid|rtguid|rtrguid)=(?:0x)?([0-9a-fA-F]+)(?:\\(([0-9a-fA-F]+)\\))?\\s*(?:#.*)?$");
    private static final Pattern NODE_LINE = Pattern.compile(
            "^(Switch|Ca|Rt)\\s*(\\d+)\\s*\"([SHR?])-([0-9a-fA-F]+)\"\\s*(?:#\\s*(.*))?$");
    private static final Pattern SWITCH_COMMENT = Pattern.compile(
            "^\"(.*)\"\\s*(?:(enhanced|base)\\s+port\\s+0\\s+lid\\s+(\\d+)\\s+lmc\\s+(\\d+))?.*$");
    private static final Pattern CA_COMMENT = Pattern.compile("^\"(.*)\".*$");
    private static final Pattern PORT_LINE = Pattern.compile(
            "^\\[(\\d+)\\](?:\\(([0-9a-fA-F]+)\\))?\\s*(?:\\[ext (\\d+)\\])?\\s*\"([SHR?])-([0-9a-fA-F]+)\"\\[(\\d+)\\]"
                    + "(?:\\[ext (\\d+)\\])?\\s*(?:\\(([0-9a-fA-F]+)\\))?\\s*(?:#\\s*(.*))?$");
    private static final Pattern PORT_COMMENT = Pattern.compile(
            "^(?:lid (\\d+) lmc (\\d+)\\s+)?\"(.*)\"\\s+lid\\s+(\\d+)\\s+(\\S+).*$");
    private static final Pattern QUIET = Pattern.compile(
            "^(?:Chassis \\d+.*|Non-Chassis Nodes.*|Hostname: .*|numports = \\d+)$");

    // Port lines are most of a dump: reuse their matchers instead of making two per line.
    private final Matcher portLine = PORT_LINE.matcher("");
    private final Matcher portComment = PORT_COMMENT.matcher("");
    private final PortLineScanner scanner = new PortLineScanner();
    private int vendorId;
    private int deviceId;
    private long sysImgGuid;
    private long blockGuid;
    private FabricNode current;
    private boolean diffWarned;

    @Override
    protected void begin() {
        resetBlock();
        current = null;
    }

    private void resetBlock() {
        vendorId = 0;
        deviceId = 0;
        sysImgGuid = 0;
        blockGuid = -1;
    }

    @Override
    protected void line(String raw) {
        String l = raw.strip();
        if (l.startsWith("< ")) {
            warnDiff();
            return; // --diff: the old side; the current side follows with "> "
        }
        if (l.startsWith("> ")) {
            warnDiff();
            l = l.substring(2).strip();
        }
        if (l.isEmpty()) {
            current = null;
            return;
        }
        if (l.startsWith("#")) {
            return;
        }
        char c0 = l.charAt(0);
        if (c0 == '[') {
            portLine(l);
        } else if (c0 == 'S' || c0 == 'C' || c0 == 'R') {
            Matcher m = NODE_LINE.matcher(l);
            if (m.matches()) {
                nodeLine(m);
            } else if (!QUIET.matcher(l).matches()) {
                current = null; // its port lines must not land on the node before it
                bad("expected a node line like Switch<TAB>36 \"S-<guid>\" # \"<name>\" ...; got: " + shorten(l));
            }
        } else {
            Matcher m = ID_LINE.matcher(l);
            if (m.matches()) {
                idLine(m);
            } else if (!QUIET.matcher(l).matches()) {
                bad("not ibnetdiscover output: expected vendid=/devid=/sysimgguid=/...guid=, a node line or a port line; got: "
                        + shorten(l));
            }
        }
    }

    private void warnDiff() {
        if (!diffWarned) {
            diffWarned = true;
            builder.diagnostic(Diagnostic.info(source, lineNumber,
                    "ibnetdiscover --diff output: reading the current side (\"> \" lines) only"));
        }
    }

    private void idLine(Matcher m) {
        if (current != null) {
            current = null;
        }
        String key = m.group(1);
        long v = Guids.parse(m.group(2));
        switch (key) {
            case "vendid" -> {
                resetBlock();
                vendorId = (int) v;
            }
            case "devid" -> deviceId = (int) v;
            case "sysimgguid" -> sysImgGuid = v;
            default -> blockGuid = v;
        }
    }

    private void nodeLine(Matcher m) {
        NodeKind kind = switch (m.group(1)) {
            case "Switch" -> NodeKind.SWITCH;
            case "Ca" -> NodeKind.CA;
            default -> NodeKind.ROUTER;
        };
        int numPorts = parseInt(m.group(2));
        long guid = Guids.parse(m.group(4));
        if (!Guids.isValid(guid)) {
            bad("node id \"" + m.group(3) + "-" + m.group(4) + "\" is not a GUID");
            current = null;
            return;
        }
        if (Guids.isValid(blockGuid) && blockGuid != guid) {
            bad("node line names " + Guids.format(guid) + " but the block above gave " + Guids.format(blockGuid)
                    + "; using the node line");
        }
        FabricNode n = builder.node(guid, kind);
        if (n.kind() != kind) {
            bad("GUID " + Guids.format(guid) + " was seen as a " + n.kind() + " before and as a " + kind + " here");
        }
        builder.setNodeInfo(n, numPorts, sysImgGuid, vendorId, deviceId);
        builder.setEvidence(n, evidence(m.group(0)));
        String comment = m.group(5);
        if (comment != null) {
            if (kind == NodeKind.SWITCH) {
                Matcher c = SWITCH_COMMENT.matcher(comment);
                if (c.matches()) {
                    builder.setDescription(n, c.group(1));
                    if (c.group(2) != null) {
                        builder.setSwitchPort0(n, parseInt(c.group(3)), parseInt(c.group(4)),
                                "enhanced".equals(c.group(2)));
                    }
                }
            } else {
                Matcher c = CA_COMMENT.matcher(comment);
                if (c.matches()) {
                    builder.setDescription(n, c.group(1));
                }
            }
        }
        current = n;
        resetBlock();
    }

    private void portLine(String l) {
        PortLineScanner f = scanner;
        if (!f.scanLine(l)) {
            // Not the common shape: the regular expression decides, and explains a bad line.
            Matcher m = portLine.reset(l);
            if (!m.matches()) {
                bad("expected a port line like [1]\t\"S-<guid>\"[2]\t\t# \"<name>\" lid 5 4xHDR; got: " + shorten(l));
                return;
            }
            f.localPort = parseInt(m.group(1));
            f.localPortGuid = m.group(2);
            f.localExt = m.group(3);
            f.peerKind = m.group(4).charAt(0);
            f.peerGuid = m.group(5);
            f.peerPort = parseInt(m.group(6));
            f.peerExt = m.group(7);
            f.peerPortGuid = m.group(8);
            f.comment = m.group(9);
        }
        if (current == null) {
            bad("port line outside a node: it must follow a Switch, Ca or Rt line");
            return;
        }
        Port local = builder.port(current, f.localPort);
        long localPortGuid = f.localPortGuid == null ? 0 : Guids.parse(f.localPortGuid);
        NodeKind peerKind = switch (f.peerKind) {
            case 'S' -> NodeKind.SWITCH;
            case 'R' -> NodeKind.ROUTER;
            default -> NodeKind.CA;
        };
        long peerGuid = Guids.parse(f.peerGuid);
        long peerPortGuid = f.peerPortGuid == null ? 0 : Guids.parse(f.peerPortGuid);
        if (!Guids.isValid(peerGuid)) {
            bad("peer id is not a GUID");
            return;
        }
        FabricNode peer = builder.node(peerGuid, peerKind);
        Port remote = builder.port(peer, f.peerPort);
        if (f.localExt != null) {
            builder.setExtNumber(local, parseInt(f.localExt));
        }
        if (f.peerExt != null) {
            builder.setExtNumber(remote, parseInt(f.peerExt));
        }
        RateToken rate = null;
        String comment = f.comment;
        if (comment != null) {
            boolean ok = f.scanComment(comment);
            if (!ok) {
                Matcher c = portComment.reset(comment);
                ok = c.matches();
                if (ok) {
                    f.localLid = c.group(1);
                    f.localLmc = c.group(2);
                    f.peerDescription = c.group(3);
                    f.peerLid = c.group(4);
                    f.rateToken = c.group(5);
                }
            }
            if (ok) {
                if (f.localLid != null) {
                    builder.setPortAddress(local, localPortGuid, parseInt(f.localLid), parseInt(f.localLmc));
                }
                builder.offerDescription(peer, f.peerDescription);
                int peerLid = parseInt(f.peerLid);
                if (peer.isSwitch()) {
                    if (peer.lid() == 0) {
                        builder.setSwitchPort0(peer, peerLid, 0, null);
                    }
                } else {
                    builder.setPortAddress(remote, peerPortGuid, peerLid, 0);
                }
                rate = RateToken.parse(f.rateToken);
                if (rate == null) {
                    bad("unknown width/speed \"" + f.rateToken + "\"; expected e.g. 4xHDR, 1xEDR, 2xNDR");
                }
            } else {
                bad("port comment not understood: expected \"<peer name>\" lid <n> <width><speed>");
            }
        }
        if (Guids.isValid(localPortGuid)) {
            builder.setPortAddress(local, localPortGuid, 0, 0);
        }
        if (Guids.isValid(peerPortGuid)) {
            builder.setPortAddress(remote, peerPortGuid, 0, 0);
        }
        if (rate != null) {
            builder.setPortRate(local, rate.width, rate.speed);
            builder.setPortRate(remote, rate.width, rate.speed);
        }
        builder.link(local, remote, rate == null ? null : rate.width, rate == null ? null : rate.speed, evidence(l));
    }

    static String shorten(String s) {
        return s.length() > 120 ? s.substring(0, 117) + "..." : s;
    }
}
