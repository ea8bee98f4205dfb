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
    private static final Pattern QUIET = Pattern.compile(
            "^(?:Chassis \\d+.*|Non-Chassis Nodes.*|Hostname: .*|numports = \\d+)$");

    /** Reads this file's port lines, most of a dump; ahead of their turn when they are prepared ({@link #prepare}). */
    private PortLine.Reader ports;
    private final boolean readAhead;
    private final int batch;
    private int vendorId;
    private int deviceId;
    private long sysImgGuid;
    private long blockGuid;
    private FabricNode current;
    private boolean diffWarned;

    public IbnetdiscoverImporter() {
        this(true, 0);
    }

    /** With {@code readAhead} false every line is read in its turn; {@code batch} lines are read ahead at a time (0: the default). */
    IbnetdiscoverImporter(boolean readAhead, int batch) {
        this.readAhead = readAhead;
        this.batch = batch;
    }

    @Override
    protected void begin() {
        resetBlock();
        current = null;
        ports = new PortLine.Reader(source);
    }

    /** Port lines are read ahead of their turn, on a thread of their own: a fabric of 100,000 endpoints has 600,000. */
    @Override
    protected boolean prepares() {
        return readAhead;
    }

    @Override
    protected int readAheadBatch() {
        return batch > 0 ? batch : super.readAheadBatch();
    }

    /** A port line's fields ({@link PortLine}), or null for any other line (read in its turn). */
    @Override
    protected Object prepare(String raw, int lineNumber) {
        String l = raw.strip();
        boolean diff = l.startsWith("> ");
        if (diff) {
            l = l.substring(2).strip();
        }
        return l.isEmpty() || l.charAt(0) != '[' ? null : ports.read(l, diff, lineNumber);
    }

    @Override
    protected void line(String raw, Object prepared) {
        if (prepared instanceof PortLine p) {
            if (p.diff) {
                warnDiff();
            }
            portLine(p);
        } else {
            line(raw);
        }
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
            if (readAhead) {
                // prepare() read every port line; its reader is the read-ahead thread's, not to be used from here
                throw new IllegalStateException("a port line that was not read ahead");
            }
            portLine(ports.read(l, false, lineNumber));
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

    /** Adds a port line read by {@link PortLine.Reader}, or reports what is wrong with it, at the point it always did. */
    private void portLine(PortLine f) {
        if (f.early != null) {
            bad(f.early);
            return;
        }
        if (current == null) {
            bad("port line outside a node: it must follow a Switch, Ca or Rt line");
            return;
        }
        if (f.late != null) {
            bad(f.late);
            return;
        }
        Port local = builder.port(current, f.localPort);
        FabricNode peer = builder.node(f.peerGuid, f.peerKind);
        Port remote = builder.port(peer, f.peerPort);
        if (f.localExt >= 0) {
            builder.setExtNumber(local, f.localExt);
        }
        if (f.peerExt >= 0) {
            builder.setExtNumber(remote, f.peerExt);
        }
        RateToken rate = null;
        if (f.hasComment) {
            if (f.commentOk) {
                if (f.localLid >= 0) {
                    builder.setPortAddress(local, f.localPortGuid, f.localLid, f.localLmc);
                }
                builder.offerDescription(peer, f.peerDescription);
                if (peer.isSwitch()) {
                    if (peer.lid() == 0) {
                        builder.setSwitchPort0(peer, f.peerLid, 0, null);
                    }
                } else {
                    builder.setPortAddress(remote, f.peerPortGuid, f.peerLid, 0);
                }
                rate = f.rate;
                if (rate == null) {
                    bad("unknown width/speed \"" + f.rateToken + "\"; expected e.g. 4xHDR, 1xEDR, 2xNDR");
                }
            } else {
                bad("port comment not understood: expected \"<peer name>\" lid <n> <width><speed>");
            }
        }
        if (Guids.isValid(f.localPortGuid)) {
            builder.setPortAddress(local, f.localPortGuid, 0, 0);
        }
        if (Guids.isValid(f.peerPortGuid)) {
            builder.setPortAddress(remote, f.peerPortGuid, 0, 0);
        }
        if (rate != null) {
            builder.setPortRate(local, rate.width, rate.speed);
            builder.setPortRate(remote, rate.width, rate.speed);
        }
        builder.link(local, remote, rate == null ? null : rate.width, rate == null ? null : rate.speed, f.evidence);
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
