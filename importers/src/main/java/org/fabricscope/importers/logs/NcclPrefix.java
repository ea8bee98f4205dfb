package org.fabricscope.importers.logs;

import java.util.Arrays;

import org.fabricscope.importers.core.TextLines;

/**
 * The prefix NCCL prints before each message, {@code host:pid:tid [dev] [file:line [(func)]] NCCL LEVEL },
 * scanned by hand (no regular expression, and no substring but the host's): the fields of the last
 * line scanned. The message is not cut out: it is read in place, from {@link #at} to the line's end.
 * Not thread-safe: one per parser.
 */
final class NcclPrefix {
    String host;
    int pid;
    String level;
    /** Where the message starts in the line scanned (its length when there is none). */
    int at;

    /**
     * Scans {@code host:pid:tid [dev] } and the level after {@code NCCL} at {@code at}; false when it is
     * not an NCCL line. {@code lastHost} (may be null) is taken as the host when the line's is equal to it.
     */
    boolean scan(String l, int at, String lastHost) {
        return scan(l, at, lastHost, false);
    }

    /** As {@link #scan(String, int, String)}; {@code ascii}: the line is known to hold only ASCII characters. */
    @SuppressWarnings("deprecation") // String.getBytes(int, int, byte[], int): the low bytes, without allocating
    boolean scan(String l, int at, String lastHost, boolean ascii) {
        if (at <= 0) {
            return false;
        }
        int c1 = l.indexOf(':');
        if (c1 < 0 || c1 > at) {
            return false;
        }
        int c2 = l.indexOf(':', c1 + 1);
        int sp = l.indexOf(' ', c1 + 1);
        if (c2 < 0 || sp < 0 || c2 > sp || sp + 1 >= l.length() || l.charAt(sp + 1) != '[') {
            return false;
        }
        for (int i = c1 + 1; i < c2; i++) {
            char ch = l.charAt(i);
            if (ch < '0' || ch > '9') {
                return false;
            }
        }
        if (c2 == c1 + 1) {
            return false;
        }
        for (int i = c2 + 1; i < sp; i++) {
            if (!Character.isDigit(l.charAt(i))) {
                return false;
            }
        }
        int close = l.indexOf(']', sp);
        if (close < 0 || close > at) {
            return false;
        }
        int lvl = at + 6;
        int end = l.indexOf(' ', lvl);
        String lv = level(l, lvl, end < 0 ? l.length() : end);
        if (lv == null) {
            return false;
        }
        // a process's lines come in runs: the host read last (which held no white space), when it is this line's too
        String h;
        if (lastHost != null && lastHost.length() == c1 && l.startsWith(lastHost)) {
            h = lastHost;
        } else {
            for (int i = 0; i < c1; i++) {
                if (Character.isWhitespace(l.charAt(i))) {
                    return false;
                }
            }
            h = l.substring(0, c1);
        }
        // an NCCL line: a pid past int range is reported, not skipped quietly; up to 9 digits always fit
        pid = c2 - c1 - 1 <= 9 ? IntScan.digits(l, c1 + 1, c2) : NcclLogParser.num(l.substring(c1 + 1, c2), "pid");
        host = h;
        level = lv;
        this.at = end < 0 ? l.length() : end + 1;
        // the next line of this process most likely begins with the same prefix, and a message after it
        prefixLine = end < 0 ? null : l;
        prefixAscii = ascii && prefixLine != null;
        if (prefixAscii) {
            if (prefixBytes.length < this.at) {
                prefixBytes = new byte[this.at + 64];
                lineBytes = new byte[this.at + 64];
            }
            l.getBytes(0, this.at, prefixBytes, 0);
        }
        return true;
    }

    /**
     * The last NCCL line scanned, whose first {@link #at} characters are its prefix through the space after its
     * level; null when that line ended at its level. A line that begins with that prefix is an NCCL line with the
     * same fields: each field {@link #scan} reads, and the first {@code " NCCL "}, lie in that beginning. The line
     * is kept, not its prefix cut out: logs that interleave processes change prefix at nearly every line.
     */
    private String prefixLine;
    /**
     * Whether that line held only ASCII characters; its prefix's bytes are then in {@link #prefixBytes}, and a line
     * known to be ASCII too is compared with them by {@link Arrays#mismatch} (vectorised), not a character at a time
     * ({@code String.regionMatches}, whose loop took a fifth of the parser's time on a 7,700-rank log).
     */
    private boolean prefixAscii;
    private byte[] prefixBytes = new byte[128];
    /** The beginning of the line being compared, copied (for an ASCII string, each character is its byte). */
    private byte[] lineBytes = new byte[128];

