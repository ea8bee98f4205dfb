package org.fabricscope.importers.lldp;

import org.fabricscope.importers.core.FormatReader;
import org.fabricscope.importers.core.Head;
import org.fabricscope.importers.core.ImportPhase;
import org.fabricscope.importers.core.ReadContext;
import org.fabricscope.importers.core.TextLines;
import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.core.Evidence;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * LLDP neighbour tables as lldpd's client prints them ({@code lldpcli show neighbors} / {@code lldpctl}, on
 * Linux hosts and on SONiC and Cumulus switches): plain text, {@code -f keyvalue}, {@code -f json},
 * {@code -f json0} and {@code -f xml}, and SONiC's {@code show lldp table} ({@link SonicLldpTable}; its {@code show
 * lldp neighbors} is lldpctl's text); one node's table per file, or many nodes' in one file with a marker
 * line before each ({@link LldpSections}). The node a table belongs to is its marker's, else the file's folder
 * or name ({@code leaf-01/lldpcli-neighbors.json}, {@code leaf-01.lldp.txt}): {@code show neighbors} does not
 * print the local system's name. The tables go to {@link LldpFabric}, which builds the Ethernet fabric once
 * every file is read.
 */
public final class LldpNeighborsReader implements FormatReader {
    public static final String ID = "lldp-neighbors";
    /** Largest file read (a 1,000-node loop of {@code -f json} is about 10 MB); a larger one is not read. */
    public static final long MAX_BYTES = 64L * 1024 * 1024;
    private static final Pattern JSON_START = Pattern.compile("^\\{\\s*(?:\"lldp\"\\s*:.*)?$");
    private static final Pattern JSON_LLDP = Pattern.compile("^\\{?\\s*\"lldp\"\\s*:\\s*[\\[{].*$");
    private static final Pattern TEXT_TITLE = Pattern.compile("^LLDP neighbors:\\s*$");
    private static final Pattern TEXT_IFACE = Pattern.compile("^Interface:\\s+\\S+,\\s+via:\\s*(?:LLDP|CDPv1|CDPv2|EDP|FDP|SONMP)\\b.*$");

    @Override
    public String id() {
        return ID;
    }

    @Override
    public String label() {
        return "lldpcli show neighbors (text, keyvalue, json, json0, xml), SONiC show lldp table";
    }

    @Override
    public int maxConfidence() {
        return 95;
    }

    @Override
    public int confidence(Head head) {
        int content = 0;
        int kv = 0;
        boolean jsonOpen = false;
        for (String l : head.lines()) {
            String t = l.strip();
            if (t.isEmpty() || LldpSections.marker(t) != null) {
                continue;
            }
            content++;
            if (content == 1 && (t.startsWith("<?xml") || t.startsWith("<lldp"))) {
                return xmlRoot(head) ? 95 : NONE;
            }
            if (content == 1 && JSON_START.matcher(t).matches()) {
                jsonOpen = true;
            }
            if ((jsonOpen || content == 1) && JSON_LLDP.matcher(t).matches()) {
                return 90;
            }
            if (TEXT_TITLE.matcher(t).matches() || TEXT_IFACE.matcher(t).matches()) {
                return 85;
            }
            if (SonicLldpTable.HEADER.matcher(t).matches()) {
                return 90;
            }
            if (LldpKeyValue.LINE.matcher(t).matches()) {
                kv++;
            }
        }
        return kv > 0 && kv * 2 >= content ? 85 : NONE;
    }

    private static boolean xmlRoot(Head head) {
        for (String l : head.lines()) {
            String t = l.strip();
            if (t.startsWith("<lldp ") || t.startsWith("<lldp>") || t.startsWith("<lldp/>")) {
                return true;
            }
            if (t.startsWith("<") && !t.startsWith("<?") && !t.startsWith("<!")) { // <!DOCTYPE lldp ...>: refused at its line
                return false;
            }
        }
        return false;
    }

