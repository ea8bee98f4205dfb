package org.fabricscope.importers.ibnet;

import java.util.regex.Pattern;

import org.fabricscope.importers.core.ReadAheadLineImporter;
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
public final class IbnetdiscoverImporter extends ReadAheadLineImporter {
    private static final Pattern QUIET = Pattern.compile(
            "^(?:Chassis \\d+.*|Non-Chassis Nodes.*|Hostname: .*|numports = \\d+)$");

    /** Reads this file's port lines, most of a dump; ahead of their turn when they are prepared ({@link #prepare}). */
    private PortLine.Reader ports;
    private int vendorId;
    private int deviceId;
    private long sysImgGuid;
    private long blockGuid;
    private FabricNode current;
    private boolean diffWarned;

    public IbnetdiscoverImporter() {
    }

    /** With {@code readAhead} false every line is read in its turn; {@code batch} lines are read ahead at a time (0: the default). */
    IbnetdiscoverImporter(boolean readAhead, int batch) {
        super(readAhead, batch);
    }

    @Override
    protected void begin() {
        resetBlock();
        current = null;
        ports = new PortLine.Reader(source);
    }

    /**
     * Port, node and id lines are read ahead of their turn, on threads of their own (a fabric of 100,000 endpoints has
     * 600,000 port lines and 550,000 node and id lines), each with a {@link PortLine.Reader} of its own (its scanner,
     * matchers and cited lines).
     */
    @Override
    protected LinePreparer preparer() {
        PortLine.Reader own = new PortLine.Reader(source);
        return (raw, lineNumber) -> prepare(raw, lineNumber, own);
    }

    /**
     * What the line says on its own: a port line's fields ({@link PortLine}), a node line's ({@link NodeLine}) or an
     * id line's ({@link IdLine}); null for any other line (a blank, a comment, the old side of {@code --diff}, a line
     * that is none of those), which {@link #other} reads in its turn.
     */
    @Override
    protected Object prepare(String raw, int lineNumber) {
        return prepare(raw, lineNumber, ports);
    }

    private Object prepare(String raw, int lineNumber, PortLine.Reader ports) {
        String l = raw.strip();
        if (l.startsWith("< ")) {
            return null;
        }
        boolean diff = l.startsWith("> ");
        if (diff) {
            l = l.substring(2).strip();
        }
        if (l.isEmpty()) {
            return null;
        }
        char c0 = l.charAt(0);
        if (c0 == '[') {
            return ports.read(l, diff, lineNumber);
        }
        if (c0 == 'S' || c0 == 'C' || c0 == 'R') {
            return NodeLine.read(l, diff, source, lineNumber, ports.cited());
        }
        return c0 == '#' ? null : IdLine.read(l, diff);
    }

    /** A line in its turn, with what {@link #prepare} made of it. */
    @Override
    protected void line(String raw, Object prepared) {
        if (prepared instanceof PortLine p) {
            if (p.diff) {
                warnDiff();
            }
            portLine(p);
        } else if (prepared instanceof NodeLine n) {
            if (n.diff) {
                warnDiff();
            }
            nodeLine(n);
        } else if (prepared instanceof IdLine d) {
            if (d.diff) {
                warnDiff();
            }
            idLine(d);
        } else {
            other(raw);
        }
    }

    private void resetBlock() {
        vendorId = 0;
        deviceId = 0;
        sysImgGuid = 0;
        blockGuid = -1;
    }

    /**
     * A line that is no port, node or id line: a blank one ends the node's port lines; a comment, a {@code --diff}
     * old side and the headers ibnetdiscover prints ({@link #QUIET}) are passed over; anything else is reported.
     */
    private void other(String raw) {
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
        if (l.startsWith("#") || QUIET.matcher(l).matches()) {
            return;
        }
        char c0 = l.charAt(0);
        if (c0 == 'S' || c0 == 'C' || c0 == 'R') {
            current = null; // its port lines must not land on the node before it
            bad("expected a node line like Switch<TAB>36 \"S-<guid>\" # \"<name>\" ...; got: " + shorten(l));
        } else {
            bad("not ibnetdiscover output: expected vendid=/devid=/sysimgguid=/...guid=, a node line or a port line; got: "
                    + shorten(l));
        }
    }

    private void warnDiff() {
        if (!diffWarned) {
            diffWarned = true;
            builder.diagnostic(Diagnostic.info(source, lineNumber,
                    "ibnetdiscover --diff output: reading the current side (\"> \" lines) only"));
        }
    }

    /** An id line: a vendor id starts a node's block; a value out of range skips the line. */
    private void idLine(IdLine d) {
        current = null;
        if (d.isVendorId()) {
            resetBlock();
        }
        if (d.error != null) {
            bad(d.error);
            return;
        }
        if (d.isVendorId()) {
            vendorId = (int) d.value;
        } else if (d.isDeviceId()) {
            deviceId = (int) d.value;
        } else if (d.isSysImgGuid()) {
            sysImgGuid = d.value;
        } else {
            blockGuid = d.value;
        }
    }

    /** A node line: the node, with what its block said of it; its port lines follow. */
    private void nodeLine(NodeLine f) {
        current = null; // until this line is read: a bad one must not take the port lines below it
        if (f.error != null) {
            bad(f.error);
            return;
        }
        long guid = f.guid;
        if (Guids.isValid(blockGuid) && blockGuid != guid) {
            bad("node line names " + Guids.format(guid) + " but the block above gave " + Guids.format(blockGuid)
                    + "; using the node line");
        }
        FabricNode n = builder.node(guid, f.kind);
        if (n.kind() != f.kind) {
            bad("GUID " + Guids.format(guid) + " was seen as a " + n.kind() + " before and as a " + f.kind + " here");
        }
        builder.setNodeInfo(n, f.numPorts, sysImgGuid, vendorId, deviceId);
        builder.setEvidence(n, f.evidence);
        if (f.description != null) {
            builder.setDescription(n, f.description, f.evidence);
            if (f.lid >= 0) {
                builder.setSwitchPort0(n, f.lid, f.lmc, f.enhanced);
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
