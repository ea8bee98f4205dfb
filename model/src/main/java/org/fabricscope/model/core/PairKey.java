package org.fabricscope.model.core;

/**
 * One {@code long} for an ordered pair of non-negative ints, for hash maps keyed by pairs (a cable's two
 * map items, a bundle's two boxes).
 *
 * <p>The plain packing {@code (first << 32) | second} is a bad hash key: {@link Long#hashCode()} folds it to
 * {@code first ^ second}, so pairs of nearby indices (every leaf-to-spine pair of a large fabric) fall into
 * a few hundred buckets and {@code HashMap} degrades to its tree bins. The packing is therefore multiplied by
 * an odd constant, a bijection on 64-bit values that spreads both halves over all bits; {@link #first} and
 * {@link #second} undo it with the constant's inverse.
 */
public final class PairKey {
    private static final long MIX = 0x9E3779B97F4A7C15L;
    /** {@code MIX * UNMIX == 1} modulo 2^64. */
    private static final long UNMIX = 0xF1DE83E19937733DL;

    private PairKey() {
    }

    /** The key of the pair ({@code first}, {@code second}); both must be at least 0. */
    public static long of(int first, int second) {
        if (first < 0 || second < 0) {
            throw new IllegalArgumentException("pair key of a negative index: " + first + ", " + second);
        }
        return (((long) first << 32) | second) * MIX;
    }

    /** The key of the pair with the smaller of the two first: the same for (a, b) and (b, a). */
    public static long unordered(int a, int b) {
        return a <= b ? of(a, b) : of(b, a);
    }

    public static int first(long key) {
        return (int) ((key * UNMIX) >>> 32);
    }

    public static int second(long key) {
        return (int) (key * UNMIX);
    }
}
