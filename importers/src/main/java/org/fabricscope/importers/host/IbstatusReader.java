package org.fabricscope.importers.host;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.fabricscope.importers.core.Head;
import org.fabricscope.importers.core.ReadContext;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.evidence.GidEntry;
import org.fabricscope.model.evidence.HostEvidenceBuilder.Draft;

/**
 * {@code ibstatus} (the infiniband-diags script over sysfs): {@code Infiniband device 'mlx5_0' port 1 status:}
 * then {@code default gid:}, {@code base lid:}, {@code sm lid:}, {@code state:\t\t 4: ACTIVE},
 * {@code phys state:\t 5: LinkUp}, {@code rate:} and {@code link_layer:}.
 */
public final class IbstatusReader extends HostEvidenceReader {
    public static final String ID = "ibstatus";
    private static final Pattern HEADER = Pattern.compile("^Infiniband device '([^']{1,64})' port (\\d{1,9}) status:\\s*$");
    private static final Pattern FIELD = Pattern.compile("^\\s+([a-z_ ]+?):\\s*(.*)$");

    @Override
    public String id() {
        return ID;
    }

    @Override
    public String label() {
        return "ibstatus";
    }

    @Override
    public int maxConfidence() {
        return 75;
    }

    @Override
    public int confidence(Head head) {
        for (String l : content(head)) {
            if (HEADER.matcher(l).matches()) {
                return maxConfidence();
            }
        }
        return NONE;
    }

    @Override
    Parser parser(Draft draft, ReadContext ctx) {
        PortBlock b = new PortBlock();
        return new Parser() {
            @Override
            public void line(String line, Evidence at) {
                Matcher m = HEADER.matcher(line);
                if (m.matches()) {
                    b.flush(draft);
                    b.device = m.group(1);
                    b.port = port(m.group(2));
                    b.start = at;
                    return;
                }
                m = FIELD.matcher(line);
                if (!m.matches() || b.port < 0) {
                    return;
                }
                String v = m.group(2).strip();
                switch (m.group(1)) {
                    case "default gid" -> {
                        String gid = Gids.normalize(v);
                        if (gid != null) {
                            draft.gid(new GidEntry(b.device, b.port, 0, gid, "", "", at));
                            if (gid.startsWith("fe80:")) {
                                b.portGuid = Gids.interfaceId(gid);
                            }
                        }
                    }
                    case "base lid" -> b.lid = PortBlock.lid(v);
                    case "sm lid" -> b.smLid = PortBlock.lid(v);
                    case "state" -> {
                        b.state = PortBlock.state(v);
                        b.evidence = at;
                    }
                    case "phys state" -> b.phys = PortBlock.phys(v);
                    case "rate" -> b.rate = v.length() > 40 ? "" : v;
                    case "link_layer" -> b.linkLayer = v;
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