    /**
     * Whether {@code l} begins with the prefix of the last NCCL line scanned: then its fields are that line's,
     * and {@link #at} is where its message starts. One comparison of the beginning instead of a scan, for the
     * runs of lines one process prints.
     */
    boolean same(String l) {
        return same(l, false);
    }

    /**
     * As {@link #same(String)}; {@code ascii}: the line is known to hold only ASCII characters, so that its
     * characters' low bytes are its characters.
     */
    @SuppressWarnings("deprecation") // String.getBytes(int, int, byte[], int): the low bytes, without allocating
    boolean same(String l, boolean ascii) {
        String p = prefixLine;
        if (p == null || l.length() < at) {
            return false;
        }
        if (ascii && prefixAscii) {
            l.getBytes(0, at, lineBytes, 0);
            return Arrays.mismatch(lineBytes, 0, at, prefixBytes, 0, at) < 0;
        }
        return l.regionMatches(0, p, 0, at);
    }

    /**
     * Whether the line {@code lines} returned last begins with the prefix of the last NCCL line scanned, looked at
     * in the bytes it was read from (no copy of its characters): 1 yes, 0 no, -1 not known (that prefix is not
     * ASCII, or the line was read in pieces), where {@link #same(String, boolean)} is to be asked. An ASCII prefix's
     * bytes are its characters, and a line's first characters are its first bytes' as long as those are ASCII, so a
     * line read whole begins with the prefix exactly when its bytes do.
     */
    int sameStart(TextLines lines) {
        if (prefixLine == null || !prefixAscii || !lines.whole()) {
            return -1;
        }
        return lines.startsWith(prefixBytes, at) ? 1 : 0;
    }

    /**
     * Where NCCL's {@code host:pid:tid [dev] } starts in {@code l}, whose {@code " NCCL "} is at {@code nccl}, after
     * whatever a launcher put before it: the first {@code :digits:digits [digits] } before {@code nccl} (the device
     * bracket too, so that a time of day and a tag, {@code 13:00:00 [default0]:}, are not taken for it), and the host
     * the characters before it that are neither white space nor one of {@code :[]()<>|} (a host name holds none of
     * them). -1 when there is none, or no host before it, or the line starts with white space: a launcher's prefix
     * starts the line, while an indented line quotes an NCCL line in a report of its own (a capture script's summary).
     */
    static int hostStart(String l, int nccl) {
        if (l.isEmpty() || Character.isWhitespace(l.charAt(0))) {
            return -1;
        }
        for (int c1 = l.indexOf(':'); c1 >= 0 && c1 < nccl; c1 = l.indexOf(':', c1 + 1)) {
            int c2 = digitsEnd(l, c1 + 1);
            if (c2 == c1 + 1 || c2 >= nccl || l.charAt(c2) != ':') {
                continue;
            }
            int sp = digitsEnd(l, c2 + 1);
            if (sp == c2 + 1 || sp + 1 >= nccl || l.charAt(sp) != ' ' || l.charAt(sp + 1) != '[') {
                continue;
            }
            int dev = sp + 2 < nccl && l.charAt(sp + 2) == '-' ? sp + 3 : sp + 2;
            int close = digitsEnd(l, dev);
            if (close == dev || close > nccl || l.charAt(close) != ']' || !l.startsWith(" ", close + 1)) {
                continue;
            }
            int start = c1;
            while (start > 0 && hostChar(l.charAt(start - 1))) {
                start--;
            }
            if (start < c1) {
                return start;
            }
        }
        return -1;
    }

    private static int digitsEnd(String l, int from) {
        int i = from;
        while (i < l.length() && l.charAt(i) >= '0' && l.charAt(i) <= '9') {
            i++;
        }
        return i;
    }

    private static boolean hostChar(char c) {
        return !Character.isWhitespace(c) && ":[]()<>|".indexOf(c) < 0;
    }

    /** The level word of an NCCL line between {@code from} and {@code to} (one of four constants), or null. */
    private static String level(String l, int from, int to) {
        int n = to - from;
        if (n == 4 && l.startsWith("INFO", from)) {
            return "INFO";
        }
        if (n == 4 && l.startsWith("WARN", from)) {
            return "WARN";
        }
        if (n == 5 && l.startsWith("TRACE", from)) {
            return "TRACE";
        }
        return n == 5 && l.startsWith("ERROR", from) ? "ERROR" : null;
    }
}
