package org.fabricscope.model;

/** An edge of the fabric graph: a {@link Cable} between ports, or a {@link HostMembership}. */
public interface FabricEdge {
}
