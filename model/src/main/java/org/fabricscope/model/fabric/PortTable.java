package org.fabricscope.model.fabric;

import java.util.AbstractList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeMap;
import java.util.function.IntFunction;

/**
 * A node's ports by number, in number order. InfiniBand port numbers are 8-bit, so a small array
 * holds them (a TreeMap per node was a measurable share of importing Selene); out-of-range numbers
 * from damaged input go to a map so nothing is lost.
 */
final class PortTable {
    private static final int ARRAY_LIMIT = 256;

    private Port[] byNumber = new Port[0];
    private int count;
    private TreeMap<Integer, Port> odd;
    private List<Port> view;

    Port get(int number) {
        if (number >= 0 && number < ARRAY_LIMIT) {
            return number < byNumber.length ? byNumber[number] : null;
        }
        return odd == null ? null : odd.get(number);
    }

    Port computeIfAbsent(int number, IntFunction<Port> make) {
        Port p = get(number);
        if (p != null) {
            return p;
        }
        p = make.apply(number);
        if (number >= 0 && number < ARRAY_LIMIT) {
            if (number >= byNumber.length) {
                byNumber = Arrays.copyOf(byNumber, Math.min(ARRAY_LIMIT, Math.max(number + 1, byNumber.length * 2)));
            }
            byNumber[number] = p;
        } else {
            if (odd == null) {
                odd = new TreeMap<>();
            }
            odd.put(number, p);
        }
        count++;
        view = null;
        return p;
    }

    /** The ports in number order (negative numbers first, over-range ones last); read-only. */
    List<Port> values() {
        List<Port> v = view;
        if (v == null) {
            Port[] all = new Port[count];
            int i = 0;
            if (odd != null) {
                for (Port p : odd.headMap(0).values()) {
                    all[i++] = p;
                }
            }
            for (Port p : byNumber) {
                if (p != null) {
                    all[i++] = p;
                }
            }
            if (odd != null) {
                for (Port p : odd.tailMap(ARRAY_LIMIT).values()) {
                    all[i++] = p;
                }
            }
            v = new AbstractList<>() {
                @Override
                public Port get(int index) {
                    return all[index];
                }

                @Override
                public int size() {
                    return all.length;
                }
            };
            view = v;
        }
        return v;
    }
}
