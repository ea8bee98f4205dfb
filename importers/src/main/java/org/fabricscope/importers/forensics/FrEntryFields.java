package org.fabricscope.importers.forensics;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.fabricscope.model.forensics.FrEntries;

/**
 * One flight recorder entry's fields as its dict is read, key by key: the scalars used, and the
 * containers among them (stack frames, process group, tensor shapes and dtypes) made at once into what
 * the entry holds, so that neither the entry's dict nor its containers outlive the key that set them.
 * When the pickle is read with {@link SafePickle#readItems} the entries are these sinks and are never
 * held as dicts; a dict read otherwise (JSON, or a pickle read without items) is replayed into one.
 * Either way what {@link #addTo} adds is the same.
 */
final class FrEntryFields extends PickleSink {
    /**
     * The longest text an entry may hold in a field it keeps (group name and description, operation name,
     * state, dtype, a stack frame's function and file name): real ones are identifiers and paths. An entry
     * with a longer one is skipped and counted; no megabyte name reaches the analysis or a finding.
     */
    static final int MAX_TEXT = 4096;
    /**
     * What one dump's entries may take, counted as they are taken, a value the pickle's memo gives again
     * counted again (1 MB of pickle can give one list or string to every entry): items of shapes, dtypes and
     * stack frame lists, and characters of the texts kept or made. Past either the dump is not read.
     */
    static final long MAX_ELEMENTS = 64L * 1024 * 1024;
    static final long MAX_CHARS = 256L * 1024 * 1024;

    /** Why an entry was not added ({@link #addTo}). */
    static final int ADDED = 0;
    static final int NO_GROUP_OR_SEQ = 1;
    static final int OUT_OF_RANGE = 2;
    static final int TOO_LONG = 3;

    /** Thrown when a dump's entries take more than {@link #MAX_ELEMENTS} items or {@link #MAX_CHARS} characters. */
    static final class OverBudget extends RuntimeException {
        private static final long serialVersionUID = 1L;

        OverBudget(String what) {
            super(what, null, false, false);
        }
    }

    /** The dump being read: what its entries share, and the caches of its frame texts and values. */
    static final class Maker implements SafePickle.Items {
        final SharedValues shared;
        final DumpMemo memo;
        /** What this dump's entries took so far (see {@link #MAX_ELEMENTS}). */
        private long elements;
        private long chars;
        private final Map<Frame, String> frameText = new HashMap<>();
        private final java.util.function.Supplier<PickleSink> frame = FrameFields::new;
        /** What {@link #frameTexts} works in: a lookup key and the texts of the entry being read. */
        private final Frame probe = new Frame(null, null, null);
        private final List<String> texts = new ArrayList<>();

        Maker(SharedValues shared) {
            this.shared = shared;
            this.memo = new DumpMemo(shared);
        }

        @Override
        public String key() {
            return "entries";
        }

        /** Counts {@code n} items taken; past {@link #MAX_ELEMENTS} the dump is not read. */
        void items(long n) {
            elements += n;
            if (elements > MAX_ELEMENTS) {
                throw new OverBudget("its entries take more than " + MAX_ELEMENTS + " shape, dtype and frame items "
                        + "(FrEntryFields.MAX_ELEMENTS; a value the pickle gives again is counted again)");
            }
        }

        /** Counts {@code n} characters taken or made; past {@link #MAX_CHARS} the dump is not read. */
        void chars(long n) {
            chars += n;
            if (chars > MAX_CHARS) {
                throw new OverBudget("its entries take more than " + MAX_CHARS + " characters of text "
                        + "(FrEntryFields.MAX_CHARS; a text the pickle gives again is counted again)");
            }
        }

        @Override
        public FrEntryFields newItem() {
            return new FrEntryFields(this);
        }

        /** A dict's fields, in its order, as a sink would have taken them. */
        FrEntryFields of(Map<?, ?> m) {
            FrEntryFields f = new FrEntryFields(this);
            if (m instanceof PickleDict d) {
                for (int i = 0, n = d.size(); i < n; i++) {
                    f.put(d.keyAt(i), d.valueAt(i));
                }
            } else {
                for (var e : m.entrySet()) {
                    f.put(e.getKey(), e.getValue());
                }
            }
            return f;
        }
    }

    /**
     * A stack frame as the dump holds it; the key of the {@code name file:line} text made once per dump. Not
     * a record: a record's equals and hashCode are method handles, whose classes are spun at their first
     * call, one of the largest start-up costs of a flight recorder import.
     */
    private static final class Frame implements Comparable<Frame> {
        private Object name;
        private Object filename;
        private Object line;

        Frame(Object name, Object filename, Object line) {
            set(name, filename, line);
        }

        /** The dump's probe is set to each frame looked up; only new frames get a key of their own. */
        Frame set(Object name, Object filename, Object line) {
            this.name = name;
            this.filename = filename;
            this.line = line;
            return this;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Frame f && java.util.Objects.equals(name, f.name)
                    && java.util.Objects.equals(filename, f.filename) && java.util.Objects.equals(line, f.line);
        }

