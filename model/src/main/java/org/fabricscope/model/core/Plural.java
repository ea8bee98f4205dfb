package org.fabricscope.model.core;

/** A count with its noun in the right number: {@code 1 cable}, {@code 2 cables}, {@code 1 switch}, {@code 3 switches}. */
public final class Plural {
    private Plural() {
    }

    /** {@code n} and the noun, with an {@code s} (or {@code es} after s, x, z, ch, sh) when n is not 1. */
    public static String of(long n, String singular) {
        return n + " " + noun(n, singular);
    }

    /** {@code n} and the noun, {@code plural} when n is not 1 ({@code 2 entries}). */
    public static String of(long n, String singular, String plural) {
        return n + " " + (n == 1 ? singular : plural);
    }

    /** The noun alone in the number that {@code n} takes. */
    public static String noun(long n, String singular) {
        if (n == 1) {
            return singular;
        }
        if (singular.endsWith("s") || singular.endsWith("x") || singular.endsWith("z") || singular.endsWith("ch")
                || singular.endsWith("sh")) {
            return singular + "es";
        }
        return singular + "s";
    }
}
