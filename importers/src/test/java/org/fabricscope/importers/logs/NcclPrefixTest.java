package org.fabricscope.importers.logs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;

import org.fabricscope.importers.core.Numbers;
import org.junit.jupiter.api.Test;

/** The NCCL line prefix {@code host:pid:tid [dev] [file:line [(func)]] NCCL LEVEL }, scanned in one pass. */
class NcclPrefixTest {

    private static boolean scan(NcclPrefix p, String l, String lastHost) {
        return p.scan(l, l.indexOf(" NCCL "), lastHost);
    }

    @Test
    void readsThePrefixesNcclPrints() {
        NcclPrefix p = new NcclPrefix();
        assertTrue(scan(p, "job-worker-27:1220:1220 [4] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/IPC", null));
        assertEquals("job-worker-27", p.host);
        assertEquals(1220, p.pid);
        assertEquals("INFO", p.level);
        assertEquals("job-worker-27:1220:1220 [4] NCCL INFO ".length(), p.at);
        // NCCL_DEBUG_FILE's file:line and function, and an empty tid field as some builds print
        assertTrue(scan(p, "node-a:77: [0] misc/socket.cc:50 NCCL WARN socket closed", null));
        assertEquals("node-a", p.host);
        assertEquals(77, p.pid);
        assertEquals("WARN", p.level);
        assertTrue(scan(p, "node-a:77:90 [0] transport/net.cc:120 (ncclProxyConnect) NCCL ERROR Call to connect", null));
        assertEquals("ERROR", p.level);
        assertTrue(scan(p, "h:1:2 [7] NCCL TRACE", null));
        assertEquals("TRACE", p.level);
        assertEquals("h:1:2 [7] NCCL TRACE".length(), p.at, "no message: it starts at the line's end");
    }

    @Test
    void refusesWhatIsNotAnNcclPrefix() {
        NcclPrefix p = new NcclPrefix();
        for (String l : new String[] {
                "no colon here [0] NCCL INFO x",           // no host:pid
                "host::1 [0] NCCL INFO x",                 // empty pid
                "host:12a:1 [0] NCCL INFO x",              // a pid that is not digits
                "host:12:1x [0] NCCL INFO x",              // a tid that is not digits
                "host:12:1 0] NCCL INFO x",                // no '[' after the tid
                "host:12:1 [0 NCCL INFO x",                // no ']' before the level
                "host:12:1 [0] NCCL DEBUG x",              // not a level NCCL prints
                "two words:12:1 [0] NCCL INFO x",          // white space in the host
                "host:12 [0] NCCL INFO x"}) {              // no tid field
            assertFalse(scan(p, l, null), l);
        }
    }

    @Test
    void takesTheHostReadLastWhenTheLineHasIt() {
        NcclPrefix p = new NcclPrefix();
        assertTrue(scan(p, "node-a:7:7 [0] NCCL INFO a", null));
        String first = p.host;
        assertTrue(scan(p, "node-a:7:7 [0] NCCL INFO b", first));
        assertSame(first, p.host);
        assertTrue(scan(p, "node-ab:7:7 [0] NCCL INFO b", first));
        assertEquals("node-ab", p.host);
    }

    @Test
    void aPidPastIntRangeIsReportedNotSkipped() {
        assertThrows(Numbers.OutOfRange.class, () -> scan(new NcclPrefix(), "h:99999999999:1 [0] NCCL INFO x", null));
    }

    /**
     * The one-pass scan against the scan it replaced (five indexOf calls; kept below as the reference) on lines
     * made of prefix pieces, some of them broken, with the characters that separate the fields in odd places.
     */
    @Test
    void agreesWithTheIndexOfScanOnRandomPrefixes() {
        Random r = new Random(27);
        String[] hosts = {"job-worker-3", "a", "", "x y", "n:1", "node\t1", "h[0]"};
        String[] digits = {"1220", "", "0", "12a", "٣٤", "1 2", "123456789", ":", "]"};
        String[] devs = {"[4]", "[", "]", "[12", "[]", "[0] file.cc:12 (fn)", "[0] a:b"};
        String[] levels = {"INFO", "WARN", "ERROR", "TRACE", "INF", "INFOX", "warn", ""};
        String[] tails = {" msg", "", " a - Init COMPLETE", "  ", " : ] [ :"};
        int agreed = 0;
        for (int i = 0; i < 200_000; i++) {
            StringBuilder b = new StringBuilder();
            b.append(hosts[r.nextInt(hosts.length)]);
            if (r.nextInt(10) > 0) {
                b.append(':').append(digits[r.nextInt(digits.length)]);
            }
            if (r.nextInt(10) > 0) {
                b.append(':').append(digits[r.nextInt(digits.length)]);
            }
            b.append(r.nextInt(8) > 0 ? " " : "").append(devs[r.nextInt(devs.length)]);
            b.append(" NCCL ").append(levels[r.nextInt(levels.length)]).append(tails[r.nextInt(tails.length)]);
            String l = b.toString();
            int at = l.indexOf(" NCCL ");
            String last = r.nextBoolean() ? null : hosts[r.nextInt(hosts.length)];
            NcclPrefix now = new NcclPrefix();
            Reference ref = new Reference();
            Object expected = outcome(() -> ref.scan(l, at, last));
            Object actual = outcome(() -> now.scan(l, at, last));
            assertEquals(expected, actual, l);
            if (Boolean.TRUE.equals(actual)) {
                assertEquals(ref.host, now.host, l);
                assertEquals(ref.pid, now.pid, l);
                assertEquals(ref.level, now.level, l);
                assertEquals(ref.at, now.at, l);
                agreed++;
            }
        }
        assertTrue(agreed > 2_000, "the random lines held too few NCCL prefixes to compare: " + agreed);
    }

    private static Object outcome(java.util.function.BooleanSupplier s) {
        try {
            return s.getAsBoolean();
        } catch (Numbers.OutOfRange e) {
            return "out of range";
        }
    }

    /** The scan before the one-pass rewrite (issue 27), word for word: the oracle of the random test. */
    private static final class Reference {
        String host;
        int pid;
        String level;
        int at;

        boolean scan(String l, int at, String lastHost) {
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
            int to = end < 0 ? l.length() : end;
            String lv = null;
            for (String w : new String[] {"INFO", "WARN", "TRACE", "ERROR"}) {
                if (to - lvl == w.length() && l.startsWith(w, lvl)) {
                    lv = w;
                }
            }
            if (lv == null) {
                return false;
            }
            if (lastHost != null && lastHost.length() == c1 && l.startsWith(lastHost)) {
                host = lastHost;
            } else {
                for (int i = 0; i < c1; i++) {
                    if (Character.isWhitespace(l.charAt(i))) {
                        return false;
                    }
                }
                host = l.substring(0, c1);
            }
            pid = c2 - c1 - 1 <= 9 ? IntScan.digits(l, c1 + 1, c2) : NcclLogParser.num(l.substring(c1 + 1, c2), "pid");
            level = lv;
            this.at = end < 0 ? l.length() : end + 1;
            return true;
        }
    }
}
