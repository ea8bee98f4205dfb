package org.fabricscope.importers.forensics;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.fabricscope.importers.FabricImporter;
import org.fabricscope.importers.ImportProgress;
import org.fabricscope.importers.core.Cancellation;
import org.fabricscope.importers.core.ImportSource;
import org.fabricscope.model.FabricModel;

/**
 * Writes plain Java values as a protocol 2 pickle the way Python's pickler does: every string and
 * container memoized, and a value met again (the same instance) fetched back from the memo. So a test
 * builds a dump whose entries share one megabyte string, as a hostile pickle does, from a few lines.
 * Maps are dicts, lists are lists, {@code Object[]} are tuples.
 */
final class FrPickles {
    private final ByteArrayOutputStream o = new ByteArrayOutputStream();
    private final Map<Object, Integer> memo = new IdentityHashMap<>();

    private FrPickles() {
    }

    /** The pickle of {@code v}. */
    static byte[] pickle(Object v) {
        FrPickles w = new FrPickles();
        w.o.write(0x80);
        w.o.write(2);
        w.value(v);
        w.o.write('.');
        return w.o.toByteArray();
    }

    /** The real dump read back as plain values, to change and write again. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> read(byte[] pickle) throws SafePickle.PickleException {
        return (Map<String, Object>) deepCopy(SafePickle.read(pickle));
    }

    /** A mutable copy (LinkedHashMap, ArrayList) of what SafePickle read. */
    static Object deepCopy(Object v) {
        if (v instanceof Map<?, ?> m) {
            Map<String, Object> out = new LinkedHashMap<>();
            m.forEach((k, x) -> out.put(String.valueOf(k), deepCopy(x)));
            return out;
        }
        if (v instanceof List<?> l) {
            List<Object> out = new ArrayList<>();
            l.forEach(x -> out.add(deepCopy(x)));
            return out;
        }
        return v;
    }

    /** Imports files given as name and bytes, as the CLI would (detection included). */
    static FabricModel load(Map<String, byte[]> files) {
        List<ImportSource> sources = new ArrayList<>();
        files.forEach((name, data) -> sources.add(new ImportSource(name, data.length,
                () -> new ByteArrayInputStream(data), true)));
        return new FabricImporter().importSources(sources, new ArrayList<>(), ImportProgress.NONE, Cancellation.NEVER)
                .model();
    }

    private void value(Object v) {
        if (v == null) {
            o.write('N');
        } else if (v instanceof Boolean b) {
            o.write(b ? 0x88 : 0x89);
        } else if (v instanceof Integer || v instanceof Long) {
            long n = ((Number) v).longValue();
            if (n >= Integer.MIN_VALUE && n <= Integer.MAX_VALUE) {
                o.write('J');
                le(n, 4);
            } else {
                o.write(0x8a);
                o.write(8);
                le(n, 8);
            }
        } else if (v instanceof Double d) {
            o.write('G');
            long bits = Double.doubleToLongBits(d);
            for (int k = 7; k >= 0; k--) {
                o.write((int) (bits >>> (8 * k)));
            }
        } else if (again(v)) {
            return;
        } else if (v instanceof String s) {
            byte[] b = s.getBytes(StandardCharsets.UTF_8);
            o.write('X');
            le(b.length, 4);
            o.writeBytes(b);
            put(v);
        } else if (v instanceof Map<?, ?> m) {
            o.write('}');
            put(v);
            if (!m.isEmpty()) {
                o.write('(');
                m.forEach((k, x) -> {
                    value(k);
                    value(x);
                });
                o.write('u');
            }
        } else if (v instanceof List<?> l) {
            o.write(']');
            put(v);
            if (!l.isEmpty()) {
                o.write('(');
                l.forEach(this::value);
                o.write('e');
            }
        } else if (v instanceof Object[] t) {
            o.write('(');
            for (Object x : t) {
                value(x);
            }
            o.write('t');
            put(v);
        } else {
            throw new IllegalArgumentException("cannot pickle " + v.getClass());
        }
    }

    /** Writes a memo get when {@code v} was written before. */
    private boolean again(Object v) {
        Integer at = memo.get(v);
        if (at == null) {
            return false;
        }
        if (at < 256) {
            o.write('h');
            o.write(at);
        } else {
            o.write('j');
            le(at, 4);
        }
        return true;
    }

    private void put(Object v) {
        int at = memo.size();
        memo.put(v, at);
        if (at < 256) {
            o.write('q');
            o.write(at);
        } else {
            o.write('r');
            le(at, 4);
        }
    }

    private void le(long v, int n) {
        for (int i = 0; i < n; i++) {
            o.write((int) (v >>> (8 * i)));
        }
    }
}
