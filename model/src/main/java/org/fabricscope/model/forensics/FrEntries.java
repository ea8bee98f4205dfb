package org.fabricscope.model.forensics;

import java.util.AbstractList;
import java.util.Arrays;
import java.util.List;
import java.util.RandomAccess;

/**
 * A dump's entries held as columns (one array per field) rather than one {@link FrEntry} object per
 * entry; {@link #get} makes the record on demand, equal to the one that was added. An import of 1,024
 * dumps holds 2 million entries: as records they were 2 million objects that every young collection
 * of the import copied once more, about 1.6 s of the 1,024-dump benchmark's collector pauses on two
 * cores (BENCHMARKS.md); as columns they are 20 arrays a dump, each held compactly ({@link Columns}:
 * counting fields as a progression, repeated instances as a byte per entry). Unmodifiable; the column
 * accessors let a pass over millions of entries read a field without making a record.
 */
public final class FrEntries extends AbstractList<FrEntry> implements RandomAccess {
    private static final FrEntries EMPTY = new Builder(0).build();

    private final int size;
    private final Columns.Longs recordId;
    private final Columns.Longs pgId;
    private final Columns.Refs pgName;
    private final Columns.Refs pgDesc;
    private final Columns.Longs collectiveSeqId;
    private final Columns.Longs p2pSeqId;
    private final Columns.Longs opId;
    private final Columns.Refs profilingName;
    /** Bit 0: p2p, bit 1: retired. */
    private final Columns.Longs flags;
    private final Columns.Refs inputSizes;
    private final Columns.Refs inputDtypes;
    private final Columns.Refs outputSizes;
    private final Columns.Refs outputDtypes;
    private final Columns.Refs state;
    private final Columns.Longs createdNs;
    private final Columns.Longs startedNs;
    private final Columns.Longs completedNs;
    /** The doubles' bits. */
    private final Columns.Longs durationMs;
    private final Columns.Longs timeoutMs;
    private final Columns.Refs frames;
    /** The entries by process group, for the analysis. */
    private final PgIndex index;
    /** The highest record id, -1 when there are no entries. */
    private final long maxRecordId;
    /** See {@link #sharedSignature}. */
    private final Object[] signature;

    private FrEntries(Builder b) {
        int n = b.size;
        size = n;
        index = PgIndex.of(n, b.pgName, b.pgDesc, b.pgId, b.collectiveSeqId, b.flags, b.state);
        maxRecordId = max(b.recordId, n);
        // made in two loops, not twenty calls: the compiler inlines a call site, and this constructor runs
        // once per dump (its compilations with twenty copies of the column makers took 0.5 s on two cores)
        Columns.Longs[] longs = Columns.Longs.of(n, b.recordId, b.pgId, b.collectiveSeqId, b.p2pSeqId, b.opId, b.flags,
                b.createdNs, b.startedNs, b.completedNs, b.durationMs, b.timeoutMs);
        recordId = longs[0];
        pgId = longs[1];
        collectiveSeqId = longs[2];
        p2pSeqId = longs[3];
        opId = longs[4];
        flags = longs[5];
        createdNs = longs[6];
        startedNs = longs[7];
        completedNs = longs[8];
        durationMs = longs[9];
        timeoutMs = longs[10];
        Columns.Refs[] refs = Columns.Refs.of(n, b.pgName, b.pgDesc, b.profilingName, b.inputSizes, b.inputDtypes,
                b.outputSizes, b.outputDtypes, b.state, b.frames);
        pgName = refs[0];
        pgDesc = refs[1];
        profilingName = refs[2];
        inputSizes = refs[3];
        inputDtypes = refs[4];
        outputSizes = refs[5];
        outputDtypes = refs[6];
        state = refs[7];
        frames = refs[8];
        Object name = profilingName.constant();
        Object dtypes = inputDtypes.constant();
        Object sizes = inputSizes.constant();
        signature = name == null || dtypes == null || sizes == null ? null : new Object[] {name, dtypes, sizes};
    }

    private static long max(long[] v, int n) {
        long m = -1;
        for (int i = 0; i < n; i++) {
            m = Math.max(m, v[i]);
        }
        return m;
    }

