package org.fabricscope.model.core;

import org.fabricscope.model.fabric.Cable;
import org.fabricscope.model.fabric.HostMembership;

/** An edge of the fabric graph: a {@link Cable} between ports, or a {@link HostMembership}. */
public interface FabricEdge {
}
