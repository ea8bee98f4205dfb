package org.fabricscope.importers.ibnet;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.fabricscope.importers.core.Numbers;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.core.Guids;
import org.fabricscope.model.core.LineStore;
import org.fabricscope.model.fabric.NodeKind;

/**
 * One ibnetdiscover port line ({@code [1](guid) [ext 1]  "S-guid"[2][ext 2] (guid)  # "name" lid 5 4xHDR}), its
 * fields read and checked from the line alone, so that this can run ahead of the line's turn on a thread of its
 * own ({@link IbnetdiscoverImporter#prepare}); {@link IbnetdiscoverImporter} then adds it to the model in line
 * order. What the line gets wrong is kept as the message the importer reports, at the point where reading the
 * line in one go would have reported it: {@link #early} before the importer looks for the node the line belongs
 * to, {@link #late} after.
 */
final class PortLine {
    private static final Pattern PORT_LINE = Pattern.compile(
            "^\\[(\\d+)\\](?:\\(([0-9a-fA-F]+)\\))?\\s*(?:\\[ext (\\d+)\\])?\\s*\"([SHR?])-([0-9a-fA-F]+)\"\\[(\\d+)\\]"
                    + "(?:\\[ext (\\d+)\\])?\\s*(?:\\(([0-9a-fA-F]+)\\))?\\s*(?:#\\s*(.*))?$");
    private static final Pattern PORT_COMMENT = Pattern.compile(
            "^(?:lid (\\d+) lmc (\\d+)\\s+)?\"(.*)\"\\s+lid\\s+(\\d+)\\s+(\\S+).*$");

    /** Whether the line came as {@code > } (the current side of {@code ibnetdiscover --diff}). */
    final boolean diff;
    /** The line is not a port line, or a number in it is out of range: reported whether or not a node is open. */
    String early;
    /** A field out of range or a peer id that is no GUID: reported once the line is known to belong to a node. */
    String late;
    int localPort;
    int peerPort;
    long localPortGuid;
    long peerGuid;
    long peerPortGuid;
    int localExt = -1;
    int peerExt = -1;
    NodeKind peerKind;
    boolean hasComment;
    boolean commentOk;
    int localLid = -1;
    int localLmc;
    int peerLid = -1;
    String peerDescription;
    String rateToken;
    /** The rate the comment gives; null when it gives none or one not known ({@link #rateToken} then says what). */
    RateToken rate;
    /** The line, as the link's evidence cites it. */
    Evidence evidence;

    private PortLine(boolean diff) {
        this.diff = diff;
    }

    /**
     * Reads port lines of one file; its scanner and matchers are reused from line to line, so one thread at a time
     * uses it. The lines it cites go to a store of its own, which only it writes.
     */
    static final class Reader {
        private final PortLineScanner scanner = new PortLineScanner();
        private final Matcher portLine = PORT_LINE.matcher("");
        private final Matcher portComment = PORT_COMMENT.matcher("");
        private final String source;
        private final LineStore cited = new LineStore();

        Reader(String source) {
            this.source = source;
        }

        /** The store of the lines this reader's thread cites (node lines cite into it too). */
        LineStore cited() {
            return cited;
        }

        /** Line {@code lineNumber}, stripped (and without its {@code > }: {@code diff}), which starts with {@code [}. */
        PortLine read(String l, boolean diff, int lineNumber) {
            PortLine p = new PortLine(diff);
            try {
                if (!shape(l)) {
                    p.early = "expected a port line like [1]\t\"S-<guid>\"[2]\t\t# \"<name>\" lid 5 4xHDR; got: "
                            + IbnetdiscoverImporter.shorten(l);
                    return p;
                }
            } catch (Numbers.OutOfRange e) {
                p.early = e.getMessage() + "; line skipped";
                return p;
            }
            try {
                if (!fields(p)) {
                    return p;
                }
            } catch (Numbers.OutOfRange e) {
                p.late = e.getMessage() + "; line skipped";
                return p;
            }
            p.evidence = Evidence.at(source, lineNumber, l.strip(), cited);
            return p;
        }

        /** Whether the line has a port line's shape: read by the scanner, or else by the expression. */
        private boolean shape(String l) {
            PortLineScanner f = scanner;
            if (f.scanLine(l)) {
                return true;
            }
            // not the common shape: the regular expression decides, and explains a bad line
            Matcher m = portLine.reset(l);
            if (!m.matches()) {
                return false;
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
            return true;
        }

        /** Every field read and checked, in the order the importer always did; false (and {@link #late}) on a bad one. */
        private boolean fields(PortLine p) {
            PortLineScanner f = scanner;
            p.localPort = checkedPort(f.localPort);
            p.peerPort = checkedPort(f.peerPort);
            p.localPortGuid = f.localPortGuid == null ? 0 : IbnetdiscoverImporter.guid(f.localPortGuid, "port GUID");
            p.peerGuid = Guids.parse(f.peerGuid);
            p.peerPortGuid = f.peerPortGuid == null ? 0 : IbnetdiscoverImporter.guid(f.peerPortGuid, "peer port GUID");
            if (!Guids.isValid(p.peerGuid)) {
                p.late = "peer id is not a GUID" + (f.peerGuid.length() > 16 ? " (more than 64 bits)" : "");
                return false;
            }
            p.localExt = f.localExt == null ? -1 : Numbers.port(f.localExt);
            p.peerExt = f.peerExt == null ? -1 : Numbers.port(f.peerExt);
            p.peerKind = switch (f.peerKind) {
                case 'S' -> NodeKind.SWITCH;
                case 'R' -> NodeKind.ROUTER;
                default -> NodeKind.CA;
            };
            String comment = f.comment;
            p.hasComment = comment != null;
            if (comment != null) {
                p.commentOk = f.scanComment(comment);
                if (!p.commentOk) {
                    Matcher c = portComment.reset(comment);
                    p.commentOk = c.matches();
                    if (p.commentOk) {
                        f.localLid = c.group(1);
                        f.localLmc = c.group(2);
                        f.peerDescription = c.group(3);
                        f.peerLid = c.group(4);
                        f.rateToken = c.group(5);
                    }
                }
                if (p.commentOk) {
                    if (f.localLid != null) {
                        p.localLid = Numbers.lid(f.localLid);
                        p.localLmc = (int) Numbers.decimal(f.localLmc, 0, Numbers.MAX_LMC, "LMC");
                    }
                    p.peerLid = Numbers.lid(f.peerLid);
                    p.peerDescription = f.peerDescription;
                    p.rateToken = f.rateToken;
                    p.rate = RateToken.parse(f.rateToken);
                }
            }
            return true;
        }

        /** A port number the scanner read (at most 9 digits): 0..255. */
        private static int checkedPort(int port) {
            if (port < 0 || port > Numbers.MAX_PORT) {
                throw new Numbers.OutOfRange("port", String.valueOf(port), "0.." + Numbers.MAX_PORT);
            }
            return port;
        }
    }
}
