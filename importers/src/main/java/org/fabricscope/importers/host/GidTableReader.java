package org.fabricscope.importers.host;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.fabricscope.importers.core.Head;
import org.fabricscope.importers.core.ReadContext;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.evidence.GidEntry;
import org.fabricscope.model.evidence.HostEvidenceBuilder.Draft;

/**
 * A port's GID table, in either shape: the sysfs listing that the RunAI RoCE guide's one-liner prints
 * ({@code grep . /sys/class/infiniband/&#42;/ports/&#42;/gids/&#42; .../gid_attrs/types/&#42;}:
 * {@code /sys/class/infiniband/mlx5_0/ports/1/gids/3:0000:...:ffff:0a00:0105} and
 * {@code .../gid_attrs/types/3:RoCE v2}, {@code .../gid_attrs/ndevs/3:ens1f0}), or Mellanox's
 * {@code show_gids} table ({@code DEV PORT INDEX GID IPv4 VER DEV}).
 */
public final class GidTableReader extends HostEvidenceReader {
    public static final String ID = "gid-table";
    private static final Pattern SYSFS = Pattern.compile(
            "^(?:\\S*:)?/sys/class/infiniband/([^/\\s]{1,64})/ports/(\\d{1,9})/(gids|gid_attrs/types|gid_attrs/ndevs)/(\\d{1,9}):(.*)$");
    private static final Pattern SHOW_GIDS_HEADER = Pattern.compile("^DEV\\s+PORT\\s+INDEX\\s+GID\\b.*");

    @Override
    public String id() {
        return ID;
    }

    @Override
    public String label() {
        return "GID table (sysfs gids listing, show_gids)";
    }

    @Override
    public int maxConfidence() {
        return 75;
    }

    @Override
    public int confidence(Head head) {
        for (String l : content(head)) {
            String t = l.strip();
            if (SHOW_GIDS_HEADER.matcher(t).matches() || SYSFS.matcher(t).matches()) {
                return maxConfidence();
            }
        }
        return NONE;
    }

    /** One sysfs slot, gathered from its gids, types and ndevs lines. */
    private static final class Slot {
        String gid;
        String type = "";
        String netdev = "";
        Evidence at;
    }

    /** One GID of one device port: a record, not a joined string (a device name may hold any character, NUL too). */
    private record SlotKey(String device, int port, int index) {
    }

    @Override
    Parser parser(Draft draft, ReadContext ctx) {
        Map<SlotKey, Slot> slots = new LinkedHashMap<>();
        return new Parser() {
            @Override
            public void line(String line, Evidence at) {
                String t = line.strip();
                Matcher m = SYSFS.matcher(t);
                if (m.matches()) {
                    int port = port(m.group(2));
                    int index = intOr(m.group(4), 10, "GID index");
                    if (port < 0 || index < 0 || slots.size() > 100_000) {
                        return;
                    }
                    Slot s = slots.computeIfAbsent(new SlotKey(m.group(1), port, index), k -> new Slot());
                    String v = m.group(5).strip();
                    switch (m.group(3)) {
                        case "gids" -> {
                            s.gid = Gids.normalize(v);
                            s.at = at;
                        }
                        case "gid_attrs/types" -> s.type = v.length() > 20 ? "" : v;
                        default -> s.netdev = v.length() > 64 ? "" : v;
                    }
                    if (s.at == null) {
                        s.at = at;
                    }
                    return;
                }
                if (SHOW_GIDS_HEADER.matcher(t).matches() || t.startsWith("---") || t.startsWith("n_gids_found")) {
                    return;
                }
                String[] f = t.split("\\s+");
                if (f.length < 5) {
                    return;
                }
                int port = port(f[1]);
                int index = intOr(f[2], 10, "GID index");
                String gid = Gids.normalize(f[3]);
                if (port < 0 || index < 0 || gid == null) {
                    return;
                }
                int i = 4;
                if (f[i].contains(".")) {
                    i++; // the IPv4 column
                }
                String ver = i < f.length ? f[i++] : "";
                String type = ver.equalsIgnoreCase("v2") ? "RoCE v2" : ver.equalsIgnoreCase("v1") ? "RoCE v1" : "";
                String netdev = i < f.length ? f[i] : "";
                draft.gid(new GidEntry(f[0], port, index, gid, type, netdev, at));
            }

            @Override
            public void end() {
                slots.forEach((k, s) -> {
                    if (s.gid != null) {
                        draft.gid(new GidEntry(k.device(), k.port(), k.index(), s.gid, s.type, s.netdev, s.at));
                    }
                });
            }
        };
    }
}
