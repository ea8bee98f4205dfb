package org.fabricscope.importers.forensics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.api.Test;

/** {@link PickleDict} behaves as the {@code LinkedHashMap} it replaced: small (scanned) and large (indexed). */
class PickleDictTest {
    @Test
    void randomPutsAndLookupsMatchALinkedHashMap() {
        Random random = new Random(11);
        int indexed = 0;
        for (int round = 0; round < 2_000; round++) {
            PickleDict dict = random.nextBoolean() ? new PickleDict() : new PickleDict(random.nextInt(40));
            Map<Object, Object> expected = new LinkedHashMap<>();
            int keys = 1 + random.nextInt(round % 2 == 0 ? 6 : 200);
            int ops = random.nextInt(3 * keys + 1);
            for (int i = 0; i < ops; i++) {
                if (random.nextInt(20) == 0) {
                    dict.ensureRoom(random.nextInt(50));
                }
                Object k = key(random, keys);
                Object v = random.nextInt(10) == 0 ? null : "v" + i;
                assertEquals(expected.put(k, v), dict.put(k, v));
            }
            for (int i = 0; i < keys + 5; i++) {
                Object k = key(random, keys + 5);
                assertEquals(expected.get(k), dict.get(k));
                assertEquals(expected.containsKey(k), dict.containsKey(k));
            }
            assertEquals(expected, dict);
            assertEquals(dict, expected);
            assertEquals(expected.hashCode(), dict.hashCode());
            assertEquals(new ArrayList<>(expected.keySet()), new ArrayList<>(dict.keySet()), "insertion order");
            assertEquals(new ArrayList<>(expected.values()), new ArrayList<>(dict.values()));
            List<Object> byIndex = new ArrayList<>();
            for (int i = 0; i < dict.size(); i++) {
                byIndex.add(dict.keyAt(i));
                assertEquals(expected.get(dict.keyAt(i)), dict.valueAt(i));
            }
            assertEquals(new ArrayList<>(expected.keySet()), byIndex);
            indexed += dict.size() > 8 ? 1 : 0;
        }
        assertTrue(indexed > 500, "indexed " + indexed);
    }

    /** Strings, longs, None and tuples, as pickled dict keys are; "k1" and 1L are different keys. */
    private static Object key(Random random, int n) {
        int i = random.nextInt(n);
        return switch (random.nextInt(4)) {
            case 0 -> "k" + i;
            case 1 -> (long) i;
            case 2 -> i == 0 ? null : "k" + i;
            default -> List.of("t", (long) i);
        };
    }
}
