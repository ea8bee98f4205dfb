package org.fabricscope.model.host;

import org.fabricscope.model.core.Vertex;

/** An NVSwitch that GPUs link to, by bus id; the remote sentinel stands for the switches a host cannot see. */
public final class NvSwitch implements Vertex {
    final HostTopology topology;
    final String busId;

    NvSwitch(HostTopology topology, String busId) {
        this.topology = topology;
        this.busId = busId;
    }

    public String busId() {
        return busId;
    }

    public boolean remote() {
        return NvLink.isSentinel(busId);
    }

    @Override
    public String id() {
        return "nvswitch:" + topology.name() + "/" + busId;
    }

    @Override
    public String displayName() {
        return remote() ? "NVSwitch (remote)" : "NVSwitch " + busId;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof NvSwitch s && s.id().equals(id());
    }

    @Override
    public int hashCode() {
        return id().hashCode();
    }
}
