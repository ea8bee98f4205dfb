package org.fabricscope.model.diagnosis;

import org.fabricscope.model.core.Subject;
import org.fabricscope.model.core.Layer;
import org.fabricscope.model.core.FindingSpec;
import java.util.ArrayList;
import java.util.List;

import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.FabricModel;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.core.Severity;
import org.fabricscope.model.host.HostTopology;
import org.fabricscope.model.host.PciDevice;
import org.fabricscope.model.host.PciKind;

/**
 * {@code pcie-degraded}: a GPU or NIC whose PCIe link trained narrower than x16, or slower than the
 * fastest link among the same kind of device on its host. NCCL reads {@code link_width="0"} as 16
 * and an empty {@code link_speed} as unknown; neither is a finding.
 */
public final class PcieDegradedCheck implements FabricCheck {
    static final FindingSpec SPEC = new FindingSpec("pcie-degraded", Layer.HOST, Severity.WARNING,
            "GPUs and NICs whose PCIe link is narrower than x16 or slower than their peers on the host",
            "NCCL topology link_width/link_speed; lspci -vv LnkCap/LnkSta");

    @Override
    public List<FindingSpec> findings() {
        return List.of(SPEC);
    }

    @Override
    public List<Finding> run(CheckContext context) {
        FabricModel model = context.model();
        List<Finding> out = new ArrayList<>();
        for (HostTopology t : model.hostTopologies().values()) {
            for (PciKind kind : new PciKind[] {PciKind.GPU, PciKind.NIC}) {
                double best = 0;
                int peers = 0;
                for (PciDevice p : t.pciDevices()) {
                    if (p.kind() == kind && p.linkGts() > 0) {
                        best = Math.max(best, p.linkGts());
                        peers++;
                    }
                }
                for (PciDevice p : t.pciDevices()) {
                    if (p.kind() != kind) {
                        continue;
                    }
                    List<String> why = new ArrayList<>();
                    if (p.linkWidth() > 0 && p.linkWidth() < 16) {
                        why.add("x" + p.linkWidth() + " instead of x16");
                    }
                    if (peers > 1 && p.linkGts() > 0 && p.linkGts() < best) {
                        why.add(gts(p.linkGts()) + " GT/s where other " + kind.name() + "s of the host run "
                                + gts(best) + " GT/s");
                    }
                    if (why.isEmpty()) {
                        continue;
                    }
                    Subject what = HostSubjects.pci(t, p);
                    out.add(new Finding(SPEC.id(), Severity.WARNING,
                            "PCIe link of " + what.label() + " is degraded: " + String.join("; ", why),
                            List.of(what), List.of(evidence(p)),
                            List.of("Check the slot width and generation: a 400 Gb/s HCA needs a PCIe Gen5 x16 slot; "
                                            + "in a Gen4 slot or on x8 lanes its throughput is capped by the PCIe bus "
                                            + "whatever the fabric speed.",
                                    "Compare LnkSta with LnkCap in lspci -vv -s " + p.busId()
                                            + "; reseat the card (and its riser or cable), then check the BIOS slot "
                                            + "bifurcation and link-speed settings.",
                                    "A link that trains down again after reseating points at the riser, slot or card: "
                                            + "swap one at a time.")));
                }
            }
        }
        // lspci -vv read on a host: LnkSta below LnkCap
        for (org.fabricscope.model.evidence.HostEvidence h : model.hostEvidence().values()) {
            for (org.fabricscope.model.evidence.PciLink l : h.pciLinks()) {
                if (!l.degraded() || !l.gpuOrNic()) {
                    continue;
                }
                List<String> why = new ArrayList<>();
                if (l.staWidth() > 0 && l.capWidth() > 0 && l.staWidth() < l.capWidth()) {
                    why.add("x" + l.staWidth() + " instead of x" + l.capWidth());
                }
                if (l.staGts() > 0 && l.capGts() > 0 && l.staGts() < l.capGts()) {
                    why.add(gts(l.staGts()) + " GT/s instead of " + gts(l.capGts()) + " GT/s");
                }
                String name = l.description().contains(": ") ? l.description().substring(l.description().indexOf(": ") + 2)
                        : l.description();
                Subject what = new Subject.PciRef(h.host(), l.busId(), h.host() + " " + l.busId()
                        + (name.isEmpty() ? "" : " (" + name + ")"));
                out.add(new Finding(SPEC.id(), Severity.WARNING,
                        "PCIe link of " + what.label() + " is degraded (lspci LnkSta below LnkCap): " + String.join("; ", why),
                        List.of(what), List.of(l.evidence()),
                        List.of("Reseat the card (and its riser or cable), then check the BIOS slot bifurcation and link-speed "
                                        + "settings; lspci -vv -s " + l.busId() + " should then show LnkSta equal to LnkCap.",
                                "A link that trains down again after reseating points at the riser, slot or card: swap one at a time.")));
            }
        }
        return out;
    }

    private static Evidence evidence(PciDevice p) {
        Evidence e = p.evidence();
        return e != null ? e : Evidence.at(p.topology().source(), 0, p.busId() + " " + p.linkLabel());
    }

    private static String gts(double g) {
        return g == Math.rint(g) ? String.valueOf((long) g) : String.valueOf(g);
    }
}
