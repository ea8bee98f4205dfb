package org.fabricscope.importers.lldp;

import org.fabricscope.model.core.Evidence;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * SONiC's {@code show lldp table} (sonic-utilities {@code scripts/lldpshow}, which reads {@code lldpctl -f xml}
 * in the lldp container and prints it through python-tabulate's "simple" layout):
 * <pre>
 * Capability codes: (R) Router, (B) Bridge, (O) Other
 * LocalPort   RemoteDevice  RemotePortID  Capability  RemotePortDescr
 * ----------  ------------  ------------  ----------  ---------------
 * Ethernet0   spine-01      Ethernet0     BR          Ethernet0
 * --------------------------------------------------
 * Total entries displayed:  6
 * </pre>
 * Columns are cut where the dash line's runs start (a cell may be empty: a neighbour without a system name).
 * {@code RemotePortID} is the port id's text whatever its type (a MAC for lldpd's default), so a MAC there
 * gives way to {@code RemotePortDescr}. Capability letters: R router, B bridge, O any other.
 */
final class SonicLldpTable {
    static final Pattern HEADER = Pattern.compile("^\\s*LocalPort\\s+RemoteDevice\\s+RemotePortID\\s+Capability\\s+RemotePortDescr\\s*$");
    private static final Pattern DASHES = Pattern.compile("-+");
    private static final Pattern MAC = Pattern.compile("^[0-9a-fA-F]{2}(?::[0-9a-fA-F]{2}){5}$");

    private SonicLldpTable() {
    }

    static boolean isTable(List<String> lines) {
        for (String l : lines) {
            if (HEADER.matcher(l).matches()) {
                return true;
            }
        }
        return false;
    }

    static List<LldpNeighbour> parse(String source, LldpSections.Section s) {
        List<LldpNeighbour> out = new ArrayList<>();
        int[] starts = null;
        boolean inRows = false;
        for (int i = 0; i < s.lines().size(); i++) {
            String line = s.lines().get(i);
            if (HEADER.matcher(line).matches()) {
                starts = null;
                inRows = false;
                if (i + 1 < s.lines().size()) {
                    starts = columns(s.lines().get(i + 1));
                    i++;
                    inRows = starts != null;
                }
                continue;
            }
            if (!inRows) {
                continue;
            }
            String t = line.strip();
            if (t.isEmpty() || t.startsWith("Total entries") || t.chars().allMatch(c -> c == '-')) {
                inRows = false;
                continue;
            }
            String[] cells = cut(line, starts);
            NeighbourDraft d = new NeighbourDraft(cells[0], Evidence.at(source, s.firstLine() + i, t));
            d.sysName = cells[1];
            boolean mac = MAC.matcher(cells[2]).matches();
            d.portIdType = mac ? "mac" : "ifname";
            d.portId = cells[2];
            d.portDescr = cells[4];
            d.capabilitiesKnown = true;
            for (char c : cells[3].toCharArray()) {
                d.capability(c == 'R' ? "router" : c == 'B' ? "bridge" : "other", true);
            }
            out.add(d.build());
        }
        return out;
    }

    /** Where the five columns start, from tabulate's dash line; null when it is not one. */
    private static int[] columns(String dashLine) {
        List<Integer> starts = new ArrayList<>();
        Matcher m = DASHES.matcher(dashLine);
        while (m.find()) {
            starts.add(m.start());
        }
        if (starts.size() != 5) {
            return null;
        }
        return starts.stream().mapToInt(Integer::intValue).toArray();
    }

    private static String[] cut(String line, int[] starts) {
        String[] cells = new String[starts.length];
        for (int c = 0; c < starts.length; c++) {
            int from = Math.min(starts[c], line.length());
            int to = c + 1 < starts.length ? Math.min(starts[c + 1], line.length()) : line.length();
            cells[c] = line.substring(from, Math.max(from, to)).strip();
        }
        return cells;
    }
}
