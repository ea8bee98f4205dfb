package org.fabricscope.model.fabric;

import org.fabricscope.model.core.FabricEdge;

/** Joins a {@link Host} to one of its channel adapters. Not a cable: it has no ports. */
public final class HostMembership implements FabricEdge {
    private final Host host;
    private final FabricNode adapter;

    public HostMembership(Host host, FabricNode adapter) {
        this.host = host;
        this.adapter = adapter;
    }

    public Host host() {
        return host;
    }

    public FabricNode adapter() {
        return adapter;
    }
}
