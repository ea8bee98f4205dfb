package org.fabricscope.model.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/**
 * Maps shared by {@link SharedMaps} (and copied by {@link OrderedMaps}) behave as the unmodifiable copies they
 * replaced: same entries in the same order, equal and hashed as maps are, printed alike, and no way to change them.
 */
class SharedMapsTest {
    private static Map<String, String> ordered(String... kv) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m;
    }

    @Test
    void theSameEntriesInTheSameOrderAreOneMap() {
        SharedMaps maps = new SharedMaps();
        Map<String, String> a = maps.of(ordered("NCCL_DEBUG", "INFO", "NCCL_NVLS_ENABLE", "0"));
        assertSame(a, maps.of(ordered("NCCL_DEBUG", "INFO", "NCCL_NVLS_ENABLE", "0")));
        Map<String, String> reversed = maps.of(ordered("NCCL_NVLS_ENABLE", "0", "NCCL_DEBUG", "INFO"));
        assertNotSame(a, reversed, "the order reaches output: kept");
        assertEquals(List.of("NCCL_NVLS_ENABLE", "NCCL_DEBUG"), new ArrayList<>(reversed.keySet()));
        assertEquals(a, reversed, "equal as maps are");
        assertNotSame(a, maps.of(ordered("NCCL_DEBUG", "WARN", "NCCL_NVLS_ENABLE", "0")));
    }

    @Test
    void actsAsTheCopyItReplaced() {
        Map<String, String> source = ordered("b", "2", "a", "1", "c", "3");
        Map<String, String> old = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(source));
        Map<String, String> shared = new SharedMaps().of(source);
        assertEquals(old, shared);
        assertEquals(shared, old);
        assertEquals(old.hashCode(), shared.hashCode());
        assertEquals(old.toString(), shared.toString());
        assertEquals(new ArrayList<>(old.entrySet()), new ArrayList<>(shared.entrySet()));
        assertEquals(new HashMap<>(source), shared);
        source.put("d", "4");
        assertEquals(3, shared.size(), "a copy: later changes to the source do not reach it");
        assertThrows(UnsupportedOperationException.class, () -> shared.put("x", "y"));
        assertThrows(UnsupportedOperationException.class, () -> shared.remove("a"));
        assertThrows(UnsupportedOperationException.class, () -> shared.keySet().remove("a"));
        assertThrows(UnsupportedOperationException.class, () -> shared.values().clear());
        assertThrows(UnsupportedOperationException.class, () -> shared.entrySet().iterator().next().setValue("z"));
    }

    @Test
    void copiesAreNotCopiedAgainAndNullsAreStillRefusedWhereTheyWere() {
        Map<String, String> frozen = OrderedMaps.copyOf(ordered("k", "v"));
        assertSame(frozen, OrderedMaps.copyOf(frozen));
        assertSame(frozen, OrderedMaps.frozen(frozen));
        assertSame(OrderedMaps.copyOf(Map.of()), OrderedMaps.frozen(new HashMap<>()), "one empty copy");
        Map<String, String> withNull = OrderedMaps.frozen(ordered("k", null));
        assertEquals(null, withNull.get("k"));
        assertThrows(NullPointerException.class, () -> OrderedMaps.copyOf(withNull), "as Map.copyOf refuses a null");
    }
}
