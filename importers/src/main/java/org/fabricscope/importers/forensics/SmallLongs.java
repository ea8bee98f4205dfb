package org.fabricscope.importers.forensics;

/**
 * The boxes of 0 to 65,535 (every BININT1 and BININT2 of a pickle, most sizes, ids and line numbers), made once,
 * when the first pickle is read: a class of its own, so that sniffing a file
 * ({@link SafePickle#looksLikePickle}) does not make them.
 */
final class SmallLongs {
    private static final Long[] BOXES = make();

    private SmallLongs() {
    }

    /** {@code v} boxed: a shared box when it is one of those. */
    static Long of(int v) {
        return v >= 0 && v < BOXES.length ? BOXES[v] : Long.valueOf(v);
    }

    /**
     * Filled in a local, not in the static field: while a class is being initialised, the interpreter resolves
     * each access to its static fields again, and 65,536 of them took 30-50 ms of every start that met a pickle.
     */
    private static Long[] make() {
        Long[] boxes = new Long[1 << 16];
        for (int i = 0; i < boxes.length; i++) {
            boxes[i] = (long) i;
        }
        return boxes;
    }
}
