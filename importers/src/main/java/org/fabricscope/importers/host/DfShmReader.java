package org.fabricscope.importers.host;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.fabricscope.importers.core.Head;
import org.fabricscope.importers.core.Numbers;
import org.fabricscope.importers.core.ReadContext;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.evidence.HostEvidenceBuilder.Draft;
import org.fabricscope.model.evidence.ShmMount;

/**
 * {@code df -h /dev/shm} (or {@code df -k}, {@code df} of several mounts): the header
 * {@code Filesystem Size Used Avail Use% Mounted on} and the row mounted on {@code /dev/shm}.
 */
public final class DfShmReader extends HostEvidenceReader {
    public static final String ID = "df-shm";
    private static final Pattern HEADER = Pattern.compile("^Filesystem\\s+(Size|1K-blocks|1k-blocks|1024-blocks)\\s+Used\\s+Avail(?:able)?\\s+(?:Use|Capacity)%?\\s+Mounted on\\s*$");
    private static final Pattern ROW = Pattern.compile("^\\S+\\s+(\\S+)\\s+\\S+\\s+\\S+\\s+\\S+\\s+/dev/shm\\s*$");
    private static final Pattern SIZE = Pattern.compile("^(\\d{1,15}(?:[.,]\\d{1,6})?)([KMGTPE]?)i?B?$");

    @Override
    public String id() {
        return ID;
    }

    @Override
    public String label() {
        return "df -h /dev/shm";
    }

    @Override
    public int maxConfidence() {
        return 65;
    }

    @Override
    public int confidence(Head head) {
        boolean header = false;
        for (String l : content(head)) {
            String t = l.strip();
            if (HEADER.matcher(t).matches()) {
                header = true;
            } else if (header && ROW.matcher(t).matches()) {
                return maxConfidence();
            }
        }
        return NONE;
    }

    @Override
    Parser parser(Draft draft, ReadContext ctx) {
        boolean[] kilo = {false};
        return (line, at) -> {
            String t = line.strip();
            Matcher h = HEADER.matcher(t);
            if (h.matches()) {
                kilo[0] = !h.group(1).equals("Size");
                return;
            }
            Matcher m = ROW.matcher(t);
            if (m.matches()) {
                String size = m.group(1);
                long bytes = bytes(size, kilo[0]);
                draft.shm(new ShmMount(kilo[0] ? size + "K" : size, bytes, at));
            }
        };
    }

    /** {@code 64M} as bytes (df -h uses powers of 1024), or a 1K-block count; -1 when unreadable. */
    static long bytes(String size, boolean kiloBlocks) {
        Matcher m = SIZE.matcher(size);
        if (!m.matches()) {
            return -1;
        }
        double v = Double.parseDouble(m.group(1).replace(',', '.'));
        int exp = kiloBlocks ? 1 : "KMGTPE".indexOf(m.group(2).isEmpty() ? "?" : m.group(2)) + 1;
        double b = v * Math.pow(1024, exp);
        if (b >= 0x1p63) {
            throw new Numbers.OutOfRange("/dev/shm size", size, "up to 8 EiB");
        }
        return (long) b;
    }
}
