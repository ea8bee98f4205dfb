package org.fabricscope.model.core;

/**
 * A vertex of the fabric graph. Vertices are keyed by a stable identity (a GUID, a host name), so
 * the same thing seen in several files is one vertex; equality is by {@link #id()}.
 */
public interface Vertex {
    /** Stable key, unique across vertex kinds: {@code S-<guid>}, {@code H-<guid>}, {@code host:<name>}. */
    String id();

    /** What a person calls it: the switch name, the HCA description, the host name. */
    String displayName();
}
