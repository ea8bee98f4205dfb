package org.fabricscope.importers.ibnet;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.fabricscope.importers.core.Numbers;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.core.LineStore;
import org.fabricscope.model.fabric.LinkSpeed;
import org.fabricscope.model.fabric.LinkWidth;
import org.fabricscope.model.fabric.NodeKind;
import org.fabricscope.model.fabric.PhysState;
import org.fabricscope.model.fabric.PortState;

/**
 * One iblinkinfo line read from the line alone, so that this can run ahead of the line's turn
 * ({@link IblinkinfoImporter#prepare}): a node header ({@link Header}), a port line ({@link PortLine}), or a line
 * that is neither ({@link NotUnderstood}); the importer then applies it in line order with what depends on the lines
 * before (the node the header opened, the node known by a port GUID). What a line gets wrong is kept as the message
 * the importer reports, at the point reading the line in one go reported it.
 */
final class IblinkinfoLine {
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

    private IblinkinfoLine() {
    }

    /** {@code Switch: 0x<guid> <name>:} or {@code CA: <name>:}. */
    static final class Header {
        NodeKind kind;
        String name;
        boolean hasGuid;
        long guid;
        /** The GUID is out of range: "...; the ports below it are skipped". */
        String error;
        Evidence evidence;
    }

    /** A port line: {@code LID PORT[EXT] ==( 4X 53.125 Gbps Active/ LinkUp)==> PEERLID PEERPORT[EXT] "peer" ( )}. */
    static final class PortLine {
        /** The line starts with a port GUID (a CA's ports, and {@code -l} lines). */
        boolean hasPortGuid;
        /** The node's name, quoted at the start of a {@code -l} line; null in the plain form. */
        String name;
        /** A number out of range ("...; line skipped"): nothing of the line is kept. */
        String error;
        long portGuid;
        int lid;
        int portNo;
        int extNo;
        LinkWidth width;
        LinkSpeed speed;
        PortState state;
        PhysState phys;
        /** The link's state is understood (up, or down with a state and a physical state). */
        boolean linkKnown;
        String link;
        LinkWidth couldWidth;
        LinkSpeed couldSpeed;
        int remoteLid = -1;
        int remotePort = -1;
        String remoteName;
        Evidence evidence;
    }

    /** Neither a header nor a port line: what to report. */
    record NotUnderstood(String message) {
    }

    /**
     * Line {@code lineNumber} ({@code l}, stripped, not blank, no comment): a {@link Header}, a {@link PortLine} or a
     * {@link NotUnderstood}. Cited lines go to {@code cited}, which only the caller's thread writes.
     */
    static Object read(String l, String source, int lineNumber, LineStore cited) {
        Matcher h = HEADER.matcher(l);
        if (h.matches()) {
            Header d = new Header();
            d.kind = switch (h.group(1)) {
                case "Switch" -> NodeKind.SWITCH;
                case "Router" -> NodeKind.ROUTER;
                default -> NodeKind.CA;
            };
            d.name = h.group(3).strip();
            if (h.group(2) != null) {
                d.hasGuid = true;
                try {
                    d.guid = IbnetdiscoverImporter.guid(h.group(2), "node GUID");
                    d.evidence = Evidence.at(source, lineNumber, l, cited);
                } catch (Numbers.OutOfRange e) {
                    d.error = e.getMessage() + "; the ports below it are skipped";
                }
            }
            return d;
        }
        Matcher p = PORT.matcher(l);
        if (!p.matches()) {
            return new NotUnderstood("expected an iblinkinfo port line like \"1    1[  ] ==( 4X 53.125 Gbps Active/  LinkUp)==> "
                    + "3 1[  ] \\\"peer\\\" ( )\"; got: " + IbnetdiscoverImporter.shorten(l));
        }
        PortLine f = new PortLine();
        f.hasPortGuid = p.group(1) != null;
        f.name = p.group(2);
        try {
            fields(f, p);
        } catch (Numbers.OutOfRange e) {
            f.error = e.getMessage() + "; line skipped";
            return f;
        }
        f.evidence = Evidence.at(source, lineNumber, l, cited);
        return f;
    }

    /** Every number first, in the order the importer always read them (a line with one out of range changes nothing). */
    private static void fields(PortLine f, Matcher p) {
        f.portGuid = p.group(1) == null ? 0 : IbnetdiscoverImporter.guid(p.group(1), "port GUID");
        f.lid = Numbers.lid(p.group(3));
        f.portNo = Numbers.port(p.group(4));
        String ext = p.group(5).strip();
        f.extNo = ext.isEmpty() ? 0 : Numbers.port(ext);
        String link = p.group(6);
        f.link = link;
        Matcher up = LINK_UP.matcher(link);
        boolean isUp = up.matches();
        double laneGbps = isUp && up.group(3) == null ? gbps(up.group(2)) : -1;
        Matcher r = REMOTE.matcher(p.group(7));
        boolean remoteKnown = r.matches();
        f.remoteLid = remoteKnown && r.group(1) != null ? Numbers.lid(r.group(1)) : -1;
        f.remotePort = remoteKnown && r.group(1) != null ? Numbers.port(r.group(2)) : -1;
        f.remoteName = remoteKnown ? r.group(4) : null;
        String remoteNote = remoteKnown ? r.group(5) : p.group(7);
        Matcher cs = COULD_SPEED.matcher(remoteNote);
        double couldGbps = cs.find() ? gbps(cs.group(1)) : -1;
        if (isUp) {
            f.width = LinkWidth.parse(up.group(1));
            f.speed = up.group(3) != null ? LinkSpeed.FDR10 : LinkSpeed.fromLaneGbps(laneGbps);
            f.state = PortState.parse(up.group(4));
            f.phys = PhysState.parse(up.group(5));
            f.linkKnown = true;
        } else {
            Matcher down = LINK_DOWN.matcher(link);
            f.linkKnown = down.matches();
            if (f.linkKnown) {
                f.state = PortState.parse(down.group(1));
                f.phys = PhysState.parse(down.group(2));
            }
        }
        Matcher cw = COULD_WIDTH.matcher(remoteNote);
        if (cw.find()) {
            f.couldWidth = LinkWidth.parse(cw.group(1));
        }
        if (couldGbps >= 0) {
            f.couldSpeed = LinkSpeed.fromLaneGbps(couldGbps);
        }
        Matcher cn = COULD_NAME.matcher(remoteNote);
        if (f.couldSpeed == null && cn.find()) {
            f.couldSpeed = LinkSpeed.parse(cn.group(1));
        }
        if (f.speed == LinkSpeed.QDR && f.couldSpeed == LinkSpeed.FDR10) {
            f.speed = LinkSpeed.QDR; // "Found link at QDR but expected speed is FDR10"
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
}
