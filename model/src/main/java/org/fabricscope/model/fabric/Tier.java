package org.fabricscope.model.fabric;

/** A switch's tier in a fat tree, counted up from the hosts. */
public enum Tier {
    LEAF, SPINE, CORE, OTHER;

    private final String label = name().toLowerCase(java.util.Locale.ROOT);

    public String label() {
        return label;
    }
}
