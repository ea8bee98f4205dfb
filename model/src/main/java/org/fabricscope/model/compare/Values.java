package org.fabricscope.model.compare;

import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import org.fabricscope.model.core.NaturalOrder;

/** Compares two keyed sets of values into changes, keys in natural order (eth2 before eth10). */
final class Values {
    private Values() {
    }

    /** One change per key whose value differs or that one side lacks; {@code field} is the key after {@code prefix}. */
    static void compare(String layer, String subject, String prefix, Map<String, String> before, Map<String, String> after,
                        List<Change> out) {
        TreeSet<String> keys = new TreeSet<>(NaturalOrder.INSTANCE);
        keys.addAll(before.keySet());
        keys.addAll(after.keySet());
        for (String k : keys) {
            String b = before.get(k);
            String a = after.get(k);
            if (b == null ? a != null : !b.equals(a)) {
                out.add(Change.of(layer, subject, prefix + k, b, a));
            }
        }
    }

    /** Subjects (hosts, nodes) in natural order, those of either side. */
    static TreeSet<String> union(java.util.Collection<String> a, java.util.Collection<String> b) {
        TreeSet<String> s = new TreeSet<>(NaturalOrder.INSTANCE);
        s.addAll(a);
        s.addAll(b);
        return s;
    }
}
