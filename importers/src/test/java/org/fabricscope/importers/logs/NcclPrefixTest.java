package org.fabricscope.importers.logs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;

import org.fabricscope.importers.core.Numbers;
import org.junit.jupiter.api.Test;

/** The NCCL line prefix {@code host:pid:tid [dev] [file:line [(func)]] NCCL LEVEL }: what it takes and what it refuses. */
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

    /** Prefixes, NCCL's and not, the random lines of the tests below begin with. */
    private static final List<String> PREFIXES = List.of("job-worker-0:1000:1000 [0] NCCL INFO ",
                "job-worker-0:1000:1000 [0] NCCL WARN ",
                "job-worker-0:1000:1001 [0] NCCL INFO ", "job-worker-0:10001:1000 [0] NCCL INFO ",
                "job-worker-01:1000:1000 [1] NCCL INFO ", "job-worker-0:1000:1000 [0] misc/socket.cc:50 NCCL WARN ",
                "job-worker-0:1000:1000 [0] NCCL INFO", "h:99999999999:1 [0] NCCL INFO ", "job-worker-0:1000:1000 [0] NCCL ",
                "job-worker-0:1000:1000 [0] NCCL TRACE ", "job worker:1:1 [0] NCCL INFO ", "",
                // past ASCII: a host in Latin-1, and one whose character's low byte is the 'j' of the others
                "j\u00f6b-worker-0:1000:1000 [0] NCCL INFO ", "\u016aob-worker-0:1000:1000 [0] NCCL INFO ");
    private static final List<String> MESSAGES = List.of("", "Channel 00/0 : 0[0] -> 1[1] via P2P/IPC",
                "NCCL INFO again",
                " NCCL INFO x", "[0] NCCL WARN y", "x", "Init COMPLETE", "r\u00e9seau", "\u2192 1");

    /**
     * A line that begins with the last NCCL line's prefix ({@link NcclPrefix#same}) has the fields a scan of it
     * finds: checked on random runs of lines, most sharing a prefix, some only part of one (another pid, level
     * or device; a message that repeats {@code NCCL INFO}; a prefix with no message; a pid past int range).
     */
    @Test
    void aLineThatBeginsWithTheLastPrefixHasItsFields() {
        List<String> prefixes = PREFIXES;
        List<String> messages = MESSAGES;
        Random r = new Random(27);
        for (int run = 0; run < 4_000; run++) {
            NcclPrefix fast = new NcclPrefix();
            NcclPrefix bytes = new NcclPrefix(); // told which lines are ASCII, as the file reader tells it
            for (int i = 0; i < 12; i++) {
                String l = prefixes.get(r.nextInt(prefixes.size())) + messages.get(r.nextInt(messages.size()));
                boolean ascii = l.chars().allMatch(c -> c < 0x80);
                NcclPrefix slow = new NcclPrefix();
                boolean scanned;
                try {
                    scanned = scan(slow, l, null);
                } catch (Numbers.OutOfRange e) {
                    assertFalse(fast.same(l), l); // a prefix that did not scan is never the last one
                    assertFalse(bytes.same(l, ascii), l);
                    continue;
                }
                boolean same = fast.same(l);
                assertEquals(same, bytes.same(l, ascii), l);
                if (same) {
                    assertTrue(scanned, l);
                    for (NcclPrefix p : List.of(fast, bytes)) {
                        assertEquals(slow.host, p.host, l);
                        assertEquals(slow.pid, p.pid, l);
                        assertEquals(slow.level, p.level, l);
                        assertEquals(slow.at, p.at, l);
                    }
                } else if (scanned) {
                    assertTrue(scan(fast, l, fast.host), l);
                    assertTrue(bytes.scan(l, l.indexOf(" NCCL "), bytes.host, ascii), l);
                }
            }
        }
    }

    /** A line compared by its bytes is never taken for another that differs only past ASCII. */
    @Test
    void bytesComparedOnlyForAsciiLines() {
        NcclPrefix p = new NcclPrefix();
        String ascii = "job-worker-0:1000:1000 [0] NCCL INFO a";
        assertTrue(p.scan(ascii, ascii.indexOf(" NCCL "), null, true));
        // U+016A's low byte is 'j': told (rightly) that it is not ASCII, the line is compared as characters
        assertFalse(p.same("\u016aob-worker-0:1000:1000 [0] NCCL INFO b", false));
        assertTrue(p.same("job-worker-0:1000:1000 [0] NCCL INFO b", true));
        assertTrue(p.same("job-worker-0:1000:1000 [0] NCCL INFO b", false));
        assertFalse(p.same("job-worker-0:1000:1001 [0] NCCL INFO b", true));
        assertFalse(p.same("job-worker-0:1000:1000 [0] NCCL INF", true), "shorter than the prefix");
    }

    @Test
    void aPidPastIntRangeIsReportedNotSkipped() {
        assertThrows(Numbers.OutOfRange.class, () -> scan(new NcclPrefix(), "h:99999999999:1 [0] NCCL INFO x", null));
    }

    /**
     * What the line's bytes say of its beginning ({@link NcclPrefix#sameStart}, read from the reader's buffer) is what
     * comparing its characters says, whenever the bytes can tell: random lines of the prefixes and messages above,
     * some in UTF-8 past ASCII, some with a bad byte, read by {@link TextLines} in reads of random sizes.
     */
    @Test
    void theLinesBytesTellWhatItsCharactersWould() throws java.io.IOException {
        Random r = new Random(28);
        int told = 0;
        for (int run = 0; run < 400; run++) {
            java.io.ByteArrayOutputStream b = new java.io.ByteArrayOutputStream();
            for (int i = 0; i < 40; i++) {
                b.writeBytes((PREFIXES.get(r.nextInt(PREFIXES.size())) + MESSAGES.get(r.nextInt(MESSAGES.size())))
                        .getBytes(java.nio.charset.StandardCharsets.UTF_8));
                if (r.nextInt(20) == 0) {
                    b.write(0xC3); // a bad UTF-8 byte: the line decodes with U+FFFD
                }
                b.write(r.nextInt(10) == 0 ? '\r' : '\n');
            }
            byte[] bytes = b.toByteArray();
            Random reads = new Random(run);
            org.fabricscope.importers.core.TextLines lines = new org.fabricscope.importers.core.TextLines(
                    new java.io.ByteArrayInputStream(bytes) {
                        @Override
                        public synchronized int read(byte[] to, int off, int len) {
                            int most = 1 + reads.nextInt(reads.nextBoolean() ? 100 : 5000);
                            return super.read(to, off, Math.min(len, most));
                        }
                    });
            NcclPrefix p = new NcclPrefix();
            for (String l; (l = lines.next()) != null; ) {
                boolean ascii = lines.ascii();
                int said = p.sameStart(lines);
                boolean same = p.same(l, ascii);
                if (said >= 0) {
                    told++;
                    assertEquals(same, said == 1, l);
                }
                if (!same) {
                    try {
                        p.scan(l, l.indexOf(" NCCL "), p.host, ascii);
                    } catch (Numbers.OutOfRange e) {
                        // a pid past int range: not a prefix to compare with
                    }
                }
            }
        }
        assertTrue(told > 2_000, "the bytes told for many lines: " + told);
    }
}
