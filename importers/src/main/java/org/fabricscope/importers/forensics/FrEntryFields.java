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
    /** The dump being read: what its entries share, and the caches of its frame texts and values. */
    static final class Maker implements SafePickle.Items {
        final SharedValues shared;
        final DumpMemo memo;
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
    private static final class Frame {
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
            case "frames" -> frames = frameTexts(v, maker);
            case "record_id" -> recordId = v;
            case "pg_id" -> pgId = v;
            case "op_id" -> opId = v;
            case "profiling_name" -> profilingName = v;
            case "is_p2p" -> isP2p = v;
            case "input_sizes" -> inputSizes = maker.memo.sizes(v);
            case "input_dtypes" -> inputDtypes = maker.memo.strings(v);
            case "output_sizes" -> outputSizes = maker.memo.sizes(v);
            case "output_dtypes" -> outputDtypes = maker.memo.strings(v);
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

    /** Adds the entry to {@code out}; false (nothing added) when it has no process group or sequence number. */
    boolean addTo(FrEntries.Builder out) {
        long seq = FlightRecorderReader.num(collectiveSeqId, -1);
        long p2p = FlightRecorderReader.num(p2pSeqId, -1);
        if (pgName.isEmpty() || (seq < 0 && p2p < 0)) {
            return false;
        }
        DumpMemo memo = maker.memo;
        out.add(FlightRecorderReader.num(recordId, -1), (int) FlightRecorderReader.num(pgId, -1), memo.string(pgName),
                memo.string(pgDesc), seq, p2p, FlightRecorderReader.num(opId, -1),
                memo.string(FlightRecorderReader.str(profilingName)), bool(isP2p), inputSizes, inputDtypes, outputSizes,
                outputDtypes, memo.string(FlightRecorderReader.str(state)), FlightRecorderReader.num(created, 0),
                FlightRecorderReader.num(started, 0), FlightRecorderReader.num(completed, 0), dbl(durationMs),
                FlightRecorderReader.num(timeoutMs, -1), bool(retired), frames);
        return true;
    }

    /**
     * An entry's stack frames as {@code name file:line} texts, each distinct frame's text made once per dump.
     * Its own method: a loop inside a large method made the JIT compile that method on-stack first and then
     * again (about 0.4 s of compiler time each on two cores).
     */
    private static List<String> frameTexts(Object v, Maker maker) {
        SharedValues shared = maker.shared;
        Map<Frame, String> frameText = maker.frameText;
        List<String> frames = maker.texts;
        frames.clear();
        if (v instanceof List<?> fs) {
            for (Object o : fs) {
                if (o instanceof Map<?, ?> fm && frames.size() < 64) {
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
                        text = shared.share(FlightRecorderReader.str(name) + " " + FlightRecorderReader.str(file) + ":"
                                + FlightRecorderReader.num(line, 0));
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
