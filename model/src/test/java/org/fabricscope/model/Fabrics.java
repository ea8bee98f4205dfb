package org.fabricscope.model;

import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.fabric.Cable;
import org.fabricscope.model.fabric.FabricNode;
import org.fabricscope.model.fabric.LinkSpeed;
import org.fabricscope.model.fabric.LinkWidth;
import org.fabricscope.model.fabric.NodeKind;
import org.fabricscope.model.fabric.Port;

/** Builds small synthetic fabrics through the public builder API, as an importer would. */
public final class Fabrics {
    private final FabricModelBuilder b = new FabricModelBuilder();
    private long nextGuid = 0x0002c90300000000L;
    private int nextLid = 1;
    private int line = 1;

    public FabricModelBuilder builder() {
        return b;
    }

    public FabricNode sw(String name) {
        FabricNode n = b.node(nextGuid++, NodeKind.SWITCH);
        b.setDescription(n, "MF0;" + name + ":MQM8700/U1");
        b.setNodeInfo(n, 41, n.guid(), 0x2c9, 0xd2f0);
        b.setSwitchPort0(n, nextLid++, 0, Boolean.TRUE);
        return n;
    }

    /** A host HCA named {@code "<host> mlx5_<i>"}. */
    public FabricNode hca(String host, int i) {
        return ca(host + " mlx5_" + i, 0);
    }

    public FabricNode ca(String description, long sysImgGuid) {
        FabricNode n = b.node(nextGuid++, NodeKind.CA);
        b.setDescription(n, description);
        b.setNodeInfo(n, 1, sysImgGuid != 0 ? sysImgGuid : n.guid() + 0x100000, 0x2c9, 0x101b);
        b.setPortAddress(b.port(n, 1), n.guid() + 1, nextLid++, 0);
        return n;
    }

    /** Cables the first free ports of x and y at 4xHDR unless told otherwise. */
    public Cable cable(FabricNode x, FabricNode y) {
        return cable(x, y, LinkWidth.X4, LinkSpeed.HDR);
    }

    public Cable cable(FabricNode x, FabricNode y, LinkWidth w, LinkSpeed s) {
        Port px = b.port(x, freePort(x));
        Port py = b.port(y, freePort(y));
        b.setPortRate(px, w, s);
        b.setPortRate(py, w, s);
        return b.link(px, py, w, s, Evidence.at("synthetic.txt", line++, px + " - " + py));
    }

    private static int freePort(FabricNode n) {
        int p = 1;
        while (n.port(p) != null && n.port(p).cable() != null) {
            p++;
        }
        return p;
    }

    public FabricModel build() {
        return b.build();
    }
}