        @Override
        public int hashCode() {
            return (java.util.Objects.hashCode(name) * 31 + java.util.Objects.hashCode(filename)) * 31
                    + java.util.Objects.hashCode(line);
        }

        /** An order, so that frames built to share one hash make a search tree of the cache's bin, not a list. */
        @Override
        public int compareTo(Frame o) {
            int c = SharedValues.ListKey.compareValues(name, o.name);
            if (c == 0) {
                c = SharedValues.ListKey.compareValues(filename, o.filename);
            }
            return c != 0 ? c : SharedValues.ListKey.compareValues(line, o.line);
        }
    }

    private final Maker maker;
    private String pgName = "";
    private String pgDesc = "";
    private Object collectiveSeqId;
    private Object p2pSeqId;
    /** The stack frames' texts, as the dump's shared list. */
    private List<String> frames = List.of();
    private Object recordId;
    private Object pgId;
    private Object opId;
    private Object profilingName;
    private Object isP2p;
    private List<List<Long>> inputSizes = List.of();
    private List<String> inputDtypes = List.of();
    private List<List<Long>> outputSizes = List.of();
    private List<String> outputDtypes = List.of();
    private Object state;
    private Object created;
    private Object started;
    private Object completed;
    private Object durationMs;
    private Object timeoutMs;
    private Object retired;
    /** Whether a kept text is longer than {@link #MAX_TEXT}. */
    private boolean tooLong;

    private FrEntryFields(Maker maker) {
        this.maker = maker;
    }

    /** An entry's stack frames are read as sinks too: a frame's dict is never held. */
    @Override
    protected java.util.function.Supplier<PickleSink> listItems(String key) {
        return key.equals("frames") ? maker.frame : null;
    }

    /** A stack frame's fields as its dict is read. */
    private static final class FrameFields extends PickleSink {
        private Object name;
        private Object file;
        private Object line;

        @Override
        protected void set(String key, Object v) {
            switch (key) {
                case "name" -> name = v;
                case "filename" -> file = v;
                case "line" -> line = v;
                default -> {
                    // not used
                }
            }
        }
    }

    @Override
    protected void set(String key, Object v) {
        switch (key) {
            case "process_group" -> processGroup(v);
            case "collective_seq_id" -> collectiveSeqId = v;
            case "p2p_seq_id" -> p2pSeqId = v;
            case "frames" -> frames = frameTexts(v, this);
            case "record_id" -> recordId = v;
            case "pg_id" -> pgId = v;
            case "op_id" -> opId = v;
            case "profiling_name" -> profilingName = v;
            case "is_p2p" -> isP2p = v;
            case "input_sizes" -> inputSizes = maker.memo.sizes(counted(v));
            case "input_dtypes" -> inputDtypes = strings(counted(v));
            case "output_sizes" -> outputSizes = maker.memo.sizes(counted(v));
            case "output_dtypes" -> outputDtypes = strings(counted(v));
            case "state" -> state = v;
            case "time_created_ns" -> created = v;
            case "time_discovered_started_ns" -> started = v;
            case "time_discovered_completed_ns" -> completed = v;
            case "duration_ms" -> durationMs = v;
            case "timeout_ms" -> timeoutMs = v;
            case "retired" -> retired = v;
            default -> {
                // thread_name, thread_id, ...: not used
            }
        }
    }

    /** {@code v}, its items counted (a list of lists: the inner lists' items too). */
    private Object counted(Object v) {
        if (v instanceof List<?> l) {
            long n = l.size();
            for (Object o : l) {
                if (o instanceof List<?> inner) {
                    n += inner.size();
                }
            }
            maker.items(n);
        }
        return v;
    }

    /** Dtypes as the dump's shared list; their characters counted, a longer one than {@link #MAX_TEXT} marked. */
    private List<String> strings(Object v) {
        if (v instanceof List<?> l) {
            for (Object o : l) {
                if (o instanceof String t) {
                    maker.chars(t.length());
                    tooLong |= t.length() > MAX_TEXT;
                } else if (o instanceof byte[] b) {
                    maker.chars(b.length);
                    tooLong |= b.length > MAX_TEXT;
                }
            }
        }
        return tooLong ? List.of() : maker.memo.strings(v);
    }

    /** {@code ("0", "default_pg")} as PyTorch writes it, or a name alone. */
    private void processGroup(Object v) {
        if (v instanceof List<?> pg && !pg.isEmpty()) {
            pgName = FlightRecorderReader.str(pg.get(0));
            pgDesc = pg.size() > 1 ? FlightRecorderReader.str(pg.get(1)) : "";
        } else {
            pgName = v == null ? "" : FlightRecorderReader.str(v);
            pgDesc = "";
        }
    }

