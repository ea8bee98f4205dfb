package org.fabricscope.importers.forensics;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;

/**
 * One dump's recent answers of the {@link SharedValues} table (one thread): a string the pickle holds
 * once (memoised) is looked up by identity, and an entry whose shapes, dtypes or stack are those of one
 * of the last few entries (a training loop repeats its collectives) gets the same shared list without
 * building a new one or hashing it. What it returns is always what {@code shared.share} would.
 */
final class DumpMemo {
    private static final int RECENT = 4;
    private final SharedValues shared;
    private final IdentityHashMap<String, String> strings = new IdentityHashMap<>();
    private final List<List<List<Long>>> recentSizes = new ArrayList<>(RECENT);
    private final List<List<String>> recentStrings = new ArrayList<>(RECENT);
    private List<String> lastFrames;
    private int nextSizes;
    private int nextStrings;

    DumpMemo(SharedValues shared) {
        this.shared = shared;
    }

    String string(String s) {
        String had = strings.get(s);
        if (had == null) {
            had = shared.share(s);
            if (strings.size() < 4096) {
                strings.put(s, had);
            }
        }
        return had;
    }

    /** Tensor shapes, as one shared immutable list of immutable lists. */
    static List<List<Long>> makeSizes(Object v, SharedValues shared) {
        if (!(v instanceof List<?> l) || l.isEmpty()) {
            return List.of();
        }
        List<List<Long>> out = new ArrayList<>(l.size());
        for (Object o : l) {
            List<Long> dims = new ArrayList<>();
            if (o instanceof List<?> d) {
                for (Object x : d) {
                    dims.add(x instanceof Long boxed ? boxed : FlightRecorderReader.num(x, -1)); // the pickle's Long as it is: no second box
                }
            }
            out.add(List.copyOf(dims));
        }
        return shared.share(List.copyOf(out));
    }

    /** Strings (dtypes), as one shared immutable list. */
    static List<String> makeStrings(Object v, SharedValues shared) {
        if (!(v instanceof List<?> l) || l.isEmpty()) {
            return List.of();
        }
        List<String> out = new ArrayList<>(l.size());
        for (Object o : l) {
            out.add(FlightRecorderReader.str(o));
        }
        return shared.share(List.copyOf(out));
    }

    List<List<Long>> sizes(Object raw) {
        if (raw instanceof List<?> l && !l.isEmpty()) {
            for (List<List<Long>> r : recentSizes) {
                if (sameSizes(l, r)) {
                    return r;
                }
            }
        }
        List<List<Long>> made = makeSizes(raw, shared);
        if (!made.isEmpty()) {
            remember(recentSizes, nextSizes++, made);
        }
        return made;
    }

    List<String> strings(Object raw) {
        if (raw instanceof List<?> l && !l.isEmpty()) {
            for (List<String> r : recentStrings) {
                if (sameStrings(l, r)) {
                    return r;
                }
            }
        }
        List<String> made = makeStrings(raw, shared);
        if (!made.isEmpty()) {
            remember(recentStrings, nextStrings++, made);
        }
        return made;
    }

    /** The frame texts are this dump's shared instances: the last entry's list is reused when they are the same. */
    List<String> frames(List<String> texts) {
        List<String> last = lastFrames;
        if (last != null && last.size() == texts.size()) {
            boolean same = true;
            for (int i = 0; i < texts.size() && same; i++) {
                same = last.get(i) == texts.get(i);
            }
            if (same) {
                return last;
            }
        }
        lastFrames = shared.share(List.copyOf(texts));
        return lastFrames;
    }

    private static <T> void remember(List<T> recent, int n, T v) {
        if (recent.size() < RECENT) {
            recent.add(v);
        } else {
            recent.set(n % RECENT, v);
        }
    }

    /** Whether {@code sizes(raw)} would equal {@code made}: only plain Long dimensions are compared. */
    private static boolean sameSizes(List<?> raw, List<List<Long>> made) {
        if (raw.size() != made.size()) {
            return false;
        }
        for (int i = 0; i < raw.size(); i++) {
            List<Long> dims = made.get(i);
            if (!(raw.get(i) instanceof List<?> d) || d.size() != dims.size()) {
                return false;
            }
            for (int j = 0; j < d.size(); j++) {
                if (!(d.get(j) instanceof Long x) || x.longValue() != dims.get(j).longValue()) {
                    return false;
                }
            }
        }
        return true;
    }

    private static boolean sameStrings(List<?> raw, List<String> made) {
        if (raw.size() != made.size()) {
            return false;
        }
        for (int i = 0; i < raw.size(); i++) {
            if (!(raw.get(i) instanceof String x) || !x.equals(made.get(i))) {
                return false;
            }
        }
        return true;
    }
}
