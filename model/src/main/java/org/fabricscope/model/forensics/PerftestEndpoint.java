package org.fabricscope.model.forensics;

import java.util.Locale;

import org.fabricscope.model.core.Evidence;

/**
 * One side's queue pair as a perftest run prints it (linux-rdma/perftest {@code src/perftest_communication.c}
 * {@code ctx_print_pingpong_data}, tag 26.04.17): {@code  local address: LID 0x12 QPN 0x0567 PSN 0x8ca1d7 ...}
 * and, when a GID is in use, the {@code  GID: 254:128:00:...} line under it. {@code lid} is 0 when the
 * port has none (RoCE prints {@code LID 0000}); {@code gid} is the GID as 8 groups of 4 hex digits
 * ({@code fe80:0000:...}, the form of the GID tables), empty when not printed (perftest prints it
 * only with a GID index); {@code evidence} is the address line.
 */
public record PerftestEndpoint(int lid, String qpn, String gid, Evidence evidence) {
    public PerftestEndpoint {
        qpn = qpn == null ? "" : qpn;
        gid = gid == null ? "" : gid.toLowerCase(Locale.ROOT);
    }

    /** This endpoint with the GID of the line under its address line. */
    public PerftestEndpoint withGid(String g) {
        return new PerftestEndpoint(lid, qpn, g, evidence);
    }

    /** The IPv4 address of an IPv4-mapped GID ({@code ::ffff:10.0.1.5}, RoCE v2 over IPv4), or null. */
    public String ipv4() {
        String[] g = gid.split(":");
        if (g.length != 8 || !g[5].equals("ffff")) {
            return null;
        }
        for (int i = 0; i < 5; i++) {
            if (!g[i].equals("0000")) {
                return null;
            }
        }
        int hi = Integer.parseInt(g[6], 16);
        int lo = Integer.parseInt(g[7], 16);
        return (hi >> 8) + "." + (hi & 0xff) + "." + (lo >> 8) + "." + (lo & 0xff);
    }

    /**
     * The low 64 bits of the GID: on InfiniBand the port GUID (the GID is the subnet prefix and the port
     * GUID); 0 when there is no GID or it is IPv4-mapped.
     */
    public long interfaceId() {
        if (gid.isEmpty() || ipv4() != null) {
            return 0;
        }
        String[] g = gid.split(":");
        return Long.parseUnsignedLong(g[4] + g[5] + g[6] + g[7], 16);
    }
}
