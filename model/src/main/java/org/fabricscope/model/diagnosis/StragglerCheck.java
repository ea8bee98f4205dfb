package org.fabricscope.model.diagnosis;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import org.fabricscope.model.core.Finding;
import org.fabricscope.model.core.FindingSpec;
import org.fabricscope.model.core.Layer;
import org.fabricscope.model.core.Severity;
import org.fabricscope.model.core.Subject;
import org.fabricscope.model.ranks.RankSite;
import org.fabricscope.model.slowness.FrStragglers;
import org.fabricscope.model.slowness.Straggler;
import org.fabricscope.model.slowness.Stragglers;

/**
 * {@code straggler}: a rank the others wait for, named with where it ran (rank, pod, node, GPU, HCA and leaf
 * port as far as the logs and the fabric place it), how late it is (ms per step and share of the step) and
 * which kind of slowness it is: before its collectives (late to enqueue them, or its GPU late to start them)
 * or inside them. The rules and thresholds are {@link FrStragglers}' and {@code StepStragglers}'. A delay
 * measured across two hosts' clocks and not seen from the other side is raised as INFO, marked unconfirmed.
 */
final class StragglerCheck implements FabricCheck {
    static final FindingSpec STRAGGLER = new FindingSpec("straggler", Layer.TRAINING, Severity.WARNING,
            "A rank the others wait for: late to its collectives, late on its GPU, slow inside them, or slowest by its step times",
            "PyTorch's flight recorder (time_created_ns, duration_ms with TORCH_NCCL_ENABLE_TIMING=1; "
                    + "torch/csrc/distributed/c10d/FlightRecorder.hpp) and the trainers' step-time lines; the straggler "
                    + "war story of the distributed-training module");

    @Override
    public List<FindingSpec> findings() {
        return List.of(STRAGGLER);
    }

    @Override
    public List<Finding> run(CheckContext context) {
        if (context.model().forensics().flightRecorder().isEmpty() && context.model().forensics().inspector().isEmpty()
                && context.model().trainingLog().stepTimes().isEmpty()) {
            return List.of();
        }
        List<Finding> out = new ArrayList<>();
        for (Straggler s : Stragglers.of(context.model()).stragglers()) {
            RankSite site = s.rank() >= 0 ? context.ranks().worldSite(s.rank()) : null;
            Set<Subject> subjects = new LinkedHashSet<>();
            String who;
            if (s.rank() >= 0) {
                subjects.add(new Subject.RankRef(site == null ? "" : site.rank().commId(), s.rank(),
                        site == null ? s.host() : site.rank().host(), "rank " + s.rank()));
                who = "rank " + s.rank() + (site != null ? " " + site.place() : s.host().isEmpty() ? "" : " (" + s.host() + ")");
            } else {
                who = s.host();
            }
            subjects.addAll(ForensicJoin.placeSubjects(site));
            if (site == null && !s.host().isEmpty()) {
                subjects.add(new Subject.HostRef(s.host(), s.host()));
            }
            out.add(new Finding(STRAGGLER.id(), s.confirmed() ? Severity.WARNING : Severity.INFO, title(who, s),
                    new ArrayList<>(subjects), s.evidence(), remedies(s)));
        }
        return out;
    }

    static String title(String who, Straggler s) {
        String unit = s.kind() == Straggler.Kind.SLOW_STEPS || Double.isFinite(s.stepMs()) ? "step" : "collective";
        StringBuilder b = new StringBuilder(s.confirmed() ? "Straggler: " : "Straggler (unconfirmed): ").append(who)
                .append(String.format(Locale.ROOT, ", %s ms per %s", ms(s.lateMs()), unit));
        b.append(" (");
        if (Double.isFinite(s.share())) {
            b.append(String.format(Locale.ROOT, "%d%% of a %s ms step; ", Math.round(s.share() * 100), ms(s.stepMs())));
        }
        b.append(s.worst() > 0 ? String.format(Locale.ROOT, "the worst in %d of %d %s): ", s.worst(), s.compared(), s.counted())
                : s.basis() + "): ");
        b.append(s.kind().words());
        if (Double.isFinite(s.othersWaitMs()) && s.kind() == Straggler.Kind.LATE_TO_ENQUEUE) {
            b.append(String.format(Locale.ROOT, "; the others' kernels ran %s ms longer per step, waiting for it", ms(s.othersWaitMs())));
        }
        if (!s.confirmed()) {
            b.append("; measured across two hosts' clocks with no other sign: a clock offset between them reads the same");
        }
        return b.toString();
    }

    static String ms(double v) {
        return String.format(Locale.ROOT, Math.abs(v) >= 100 ? "%.0f" : "%.1f", v);
    }

    private static List<String> remedies(Straggler s) {
        List<String> r = new ArrayList<>();
        switch (s.kind()) {
            case LATE_TO_ENQUEUE -> {
                r.add("Profile the rank's step before its collectives: the input pipeline (DataLoader workers, "
                        + "storage, decoding), Python work on that rank only (logging, checkpoint writes, evaluation "
                        + "on rank 0), and its host (CPU throttling, other processes, NUMA placement: is the "
                        + "process bound to the CPU near its GPU?).");
                r.add("Compare its GPU with the others' (nvidia-smi -q -d CLOCK,PERFORMANCE,TEMPERATURE: clocks, "
                        + "throttle reasons, temperature; nvidia-smi -q -d ECC and the kernel log for Xid errors): a "
                        + "rank that waits on its own slow GPU before enqueueing looks the same.");
            }
            case LATE_ON_GPU -> {
                r.add("Its GPU reaches the collectives late: check the GPU's clocks and throttle reasons "
                        + "(nvidia-smi -q -d CLOCK,PERFORMANCE,POWER,TEMPERATURE), row remapping and ECC errors "
                        + "(nvidia-smi -q -d ROW_REMAPPER,ECC), Xid errors in the kernel log, and other processes "
                        + "on the GPU (nvidia-smi --query-compute-apps).");
                r.add("Look for work only this rank queues before the collective (a larger shard, an extra "
                        + "loss or metric kernel) with the PyTorch profiler on this rank and a healthy one.");
            }
            case SLOW_INSIDE -> {
                r.add("Its links are slow: check its GPU's NVLinks (nvidia-smi nvlink -s and -e), its PCIe link "
                        + "(nvidia-smi -q -d PCIE, lspci -vv LnkSta against LnkCap), its NIC's port state, rate "
                        + "and error counters (ibstat, perfquery) and the leaf port it is cabled to.");
                r.add("Run nccl-tests or ib_write_bw between this rank's node and a healthy one and compare with "
                        + "a healthy pair (the pairwise matrix shows it).");
            }
            case SLOW_STEPS -> r.add("Turn on the flight recorder's timing (TORCH_NCCL_ENABLE_TIMING=1, "
                    + "TORCH_NCCL_TRACE_BUFFER_SIZE=2000) and dump it on demand to see whether the time goes before "
                    + "the collectives or inside them.");
        }
        if (!s.confirmed()) {
            r.add("Check the hosts' clocks (chronyc tracking or timedatectl on each) or rerun with "
                    + "TORCH_NCCL_ENABLE_TIMING=1: the other ranks' longer kernels would confirm the delay.");
        }
        return r;
    }
}
