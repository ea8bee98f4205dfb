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
