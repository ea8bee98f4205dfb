package org.fabricscope.importers.lldp;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Splits a file of LLDP neighbour tables into one section per node. A loop over many nodes writes a
 * marker line before each node's output; the markers taken: {@code ==> NODE <==} (what {@code tail} and
 * {@code head} print before each of several files; a path there names the node by its folder or file
 * name), {@code ### node: NODE} (one to three {@code #}, or {@code # NODE:}), {@code --- NODE ---} and a
 * shell prompt ({@code root@NODE:~# lldpcli show neighbors}, {@code admin@NODE:~$ show lldp table}).
 * Lines before the first marker are a section of the node the file's path names.
 */
final class LldpSections {
    private static final Pattern TAIL = Pattern.compile("^==> (.+) <==$");
    private static final Pattern HASH = Pattern.compile("^#{1,3} ?(?:node|host|Node|Host)\\s*[:=]\\s*([A-Za-z0-9][A-Za-z0-9_.:-]*)\\s*#*$");
    private static final Pattern DASH = Pattern.compile("^-{3,} ?([A-Za-z0-9][A-Za-z0-9_.:-]*) ?-{3,}$");
    private static final Pattern PROMPT = Pattern.compile("^\\[?[A-Za-z0-9_.-]+@([A-Za-z0-9_.-]+)[: ][^$#]*\\]?[$#] ?(.*)$");
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.:-]*");
    /** File names that name the command, not the node ({@code lldpcli-neighbors.json}, {@code ibdev2netdev.txt}). */
    private static final Pattern COMMAND_STEM = Pattern.compile(
            "^(?:lldp.*|show.*|neighbo.*|all-nodes|ibdev2netdev.*|rdma|rdma[-_]link.*|sysfs.*|ls|netdevs?|mlnx.*|qos.*|ethtool.*|hw_counters.*|ip|ip[-_].*|config_db.*|running.*)$");
    /** Folder names that say nothing about the node. */
    private static final List<String> GENERIC = List.of("tmp", "out", "output", "outputs", "evidence", "lldp",
            "logs", "captures", "capture", "data", "inputs", "input", "home", "root", "downloads", "desktop", "files",
            "pasted", "neighbors", "neighbours");

    /** One node's lines; {@code firstLine} is the 1-based file line of {@code lines.get(0)}. */
    record Section(String node, int markerLine, String markerText, int firstLine, List<String> lines) {
    }

    private LldpSections() {
    }

    /** The node a marker line names, or null when the line is no marker. */
    static String marker(String line) {
        String t = line.strip();
        Matcher m = TAIL.matcher(t);
        if (m.matches()) {
            List<String> names = namesFromPath(m.group(1).strip());
            return names.isEmpty() ? "" : names.get(0);
        }
        m = HASH.matcher(t);
        if (m.matches()) {
            return m.group(1);
        }
        m = DASH.matcher(t);
        if (m.matches()) {
            return m.group(1);
        }
        m = PROMPT.matcher(t);
        if (m.matches()) {
            return m.group(1);
        }
        return null;
    }

    /** The file's lines cut at its node markers; the first section belongs to {@code defaultNode}. */
    static List<Section> split(List<String> lines, String defaultNode) {
        List<Section> out = new ArrayList<>();
        String node = defaultNode;
        int markerLine = 0;
        String markerText = "";
        int first = 1;
        List<String> current = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String m = marker(lines.get(i));
            if (m == null) {
                current.add(lines.get(i));
                continue;
            }
            if (markerLine > 0 || hasContent(current)) {
                out.add(new Section(node, markerLine, markerText, first, current));
            }
            node = m;
            markerLine = i + 1;
            markerText = lines.get(i).strip();
            first = i + 2;
            current = new ArrayList<>();
        }
        if (markerLine > 0 || hasContent(current)) {
            out.add(new Section(node, markerLine, markerText, first, current));
        }
        return out;
    }

    private static boolean hasContent(List<String> lines) {
        for (String l : lines) {
            if (!l.isBlank()) {
                return true;
            }
        }
        return false;
    }

    /** The host a per-node file's path names ({@link #namesFromPath}'s best guess), or empty. */
    static String hostFromPath(String source) {
        List<String> names = namesFromPath(source);
        return names.isEmpty() ? "" : names.get(0);
    }

    /** The netdev a per-NIC file's name carries ({@code ethtool-S-ens1f0np0.txt}), by the reader's pattern; or null. */
    static String netdevFromFile(String source, Pattern fileName) {
        String s = source.replace('\\', '/');
        Matcher m = fileName.matcher(s.substring(s.lastIndexOf('/') + 1));
        return m.matches() ? m.group(1) : null;
    }

    /**
     * Node names a path suggests, best first: its folder ({@code leaf-01/lldpcli-neighbors.json}), then
     * its name up to the first dot when that is not the command ({@code leaf-01.json}).
     */
    static List<String> namesFromPath(String source) {
        List<String> out = new ArrayList<>();
        if (source == null || source.isEmpty()) {
            return out;
        }
        String s = source.replace('\\', '/');
        int bang = s.lastIndexOf('!'); // archive!entry
        if (bang >= 0) {
            s = s.substring(bang + 1);
        }
        String[] parts = s.split("/");
        String file = parts[parts.length - 1];
        if (parts.length >= 2) {
            String parent = parts[parts.length - 2];
            if (NAME.matcher(parent).matches() && !GENERIC.contains(parent.toLowerCase(Locale.ROOT))) {
                out.add(parent);
            }
        }
        String stem = file.contains(".") ? file.substring(0, file.indexOf('.')) : file;
        String low = stem.toLowerCase(Locale.ROOT);
        if (NAME.matcher(stem).matches() && !COMMAND_STEM.matcher(low).matches()) {
            out.add(stem);
        }
        return out;
    }
}
