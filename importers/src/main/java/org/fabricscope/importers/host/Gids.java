package org.fabricscope.importers.host;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** GID text as tools print it ({@code fe80:0000:...}, {@code fe80::b8ce:f603:105:10}, {@code ::ffff:10.0.1.5}) as 8 groups of 4 hex digits. */
final class Gids {
    private Gids() {
    }

    /** The GID as 8 groups of 4 lower-case hex digits, or null when it is not a GID. */
    static String normalize(String text) {
        if (text == null) {
            return null;
        }
        String s = text.strip().toLowerCase(Locale.ROOT);
        if (s.isEmpty() || s.length() > 64) {
            return null;
        }
        int dot = s.indexOf('.');
        if (dot >= 0) { // trailing dotted quad
            int colon = s.lastIndexOf(':');
            if (colon < 0) {
                return null;
            }
            String[] q = s.substring(colon + 1).split("\\.");
            if (q.length != 4) {
                return null;
            }
            int[] b = new int[4];
            for (int i = 0; i < 4; i++) {
                b[i] = q[i].strip().length() > 3 ? -1 : HostEvidenceReader.intOr(q[i], 10); // no byte: no GID
                if (b[i] < 0 || b[i] > 255) {
                    return null;
                }
            }
            s = s.substring(0, colon + 1) + Integer.toHexString(b[0] << 8 | b[1]) + ":" + Integer.toHexString(b[2] << 8 | b[3]);
        }
        List<String> groups = new ArrayList<>();
        int dbl = s.indexOf("::");
        if (dbl >= 0) {
            if (s.indexOf("::", dbl + 1) >= 0) {
                return null;
            }
            List<String> head = split(s.substring(0, dbl));
            List<String> tail = split(s.substring(dbl + 2));
            if (head == null || tail == null || head.size() + tail.size() > 7) {
                return null;
            }
            groups.addAll(head);
            for (int i = head.size() + tail.size(); i < 8; i++) {
                groups.add("0");
            }
            groups.addAll(tail);
        } else {
            List<String> all = split(s);
            if (all == null || all.size() != 8) {
                return null;
            }
            groups.addAll(all);
        }
        StringBuilder out = new StringBuilder();
        for (String g : groups) {
            if (out.length() > 0) {
                out.append(':');
            }
            out.append("0".repeat(4 - g.length())).append(g);
        }
        return out.toString();
    }

    private static List<String> split(String s) {
        List<String> out = new ArrayList<>();
        if (s.isEmpty()) {
            return out;
        }
        for (String g : s.split(":", -1)) {
            if (g.isEmpty() || g.length() > 4 || !g.chars().allMatch(c -> Character.digit(c, 16) >= 0)) {
                return null;
            }
            out.add(g);
        }
        return out;
    }

    /** The lower 64 bits of a normalized GID (the port GUID of an IB GID), or 0. */
    static long interfaceId(String gid) {
        if (gid == null || gid.length() != 39) {
            return 0;
        }
        try {
            return Long.parseUnsignedLong(gid.substring(20).replace(":", ""), 16);
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
