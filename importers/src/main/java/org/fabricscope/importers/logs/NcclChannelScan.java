package org.fabricscope.importers.logs;

import java.util.List;

import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.training.TreeNode;

/**
 * Hand-written readers for the two channel-line shapes every rank prints by the dozen, read in place in
 * the line: no regular expression, and no substring but the texts a record keeps (shared between lines
 * through a small cache, so a million links hold a few dozen bracket and {@code via} strings).
 * <ul>
 * <li>A link: {@code Channel %02d/%d : %d[%d] -> %d[%d] [send] via NET/%s/%d%s%s%s} and
 * {@code ... [send] via NET/%s/%d(%d)%s%s%s} (PXN), {@code ... [receive] via NET/%s/%d%s%s%s}
 * (NVIDIA/nccl v2.30.7 {@code src/transport/net.cc}; {@code %d[%lx]} busId brackets up to v2.18, the
 * {@code /%d} connection index from v2.12, {@code Channel %02d : ...} in v2.7 to v2.11),
 * {@code Channel %02d/%01d : %d[%d] -> %d[%d] via P2P/IPC%s%s}, {@code via P2P/%s%s%s},
 * {@code via P2P/direct pointer%s}, {@code via P2P/indirect/%d[%d]%s} ({@code src/transport/p2p.cc}),
 * {@code Channel %02d : %d[%d] -> %d[%d] via SHM/%s/%s} ({@code src/transport/shm.cc}), and v2.5-v2.6's
 * {@code Ring %02d : %d[%lx] -> %d[%lx] [send] via NET/%s/%d%s} (v2.5.7 and v2.6.4 {@code src/transport/net.cc};
 * v2.4's {@code Ring %02d : %d -> %d [send] via ...}, without brackets, was never read and is left to the expression).
 * <li>A tree line: {@code "Trees%s"} of {@code " [%d] %d/%d/%d->%d->%d"} per channel (v2.8 to v2.30
 * {@code src/init.cc}), and v2.5-v2.7's double tree {@code " [%d] %d/%d/%d->%d->%d|%d->%d->%d/%d/%d"}.
 * </ul>
 * Strict: on any other shape (other spacing, a number of more than {@link #MAX_DIGITS} digits, a character
 * outside printable ASCII in the {@code via} text, an entry cut short where NCCL's 1,024-byte line buffer
 * ended) they answer "not read", and the caller runs the regular expression of {@link NcclChannelLines},
 * which decides as it always did. So a line they do read gives exactly what the expression gives
 * ({@code NcclChannelScanTest} holds them to it). Not thread-safe: one per parser.
 */
final class NcclChannelScan {
    /** Most digits read as a number here: nine always fit an int, so no range check is needed. */
    static final int MAX_DIGITS = 9;
    /** Longest text shared through the cache; longer ones are cut out each time. */
    private static final int MAX_SHARED = 48;

    /** The fields of the last link read by {@link #link}. */
    int channel;
    int fromRank;
    int toRank;
    int device;
    int proxyRank;
    String fromDev;
    String toDev;
    String direction;
    String via;

    private final String[] shared = new String[1024];
    /** The tree nodes' children lists, shared with the parser's other tree reader ({@link NcclChannelLines}). */
    private final RankLists ranks;

    NcclChannelScan() {
        this(new RankLists());
    }

    NcclChannelScan(RankLists ranks) {
        this.ranks = ranks;
    }
    /** The cursor and the last number of the tree reader. */
    private int i;
    private int v;

    /**
     * Reads a link line from {@code at} (just past {@code Channel } or {@code Ring }) to the end of
     * {@code l}: true when it has one of the shapes above in full, with the fields set. {@code via} is
     * the text after {@code via} without trailing spaces, as the expression's {@code (.+?)\s*$} takes it.
     */
    boolean link(String l, int at) {
        int n = l.length();
        int e = digitsEnd(l, at, n);
        if (e == at || e - at > MAX_DIGITS) {
            return false;
        }
        int ch = IntScan.digits(l, at, e);
        int k = e;
        if (k < n && l.charAt(k) == '/') { // the connection index (2.12+), not kept
            e = digitsEnd(l, k + 1, n);
            if (e == k + 1) {
                return false;
            }
            k = e;
        }
        if (!l.startsWith(" : ", k)) {
            return false;
        }
        k += 3;
        e = digitsEnd(l, k, n);
        if (e == k || e - k > MAX_DIGITS || e >= n || l.charAt(e) != '[') {
            return false;
        }
        int from = IntScan.digits(l, k, e);
        int fromOpen = e + 1;
        int fromClose = hexEnd(l, fromOpen, n);
        if (fromClose == fromOpen || fromClose >= n || l.charAt(fromClose) != ']' || !l.startsWith(" -> ", fromClose + 1)) {
            return false;
        }
        k = fromClose + 5;
        e = digitsEnd(l, k, n);
        if (e == k || e - k > MAX_DIGITS || e >= n || l.charAt(e) != '[') {
            return false;
        }
        int to = IntScan.digits(l, k, e);
        int toOpen = e + 1;
        int toClose = hexEnd(l, toOpen, n);
        if (toClose == toOpen || toClose >= n || l.charAt(toClose) != ']') {
            return false;
        }
        k = toClose + 1;
        String dir = "";
        if (l.startsWith(" [send]", k)) {
            dir = "send";
            k += 7;
        } else if (l.startsWith(" [receive]", k)) {
            dir = "receive";
            k += 10;
        }
        if (!l.startsWith(" via ", k)) {
            return false;
        }
        k += 5;
        if (k >= n || l.charAt(k) == ' ') {
            return false;
        }
        int end = k;
        for (int c = k; c < n; c++) {
            char x = l.charAt(c);
            if (x < ' ' || x > '~') {
                return false; // a control (the expression's \s and $ see those) or non-ASCII: the expression decides
            }
            if (x != ' ') {
                end = c + 1;
            }
        }
        String viaText = text(l, k, end);
        int dev = -1;
        int proxy = -1;
        if (viaText.startsWith("NET/")) { // ^NET/[^/]+/(\d+)(?:\((\d+)\))?
            int vn = viaText.length();
            int slash = viaText.indexOf('/', 4);
            int d = slash + 1;
            int de = slash > 4 ? digitsEnd(viaText, d, vn) : d;
            if (de > d) {
                if (de - d > MAX_DIGITS) {
                    return false;
                }
                dev = IntScan.digits(viaText, d, de);
                if (de < vn && viaText.charAt(de) == '(') {
                    int pe = digitsEnd(viaText, de + 1, vn);
                    if (pe > de + 1 && pe < vn && viaText.charAt(pe) == ')') {
                        if (pe - de - 1 > MAX_DIGITS) {
                            return false;
                        }
                        proxy = IntScan.digits(viaText, de + 1, pe);
                    }
                }
            }
        }
        channel = ch;
        fromRank = from;
        toRank = to;
        fromDev = text(l, fromOpen, fromClose);
        toDev = text(l, toOpen, toClose);
        direction = dir;
        via = viaText;
        device = dev;
        proxyRank = proxy;
        return true;
    }

