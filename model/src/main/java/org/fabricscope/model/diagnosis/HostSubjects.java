package org.fabricscope.model.diagnosis;

import org.fabricscope.model.host.Gpu;
import org.fabricscope.model.host.HostTopology;
import org.fabricscope.model.host.NetPort;
import org.fabricscope.model.host.PciDevice;

/** How findings name host-layer things: {@code dgx-01 GPU3 (0000:5b:00.0)}, {@code dgx-01 mlx5_4}. */
final class HostSubjects {
    private HostSubjects() {
    }

    static String gpu(Gpu g) {
        return g.topology().name() + " " + g.label() + (g.busId().isEmpty() ? "" : " (" + g.busId() + ")");
    }

    static String net(NetPort n) {
        return n.nic().topology().name() + " " + n.name();
    }

    static String pci(HostTopology t, PciDevice p) {
        if (p.gpu() != null) {
            return gpu(p.gpu());
        }
        if (p.nic() != null && !p.nic().nets().isEmpty()) {
            StringBuilder sb = new StringBuilder(t.name()).append(" NIC");
            p.nic().nets().forEach(n -> sb.append(' ').append(n.name()));
            return sb.append(" (").append(p.busId()).append(')').toString();
        }
        return t.name() + " " + p.kind().name() + " " + p.busId();
    }
}
