package org.fabricscope.model.diagnosis;

import org.fabricscope.model.core.Subject;
import org.fabricscope.model.core.Layer;
import org.fabricscope.model.core.FindingSpec;
import java.util.ArrayList;
import java.util.List;

import org.fabricscope.model.FabricModel;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.core.Guids;
import org.fabricscope.model.core.Severity;
import org.fabricscope.model.host.HostTopology;
import org.fabricscope.model.host.NetPort;

/**
 * {@code nic-unmatched}: a NIC net whose GUID (the HCA's system image GUID, either byte order)
 * and {@code <host> mlx5_N} name match no HCA of the loaded fabric. Only when a fabric with CAs is
 * loaded; socket NICs (GUID 0, not on PCIe) are not fabric HCAs and are left out.
 */
public final class NicUnmatchedCheck implements FabricCheck {
    static final FindingSpec SPEC = new FindingSpec("nic-unmatched", Layer.HOST, Severity.WARNING,
            "NIC nets of a host topology that match no HCA of the loaded fabric by GUID or name",
            "the host-to-fabric join: NCCL net guid = ibnetdiscover sysimgguid, or <host> mlx5_N");

    @Override
    public List<FindingSpec> findings() {
        return List.of(SPEC);
    }

    @Override
    public List<Finding> run(CheckContext context) {
        FabricModel model = context.model();
        List<Finding> out = new ArrayList<>();
        if (model.channelAdapters().isEmpty()) {
            return out;
        }
        for (HostTopology t : model.hostTopologies().values()) {
            for (NetPort n : t.nets()) {
                if (n.hca() != null || (!Guids.isValid(n.guid()) && !n.onPcie())) {
                    continue;
                }
                Subject.NicRef subject = HostSubjects.net(n);
                out.add(new Finding(SPEC.id(), Severity.WARNING,
                        subject.label() + " (guid " + (n.guidText().isEmpty() ? "none" : n.guidText())
                                + ") matches no HCA of the loaded fabric",
                        List.of(subject), n.evidence() == null ? List.of() : List.of(n.evidence()),
                        List.of("Load the ibnetdiscover output of the subnet this NIC is cabled to (a multi-rail "
                                        + "cluster may have one subnet per rail).",
                                "Compare with ibstat on " + t.name() + ": its \"System image GUID\" for " + n.name()
                                        + " should appear as sysimgguid= in ibnetdiscover; a replaced card has a new GUID, "
                                        + "so re-dump the topology with NCCL_TOPO_DUMP_FILE.",
                                "Check NCCL_IB_HCA on this host selects the HCAs that are cabled to the fabric.")));
            }
        }
        return out;
    }
}