    /**
     * Reads the entries of a {@code Trees} line from {@code at} (just past {@code Trees}) to the end of
     * {@code l} into {@code out}, as {@link NcclChannelLines} makes them; false (and {@code out} as it was)
     * when the line is not entries in one of the shapes above, one after another, to its end.
     */
    boolean trees(String l, int at, String comm, Evidence ev, List<TreeNode> out) {
        int n = l.length();
        int start = out.size();
        i = at;
        while (i < n) {
            if (!(lit(l, " [") && unsigned(l))) {
                return undo(out, start);
            }
            int channel = v;
            if (!(lit(l, "] ") && signed(l))) {
                return undo(out, start);
            }
            int d0 = v;
            if (!(lit(l, "/") && signed(l))) {
                return undo(out, start);
            }
            int d1 = v;
            if (!(lit(l, "/") && signed(l))) {
                return undo(out, start);
            }
            int d2 = v;
            if (!(lit(l, "->") && unsigned(l))) {
                return undo(out, start);
            }
            int rank = v;
            if (!(lit(l, "->") && signed(l))) {
                return undo(out, start);
            }
            out.add(new TreeNode(comm, channel, 0, rank, v, ranks.children(d0, d1, d2), ev));
            if (i < n && l.charAt(i) == '|') { // 2.5-2.7 double tree: |up->rank->down0/down1/down2
                i++;
                if (!signed(l)) {
                    return undo(out, start);
                }
                int up = v;
                if (!(lit(l, "->") && unsigned(l) && lit(l, "->") && signed(l))) {
                    return undo(out, start);
                }
                int e0 = v;
                if (!(lit(l, "/") && signed(l))) {
                    return undo(out, start);
                }
                int e1 = v;
                if (!(lit(l, "/") && signed(l))) {
                    return undo(out, start);
                }
                out.add(new TreeNode(comm, channel, 1, rank, up, ranks.children(e0, e1, v), ev));
            }
        }
        return true;
    }

    private static boolean undo(List<TreeNode> out, int size) {
        out.subList(size, out.size()).clear();
        return false;
    }

    private boolean lit(String l, String s) {
        if (l.startsWith(s, i)) {
            i += s.length();
            return true;
        }
        return false;
    }

    /** {@code \d+} of at most {@link #MAX_DIGITS} digits into {@code v}. */
    private boolean unsigned(String l) {
        int e = digitsEnd(l, i, l.length());
        if (e == i || e - i > MAX_DIGITS) {
            return false;
        }
        v = IntScan.digits(l, i, e);
        i = e;
        return true;
    }

    /** {@code -?\d+} of at most {@link #MAX_DIGITS} digits into {@code v}. */
    private boolean signed(String l) {
        boolean neg = i < l.length() && l.charAt(i) == '-';
        if (neg) {
            i++;
        }
        if (!unsigned(l)) {
            return false;
        }
        if (neg) {
            v = -v;
        }
        return true;
    }

    private static int digitsEnd(String s, int from, int n) {
        int k = from;
        while (k < n && s.charAt(k) >= '0' && s.charAt(k) <= '9') {
            k++;
        }
        return k;
    }

    /** {@code [0-9a-fA-F]*} from {@code from}: where it ends. */
    private static int hexEnd(String s, int from, int n) {
        int k = from;
        while (k < n) {
            char c = s.charAt(k);
            if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'))) {
                break;
            }
            k++;
        }
        return k;
    }

    /** {@code l[from, to)} as a string, the one cut out before when the same text came lately. */
    String text(String l, int from, int to) {
        int len = to - from;
        if (len > MAX_SHARED) {
            return l.substring(from, to);
        }
        int h = len;
        for (int k = from; k < to; k++) {
            h = 31 * h + l.charAt(k);
        }
        int slot = (h ^ (h >>> 10)) & (shared.length - 1);
        String t = shared[slot];
        if (t != null && t.length() == len && l.startsWith(t, from)) {
            return t;
        }
        t = l.substring(from, to);
        shared[slot] = t;
        return t;
    }
}
