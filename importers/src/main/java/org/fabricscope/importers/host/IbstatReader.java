package org.fabricscope.importers.host;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.fabricscope.importers.core.Head;
import org.fabricscope.importers.core.ReadContext;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.evidence.HcaFact;
import org.fabricscope.model.evidence.HostEvidenceBuilder.Draft;

/**
 * {@code ibstat} (infiniband-diags {@code ibstat.c}): {@code CA 'mlx5_0'} (or {@code CA: 'mlx5_0'} for
 * {@code ibstat mlx5_0 1}), then per port {@code Port 1:} with {@code State:}, {@code Physical state:},
 * {@code Rate:}, {@code Base lid:}, {@code SM lid:}, {@code Port GUID:} and {@code Link layer:}.
 */
public final class IbstatReader extends HostEvidenceReader {
    public static final String ID = "ibstat";
    private static final Pattern CA = Pattern.compile("^CA:? '([^']{1,64})'\\s*$");
    private static final Pattern PORT = Pattern.compile("^\\s*Port (\\d{1,9}):\\s*$");
    private static final Pattern FIELD = Pattern.compile("^\\s+([A-Za-z][A-Za-z ]*?):\\s*(.*)$");

    @Override
    public String id() {
        return ID;
    }

    @Override
    public String label() {
        return "ibstat";
    }

    @Override
    public int maxConfidence() {
        return 70;
    }

    @Override
    public int confidence(Head head) {
        boolean ca = false;
        boolean state = false;
        for (String l : content(head)) {
            if (CA.matcher(l).matches()) {
                ca = true;
            } else if (l.startsWith("\t") || l.startsWith(" ")) {
                String t = l.strip();
                if (t.startsWith("Physical state: ") || t.startsWith("State: ") || t.startsWith("Node GUID: 0x")) {
                    state = true;
                }
            }
        }
        return ca && state ? maxConfidence() : NONE;
    }

    @Override
    Parser parser(Draft draft, ReadContext ctx) {
        PortBlock b = new PortBlock();
        return new Parser() {
            @Override
            public void line(String line, Evidence at) {
                Matcher m = CA.matcher(line);
                if (m.matches()) {
                    b.flush(draft);
                    b.device = m.group(1);
                    b.nodeGuid = 0;
                    return;
                }
                m = PORT.matcher(line);
                if (m.matches()) {
                    b.flush(draft);
                    b.port = port(m.group(1));
                    b.start = at;
                    return;
                }
                m = FIELD.matcher(line);
                if (!m.matches()) {
                    return;
                }
                String v = m.group(2).strip();
                switch (m.group(1)) {
                    case "Node GUID" -> b.nodeGuid = PortBlock.guid(v);
                    case "State" -> {
                        b.state = PortBlock.state(v);
                        b.evidence = at;
                    }
                    case "Physical state" -> b.phys = PortBlock.phys(v);
                    case "Rate" -> b.rate = v.length() > 20 ? v.substring(0, 20) : v;
                    case "Base lid" -> b.lid = PortBlock.lid(v);
                    case "SM lid" -> b.smLid = PortBlock.lid(v);
                    case "Port GUID" -> b.portGuid = PortBlock.guid(v);
                    case "Link layer" -> b.linkLayer = v;
                    case "Firmware version" -> fact(draft, b.device, 0, HcaFact.FIRMWARE, v, at);
                    case "CA type" -> fact(draft, b.device, 0, HcaFact.CA_TYPE, v, at);
                    default -> { }
                }
            }

            @Override
            public void end() {
                b.flush(draft);
            }
        };
    }

}
