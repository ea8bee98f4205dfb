package org.fabricscope.importers.forensics;

import java.nio.charset.StandardCharsets;

/**
 * A pickle's bytes as {@link SafePickle} reads them: the next opcode, and its operands (little- and big-endian
 * integers, strings and bytes), each checked against the bytes left and the string limit before it is read.
 * Every error names the offset of the opcode being read.
 */
final class PickleInput {
    private final byte[] b;
    /** Where the pickle's bytes end in {@link #b} (a reused buffer is longer). */
    private final int end;
    private final int maxString;
    private int pos;
    private int opAt;

    PickleInput(byte[] bytes, int length, int maxString) {
        this.b = bytes;
        this.end = length;
        this.maxString = maxString;
    }

    /** The bytes not read yet. */
    int left() {
        return end - pos;
    }

    /** The next opcode (there must be one: {@link #left()}); its offset is the one errors name from now on. */
    int opcode() {
        opAt = pos;
        return b[pos++] & 0xff;
    }

    /** The offset of the opcode being read. */
    int opAt() {
        return opAt;
    }

    /** A malformed pickle, at the opcode being read. */
    SafePickle.PickleException fail(String what) {
        return new SafePickle.PickleException(what, opAt, false);
    }

    int u8() throws SafePickle.PickleException {
        need(1);
        return b[pos++] & 0xff;
    }

    int i32() throws SafePickle.PickleException {
        need(4);
        int v = (b[pos] & 0xff) | (b[pos + 1] & 0xff) << 8 | (b[pos + 2] & 0xff) << 16 | (b[pos + 3] & 0xff) << 24;
        pos += 4;
        return v;
    }

    long u32() throws SafePickle.PickleException {
        return i32() & 0xffffffffL;
    }

    long u64() throws SafePickle.PickleException {
        need(8);
        long v = 0;
        for (int i = 7; i >= 0; i--) {
            v = (v << 8) | (b[pos + i] & 0xff);
        }
        pos += 8;
        return v;
    }

    long u64be() throws SafePickle.PickleException {
        need(8);
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v = (v << 8) | (b[pos + i] & 0xff);
        }
        pos += 8;
        return v;
    }

    void need(long n) throws SafePickle.PickleException {
        if (n < 0 || n > end - pos) {
            throw fail("truncated pickle: " + n + " bytes wanted, " + (end - pos) + " left");
        }
    }

    /** A little-endian two's complement integer of n bytes: a Long when it fits, else a BigInteger. */
    Object longLe(int n) throws SafePickle.PickleException {
        need(n);
        if (n == 0) {
            return 0L;
        }
        if (n <= 8) { // fits a long: sign-extend the top byte, no BigInteger (LONG1 of every nanosecond time)
            long v = b[pos + n - 1]; // signed
            for (int i = n - 2; i >= 0; i--) {
                v = (v << 8) | (b[pos + i] & 0xff);
            }
            pos += n;
            return v;
        }
        byte[] be = new byte[n];
        for (int i = 0; i < n; i++) {
            be[i] = b[pos + n - 1 - i];
        }
        pos += n;
        java.math.BigInteger v = new java.math.BigInteger(be);
        return v.bitLength() < 64 ? (Object) v.longValue() : v;
    }

    String utf8(long n) throws SafePickle.PickleException {
        checkString(n);
        String s = new String(b, pos, (int) n, StandardCharsets.UTF_8);
        pos += (int) n;
        return s;
    }

    String latin1(long n) throws SafePickle.PickleException {
        checkString(n);
        String s = new String(b, pos, (int) n, StandardCharsets.ISO_8859_1);
        pos += (int) n;
        return s;
    }

    byte[] bytes(long n) throws SafePickle.PickleException {
        checkString(n);
        byte[] out = java.util.Arrays.copyOfRange(b, pos, pos + (int) n);
        pos += (int) n;
        return out;
    }

    private void checkString(long n) throws SafePickle.PickleException {
        if (n > maxString) {
            throw fail("string of " + n + " bytes (limit " + maxString + ")");
        }
        need(n);
    }

    long decimalLine() throws SafePickle.PickleException {
        int start = pos;
        while (pos < end && b[pos] != '\n') {
            pos++;
            if (pos - start > 20) {
                throw fail("memo index line too long");
            }
        }
        if (pos >= end) {
            throw fail("truncated pickle in a memo index line");
        }
        String s = new String(b, start, pos - start, StandardCharsets.US_ASCII);
        pos++;
        try {
            return Long.parseLong(s.strip());
        } catch (NumberFormatException e) {
            throw fail("bad memo index '" + s + "'");
        }
    }
}
