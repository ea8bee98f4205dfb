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
 * cores (BENCHMARKS.md); as columns they are 20 arrays a dump. Unmodifiable; the column accessors let
 * a pass over millions of entries read a field without making a record.
 */
public final class FrEntries extends AbstractList<FrEntry> implements RandomAccess {
    private static final FrEntries EMPTY = new Builder(0).build();

    private final int size;
    private final long[] recordId;
    private final int[] pgId;
    private final String[] pgName;
    private final String[] pgDesc;
    private final long[] collectiveSeqId;
    private final long[] p2pSeqId;
    private final long[] opId;
    private final String[] profilingName;
    /** Bit 0: p2p, bit 1: retired. */
    private final byte[] flags;
    private final Object[] inputSizes;
    private final Object[] inputDtypes;
    private final Object[] outputSizes;
    private final Object[] outputDtypes;
    private final String[] state;
    private final long[] createdNs;
    private final long[] startedNs;
    private final long[] completedNs;
    private final double[] durationMs;
    private final long[] timeoutMs;
    private final Object[] frames;

    private FrEntries(Builder b) {
        int n = b.size;
        size = n;
        recordId = Arrays.copyOf(b.recordId, n);
        pgId = Arrays.copyOf(b.pgId, n);
        pgName = Arrays.copyOf(b.pgName, n);
        pgDesc = Arrays.copyOf(b.pgDesc, n);
        collectiveSeqId = Arrays.copyOf(b.collectiveSeqId, n);
        p2pSeqId = Arrays.copyOf(b.p2pSeqId, n);
        opId = Arrays.copyOf(b.opId, n);
        profilingName = Arrays.copyOf(b.profilingName, n);
        flags = Arrays.copyOf(b.flags, n);
        inputSizes = Arrays.copyOf(b.inputSizes, n);
        inputDtypes = Arrays.copyOf(b.inputDtypes, n);
        outputSizes = Arrays.copyOf(b.outputSizes, n);
        outputDtypes = Arrays.copyOf(b.outputDtypes, n);
        state = Arrays.copyOf(b.state, n);
        createdNs = Arrays.copyOf(b.createdNs, n);
        startedNs = Arrays.copyOf(b.startedNs, n);
        completedNs = Arrays.copyOf(b.completedNs, n);
        durationMs = Arrays.copyOf(b.durationMs, n);
        timeoutMs = Arrays.copyOf(b.timeoutMs, n);
        frames = Arrays.copyOf(b.frames, n);
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
        return new FrEntry(recordId[i], pgId[i], pgName[i], pgDesc[i], collectiveSeqId[i], p2pSeqId[i], opId[i],
                profilingName[i], (flags[i] & 1) != 0, (List<List<Long>>) inputSizes[i], (List<String>) inputDtypes[i],
                (List<List<Long>>) outputSizes[i], (List<String>) outputDtypes[i], state[i], createdNs[i],
                startedNs[i], completedNs[i], durationMs[i], timeoutMs[i], (flags[i] & 2) != 0,
                (List<String>) frames[i]);
    }

    /** {@link FrEntry#recordId()} of entry {@code i}, without making the record. */
    public long recordId(int i) {
        java.util.Objects.checkIndex(i, size);
        return recordId[i];
    }

    /** {@link FrEntry#pgId()} of entry {@code i}. */
    public int pgId(int i) {
        java.util.Objects.checkIndex(i, size);
        return pgId[i];
    }

    /** {@link FrEntry#pgName()} of entry {@code i}. */
    public String pgName(int i) {
        java.util.Objects.checkIndex(i, size);
        return pgName[i];
    }

    /** {@link FrEntry#pgDesc()} of entry {@code i}. */
    public String pgDesc(int i) {
        java.util.Objects.checkIndex(i, size);
        return pgDesc[i];
    }

    /** {@link FrEntry#collectiveSeqId()} of entry {@code i}. */
    public long collectiveSeqId(int i) {
        java.util.Objects.checkIndex(i, size);
        return collectiveSeqId[i];
    }

    /** {@link FrEntry#p2p()} of entry {@code i}. */
    public boolean p2p(int i) {
        java.util.Objects.checkIndex(i, size);
        return (flags[i] & 1) != 0;
    }