    @Override
    public ImportPhase phase() {
        return ImportPhase.TOPOLOGY;
    }

    @Override
    public void read(InputStream in, ReadContext ctx) throws IOException {
        List<String> lines = new ArrayList<>();
        TextLines tl = ctx.lines(in);
        String line;
        while ((line = ctx.nextLine(tl)) != null) {
            if (tl.bytesRead() > MAX_BYTES) {
                ctx.report(Diagnostic.warning(ctx.source(), tl.lineNumber(), "file larger than " + MAX_BYTES
                        + " bytes (LldpNeighborsReader.MAX_BYTES): not read; split it per node"));
                return;
            }
            lines.add(line);
        }
        if (tl.truncated()) {
            ctx.report(Diagnostic.warning(ctx.source(), 0, "a line longer than " + TextLines.MAX_LINE + " characters was cut"));
        }
        List<String> names = LldpSections.namesFromPath(ctx.source());
        String fileNode = names.isEmpty() ? "" : names.get(0);
        LldpFabric fabric = ctx.state(LldpFabric.class, LldpFabric::new);
        for (LldpSections.Section s : LldpSections.split(lines, fileNode)) {
            read(s, ctx, fabric);
        }
    }

    private static void read(LldpSections.Section s, ReadContext ctx, LldpFabric fabric) {
        int first = s.markerLine() > 0 ? s.markerLine() : 1;
        if (s.node().isEmpty()) {
            ctx.report(Diagnostic.warning(ctx.source(), first, "an LLDP neighbour table without its node's name: "
                    + "lldpcli does not print the local system's name, so put the file in a folder named after the node "
                    + "(leaf-01/lldpcli-neighbors.json) or write a line \"==> leaf-01 <==\" before its output; skipped"));
            return;
        }
        String kind = kindOf(s.lines());
        List<LldpNeighbour> neighbours;
        try {
            neighbours = switch (kind) {
                case "json" -> LldpJson.parse(ctx.source(), s);
                case "xml" -> LldpXml.parse(ctx.source(), s);
                case "keyvalue" -> LldpKeyValue.parse(ctx.source(), s);
                case "sonic-table" -> SonicLldpTable.parse(ctx.source(), s);
                default -> LldpText.parse(ctx.source(), s);
            };
        } catch (LldpJson.Malformed e) {
            ctx.report(Diagnostic.warning(ctx.source(), e.line, s.node() + "'s LLDP table (" + kind + "): " + e.getMessage()
                    + "; this node's table skipped, the file's other nodes read"));
            return;
        }
        for (LldpNeighbour n : neighbours) {
            if (n.cut()) {
                ctx.report(Diagnostic.warning(ctx.source(), n.evidence().line(), s.node() + ": a value of this neighbour was longer "
                        + "than " + NeighbourDraft.MAX_VALUE + " characters (NeighbourDraft.MAX_VALUE; lldpd sends at most 511) or it "
                        + "gave more than " + NeighbourDraft.MAX_MGMT + " management addresses (NeighbourDraft.MAX_MGMT): cut there"));
            }
        }
        Evidence where = Evidence.at(ctx.source(), first, s.markerLine() > 0 ? s.markerText() : "LLDP neighbours of " + s.node());
        fabric.table(new LldpTable(s.node(), where, neighbours));
    }

    /** Which of lldpcli's formats a section is, by its first line with content. */
    static String kindOf(List<String> lines) {
        if (SonicLldpTable.isTable(lines)) {
            return "sonic-table";
        }
        for (String l : lines) {
            String t = l.strip();
            if (t.isEmpty()) {
                continue;
            }
            if (t.startsWith("{") || t.startsWith("[")) {
                return "json";
            }
            if (t.startsWith("<")) {
                return "xml";
            }
            if (LldpKeyValue.LINE.matcher(t).matches()) {
                return "keyvalue";
            }
            return "text";
        }
        return "text";
    }
}
