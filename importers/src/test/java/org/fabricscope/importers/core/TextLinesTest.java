package org.fabricscope.importers.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

/**
 * The line reader that copies runs of bytes reads every stream as the byte-at-a-time one it replaced
 * ({@link LegacyTextLines}, kept verbatim): the same lines, numbers, cut and NUL flags and counts, for
 * LF, CRLF and lone CR ends, CRLFs split across reads, byte order marks, NULs, bad UTF-8 and lines past
 * {@link TextLines#MAX_LINE}, delivered in reads of random sizes.
 */
class TextLinesTest {
    /** A stream that hands out at most a random few bytes per read, as pipes and decompressors do. */
    private static InputStream chunked(byte[] bytes, long seed) {
        Random rnd = new Random(seed);
        return new ByteArrayInputStream(bytes) {
            @Override
            public synchronized int read(byte[] b, int off, int len) {
                return super.read(b, off, Math.min(len, 1 + rnd.nextInt(rnd.nextBoolean() ? 7 : 70_000)));
            }
        };
    }

    private static List<String> all(byte[] bytes, long seed, boolean legacy) throws IOException {
        List<String> out = new ArrayList<>();
        if (legacy) {
            try (LegacyTextLines t = new LegacyTextLines(chunked(bytes, seed))) {
                for (String l; (l = t.next()) != null; ) {
                    out.add(t.lineNumber() + (t.truncated() ? " cut" : "") + (t.hasNul() ? " nul" : "") + " " + l);
                }
                out.add("bytes " + t.bytesRead() + " nuls " + t.nulBytes() + " after " + t.next());
            }
        } else {
            try (TextLines t = new TextLines(chunked(bytes, seed))) {
                for (String l; (l = t.next()) != null; ) {
                    if (t.ascii()) { // a promise the NCCL parser compares bytes on
                        assertTrue(l.chars().allMatch(c -> c < 0x80), l);
                    }
                    if (t.truncated() || t.hasNul()) {
                        assertFalse(t.whole(), l); // read in pieces: its bytes are not there to compare
                    }
                    beginnings(t, l, seed);
                    out.add(t.lineNumber() + (t.truncated() ? " cut" : "") + (t.hasNul() ? " nul" : "") + " " + l);
                }
                out.add("bytes " + t.bytesRead() + " nuls " + t.nulBytes() + " after " + t.next());
            }
        }
        return out;
    }

    /**
     * Of a line read whole, {@link TextLines#startsWith} says what its characters say of an ASCII beginning: its own
     * first characters (while they are ASCII), the same with the last one changed, and one longer than the line.
     */
    private static void beginnings(TextLines t, String l, long seed) {
        if (!t.whole()) {
            return;
        }
        int ascii = 0;
        while (ascii < l.length() && l.charAt(ascii) < 0x80) {
            ascii++;
        }
        int n = Math.floorMod(seed * 31 + l.length(), ascii + 1);
        byte[] own = l.substring(0, n).getBytes(StandardCharsets.US_ASCII);
        assertTrue(t.startsWith(own, n), l);
        if (n > 0) {
            byte[] other = own.clone();
            other[n - 1] = (byte) (other[n - 1] == 'q' ? 'r' : 'q');
            assertEquals(l.startsWith(new String(other, StandardCharsets.US_ASCII)), t.startsWith(other, n), l);
        }
        byte[] longer = (l.substring(0, ascii) + "z".repeat(l.length() - ascii + 1))
                .getBytes(StandardCharsets.US_ASCII);
        assertFalse(t.startsWith(longer, longer.length), l);
    }

    @Test
    void readsAsTheByteAtATimeReaderDid() throws IOException {
        Random rnd = new Random(20261125);
        byte[][] pieces = {"\n".getBytes(), "\r".getBytes(), "\r\n".getBytes(), {0}, {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF},
            "vendid=0x2c9".getBytes(), "h\u00e9llo \u2603".getBytes(StandardCharsets.UTF_8), {(byte) 0xC3}, {(byte) 0xFF}, "x".getBytes(),
            // runs of eight bytes and more (read eight at a time), with a TAB or another control below CR inside
            "job-worker-0:1000:1000 [0] NCCL INFO".getBytes(), "a\tb\u000bc0123456789".getBytes(), "\u000c\u0001\u000e\u001f".getBytes()};
        long cut = 0;
        for (int round = 0; round < 600; round++) {
            java.io.ByteArrayOutputStream b = new java.io.ByteArrayOutputStream();
            int parts = rnd.nextInt(60);
            for (int i = 0; i < parts; i++) {
                if (rnd.nextInt(40) == 0) {
                    byte[] longLine = new byte[TextLines.MAX_LINE - 3 + rnd.nextInt(8)]; // about the limit
                    java.util.Arrays.fill(longLine, (byte) 'a');
                    if (rnd.nextBoolean()) {
                        longLine[rnd.nextInt(longLine.length)] = 0;
                    }
                    b.writeBytes(longLine);
                } else {
                    b.writeBytes(pieces[rnd.nextInt(pieces.length)]);
                }
            }
            byte[] bytes = b.toByteArray();
            List<String> expected = all(bytes, round, true);
            assertEquals(expected, all(bytes, round + 1_000_000L, false), "round " + round);
            cut += expected.stream().filter(l -> l.contains(" cut")).count();
        }
        assertTrue(cut > 10, "lines past the limit were tried: " + cut);
    }

    @Test
    void aLoneCrAndCrLfEachEndOneLine() throws IOException {
        try (TextLines t = new TextLines(new ByteArrayInputStream("a\rb\r\nc\n\nd".getBytes()))) {
            assertEquals("a", t.next());
            assertEquals("b", t.next());
            assertEquals("c", t.next());
            assertEquals("", t.next());
            assertEquals("d", t.next());
            assertEquals(5, t.lineNumber());
            assertNull(t.next());
        }
    }

    /** Lines read whole are told ASCII or not; a byte past ASCII anywhere, even after eight plain ones, says not. */
    @Test
    void saysWhichLinesAreAscii() throws IOException {
        byte[] text = ("plain line\nh\u00e9llo\n0123456789abcdef\u2603 x\nshort\n12345678\u00e9\n")
                .getBytes(StandardCharsets.UTF_8);
        List<Boolean> flags = new ArrayList<>();
        try (TextLines t = new TextLines(new ByteArrayInputStream(text))) {
            while (t.next() != null) {
                flags.add(t.ascii());
            }
        }
        assertEquals(List.of(true, false, false, true, false), flags);
    }
}