    /** {@link FrEntry#state()} of entry {@code i}. */
    public String state(int i) {
        java.util.Objects.checkIndex(i, size);
        return state[i];
    }

    /** {@link FrEntry#profilingName()} of entry {@code i}. */
    public String profilingName(int i) {
        java.util.Objects.checkIndex(i, size);
        return profilingName[i];
    }

    /** {@link FrEntry#inputDtypes()} of entry {@code i}: the instance the record would hold. */
    public Object inputDtypes(int i) {
        java.util.Objects.checkIndex(i, size);
        return inputDtypes[i];
    }

    /** {@link FrEntry#inputSizes()} of entry {@code i}: the instance the record would hold. */
    public Object inputSizes(int i) {
        java.util.Objects.checkIndex(i, size);
        return inputSizes[i];
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
                if (t.collectiveSeqId[i] == seq) {
                    return t.get(i);
                }
            }
            return null;
        }
        if (list instanceof Selection s) {
            for (int i : s.at) {
                if (s.table.collectiveSeqId[i] == seq) {
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
        private int[] pgId;
        private String[] pgName;
        private String[] pgDesc;
        private long[] collectiveSeqId;
        private long[] p2pSeqId;
        private long[] opId;
        private String[] profilingName;
        private byte[] flags;
        private Object[] inputSizes;
        private Object[] inputDtypes;
        private Object[] outputSizes;
        private Object[] outputDtypes;
        private String[] state;
        private long[] createdNs;
        private long[] startedNs;
        private long[] completedNs;
        private double[] durationMs;
        private long[] timeoutMs;
        private Object[] frames;

        public Builder(int expected) {
            allocate(Math.max(0, expected));
        }

        private void allocate(int n) {
            recordId = recordId == null ? new long[n] : Arrays.copyOf(recordId, n);
            pgId = pgId == null ? new int[n] : Arrays.copyOf(pgId, n);
            pgName = pgName == null ? new String[n] : Arrays.copyOf(pgName, n);
            pgDesc = pgDesc == null ? new String[n] : Arrays.copyOf(pgDesc, n);
            collectiveSeqId = collectiveSeqId == null ? new long[n] : Arrays.copyOf(collectiveSeqId, n);
            p2pSeqId = p2pSeqId == null ? new long[n] : Arrays.copyOf(p2pSeqId, n);
            opId = opId == null ? new long[n] : Arrays.copyOf(opId, n);
            profilingName = profilingName == null ? new String[n] : Arrays.copyOf(profilingName, n);
            flags = flags == null ? new byte[n] : Arrays.copyOf(flags, n);
            inputSizes = inputSizes == null ? new Object[n] : Arrays.copyOf(inputSizes, n);
            inputDtypes = inputDtypes == null ? new Object[n] : Arrays.copyOf(inputDtypes, n);
            outputSizes = outputSizes == null ? new Object[n] : Arrays.copyOf(outputSizes, n);
            outputDtypes = outputDtypes == null ? new Object[n] : Arrays.copyOf(outputDtypes, n);
            state = state == null ? new String[n] : Arrays.copyOf(state, n);
            createdNs = createdNs == null ? new long[n] : Arrays.copyOf(createdNs, n);
            startedNs = startedNs == null ? new long[n] : Arrays.copyOf(startedNs, n);
            completedNs = completedNs == null ? new long[n] : Arrays.copyOf(completedNs, n);
            durationMs = durationMs == null ? new double[n] : Arrays.copyOf(durationMs, n);
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
            this.flags[i] = (byte) ((p2p ? 1 : 0) | (retired ? 2 : 0));
            this.inputSizes[i] = FrEntry.immutable(inputSizes);
            this.inputDtypes[i] = List.copyOf(inputDtypes);
            this.outputSizes[i] = FrEntry.immutable(outputSizes);
            this.outputDtypes[i] = List.copyOf(outputDtypes);
            this.state[i] = state == null ? "" : state;
            this.createdNs[i] = createdNs;
            this.startedNs[i] = startedNs;
            this.completedNs[i] = completedNs;
            this.durationMs[i] = durationMs;
            this.timeoutMs[i] = timeoutMs;
            this.frames[i] = List.copyOf(frames);
            return this;
        }

        public FrEntries build() {
            return new FrEntries(this);
        }
    }
}
