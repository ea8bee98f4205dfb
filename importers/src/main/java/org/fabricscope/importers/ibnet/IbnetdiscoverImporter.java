package org.fabricscope.importers.ibnet;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.fabricscope.importers.core.LineImporter;
import org.fabricscope.importers.core.Numbers;
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

    /**
     * One line. A number outside its field's range (a LID past 16 bits, a port past 8, a GUID past
     * 64) skips the line with a diagnostic: nothing of it reaches the model.
     */
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
            String[] g = quickNodeLine(l);
            Matcher m = g != null ? null : NODE_LINE.matcher(l);
            if (g != null) {
                nodeLine(g);
            } else if (m.matches()) {
                nodeLine(new String[] {m.group(0), m.group(1), m.group(2), m.group(3), m.group(4), m.group(5)});
            } else if (!QUIET.matcher(l).matches()) {
                current = null; // its port lines must not land on the node before it
                bad("expected a node line like Switch<TAB>36 \"S-<guid>\" # \"<name>\" ...; got: " + shorten(l));
            }
        } else if (!quickIdLine(l)) {
            Matcher m = ID_LINE.matcher(l);
            if (m.matches()) {
                idLine(m.group(1), m.group(2));
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

    private static final String[] ID_KEYS = {"vendid", "devid", "sysimgguid", "switchguid", "caguid", "rtguid", "rtrguid"};

    /**
     * An id line in the form every ibnetdiscover prints ({@code key=0xHEX}, optionally {@code (HEX)},
     * nothing after), read without the regex: four of them head every node's block, and with the C1
     * compiler the window's launcher uses the regex was a tenth of reading ten times Selene. False (nothing
     * read) for anything else, which {@link #ID_LINE} then decides as before.
     */
    private boolean quickIdLine(String l) {
        int eq = l.indexOf('=');
        String key = null;
        for (String k : ID_KEYS) {
            if (k.length() == eq && l.startsWith(k)) {
                key = k;
                break;
            }
        }
        if (key == null) {
            return false;
        }
        int n = l.length();
        int i = l.startsWith("0x", eq + 1) ? eq + 3 : eq + 1;
        int start = i;
        while (i < n && asciiHex(l.charAt(i))) {
            i++;
        }
        if (i == start) {
            return false;
        }
        String text = l.substring(start, i);
        if (i < n) {
            if (l.charAt(i) != '(') {
                return false;
            }
            int j = i + 1;
            while (j < n && asciiHex(l.charAt(j))) {
                j++;
            }
            if (j == i + 1 || j != n - 1 || l.charAt(j) != ')') {
                return false;
            }
        }
        idLine(key, text);
        return true;
    }

    /** [0-9a-fA-F], as the regex has it (Character.digit also takes other scripts' digits). */
    private static boolean asciiHex(char c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    }

    private void idLine(String key, String text) {
        if (current != null) {
            current = null;
        }
        switch (key) {
            case "vendid" -> {
                resetBlock();
                vendorId = (int) hex(text, 0xFFFFFF, "vendor id"); // 24 bits (an IEEE OUI)
            }
            case "devid" -> deviceId = (int) hex(text, 0xFFFF, "device id");
            case "sysimgguid" -> sysImgGuid = guid(text, "system image GUID");
            default -> blockGuid = guid(text, key);
        }
    }

    /**
     * {@link #NODE_LINE}'s groups (0 to 5) for a node line whose spaces are blanks and tabs and whose
     * comment holds no line separator, read without the regex; null for any other line, which the
     * regex then decides. Package-private for the test that holds it to the regex.
     */
    static String[] quickNodeLine(String l) {
        int n = l.length();
        String kind = l.startsWith("Switch") ? "Switch" : l.startsWith("Ca") ? "Ca" : l.startsWith("Rt") ? "Rt" : null;
        if (kind == null) {
            return null;
        }
        int i = blanks(l, kind.length());
        int digits = i;
        while (i < n && l.charAt(i) >= '0' && l.charAt(i) <= '9') {
            i++;
        }
        if (i == digits) {
            return null;
        }
        String ports = l.substring(digits, i);
        i = blanks(l, i);
        if (i + 3 >= n || l.charAt(i) != '"' || "SHR?".indexOf(l.charAt(i + 1)) < 0 || l.charAt(i + 2) != '-') {
            return null;
        }
        String type = l.substring(i + 1, i + 2);
        int hex = i + 3;
        i = hex;
        while (i < n && asciiHex(l.charAt(i))) {
            i++;
        }
        if (i == hex || i >= n || l.charAt(i) != '"') {
            return null;
        }
        String guid = l.substring(hex, i);
        i = blanks(l, i + 1);
        String comment = null;
        if (i < n) {
            if (l.charAt(i) != '#') {
                return null;
            }
            i = blanks(l, i + 1);
            for (int j = i; j < n; j++) {
                char c = l.charAt(j);
                if (c == '\u0085' || c == '\u2028' || c == '\u2029' || c == '\n' || c == '\r' || c == '\u000b' || c == '\f') {
                    return null; // '.' and '\s' in the regex treat these apart: let it decide
                }
            }
            comment = l.substring(i);
        }
        return new String[] {l, kind, ports, type, guid, comment};
    }

    private static int blanks(String l, int i) {
        while (i < l.length() && (l.charAt(i) == ' ' || l.charAt(i) == '\t')) {
            i++;
        }
        return i;
    }

    /** A node line from its {@link #NODE_LINE} groups 0 to 5 (the line, kind, ports, type, GUID, comment). */
    private void nodeLine(String[] m) {
        NodeKind kind = switch (m[1]) {
            case "Switch" -> NodeKind.SWITCH;
            case "Ca" -> NodeKind.CA;
            default -> NodeKind.ROUTER;
        };
        current = null; // until this line is read: a bad one must not take the port lines below it
        int numPorts = (int) Numbers.decimal(m[2], 0, Numbers.MAX_PORT, "port count");
        long guid = Guids.parse(m[4]);
        if (!Guids.isValid(guid)) {
            bad("node id \"" + m[3] + "-" + m[4] + "\" is not a GUID"
                    + (m[4].length() > 16 ? " (more than 64 bits)" : ""));
            return;
        }
        String comment = m[5];
        Matcher c = null;
        int lid = -1;
        int lmc = 0;
        if (comment != null) {
            c = (kind == NodeKind.SWITCH ? SWITCH_COMMENT : CA_COMMENT).matcher(comment);
            if (!c.matches()) {
                c = null;
            } else if (kind == NodeKind.SWITCH && c.group(2) != null) {
                lid = Numbers.lid(c.group(3));
                lmc = (int) Numbers.decimal(c.group(4), 0, Numbers.MAX_LMC, "LMC");
            }
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
        builder.setEvidence(n, evidence(m[0]));
        if (c != null) {
            builder.setDescription(n, c.group(1), evidence(m[0]));
            if (lid >= 0) {
                builder.setSwitchPort0(n, lid, lmc, "enhanced".equals(c.group(2)));
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
            f.localPort = Numbers.port(m.group(1));
            f.localPortGuid = m.group(2);
            f.localExt = m.group(3);
            f.peerKind = m.group(4).charAt(0);
            f.peerGuid = m.group(5);
            f.peerPort = Numbers.port(m.group(6));
            f.peerExt = m.group(7);
            f.peerPortGuid = m.group(8);
            f.comment = m.group(9);
        }
        if (current == null) {
            bad("port line outside a node: it must follow a Switch, Ca or Rt line");
            return;
        }
        // Every field is read and checked before anything reaches the model: a bad one skips the line.
        int localPortNo = checkedPort(f.localPort);
        int peerPortNo = checkedPort(f.peerPort);
        long localPortGuid = f.localPortGuid == null ? 0 : guid(f.localPortGuid, "port GUID");
        long peerGuid = Guids.parse(f.peerGuid);
        long peerPortGuid = f.peerPortGuid == null ? 0 : guid(f.peerPortGuid, "peer port GUID");
        if (!Guids.isValid(peerGuid)) {
            bad("peer id is not a GUID" + (f.peerGuid.length() > 16 ? " (more than 64 bits)" : ""));
            return;
        }
        int localExt = f.localExt == null ? -1 : Numbers.port(f.localExt);
        int peerExt = f.peerExt == null ? -1 : Numbers.port(f.peerExt);
        NodeKind peerKind = switch (f.peerKind) {
            case 'S' -> NodeKind.SWITCH;
            case 'R' -> NodeKind.ROUTER;
            default -> NodeKind.CA;
        };
        String comment = f.comment;
        boolean commentOk = false;
        int localLid = -1;
        int localLmc = 0;
        int peerLid = -1;
        if (comment != null) {
            commentOk = f.scanComment(comment);
            if (!commentOk) {
                Matcher c = portComment.reset(comment);
                commentOk = c.matches();
                if (commentOk) {
                    f.localLid = c.group(1);
                    f.localLmc = c.group(2);
                    f.peerDescription = c.group(3);
                    f.peerLid = c.group(4);
                    f.rateToken = c.group(5);
                }
            }
            if (commentOk) {
                if (f.localLid != null) {
                    localLid = Numbers.lid(f.localLid);
                    localLmc = (int) Numbers.decimal(f.localLmc, 0, Numbers.MAX_LMC, "LMC");
                }
                peerLid = Numbers.lid(f.peerLid);
            }
        }
        Port local = builder.port(current, localPortNo);
        FabricNode peer = builder.node(peerGuid, peerKind);
        Port remote = builder.port(peer, peerPortNo);
        if (localExt >= 0) {
            builder.setExtNumber(local, localExt);
        }
        if (peerExt >= 0) {
            builder.setExtNumber(remote, peerExt);
        }
        RateToken rate = null;
        if (comment != null) {
            if (commentOk) {
                if (localLid >= 0) {
                    builder.setPortAddress(local, localPortGuid, localLid, localLmc);
                }
                builder.offerDescription(peer, f.peerDescription);
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

    /** A port number the scanner read (at most 9 digits): 0..255. */
    private static int checkedPort(int port) {
        if (port < 0 || port > Numbers.MAX_PORT) {
            throw new Numbers.OutOfRange("port", String.valueOf(port), "0.." + Numbers.MAX_PORT);
        }
        return port;
    }

    /** A GUID field: at most 16 hex digits (64 bits), never 0 or all ones. */
    static long guid(String text, String field) {
        long g = Guids.parse(text);
        if (!Guids.isValid(g)) {
            throw new Numbers.OutOfRange(field, text, "1 to 16 hex digits, 64 bits");
        }
        return g;
    }

    /** A hex id ({@code 0x2c9}) of at most {@code max}. */
    static long hex(String text, long max, String field) {
        String t = text.startsWith("0x") || text.startsWith("0X") ? text.substring(2) : text;
        long v = Guids.parse(t); // -1 past 16 digits, -2 for all ones: both out of range
        if (v < 0 || v > max) {
            throw new Numbers.OutOfRange(field, "0x" + t, "0x0..0x" + Long.toHexString(max));
        }
        return v;
    }

    static String shorten(String s) {
        return s.length() > 120 ? s.substring(0, 117) + "..." : s;
    }
}
