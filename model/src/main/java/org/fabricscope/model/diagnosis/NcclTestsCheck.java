package org.fabricscope.model.diagnosis;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import org.fabricscope.model.core.Plural;
import org.fabricscope.model.FabricModel;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.core.FindingSpec;
import org.fabricscope.model.core.Layer;
import org.fabricscope.model.core.Severity;
import org.fabricscope.model.core.Subject;
import org.fabricscope.model.forensics.NcclTestDevice;
import org.fabricscope.model.forensics.NcclTestRow;
import org.fabricscope.model.forensics.NcclTestRun;
import org.fabricscope.model.host.Gpu;
import org.fabricscope.model.host.HostTopology;

/**
 * {@code nccl-tests-wrong}: an nccl-tests run whose data check failed ({@code #wrong} above 0 in some
 * row, or {@code Out of bounds values} above 0). The data moved between the GPUs came back different
 * from what was sent: corruption, not slowness. Names the run's GPUs (host and bus id from its
 * header), joined to the host layer when that host's topology is loaded.
 */
public final class NcclTestsCheck implements FabricCheck {
    static final FindingSpec WRONG = new FindingSpec("nccl-tests-wrong", Layer.TRAINING, Severity.ERROR,
            "An nccl-tests run returned wrong data (#wrong > 0, or out-of-bounds values)",
            "nccl-tests output: the #wrong column and the 'Out of bounds values' footer (NVIDIA/nccl-tests README, doc/PERFORMANCE.md)");
    private static final int MAX_ROWS_CITED = 8;

    @Override
    public List<FindingSpec> findings() {
        return List.of(WRONG);
    }

    @Override
    public List<Finding> run(CheckContext context) {
        FabricModel model = context.model();
        List<Finding> out = new ArrayList<>();
        for (NcclTestRun run : model.forensics().ncclTests()) {
            List<NcclTestRow> wrong = run.rows().stream().filter(r -> r.wrong() > 0).toList();
            boolean oob = run.outOfBounds() > 0 || !run.outOfBoundsOk();
            if (wrong.isEmpty() && !oob) {
                continue;
            }
            List<Evidence> evidence = new ArrayList<>();
            for (NcclTestRow r : wrong.subList(0, Math.min(MAX_ROWS_CITED, wrong.size()))) {
                evidence.add(r.evidence());
            }
            if (run.footer() != null) {
                evidence.add(run.footer());
            }
            run.errors().stream().limit(4).forEach(evidence::add);
            List<Subject> refs = new ArrayList<>();
            Evidence at = !wrong.isEmpty() ? wrong.get(0).evidence() : run.footer();
            if (at != null) {
                refs.add(new Subject.LineRef(at.source(), at.line(), at.source() + ":" + at.line()));
            } else {
                refs.add(new Subject.LineRef(run.source(), run.line(), run.source() + ":" + run.line()));
            }
            Set<Subject> gpus = new LinkedHashSet<>();
            for (NcclTestDevice d : run.devices()) {
                gpus.add(gpu(model, d));
            }
            refs.addAll(gpus);
            StringBuilder where = new StringBuilder();
            boolean oop = wrong.stream().anyMatch(r -> r.outOfPlace() != null && r.outOfPlace().wrong() > 0);
            boolean ip = wrong.stream().anyMatch(r -> r.inPlace() != null && r.inPlace().wrong() > 0);
            if (!wrong.isEmpty()) {
                where.append(": #wrong > 0 in ").append(wrong.size()).append(" of ").append(run.rows().size())
                        .append(" sizes (").append(oop && ip ? "out-of-place and in-place" : oop ? "out-of-place" : "in-place")
                        .append(", ").append(wrong.get(0).bytes()).append(wrong.size() > 1 ? " to " + wrong.get(wrong.size() - 1).bytes() : "")
                        .append(" bytes, ").append(run.wrong()).append(" wrong elements)");
            }
            if (oob) {
                where.append(wrong.isEmpty() ? ": " : "; ").append("Out of bounds values: ")
                        .append(run.outOfBounds() >= 0 ? run.outOfBounds() + " " : "").append("FAILED");
            }
            String devices = run.devices().isEmpty() ? "" : " on " + Plural.of(run.devices().size(), "GPU") + " of "
                    + String.join(", ", run.devices().stream().map(NcclTestDevice::host).distinct().toList());
            String title = run.test() + " returned wrong data" + devices + where;
            List<String> remedies = new ArrayList<>();
            remedies.add("nccl-tests checks every result against the expected values (-c 1, the default): wrong elements "
                    + "mean the data was corrupted on its way between GPUs; this is not a performance problem. Do not "
                    + "train on these GPUs until it is explained.");
            remedies.add("Rerun on the same GPUs and on subsets of them (-g 1, pairs; CUDA_VISIBLE_DEVICES) to find the "
                    + "GPU, NVLink or NIC involved; check the kernel log for GPU Xid errors, nvidia-smi -q -d ECC, and the "
                    + "NVLink and PCIe error counters (nvidia-smi nvlink -e).");
            remedies.add("If only some sizes or only in-place results are wrong, note the algorithm and protocol NCCL chose "
                    + "for them (NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=TUNING) and pin others (NCCL_ALGO, NCCL_PROTO) to narrow it down.");
            out.add(new Finding(WRONG.id(), Severity.ERROR, title, refs, evidence, remedies));
        }
        return out;
    }

    /** The run's GPU: the host layer's, when that host's topology has the bus id; else as the header names it. */
    private static Subject gpu(FabricModel model, NcclTestDevice d) {
        HostTopology t = model.hostTopology(d.host());
        if (t != null) {
            String want = d.busId().toLowerCase(java.util.Locale.ROOT);
            for (Gpu g : t.gpus()) {
                String b = g.busId().toLowerCase(java.util.Locale.ROOT);
                if (!want.isEmpty() && (b.equals(want) || b.startsWith(want + "."))) {
                    return HostSubjects.gpu(g);
                }
            }
        }
        return new Subject.GpuRef(d.host(), d.busId(), d.device(), d.host() + " GPU" + d.device()
                + (d.busId().isEmpty() ? "" : " (" + d.busId() + ")") + (d.name().isEmpty() ? "" : " " + d.name()));
    }
}