    /** The highest record id (at least -1): how far a dump's ring buffer reached. */
    public long maxRecordId() {
        return maxRecordId;
    }

    /** The entries by process group (made with the columns). */
    PgIndex index() {
        return index;
    }

    /** No entries. */
    public static FrEntries of() {
        return EMPTY;
    }

    /** The entries of a list, in its order (the list itself when it already is one). */
    public static FrEntries copyOf(List<FrEntry> entries) {
        if (entries instanceof FrEntries f) {
            return f;
        }
        Builder b = new Builder(entries.size());
        for (FrEntry e : entries) {
            b.add(e);
        }
        return b.build();
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    @SuppressWarnings("unchecked")
    public FrEntry get(int i) {
        java.util.Objects.checkIndex(i, size);
        long flag = flags.get(i);
        return new FrEntry(recordId.get(i), (int) pgId.get(i), (String) pgName.get(i), (String) pgDesc.get(i),
                collectiveSeqId.get(i), p2pSeqId.get(i), opId.get(i), (String) profilingName.get(i), (flag & 1) != 0,
                (List<List<Long>>) inputSizes.get(i), (List<String>) inputDtypes.get(i),
                (List<List<Long>>) outputSizes.get(i), (List<String>) outputDtypes.get(i), (String) state.get(i),
                createdNs.get(i), startedNs.get(i), completedNs.get(i), Double.longBitsToDouble(durationMs.get(i)),
                timeoutMs.get(i), (flag & 2) != 0, (List<String>) frames.get(i));
    }

    /** {@link FrEntry#recordId()} of entry {@code i}, without making the record. */
    public long recordId(int i) {
        java.util.Objects.checkIndex(i, size);
        return recordId.get(i);
    }

    /** {@link FrEntry#pgId()} of entry {@code i}. */
    public int pgId(int i) {
        java.util.Objects.checkIndex(i, size);
        return (int) pgId.get(i);
    }

    /** {@link FrEntry#pgName()} of entry {@code i}. */
    public String pgName(int i) {
        java.util.Objects.checkIndex(i, size);
        return (String) pgName.get(i);
    }

    /** {@link FrEntry#pgDesc()} of entry {@code i}. */
    public String pgDesc(int i) {
        java.util.Objects.checkIndex(i, size);
        return (String) pgDesc.get(i);
    }

    /** {@link FrEntry#collectiveSeqId()} of entry {@code i}. */
    public long collectiveSeqId(int i) {
        java.util.Objects.checkIndex(i, size);
        return collectiveSeqId.get(i);
    }

    /** {@link FrEntry#p2p()} of entry {@code i}. */
    public boolean p2p(int i) {
        java.util.Objects.checkIndex(i, size);
        return (flags.get(i) & 1) != 0;
    }

    /** {@link FrEntry#state()} of entry {@code i}. */
    public String state(int i) {
        java.util.Objects.checkIndex(i, size);
        return (String) state.get(i);
    }

    /** {@link FrEntry#profilingName()} of entry {@code i}. */
    public String profilingName(int i) {
        java.util.Objects.checkIndex(i, size);
        return (String) profilingName.get(i);
    }

    /** {@link FrEntry#createdNs()} of entry {@code i}: when its rank enqueued it (0 when the dump has no time). */
    public long createdNs(int i) {
        java.util.Objects.checkIndex(i, size);
        return createdNs.get(i);
    }

    /** {@link FrEntry#durationMs()} of entry {@code i}: negative when the dump has none (timing was off). */
    public double durationMs(int i) {
        java.util.Objects.checkIndex(i, size);
        return Double.longBitsToDouble(durationMs.get(i));
    }

    /** The process groups of the entries, in the order of their first entry. */
    public List<String> processGroupNames() {
        return index.groups().stream().map(g -> g.name).toList();
    }

    /**
     * The entries of process group {@code pg} that are collectives (not point-to-point, a sequence number
     * of 0 or more, a name), in entry order: indexes for the column accessors. A copy.
     */
    public int[] collectiveEntries(String pg) {
        PgIndex.Group g = index.group(pg);
        return g == null ? new int[0] : Arrays.copyOf(g.collective, g.nCollective);
    }

    /** {@link FrEntry#inputDtypes()} of entry {@code i}: the instance the record would hold. */
    public Object inputDtypes(int i) {
        java.util.Objects.checkIndex(i, size);
        return inputDtypes.get(i);
    }

    /**
     * The name, dtypes and shapes instances every entry holds, when each of the three is one instance for
     * all entries (the usual dump of a training loop's one collective); null otherwise. Two dumps whose
     * signatures hold the same three instances agree on those fields at every entry.
     */
    Object[] sharedSignature() {
        return signature;
    }

    /** {@link FrEntry#inputSizes()} of entry {@code i}: the instance the record would hold. */
    public Object inputSizes(int i) {
        java.util.Objects.checkIndex(i, size);
        return inputSizes.get(i);
    }

    /**
     * The entries at the first {@code n} of {@code indices}, in that order, as an unmodifiable list that
     * makes each record when asked (a rank's entries of one process group, without 2,000 records).
     */
    public List<FrEntry> select(int[] indices, int n) {
        int[] at = Arrays.copyOf(indices, n);
        for (int i : at) {
            java.util.Objects.checkIndex(i, size);
        }
        return new Selection(this, at);
    }

    /**
     * The first entry of {@code list} whose collective sequence number is {@code seq}, or null. A columnar
     * list (this table or a selection of it) is searched in its column, making one record, for the one
     * found: the hang finding asks this of every leading rank (1,023 ranks x 2,000 entries).
     */
    public static FrEntry firstWithCollectiveSeq(List<FrEntry> list, long seq) {
        if (list instanceof FrEntries t) {
            for (int i = 0; i < t.size; i++) {
                if (t.collectiveSeqId.get(i) == seq) {
                    return t.get(i);
                }
            }
            return null;
        }
        if (list instanceof Selection s) {
            for (int i : s.at) {
                if (s.table.collectiveSeqId.get(i) == seq) {
                    return s.table.get(i);
                }
            }
            return null;
        }
        for (FrEntry e : list) {
            if (e.collectiveSeqId() == seq) {
                return e;
            }
        }
        return null;
    }

    /** Whether {@code list} is unmodifiable and makes its records from columns: nothing to copy. */
    public static boolean isColumnar(List<FrEntry> list) {
        return list instanceof FrEntries || list instanceof Selection;
    }

    private static final class Selection extends AbstractList<FrEntry> implements RandomAccess {
        private final FrEntries table;
        private final int[] at;

        Selection(FrEntries table, int[] at) {
            this.table = table;
            this.at = at;
        }

        @Override
        public FrEntry get(int i) {
            return table.get(at[i]);
        }

        @Override
        public int size() {
            return at.length;
        }
    }

    /** Collects entries in order; {@link #build} makes the columns. Not thread-safe. */
    public static final class Builder {
        private int size;
        private long[] recordId;
        private long[] pgId;
        private String[] pgName;
        private String[] pgDesc;
        private long[] collectiveSeqId;
        private long[] p2pSeqId;
        private long[] opId;
        private String[] profilingName;
        private long[] flags;
        private Object[] inputSizes;
        private Object[] inputDtypes;
        private Object[] outputSizes;
        private Object[] outputDtypes;
        private String[] state;
        private long[] createdNs;
        private long[] startedNs;
        private long[] completedNs;
        private long[] durationMs;
        private long[] timeoutMs;
        private Object[] frames;

        public Builder(int expected) {
            allocate(Math.max(0, expected));
        }

        private void allocate(int n) {
            recordId = recordId == null ? new long[n] : Arrays.copyOf(recordId, n);
            pgId = pgId == null ? new long[n] : Arrays.copyOf(pgId, n);
            pgName = pgName == null ? new String[n] : Arrays.copyOf(pgName, n);
            pgDesc = pgDesc == null ? new String[n] : Arrays.copyOf(pgDesc, n);
            collectiveSeqId = collectiveSeqId == null ? new long[n] : Arrays.copyOf(collectiveSeqId, n);
            p2pSeqId = p2pSeqId == null ? new long[n] : Arrays.copyOf(p2pSeqId, n);
            opId = opId == null ? new long[n] : Arrays.copyOf(opId, n);
            profilingName = profilingName == null ? new String[n] : Arrays.copyOf(profilingName, n);
            flags = flags == null ? new long[n] : Arrays.copyOf(flags, n);
            inputSizes = inputSizes == null ? new Object[n] : Arrays.copyOf(inputSizes, n);
            inputDtypes = inputDtypes == null ? new Object[n] : Arrays.copyOf(inputDtypes, n);
            outputSizes = outputSizes == null ? new Object[n] : Arrays.copyOf(outputSizes, n);
            outputDtypes = outputDtypes == null ? new Object[n] : Arrays.copyOf(outputDtypes, n);
            state = state == null ? new String[n] : Arrays.copyOf(state, n);
            createdNs = createdNs == null ? new long[n] : Arrays.copyOf(createdNs, n);
            startedNs = startedNs == null ? new long[n] : Arrays.copyOf(startedNs, n);
            completedNs = completedNs == null ? new long[n] : Arrays.copyOf(completedNs, n);
            durationMs = durationMs == null ? new long[n] : Arrays.copyOf(durationMs, n);
            timeoutMs = timeoutMs == null ? new long[n] : Arrays.copyOf(timeoutMs, n);
            frames = frames == null ? new Object[n] : Arrays.copyOf(frames, n);
        }

        public int size() {
            return size;
        }

        /** Adds an entry (its fields as the record holds them). */
        public Builder add(FrEntry e) {
            return add(e.recordId(), e.pgId(), e.pgName(), e.pgDesc(), e.collectiveSeqId(), e.p2pSeqId(), e.opId(),
                    e.profilingName(), e.p2p(), e.inputSizes(), e.inputDtypes(), e.outputSizes(), e.outputDtypes(),
                    e.state(), e.createdNs(), e.startedNs(), e.completedNs(), e.durationMs(), e.timeoutMs(),
                    e.retired(), e.frames());
        }

        /**
         * Adds an entry from its fields, normalised as {@link FrEntry}'s constructor does (null texts are
         * empty, lists unmodifiable), so that {@link FrEntries#get} gives that record.
         */
        public Builder add(long recordId, int pgId, String pgName, String pgDesc, long collectiveSeqId,
                           long p2pSeqId, long opId, String profilingName, boolean p2p,
                           List<List<Long>> inputSizes, List<String> inputDtypes, List<List<Long>> outputSizes,
                           List<String> outputDtypes, String state, long createdNs, long startedNs,
                           long completedNs, double durationMs, long timeoutMs, boolean retired,
                           List<String> frames) {
            if (size == this.recordId.length) {
                allocate(Math.max(16, size * 2));
            }
            int i = size++;
            this.recordId[i] = recordId;
            this.pgId[i] = pgId;
            this.pgName[i] = pgName == null ? "" : pgName;
            this.pgDesc[i] = pgDesc == null ? "" : pgDesc;
            this.collectiveSeqId[i] = collectiveSeqId;
            this.p2pSeqId[i] = p2pSeqId;
            this.opId[i] = opId;
            this.profilingName[i] = profilingName == null ? "" : profilingName;
            this.flags[i] = (p2p ? 1 : 0) | (retired ? 2 : 0);
            this.inputSizes[i] = FrEntry.immutable(inputSizes);
            this.inputDtypes[i] = List.copyOf(inputDtypes);
            this.outputSizes[i] = FrEntry.immutable(outputSizes);
            this.outputDtypes[i] = List.copyOf(outputDtypes);
            this.state[i] = state == null ? "" : state;
            this.createdNs[i] = createdNs;
            this.startedNs[i] = startedNs;
            this.completedNs[i] = completedNs;
            this.durationMs[i] = Double.doubleToRawLongBits(durationMs);
            this.timeoutMs[i] = timeoutMs;
            this.frames[i] = List.copyOf(frames);
            return this;
        }

        public FrEntries build() {
            return new FrEntries(this);
        }
    }
}
