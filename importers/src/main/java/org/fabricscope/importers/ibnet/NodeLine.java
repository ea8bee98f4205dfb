package org.fabricscope.importers.ibnet;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.fabricscope.importers.core.Numbers;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.core.Guids;
import org.fabricscope.model.core.LineStore;
import org.fabricscope.model.fabric.NodeKind;

/**
 * One ibnetdiscover node line ({@code Switch 36 "S-guid" # "name" enhanced port 0 lid 2 lmc 0}), its fields read and
 * checked from the line alone, so that this can run ahead of the line's turn ({@link IbnetdiscoverImporter#prepare});
 * the importer then adds the node in line order, with what depends on the lines before (the block's ids, the node
 * already known). A field that is wrong is kept as the message the importer reports ({@link #error}): the first one,
 * in the order reading the line in one go found them.
 */
final class NodeLine {
    static final Pattern NODE_LINE = Pattern.compile(
            "^(Switch|Ca|Rt)\\s*(\\d+)\\s*\"([SHR?])-([0-9a-fA-F]+)\"\\s*(?:#\\s*(.*))?$");
    private static final Pattern SWITCH_COMMENT = Pattern.compile(
            "^\"(.*)\"\\s*(?:(enhanced|base)\\s+port\\s+0\\s+lid\\s+(\\d+)\\s+lmc\\s+(\\d+))?.*$");
    private static final Pattern CA_COMMENT = Pattern.compile("^\"(.*)\".*$");

    /** Whether the line came as {@code > } (the current side of {@code ibnetdiscover --diff}). */
    final boolean diff;
    /** What is wrong with the line (nothing of it is kept), or null. */
    String error;
    NodeKind kind;
    int numPorts;
    long guid;
    /** The name in the comment; null when there is no comment or one not understood. */
    String description;
    /** A switch's port 0 LID from its comment, or -1. */
    int lid = -1;
    int lmc;
    boolean enhanced;
    /** The line, as the node's evidence cites it. */
    Evidence evidence;

    private NodeLine(boolean diff) {
        this.diff = diff;
    }

    /**
     * Line {@code lineNumber}, stripped (and without its {@code > }: {@code diff}), read as a node line; null when it
     * is none (the importer then says what it is). Cited lines go to {@code cited}, which only the caller's thread
     * writes.
     */
    static NodeLine read(String l, boolean diff, String source, int lineNumber, LineStore cited) {
        String[] g = quick(l);
        if (g == null) {
            Matcher m = NODE_LINE.matcher(l);
            if (!m.matches()) {
                return null;
            }
            g = new String[] {m.group(0), m.group(1), m.group(2), m.group(3), m.group(4), m.group(5)};
        }
        NodeLine n = new NodeLine(diff);
        try {
            n.fields(g);
        } catch (Numbers.OutOfRange e) {
            n.error = e.getMessage() + "; line skipped";
            return n;
        }
        if (n.error == null) {
            n.evidence = Evidence.at(source, lineNumber, g[0].strip(), cited);
        }
        return n;
    }

    /** The fields from {@link #NODE_LINE}'s groups 0 to 5 (the line, kind, ports, type, GUID, comment), checked in turn. */
    private void fields(String[] m) {
        kind = switch (m[1]) {
            case "Switch" -> NodeKind.SWITCH;
            case "Ca" -> NodeKind.CA;
            default -> NodeKind.ROUTER;
        };
        numPorts = (int) Numbers.decimal(m[2], 0, Numbers.MAX_PORT, "port count");
        guid = Guids.parse(m[4]);
        if (!Guids.isValid(guid)) {
            error = "node id \"" + m[3] + "-" + m[4] + "\" is not a GUID" + (m[4].length() > 16 ? " (more than 64 bits)" : "");
            return;
        }
        String comment = m[5];
        if (comment != null) {
            Matcher c = (kind == NodeKind.SWITCH ? SWITCH_COMMENT : CA_COMMENT).matcher(comment);
            if (c.matches()) {
                if (kind == NodeKind.SWITCH && c.group(2) != null) {
                    lid = Numbers.lid(c.group(3));
                    lmc = (int) Numbers.decimal(c.group(4), 0, Numbers.MAX_LMC, "LMC");
                    enhanced = "enhanced".equals(c.group(2));
                }
                description = c.group(1);
            }
        }
    }

    /**
     * {@link #NODE_LINE}'s groups (0 to 5) for a node line whose spaces are blanks and tabs and whose comment holds no
     * line separator, read without the regex; null for any other line, which the regex then decides. Package-private
     * for the test that holds it to the regex.
     */
    static String[] quick(String l) {
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
        while (i < n && IdLine.asciiHex(l.charAt(i))) {
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
}
