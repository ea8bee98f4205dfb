package org.fabricscope.importers.forensics;

import java.util.concurrent.ConcurrentHashMap;

import org.fabricscope.importers.core.ImportState;
import org.fabricscope.model.FabricModelBuilder;

/**
 * One import's table of equal immutable values, so that flight recorder entries share them instead
 * of each holding a copy: PyTorch's ring buffer repeats the same stack frames, process group names,
 * operation names, states, dtypes and tensor shapes in every entry of every rank (1,024 ranks x 2,000
 * entries held 5 GB as copies). Values must be immutable (strings, {@code List.of}/{@code List.copyOf}
 * lists of them). Thread-safe: dumps may be parsed on several threads. Kept by the import's
 * {@link org.fabricscope.importers.core.ReadContext#state}, so it lives as long as one import and
 * nothing is applied to the model.
 */
final class SharedValues implements ImportState {
    /** Past this many distinct values the table stops growing (a hostile dump of unique strings); values are then kept as read. */
    private static final int MAX_VALUES = 1_000_000;

    private final ConcurrentHashMap<Object, Object> values = new ConcurrentHashMap<>();
    /** Process group members as dumps write them ({@code "[0, 1, ...]"}) and the list each parsed to. */
    private final ConcurrentHashMap<String, java.util.List<Integer>> ranks = new ConcurrentHashMap<>();

    /** The members a text parsed to before, without a warning; null when not seen. */
    java.util.List<Integer> parsedRanks(String text) {
        return ranks.get(text);
    }

    /** Remembers what a text parsed to (a few texts: one per process group of the job). */
    void rememberRanks(String text, java.util.List<Integer> members) {
        if (ranks.size() < 1_000) {
            ranks.putIfAbsent(text, members);
        }
    }

    /** The value equal to {@code v} that was seen first (or {@code v} itself). */
    @SuppressWarnings("unchecked")
    <T> T share(T v) {
        if (v == null) {
            return null;
        }
        Object had = values.get(v);
        if (had != null) {
            return (T) had;
        }
        if (values.size() >= MAX_VALUES) {
            return v;
        }
        had = values.putIfAbsent(v, v);
        return had == null ? v : (T) had;
    }

    @Override
    public void applyTo(FabricModelBuilder builder) {
        // nothing: the table only shares memory between the dumps of one import
    }
}
