package org.fabricscope.importers.forensics;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * The plain-data pickle reader: every value Python's pickler writes for dicts, lists, tuples, strings,
 * bytes, ints, floats, booleans and None in protocols 2-5 (fixtures written by CPython 3.11's pickle),
 * and refusal, without executing anything, of every opcode that imports or calls, of unknown opcodes,
 * and of inputs past the bounds.
 */
class ForensicsSafePickleTest {
    @ParameterizedTest
    @ValueSource(ints = {2, 3, 4, 5})
    void readsPlainValuesOfEveryProtocol(int protocol) throws Exception {
        Object v = SafePickle.read(ForensicsFixtures.bytes(ForensicsFixtures.resource("pickle/values-p" + protocol + ".pkl")));
        Map<?, ?> m = (Map<?, ?>) v;
        assertEquals("2.10", m.get("version"));
        assertEquals(List.of(0L, 1L, 255L, 256L, 65535L, 65536L, -1L, -2147483648L, 2147483647L, 2147483648L,
                Long.MAX_VALUE, Long.MIN_VALUE, BigInteger.TWO.pow(64), BigInteger.TWO.pow(70).negate()), m.get("ints"));
        assertEquals(List.of(0.5, -1.25, 1e300), m.get("floats"));
        assertEquals(List.of("", "ascii", "ünïcødé ✓", "x".repeat(300)), m.get("strs"));
        assertEquals(List.of("a"), m.get("tuple1"));
        assertEquals(List.of("a", "b"), m.get("tuple2"));
        assertEquals(List.of(1L, 2L, 3L), m.get("tuple3"));
        assertEquals(List.of(1L, 2L, 3L, 4L, 5L), m.get("tuple5"));
        assertEquals(List.of(), m.get("empty_tuple"));
        assertEquals(java.util.Arrays.asList(true, false, null), m.get("bools"));
        assertEquals(Map.of("k", List.of(Map.of("deep", List.of(List.of(List.of("x")))))), m.get("nested"));
        assertEquals(List.of("ascii", "ascii", "ascii"), m.get("shared_str"));
        assertEquals("int key", m.get(1L));
        if (protocol >= 3) {
            assertArrayEquals("\u0000\u0001binary".getBytes(StandardCharsets.ISO_8859_1), (byte[]) m.get("bytes"));
        }
    }

    @Test
    void protocol2BytesNeedAGlobalAndAreRefused() {
        // protocol 2 writes bytes as _codecs.encode(u'...', 'latin1'): an import and a call
        var e = assertThrows(SafePickle.PickleException.class,
                () -> SafePickle.read(ForensicsFixtures.bytes(ForensicsFixtures.resource("pickle/bytes-p2.pkl"))));
        assertTrue(e.refused());
        assertTrue(e.getMessage().contains("GLOBAL"), e.getMessage());
        assertEquals(13, e.offset());
    }

    @Test
    void classInstancesAreRefusedAtTheirStackGlobal() {
        var e = assertThrows(SafePickle.PickleException.class,
                () -> SafePickle.read(ForensicsFixtures.bytes(ForensicsFixtures.resource("pickle/ordereddict-p4.pkl"))));
        assertTrue(e.refused());
        assertTrue(e.getMessage().contains("STACK_GLOBAL"), e.getMessage());
    }

    /** The classic exploit: {@code os.system('touch /tmp/pwned')} as a protocol-2 pickle. */
    @Test
    void theOsSystemExploitIsRefusedBeforeAnything() {
        byte[] evil = concat(new byte[] {(byte) 0x80, 2}, "cos\nsystem\n(X".getBytes(StandardCharsets.US_ASCII),
                le32(17), "touch /tmp/pwned!".getBytes(StandardCharsets.US_ASCII), "tR.".getBytes(StandardCharsets.US_ASCII));
        var e = assertThrows(SafePickle.PickleException.class, () -> SafePickle.read(evil));
        assertTrue(e.refused());
        assertEquals(2, e.offset());
        assertFalse(new java.io.File("/tmp/pwned!").exists());
    }

    @ParameterizedTest
    @ValueSource(ints = {'c', 0x93, 'R', 'b', 'i', 'o', 0x81, 0x92, 0x82, 0x83, 0x84, 'P', 'Q', 0x97, 0x98})
    void everyImportingOrCallingOpcodeIsRefused(int op) {
        // a value on the stack first, so that a reader that pops would have something to call
        byte[] p = {(byte) 0x80, 4, 'N', 'N', (byte) op, 'x', 'y', '\n', 'z', '\n', '.'};
        var e = assertThrows(SafePickle.PickleException.class, () -> SafePickle.read(p));
        assertTrue(e.refused(), e.getMessage());
        assertEquals(4, e.offset());
        assertTrue(e.getMessage().contains("nothing was executed"), e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(ints = {'I', 'L', 'F', 'S', 'V', 0x8f, 0x90, 0x91, 0xff, 0x00})
    void unknownOrTextOpcodesAreNotGuessed(int op) {
        byte[] p = {(byte) 0x80, 2, (byte) op, '1', '\n', '.'};
        var e = assertThrows(SafePickle.PickleException.class, () -> SafePickle.read(p));
        assertFalse(e.refused());
        assertTrue(e.getMessage().contains("unsupported pickle opcode"), e.getMessage());
    }

    @Test
    void aListThatContainsItselfIsRefused() {
        var e = assertThrows(SafePickle.PickleException.class,
                () -> SafePickle.read(ForensicsFixtures.bytes(ForensicsFixtures.resource("pickle/cycle-p4.pkl"))));
        assertTrue(e.getMessage().contains("contains itself"), e.getMessage());
    }

    /** 60 levels of {@code x = [x, x]}: 374 bytes that would be 2^60 values if walked as a tree. */
    @Test
    void sharedContainersThatEncodeAnExponentialTreeAreRefused() {
        var e = assertThrows(SafePickle.PickleException.class,
                () -> SafePickle.read(ForensicsFixtures.bytes(ForensicsFixtures.resource("pickle/shared-blowup-p4.pkl"))));
        assertTrue(e.getMessage().contains("shared containers") || e.getMessage().contains("deeper"), e.getMessage());
    }

    /** A dict key is hashed recursively: one nested 200,000 deep is refused, not a stack overflow. */
    @Test
    void aDictKeyNestedDeeperThanTheLimitIsRefused() {
        java.io.ByteArrayOutputStream o = new java.io.ByteArrayOutputStream();
        o.writeBytes(new byte[] {(byte) 0x80, 2, '}', 'K', 1});
        for (int i = 0; i < 200_000; i++) {
            o.write(0x85); // TUPLE1
        }
        o.writeBytes(new byte[] {'K', 2, 's', '.'});
        var e = assertThrows(SafePickle.PickleException.class, () -> SafePickle.read(o.toByteArray()));
        assertTrue(e.getMessage().contains("dict key nested deeper than 64"), e.getMessage());
    }

    @Test
    void nestingDeeperThanTheLimitIsRefused() {
        var e = assertThrows(SafePickle.PickleException.class,
                () -> SafePickle.read(ForensicsFixtures.bytes(ForensicsFixtures.resource("pickle/deep-p4.pkl"))));
        assertTrue(e.getMessage().contains("deeper than 64"), e.getMessage());
    }

    @Test
    void lengthsBeyondTheInputAreTruncationNotAllocation() {
        // BINUNICODE of 2^31 - 1 bytes, BINBYTES8 of 2^62, FRAME of 2^40: nothing is allocated for them
        for (byte[] p : List.of(concat(new byte[] {(byte) 0x80, 4, 'X'}, le32(Integer.MAX_VALUE), new byte[] {'.'}),
                concat(new byte[] {(byte) 0x80, 4, (byte) 0x8e}, le64(1L << 62), new byte[] {'.'}),
                concat(new byte[] {(byte) 0x80, 4, (byte) 0x95}, le64(1L << 40), new byte[] {'N', '.'}))) {
            var e = assertThrows(SafePickle.PickleException.class, () -> SafePickle.read(p));
            assertTrue(e.getMessage().contains("truncated") || e.getMessage().contains("beyond") || e.getMessage().contains("limit"),
                    e.getMessage());
        }
    }

    @Test
    void structuralNonsenseIsAnErrorNotACrash() {
        List<byte[]> bad = List.of(
                new byte[] {(byte) 0x80, 2},                           // no STOP
                new byte[] {(byte) 0x80, 2, '.'},                      // STOP on an empty stack
                new byte[] {(byte) 0x80, 2, 'N', 'N', '.'},            // two values left
                new byte[] {(byte) 0x80, 2, 'a', '.'},                 // APPEND on nothing
                new byte[] {(byte) 0x80, 2, 'N', 'N', 'a', '.'},       // APPEND to None
                new byte[] {(byte) 0x80, 2, '}', 'N', 's', '.'},       // SETITEM with one value
                new byte[] {(byte) 0x80, 2, ']', 'h', 9, '.'},          // BINGET of a memo never stored
                new byte[] {(byte) 0x80, 2, 'u', '.'},                 // SETITEMS without a MARK
                new byte[] {(byte) 0x80, 2, '}', '(', '}', 'N', 'u', '.'}, // a dict as a dict key
                new byte[] {(byte) 0x80, 2, '(', 'a', '.'},            // APPEND onto a MARK
                new byte[] {(byte) 0x80, 9, 'N', '.'},                 // protocol 9
                new byte[] {(byte) 0x80, 2, (byte) 0x8b, (byte) 0xff, (byte) 0xff, 0, 0, '.'}); // LONG4 of 65535 bytes
        for (byte[] p : bad) {
            assertThrows(SafePickle.PickleException.class, () -> SafePickle.read(p), java.util.Arrays.toString(p));
        }
    }

    @Test
    void limitsAreEnforced() {
        SafePickle.Limits tiny = new SafePickle.Limits(1024, 3, 2, 50, 8);
        byte[] longString = concat(new byte[] {(byte) 0x80, 4, (byte) 0x8c, 9}, "123456789".getBytes(StandardCharsets.US_ASCII),
                new byte[] {'.'});
        assertTrue(assertThrows(SafePickle.PickleException.class, () -> SafePickle.read(longString, tiny)).getMessage()
                .contains("limit 8"));
        byte[] memo = {(byte) 0x80, 4, 'N', (byte) 0x94, (byte) 0x94, (byte) 0x94, '.'};
        assertTrue(assertThrows(SafePickle.PickleException.class, () -> SafePickle.read(memo, tiny)).getMessage()
                .contains("memo"));
        ByteArrayOutputStream many = new ByteArrayOutputStream();
        many.write(0x80);
        many.write(4);
        many.write(']');
        for (int i = 0; i < 60; i++) {
            many.write('N');
            many.write('a');
        }
        many.write('.');
        assertTrue(assertThrows(SafePickle.PickleException.class, () -> SafePickle.read(many.toByteArray(), tiny))
                .getMessage().contains("values"));
        assertTrue(assertThrows(SafePickle.PickleException.class, () -> SafePickle.read(new byte[2048], tiny))
                .getMessage().contains("larger than"));
    }

    @Test
    void memoSharedFramesOfARealDumpAreRead() throws Exception {
        // CPython's pickler shares the one frame dict of both entries through the memo
        Map<?, ?> dump = (Map<?, ?>) SafePickle.read(ForensicsFixtures.bytes(ForensicsFixtures.resource("pickle/python-p4_rank_3")));
        List<?> entries = (List<?>) dump.get("entries");
        assertEquals(2, entries.size());
        assertEquals(((Map<?, ?>) entries.get(0)).get("frames"), ((Map<?, ?>) entries.get(1)).get("frames"));
    }

    private static byte[] le32(int v) {
        return new byte[] {(byte) v, (byte) (v >> 8), (byte) (v >> 16), (byte) (v >> 24)};
    }

    private static byte[] le64(long v) {
        byte[] b = new byte[8];
        for (int i = 0; i < 8; i++) {
            b[i] = (byte) (v >> (8 * i));
        }
        return b;
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }
}
