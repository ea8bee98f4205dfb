package org.fabricscope.importers.host;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.fabricscope.importers.core.Head;
import org.fabricscope.importers.core.ReadContext;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.evidence.HostEvidenceBuilder.Draft;
import org.fabricscope.model.evidence.PciLink;

/**
 * {@code lspci -vv} (pciutils): device headers {@code 3b:00.0 Infiniband controller: Mellanox ...}
 * (with or without the {@code 0000:} domain) and their {@code LnkCap:} / {@code LnkSta:} lines
 * ({@code Speed 16GT/s, Width x16}; {@code (downgraded)} and {@code (ok)} notes ignored).
 */
public final class LspciReader extends HostEvidenceReader {
    public static final String ID = "lspci";
    private static final Pattern DEVICE = Pattern.compile("^((?:[0-9a-fA-F]{4}:)?[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\\.[0-7]) (.{1,300})$");
    private static final Pattern LINK = Pattern.compile("^\\s+(LnkCap|LnkSta):\\s+(.*)$");
    private static final Pattern SPEED = Pattern.compile("Speed (\\d{1,4}(?:\\.\\d{1,3})?)GT/s");
    private static final Pattern WIDTH = Pattern.compile("Width x(\\d{1,2})\\b");

    @Override
    public String id() {
        return ID;
    }

    @Override
    public String label() {
        return "lspci -vv";
    }

    @Override
    public int maxConfidence() {
        return 60;
    }

    @Override
    public int confidence(Head head) {
        boolean device = false;
        for (String l : content(head)) {
            if (DEVICE.matcher(l).matches() && l.contains(": ")) {
                device = true;
            } else if (device && (l.contains("LnkCap:") || l.contains("LnkSta:") || l.startsWith("\tSubsystem: ")
                    || l.startsWith("\tControl: "))) {
                return maxConfidence();
            }
        }
        return NONE;
    }

    @Override
    Parser parser(Draft draft, ReadContext ctx) {
        String[] dev = {null, null};
        double[] gts = {0, 0};
        int[] width = {0, 0};
        Evidence[] at = {null};
        return new Parser() {
            @Override
            public void line(String line, Evidence e) {
                Matcher m = DEVICE.matcher(line);
                if (m.matches()) {
                    end();
                    dev[0] = m.group(1).toLowerCase(java.util.Locale.ROOT);
                    dev[1] = m.group(2);
                    return;
                }
                m = LINK.matcher(line);
                if (!m.matches() || dev[0] == null) {
                    return;
                }
                int i = m.group(1).equals("LnkCap") ? 0 : 1;
                Matcher s = SPEED.matcher(m.group(2));
                gts[i] = s.find() ? Double.parseDouble(s.group(1)) : 0;
                Matcher w = WIDTH.matcher(m.group(2));
                width[i] = w.find() ? intOr(w.group(1), 10, "link width") : 0;
                if (i == 1) {
                    at[0] = e;
                }
            }

            @Override
            public void end() {
                if (dev[0] != null && at[0] != null) {
                    draft.pciLink(new PciLink(dev[0], dev[1], gts[0], Math.max(0, width[0]), gts[1], Math.max(0, width[1]), at[0]));
                }
                dev[0] = null;
                gts[0] = gts[1] = 0;
                width[0] = width[1] = 0;
                at[0] = null;
            }
        };
    }
}
