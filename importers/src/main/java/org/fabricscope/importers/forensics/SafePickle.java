package org.fabricscope.importers.forensics;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A Python pickle reader for plain data only: dicts, lists, tuples (read as lists), strings, bytes,
 * integers, floats, booleans and None, as PyTorch's flight recorder writes its dumps (dicts are
 * {@link PickleDict}s, insertion-ordered like Python's; lists and tuples {@link PickleList}s). It interprets
 * the opcodes of protocols 2 to 5 that build such values and refuses, before doing anything, every
 * opcode that would import a name or call one ({@code GLOBAL}, {@code STACK_GLOBAL}, {@code REDUCE},
 * {@code BUILD}, {@code INST}, {@code OBJ}, {@code NEWOBJ}, {@code NEWOBJ_EX}, {@code EXT1/2/4},
 * {@code PERSID}, {@code BINPERSID}) and every opcode it does not know. Nothing is ever executed:
 * this is a stack machine over Java maps and lists. Input size, container nesting, memo size, string
 * length and the number of values are bounded; a value that contains itself is refused ({@link PickleWalk},
 * made only when {@link PickleNesting}'s bookkeeping cannot vouch for the value). {@link #readItems} reads a
 * dump's entries into sinks instead of dicts, and gives up (the caller reads plain values) wherever that
 * could give another value. See {@code docs/decisions/0007-flight-recorder-pickle.md}.
 */
public final class SafePickle {
    /** Limits; the defaults fit a flight recorder dump of 20000 entries with stack frames. */
    public record Limits(int maxBytes, int maxDepth, int maxMemo, int maxValues, int maxString) {
        public static final Limits DEFAULT = new Limits(256 * 1024 * 1024, 64, 4_000_000, 20_000_000, 16 * 1024 * 1024);
    }

    /** Why a pickle was not read: the opcode (or problem), and the byte offset where it was met. */
    public static final class PickleException extends Exception {
        private static final long serialVersionUID = 1L;
        private final long offset;
        private final boolean refused;

        PickleException(String message, long offset, boolean refused) {
            super(message + " at byte " + offset);
            this.offset = offset;
            this.refused = refused;
        }

        public long offset() {
            return offset;
        }

        /** True when the pickle asked for something this reader never does (import, call, extension). */
        public boolean refused() {
            return refused;
        }
    }

    private static final Object MARK = new Object() {
        @Override
        public String toString() {
            return "MARK";
        }
    };

    /** The pickle's bytes, read opcode by opcode. */
    private final PickleInput in;
    private final Limits limits;
    private int values;
    /** The stack machine's stack and the positions of its MARKs: plain arrays, grown on demand. */
    private Object[] stack = new Object[256];
    private int sp;
    private int[] marks = new int[64];
    private int mp;
    private final PickleMemo memo;
    /**
     * The maker of the dicts that are items of one list of the root dict (a flight recorder dump's
     * {@code entries}): each such dict, when the pickle builds it as a plain dict item of that list, is
     * the {@link PickleSink} this makes, which takes its keys as they are set instead of holding them.
     */
    interface Items {
        /** The root dict's key whose list holds the items. */
        String key();

        /** A new, empty item. */
        PickleSink newItem();
    }

    /** The bookkeeping of nesting, counts, sharing and sinks. */
    private final PickleNesting nesting;

    private SafePickle(byte[] bytes, int length, Limits limits, Items items) {
        this.in = new PickleInput(bytes, length, limits.maxString());
        this.limits = limits;
        this.nesting = new PickleNesting(limits, items);
        this.memo = new PickleMemo(length, limits.maxMemo());
    }

    /** Reads one pickle with the default limits. */
    public static Object read(byte[] bytes) throws PickleException {
        return read(bytes, Limits.DEFAULT);
    }

    public static Object read(byte[] bytes, Limits limits) throws PickleException {
        return read(bytes, bytes.length, limits);
    }

    /** Reads the pickle in the first {@code length} bytes (of a reused buffer). */
    static Object read(byte[] bytes, int length, Limits limits) throws PickleException {
        if (length > limits.maxBytes()) {
            throw new PickleException("pickle larger than " + limits.maxBytes() + " bytes", 0, false);
        }
        SafePickle p = new SafePickle(bytes, length, limits, null);
        Object v = p.run();
        if (p.nesting.needsWalk(v)) {
            new PickleWalk(limits, length).check(v);
        }
        return v;
    }

    /**
     * Reads one pickle whose root is a dict, the dict items of its list under {@code items.key()} made by
     * {@code items} (so that they are never held as dicts). Null when the pickle must be read without
     * them, by {@link #read(byte[], Limits)}, for the value or the error it gives: it is not read with
     * them when a container held in two places changes after (a sink must see each value complete), a
     * sink would end up anywhere but in that list, the value would fail the limits, or it is not a
     * pickle that can be read. What it gives otherwise equals what {@code read} gives, but for the sinks.
     */
    static Object readItems(byte[] bytes, Limits limits, Items items) {
        return readItems(bytes, bytes.length, limits, items);
    }

    /** {@link #readItems(byte[], Limits, Items)} of the first {@code length} bytes (of a reused buffer). */
    static Object readItems(byte[] bytes, int length, Limits limits, Items items) {
        if (length > limits.maxBytes()) {
            return null;
        }
        SafePickle p = new SafePickle(bytes, length, limits, items);
        try {
            Object v = p.run();
            if (p.nesting.needsWalk(v)) {
                return null;
            }
            if (!p.nesting.itemListIsUnder(v)) {
                return null;
            }
            return v;
        } catch (PickleNesting.Unstreamable | PickleException e) {
            return null;
        }
    }

    /** Whether the bytes start like a pickle of protocol 2 to 5 ({@code PROTO n}). */
    public static boolean looksLikePickle(byte[] head) {
        return head.length >= 3 && (head[0] & 0xff) == 0x80 && head[1] >= 2 && head[1] <= 5;
    }

    private Object run() throws PickleException {
        try {
            return runOpcodes();
        } catch (PickleDict.Flooded e) {
            throw fail(e.getMessage());
        }
    }

    private Object runOpcodes() throws PickleException {
        while (true) {
            if (in.left() <= 0) {
                throw fail("truncated pickle: no STOP opcode");
            }
            int op = in.opcode();
            switch (op) {
                case '(' -> { // MARK
                    if (mp >= limits.maxDepth() * 4) {
                        throw fail("more than " + limits.maxDepth() * 4 + " nested MARKs");
                    }
                    if (mp == marks.length) {
                        marks = java.util.Arrays.copyOf(marks, mp * 2);
                    }
                    marks[mp++] = sp;
                    stackAdd(MARK);
                }
                case '}' -> push(nesting.emptyDict(stack, sp, marks, mp)); // EMPTY_DICT
                // Picklers fill a list with one APPEND when it has one item, else with APPENDS (which sizes it):
                // room for one, not ArrayList's default ten, saves an array per list (half of them in a dump).
                case ']' -> push(nesting.emptyList(stack, sp, marks, mp, 1)); // EMPTY_LIST
                case 's' -> { // SETITEM
                    Object v = pop();
                    Object k = pop();
                    Map<Object, Object> m = map(peek(), "SETITEM");
                    Object key = key(k);
                    nesting.nest(m, v); // before a sink takes the value apart
                    PickleNesting.underKey(key, v);
                    m.put(key, v);
                }
                case 'u' -> { // SETITEMS
                    int at = popMark();
                    setItems(map(peekBelow(at), "SETITEMS"), at);
                }
                case 'a' -> { // APPEND
                    Object v = pop();
                    List<Object> l = list(peek(), "APPEND");
                    nesting.nest(l, v);
                    l.add(v);
                }
                case 'e' -> { // APPENDS
                    int at = popMark();
                    List<Object> l = list(peekBelow(at), "APPENDS");
                    if (l instanceof ArrayList<Object> a) {
                        a.ensureCapacity(a.size() + sp - at - 1);
                    }
                    addItems(l, at);
                }
                case 'J' -> push(SmallLongs.of(in.i32())); // BININT
                case 'K' -> push(SmallLongs.of(in.u8())); // BININT1
                case 'M' -> push(SmallLongs.of(in.u8() | (in.u8() << 8))); // BININT2
                case 0x8a -> push(in.longLe(in.u8())); // LONG1
                case 'G' -> push(Double.longBitsToDouble(in.u64be())); // BINFLOAT
                case 0x8c -> push(in.utf8(in.u8())); // SHORT_BINUNICODE
                case 'X' -> push(in.utf8(in.u32())); // BINUNICODE
                case 'N' -> push(null); // NONE
                case 0x88 -> push(Boolean.TRUE); // NEWTRUE
                case 0x89 -> push(Boolean.FALSE); // NEWFALSE
                case 0x94 -> memoPut(memo.size(), peek()); // MEMOIZE
                case 'q' -> memoPut(in.u8(), peek()); // BINPUT
                case 'r' -> memoPut(in.u32(), peek()); // LONG_BINPUT
                case 'h' -> push(nesting.again(memoGet(in.u8()))); // BINGET
                case 'j' -> push(nesting.again(memoGet(in.u32()))); // LONG_BINGET
                case 0x85, 0x86, 0x87 -> push(tuple(op - 0x84)); // TUPLE1, TUPLE2, TUPLE3
                default -> {
                    if (rare(op)) {
                        return stack[0];
                    }
                }
            }
        }
    }

    /**
     * The opcodes flight recorder dumps seldom or never hold (and the refused ones): out of {@link #run}'s
     * switch, so that the compiler makes that loop from the common opcodes alone (its on-stack
     * compilation of the whole switch was the largest compile of an import of 1,024 dumps). True at STOP.
     */
    private boolean rare(int op) throws PickleException {
        switch (op) {
                case 0x80 -> { // PROTO
                    int v = in.u8();
                    if (v < 2 || v > 5) {
                        throw fail("unsupported pickle protocol " + v);
                    }
                }
                case 0x95 -> { // FRAME: an 8-byte length; the frame's opcodes follow inline
                    long n = in.u64();
                    if (n < 0 || n > in.left()) {
                        throw fail("FRAME length " + n + " beyond the end of the input");
                    }
                }
                case '.' -> { // STOP
                    if (sp != 1 || mp != 0) {
                        throw fail("STOP with " + sp + " values on the stack");
                    }
                    if (in.left() > 0) { // a pickler writes nothing after STOP: the rest would be another file's or garbage
                        throw fail(in.left() + " bytes after the pickle's STOP");
                    }
                    return true;
                }
                case '0' -> pop(); // POP
                case '1' -> dropMark(popMark()); // POP_MARK
                case '2' -> push(nesting.again(peek())); // DUP
                case ')' -> push(new PickleList(0)); // EMPTY_TUPLE
                case 'd' -> { // DICT
                    int at = popMark();
                    Map<Object, Object> m = new PickleDict((sp - at - 1) / 2);
                    setItems(m, at);
                    push(m);
                }
                case 'l', 't' -> { // LIST, TUPLE
                    int at = popMark();
                    List<Object> l = new PickleList(sp - at - 1);
                    addItems(l, at);
                    push(l);
                }
                case 0x8b -> { // LONG4
                    long n = in.i32();
                    if (n < 0 || n > 64) {
                        throw fail("LONG4 of " + n + " bytes");
                    }
                    push(in.longLe((int) n));
                }
                case 0x8d -> push(in.utf8(in.u64())); // BINUNICODE8
                case 'U' -> push(in.latin1(in.u8())); // SHORT_BINSTRING (protocol 2's str)
                case 'T' -> push(in.latin1(in.u32())); // BINSTRING
                case 'C' -> push(in.bytes(in.u8())); // SHORT_BINBYTES
                case 'B' -> push(in.bytes(in.u32())); // BINBYTES
                case 0x8e, 0x96 -> push(in.bytes(in.u64())); // BINBYTES8, BYTEARRAY8
                case 'p' -> memoPut(in.decimalLine(), peek()); // PUT
                case 'g' -> push(nesting.again(memoGet(in.decimalLine()))); // GET
                case 'c' -> throw refuse("GLOBAL (imports a Python name)");
                case 0x93 -> throw refuse("STACK_GLOBAL (imports a Python name)");
                case 'R' -> throw refuse("REDUCE (calls a Python callable)");
                case 'b' -> throw refuse("BUILD (calls __setstate__ on an object)");
                case 'i' -> throw refuse("INST (imports a class and calls it)");
                case 'o' -> throw refuse("OBJ (calls a class)");
                case 0x81 -> throw refuse("NEWOBJ (calls cls.__new__)");
                case 0x92 -> throw refuse("NEWOBJ_EX (calls cls.__new__)");
                case 0x82, 0x83, 0x84 -> throw refuse("EXT" + (op == 0x82 ? 1 : op == 0x83 ? 2 : 4)
                        + " (imports a name from the extension registry)");
                case 'P' -> throw refuse("PERSID (asks the loader for a persistent object)");
                case 'Q' -> throw refuse("BINPERSID (asks the loader for a persistent object)");
                case 0x97, 0x98 -> throw refuse((op == 0x97 ? "NEXT_BUFFER" : "READONLY_BUFFER")
                        + " (out-of-band buffers)");
                default -> throw fail("unsupported pickle opcode 0x" + Integer.toHexString(op)
                        + (op >= 0x20 && op < 0x7f ? " ('" + (char) op + "')" : ""));

        }
        return false;
    }

    private PickleException fail(String what) {
        return in.fail(what);
    }

    private PickleException refuse(String what) {
        return new PickleException("refused opcode " + what + "; nothing was executed", in.opAt(), true);
    }

    private void push(Object v) throws PickleException {
        if (++values > limits.maxValues()) {
            throw fail("more than " + limits.maxValues() + " values");
        }
        stackAdd(v);
    }

    private void stackAdd(Object v) {
        if (sp == stack.length) {
            stack = java.util.Arrays.copyOf(stack, sp * 2);
        }
        stack[sp++] = v;
    }

    private Object pop() throws PickleException {
        if (sp == 0) {
            throw fail("stack underflow");
        }
        Object v = stack[--sp];
        stack[sp] = null;
        if (v == MARK) {
            throw fail("a MARK where a value was expected");
        }
        return v;
    }

    private Object peek() throws PickleException {
        if (sp == 0 || stack[sp - 1] == MARK) {
            throw fail("no value on the stack");
        }
        return stack[sp - 1];
    }

    /** The value below the MARK at {@code at}: what SETITEMS and APPENDS add to. */
    private Object peekBelow(int at) throws PickleException {
        if (at == 0 || stack[at - 1] == MARK) {
            throw fail("no value on the stack");
        }
        return stack[at - 1];
    }

    /**
     * Removes the topmost MARK from the mark list; the items above it stay on the stack, at
     * {@code at + 1} up to the top, until {@link #dropMark} takes them and the MARK off.
     */
    private int popMark() throws PickleException {
        if (mp == 0) {
            throw fail("no MARK on the stack");
        }
        return marks[--mp];
    }

    private void dropMark(int at) {
        java.util.Arrays.fill(stack, at, sp, null);
        sp = at;
    }

    private void addItems(List<Object> l, int at) {
        for (int i = at + 1; i < sp; i++) {
            nesting.nest(l, stack[i]);
            l.add(stack[i]);
        }
        dropMark(at);
    }

    /** TUPLE1 to TUPLE3: the top {@code n} values as a tuple. */
    private PickleList tuple(int n) throws PickleException {
        PickleList t = new PickleList(n);
        for (int i = 0; i < n; i++) {
            t.add(null);
        }
        for (int i = n - 1; i >= 0; i--) {
            Object v = pop();
            nesting.nest(t, v);
            t.set(i, v);
        }
        return t;
    }

    @SuppressWarnings("unchecked")
    private Map<Object, Object> map(Object v, String op) throws PickleException {
        if (v instanceof Map<?, ?> m) {
            return (Map<Object, Object>) m;
        }
        throw fail(op + " on a " + typeName(v) + ", not a dict");
    }

    @SuppressWarnings("unchecked")
    private List<Object> list(Object v, String op) throws PickleException {
        if (v instanceof List<?> l) {
            return (List<Object>) l;
        }
        throw fail(op + " on a " + typeName(v) + ", not a list");
    }

    /** Sets the key-value pairs above the MARK at {@code at}, then drops them and the MARK. */
    private void setItems(Map<Object, Object> m, int at) throws PickleException {
        if ((sp - at - 1) % 2 != 0) {
            throw fail("odd number of items for a dict");
        }
        if (m instanceof PickleDict d) {
            d.ensureRoom((sp - at - 1) / 2);
        }
        for (int i = at + 1; i < sp; i += 2) {
            Object key = key(stack[i]);
            nesting.nest(m, stack[i + 1]); // before a sink takes the value apart
            PickleNesting.underKey(key, stack[i + 1]);
            m.put(key, stack[i + 1]);
        }
        dropMark(at);
    }

    /**
     * The longest string dict key, and the most values of a tuple key (nested tuples' values counted): a key is hashed and compared wherever it
     * is put or looked up, so a key of a megabyte (set again and again through the memo) would cost a
     * megabyte each time. A dump's keys are field names, group names and ids.
     */
    static final int MAX_KEY_CHARS = 4096;
    static final int MAX_TUPLE_KEY = 64;

    /** Dict keys are plain scalars (a list or dict key would be unhashable in Python too). */
    private Object key(Object k) throws PickleException {
        if (k instanceof String s && s.length() > MAX_KEY_CHARS) {
            throw fail("dict key of " + s.length() + " characters (SafePickle.MAX_KEY_CHARS " + MAX_KEY_CHARS + ")");
        }
        if (k == null || k instanceof String || k instanceof Long || k instanceof java.math.BigInteger
                || k instanceof Double || k instanceof Boolean) {
            return k;
        }
        if (k instanceof List<?> l) {
            // hashed and compared recursively: a key nested past the limit would overflow the stack (its kept
            // height tells, unless a container held twice changed since: then it is measured, within bounds)
            if (k instanceof PickleList p) {
                if (p.height > limits.maxDepth()) {
                    throw fail("dict key nested deeper than " + limits.maxDepth());
                }
                if (nesting.heightsMayBeStale()) {
                    new PickleWalk(limits, in.opAt()).check(p);
                }
            }
            int items = l instanceof PickleList pl ? pl.count - 1 : l.size(); // nested tuples counted through
            if (items > MAX_TUPLE_KEY) {
                throw fail("tuple dict key of " + items + " values (SafePickle.MAX_TUPLE_KEY " + MAX_TUPLE_KEY + ")");
            }
            return List.copyOf(l.stream().map(x -> x == null ? "None" : x).toList()); // a tuple key
        }
        throw fail("dict key of type " + typeName(k));
    }

    private void memoPut(long index, Object v) throws PickleException {
        if (!memo.put(index, v)) {
            throw fail("memo larger than " + limits.maxMemo() + " entries");
        }
    }

    private Object memoGet(long index) throws PickleException {
        if (!memo.has(index)) {
            throw fail("memo index " + index + " was never stored");
        }
        return memo.get(index);
    }

    private static String typeName(Object v) {
        return v == null ? "None" : v instanceof Map ? "dict" : v instanceof List ? "list/tuple"
                : v instanceof String ? "str" : v instanceof byte[] ? "bytes" : v.getClass().getSimpleName();
    }
}
