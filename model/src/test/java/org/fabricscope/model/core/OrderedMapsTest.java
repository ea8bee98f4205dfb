package org.fabricscope.model.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.fabricscope.model.incident.Signature;
import org.junit.jupiter.api.Test;

/** Maps that reach output keep the order they were made in ({@code Map.copyOf} drew a new order at every start). */
class OrderedMapsTest {
    private static Map<String, String> twelveFields() {
        Map<String, String> m = new LinkedHashMap<>();
        for (String k : List.of("rank", "host", "peer", "port", "errno", "device", "comm", "op", "seq", "size", "timeout", "pg")) {
            m.put(k, k + "-value");
        }
        return m;
    }

    @Test
    void aCopyKeepsTheOrderGivenAndIsUnmodifiable() {
        Map<String, String> given = twelveFields();
        Map<String, String> copy = OrderedMaps.copyOf(given);
        assertEquals(new ArrayList<>(given.keySet()), new ArrayList<>(copy.keySet()));
        assertEquals(given, copy);
        assertEquals(given.hashCode(), copy.hashCode());
        assertThrows(UnsupportedOperationException.class, () -> copy.put("x", "y"));
        given.put("late", "v");
        assertEquals(12, copy.size(), "a copy, not a view");
    }

    @Test
    void nullKeysAndValuesAreRefusedAsMapCopyOfRefusesThem() {
        Map<String, String> nullValue = new HashMap<>();
        nullValue.put("a", null);
        assertThrows(NullPointerException.class, () -> OrderedMaps.copyOf(nullValue));
        Map<String, String> nullKey = new HashMap<>();
        nullKey.put(null, "a");
        assertThrows(NullPointerException.class, () -> OrderedMaps.copyOf(nullKey));
    }

    @Test
    void aSignatureExampleKeepsItsFieldsInTheCatalogueOrder() {
        Signature.Example e = new Signature.Example("a line", twelveFields());
        assertEquals(new ArrayList<>(twelveFields().keySet()), new ArrayList<>(e.fields().keySet()));
    }
}
