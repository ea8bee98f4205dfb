package org.fabricscope.model.forensics;

import java.util.Arrays;
import java.util.IdentityHashMap;

/**
 * Compact columns for {@link FrEntries}: a flight recorder dump repeats itself (record ids, sequence
 * numbers and op ids that count up, one process group, one timeout, a handful of operation names, states,
 * shapes and stacks), so a column is held as what it is rather than as an array per field: an arithmetic
 * progression (a constant included), offsets from its least value when they fit in 32 bits, or, for
 * objects, a table of the distinct instances with a byte per entry. What a column gives back is exactly
 * what was put in: the same numbers (doubles bit for bit) and the same instances. 1,024 dumps of 2,000
 * entries held 250 MB as plain arrays, which the collector copied into the old generation during the import.
 */
final class Columns {
    private Columns() {
    }

    /** Longs: {@code base + step * i}, or {@code base + offsets[i]} (unsigned), or the values. */
    static final class Longs {
        private final long base;
        private final long step;
        private final int[] offsets;
        private final long[] values;

        private Longs(long base, long step, int[] offsets, long[] values) {
            this.base = base;
            this.step = step;
            this.offsets = offsets;
            this.values = values;
        }

        /** The first {@code n} of each array, each held compactly (the arrays are not kept). */
        static Longs[] of(int n, long[]... columns) {
            Longs[] out = new Longs[columns.length];
            for (int k = 0; k < columns.length; k++) {
                out[k] = of(columns[k], n);
            }
            return out;
        }

        /** The first {@code n} of {@code v}, held compactly ({@code v} is not kept). */
        static Longs of(long[] v, int n) {
            if (n == 0) {
                return new Longs(0, 0, null, null);
            }
            long step = n > 1 ? v[1] - v[0] : 0;
            boolean progression = true;
            long min = v[0];
            long max = v[0];
            for (int i = 1; i < n; i++) {
                progression &= v[i] - v[i - 1] == step;
                min = Math.min(min, v[i]);
                max = Math.max(max, v[i]);
            }
            if (progression) {
                return new Longs(v[0], step, null, null);
            }
            // max - min as unsigned: the range of values of opposite signs can pass Long.MAX_VALUE
            if (Long.compareUnsigned(max - min, 0xffffffffL) <= 0) {
                int[] off = new int[n];
                for (int i = 0; i < n; i++) {
                    off[i] = (int) (v[i] - min);
                }
                return new Longs(min, 0, off, null);
            }
            return new Longs(0, 0, null, Arrays.copyOf(v, n));
        }

        long get(int i) {
            if (values != null) {
                return values[i];
            }
            if (offsets != null) {
                return base + (offsets[i] & 0xffffffffL);
            }
            return base + step * i;
        }
    }

    /** Objects: one instance, or a table of at most 256 distinct instances and a code per entry, or the values. */
    static final class Refs {
        private final Object[] table;
        private final byte[] codes;
        private final Object[] values;

        private Refs(Object[] table, byte[] codes, Object[] values) {
            this.table = table;
            this.codes = codes;
            this.values = values;
        }

        /** The first {@code n} of each array, each held compactly (the arrays are not kept). */
        static Refs[] of(int n, Object[]... columns) {
            Refs[] out = new Refs[columns.length];
            for (int k = 0; k < columns.length; k++) {
                out[k] = of(columns[k], n);
            }
            return out;
        }

        /** The first {@code n} of {@code v}, held compactly ({@code v} is not kept); instances, not equality. */
        static Refs of(Object[] v, int n) {
            IdentityHashMap<Object, Integer> seen = new IdentityHashMap<>();
            byte[] codes = new byte[n];
            for (int i = 0; i < n; i++) {
                if (i > 0 && v[i] == v[i - 1]) { // runs are the usual case: no lookup
                    codes[i] = codes[i - 1];
                    continue;
                }
                Integer code = seen.get(v[i]);
                if (code == null) {
                    if (seen.size() == 256) {
                        return new Refs(null, null, Arrays.copyOf(v, n));
                    }
                    code = seen.size();
                    seen.put(v[i], code);
                }
                codes[i] = (byte) (int) code;
            }
            Object[] table = new Object[seen.size()];
            seen.forEach((o, code) -> table[code] = o);
            return new Refs(table, table.length <= 1 ? null : codes, null);
        }

        Object get(int i) {
            if (values != null) {
                return values[i];
            }
            return codes == null ? table[0] : table[codes[i] & 0xff];
        }

        /** The one instance every entry holds, or null when they hold more than one (or there are none). */
        Object constant() {
            return values == null && codes == null && table.length == 1 ? table[0] : null;
        }
    }
}
