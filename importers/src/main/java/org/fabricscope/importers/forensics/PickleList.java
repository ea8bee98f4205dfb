package org.fabricscope.importers.forensics;

import java.util.ArrayList;

/**
 * A pickled list or tuple as {@link SafePickle} builds it: an {@code ArrayList} that also knows how deeply
 * containers nest in it, kept up as items are added, so that a pickle whose containers form a tree (no
 * container referenced twice) needs no walk to be held to the nesting limit.
 */
class PickleList extends ArrayList<Object> {
    private static final long serialVersionUID = 1L;


    /** 1 + the deepest nesting of an item: 1 for a list of scalars or an empty one. */
    int height = 1;
    /** The values in it, itself included, a container held twice counted twice (saturating). */
    int count = 1;
    /** Whether the pickle pushed it more than once (memo get, DUP). */
    boolean shared;

    PickleList(int capacity) {
        super(capacity);
    }
}
