package org.fabricscope.model.core;

import java.util.Comparator;

/** Orders names as people expect: {@code leaf-2} before {@code leaf-10}. */
public final class NaturalOrder implements Comparator<String> {
    public static final NaturalOrder INSTANCE = new NaturalOrder();

    private NaturalOrder() {
    }

    @Override
    public int compare(String a, String b) {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            char ca = a.charAt(i);
            char cb = b.charAt(j);
            if (Character.isDigit(ca) && Character.isDigit(cb)) {
                int si = i;
                int sj = j;
                while (i < a.length() && Character.isDigit(a.charAt(i))) {
                    i++;
                }
                while (j < b.length() && Character.isDigit(b.charAt(j))) {
                    j++;
                }
                while (si < i - 1 && a.charAt(si) == '0') {
                    si++;
                }
                while (sj < j - 1 && b.charAt(sj) == '0') {
                    sj++;
                }
                if (i - si != j - sj) {
                    return (i - si) - (j - sj);
                }
                for (int k = 0; k < i - si; k++) {
                    int c = Character.compare(a.charAt(si + k), b.charAt(sj + k));
                    if (c != 0) {
                        return c;
                    }
                }
            } else {
                int c = Character.compare(Character.toLowerCase(ca), Character.toLowerCase(cb));
                if (c != 0) {
                    return c;
                }
                i++;
                j++;
            }
        }
        return (a.length() - i) - (b.length() - j);
    }
}