    /**
     * Adds the entry to {@code out}: {@link #ADDED}, or why not: {@link #NO_GROUP_OR_SEQ}, {@link #OUT_OF_RANGE} (a
     * sequence number, id, time or timeout that is a number but not an integer from 0 (-1: none) to 2^63-1, a
     * group id past 2^31-1, a duration that is not finite), {@link #TOO_LONG} (a text past {@link #MAX_TEXT}).
     */
    int addTo(FrEntries.Builder out) {
        String profiling = FlightRecorderReader.str(profilingName);
        String st = FlightRecorderReader.str(state);
        maker.chars((long) pgName.length() + pgDesc.length() + profiling.length() + st.length());
        if (tooLong || pgName.length() > MAX_TEXT || pgDesc.length() > MAX_TEXT || profiling.length() > MAX_TEXT
                || st.length() > MAX_TEXT) {
            return TOO_LONG;
        }
        long seq = FlightRecorderReader.integer(collectiveSeqId, -1);
        long p2p = FlightRecorderReader.integer(p2pSeqId, -1);
        long record = FlightRecorderReader.integer(recordId, -1);
        long pg = FlightRecorderReader.integer(pgId, -1);
        long op = FlightRecorderReader.integer(opId, -1);
        long t0 = FlightRecorderReader.integer(created, 0);
        long t1 = FlightRecorderReader.integer(started, 0);
        long t2 = FlightRecorderReader.integer(completed, 0);
        long timeout = FlightRecorderReader.integer(timeoutMs, -1);
        double duration = dbl(durationMs);
        if (seq < -1 || p2p < -1 || record < -1 || pg < -1 || pg > Integer.MAX_VALUE || op < -1 || t0 < 0 || t1 < 0
                || t2 < 0 || timeout < -1 || Double.isNaN(duration) || Double.isInfinite(duration)) {
            return pgName.isEmpty() ? NO_GROUP_OR_SEQ : OUT_OF_RANGE;
        }
        if (pgName.isEmpty() || (seq < 0 && p2p < 0)) {
            return NO_GROUP_OR_SEQ;
        }
        DumpMemo memo = maker.memo;
        out.add(record, (int) pg, memo.string(pgName), memo.string(pgDesc), seq, p2p, op, memo.string(profiling),
                bool(isP2p), inputSizes, inputDtypes, outputSizes, outputDtypes, memo.string(st), t0, t1, t2, duration,
                timeout, bool(retired), frames);
        return ADDED;
    }

    /**
     * An entry's stack frames as {@code name file:line} texts, each distinct frame's text made once per dump.
     * Its own method: a loop inside a large method made the JIT compile that method on-stack first and then
     * again (about 0.4 s of compiler time each on two cores).
     */
    private static List<String> frameTexts(Object v, FrEntryFields entry) {
        Maker maker = entry.maker;
        SharedValues shared = maker.shared;
        Map<Frame, String> frameText = maker.frameText;
        List<String> frames = maker.texts;
        frames.clear();
        if (v instanceof List<?> fs) {
            maker.items(fs.size());
            for (Object o : fs) {
                if (frames.size() >= 64) {
                    break; // the innermost 64 are kept
                }
                if (o instanceof Map<?, ?> fm) {
                    Object name = null;
                    Object file = null;
                    Object line = null;
                    if (fm instanceof FrameFields f) {
                        name = f.name;
                        file = f.file;
                        line = f.line;
                    } else if (fm instanceof PickleDict d) { // one pass, as for the entry's fields
                        for (int i = 0, n = d.size(); i < n; i++) {
                            if (d.keyAt(i) instanceof String k) {
                                switch (k) {
                                    case "name" -> name = d.valueAt(i);
                                    case "filename" -> file = d.valueAt(i);
                                    case "line" -> line = d.valueAt(i);
                                    default -> {
                                        // not used
                                    }
                                }
                            }
                        }
                    } else {
                        name = fm.get("name");
                        file = fm.get("filename");
                        line = fm.get("line");
                    }
                    // byte[] has identity equality: such frames (never written by PyTorch) are not cached
                    boolean cacheable = !(name instanceof byte[]) && !(file instanceof byte[]) && !(line instanceof byte[]);
                    String text = cacheable ? frameText.get(maker.probe.set(name, file, line)) : null;
                    if (text == null) {
                        String n = FlightRecorderReader.str(name);
                        String f = FlightRecorderReader.str(file);
                        maker.chars((long) n.length() + f.length());
                        if (n.length() > MAX_TEXT || f.length() > MAX_TEXT) {
                            entry.tooLong = true;
                            continue;
                        }
                        text = shared.share(n + " " + f + ":" + FlightRecorderReader.num(line, 0));
                        if (cacheable && frameText.size() < 100_000) {
                            frameText.put(new Frame(name, file, line), text);
                        }
                    }
                    frames.add(text);
                }
            }
        }
        return maker.memo.frames(frames); // the last entry's list when the same, else a copy shared by the import
    }

    private static double dbl(Object v) {
        return v instanceof Number n ? n.doubleValue() : -1;
    }

    private static boolean bool(Object v) {
        return v instanceof Boolean b ? b : v instanceof Number n && n.longValue() != 0;
    }
}
