package org.fabricscope.model.diagnosis;

import org.fabricscope.model.core.Subject;

import org.fabricscope.model.host.Gpu;
import org.fabricscope.model.host.HostTopology;
import org.fabricscope.model.host.NetPort;
import org.fabricscope.model.host.PciDevice;

/** How findings name host-layer things: {@code dgx-01 GPU3 (0000:5b:00.0)}, {@code dgx-01 mlx5_4}. */
final class HostSubjects {
    private HostSubjects() {
    }

    static Subject.GpuRef gpu(Gpu g) {
        return new Subject.GpuRef(g.topology().name(), g.busId(), g.index(),
                g.topology().name() + " " + g.label() + (g.busId().isEmpty() ? "" : " (" + g.busId() + ")"));
    }

    static Subject.NicRef net(NetPort n) {
        return new Subject.NicRef(n.nic().topology().name(), n.name(), n.nic().topology().name() + " " + n.name());
    }

    static Subject pci(HostTopology t, PciDevice p) {
        if (p.gpu() != null) {
            return gpu(p.gpu());
        }
        if (p.nic() != null && !p.nic().nets().isEmpty()) {
            StringBuilder sb = new StringBuilder(t.name()).append(" NIC");
            p.nic().nets().forEach(n -> sb.append(' ').append(n.name()));
            String label = sb.append(" (").append(p.busId()).append(')').toString();
            return new Subject.NicRef(t.name(), p.nic().nets().get(0).name(), label);
        }
        return new Subject.PciRef(t.name(), p.busId(), t.name() + " " + p.kind().name() + " " + p.busId());
    }
}
