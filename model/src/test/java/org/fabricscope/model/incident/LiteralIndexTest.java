package org.fabricscope.model.incident;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;

class LiteralIndexTest {
    private static Set<Integer> find(LiteralIndex index, String text) {
        boolean[] hit = new boolean[index.size()];
        int[] found = new int[index.size()];
        int n = index.find(text, hit, found);
        Set<Integer> out = new TreeSet<>();
        for (int i = 0; i < n; i++) {
            out.add(found[i]);
        }
        return out;
    }

    @Test
    void findsOverlappingAndNestedLiterals() {
        LiteralIndex index = new LiteralIndex(List.of("he", "she", "his", "hers", "out of memory", "é-literal"));
        assertEquals(Set.of(0, 1, 3), find(index, "ushers"));
        assertEquals(Set.of(4), find(index, "CUDA out of memory. Tried"));
        assertEquals(Set.of(5), find(index, "a é-literal"));
        assertEquals(Set.of(), find(index, "nothing to see"));
    }

    @Test
    void agreesWithIndexOfOnRandomTexts() {
        Random r = new Random(7);
        List<String> literals = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            literals.add(random(r, 1 + r.nextInt(5)));
        }
        LiteralIndex index = new LiteralIndex(literals);
        for (int t = 0; t < 2000; t++) {
            String text = random(r, r.nextInt(40));
            Set<Integer> expected = new TreeSet<>();
            for (int i = 0; i < literals.size(); i++) {
                if (text.contains(literals.get(i))) {
                    expected.add(i);
                }
            }
            assertEquals(expected, find(index, text), text);
        }
    }

    private static String random(Random r, int n) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < n; i++) {
            b.append((char) ('a' + r.nextInt(3)));
        }
        return b.toString();
    }
}
