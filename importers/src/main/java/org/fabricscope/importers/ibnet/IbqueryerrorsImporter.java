package org.fabricscope.importers.ibnet;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.fabricscope.importers.core.LineImporter;
import org.fabricscope.importers.core.Numbers;
import org.fabricscope.model.core.Guids;

/**
 * Reads {@code ibqueryerrors} output: {@code Errors for 0x<guid> "<name>"} node headers and
 * {@code GUID 0x<guid> port N: [Counter == value] ...} lines (64-bit variants print
 * {@code [Counter == value (1.2K)]}). Only counters over the tool's thresholds are printed, so
 * absent counters stay unknown rather than zero.
 */
public final class IbqueryerrorsImporter extends LineImporter {
    private static final Pattern NODE = Pattern.compile("^Errors for (?:0x([0-9a-fA-F]+)\\s+)?\"(.*)\"\\s*$");
    private static final Pattern PORT = Pattern.compile("^GUID 0x([0-9a-fA-F]+) port (\\d+|ALL):(.*)$");
    private static final Pattern COUNTER = Pattern.compile("\\[(\\w+) == (-?\\d+)(?: \\([^)]*\\))?\\]");

    private String nodeName;
    private long nodeGuid;

    /** One line; a GUID or port out of range skips it, a counter out of range only that counter. */
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
        if (l.isEmpty() || l.startsWith("##") || l.startsWith("Link info:") || l.startsWith("Data Counters for")
                || l.startsWith("ibwarn:")) {
            return;
        }
        Matcher n = NODE.matcher(l);
        if (n.matches()) {
            nodeGuid = 0;
            nodeName = n.group(2);
            nodeGuid = n.group(1) == null ? 0 : IbnetdiscoverImporter.guid(n.group(1), "node GUID");
            if (Guids.isValid(nodeGuid) && builder.findNode(nodeGuid) == null) {
                // Only switches are printed with their node GUID: ibqueryerrors alone still names the bad ports.
                org.fabricscope.model.fabric.FabricNode sw = builder.node(nodeGuid, org.fabricscope.model.fabric.NodeKind.SWITCH);
                builder.offerDescription(sw, nodeName);
                builder.setEvidence(sw, evidence(l));
            }
            return;
        }
        Matcher p = PORT.matcher(l);
        if (p.matches()) {
            long guid = IbnetdiscoverImporter.guid(p.group(1), "port GUID");
            int port = p.group(2).equals("ALL") ? -1 : Numbers.port(p.group(2));
            Map<String, Long> counters = new LinkedHashMap<>();
            Matcher c = COUNTER.matcher(p.group(3));
            while (c.find()) {
                try {
                    counters.put(c.group(1), Numbers.unsigned64(c.group(2), c.group(1)));
                } catch (Numbers.OutOfRange e) {
                    // PMA counters are 64-bit unsigned: a negative or longer value is no reading; the others are
                    bad(e.getMessage() + "; that counter is skipped");
                }
            }
            if (counters.isEmpty()) {
                return; // a --data line or a port with nothing over threshold
            }
            if (p.group(2).equals("ALL")) {
                return; // the node's total; the per-port lines that follow place each counter
            }
            builder.counters(0, port, Guids.isValid(nodeGuid) ? nodeGuid : guid, nodeName,
                    counters, evidence(l), false);
            return;
        }
        bad("expected \"Errors for ...\" or \"GUID 0x... port N: [Counter == n]\"; got: " + IbnetdiscoverImporter.shorten(l));
    }
}
