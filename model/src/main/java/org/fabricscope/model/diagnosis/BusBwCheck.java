package org.fabricscope.model.diagnosis;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.fabricscope.model.FabricModel;
import org.fabricscope.model.bandwidth.BusBwExpectation;
import org.fabricscope.model.bandwidth.BusBwExpectations;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.core.FindingSpec;
import org.fabricscope.model.core.Layer;
import org.fabricscope.model.core.Severity;
import org.fabricscope.model.core.Subject;
import org.fabricscope.model.forensics.NcclTestDevice;
import org.fabricscope.model.forensics.NcclTestRow;
import org.fabricscope.model.forensics.NcclTestRun;
import org.fabricscope.model.training.ChannelLink;
import org.fabricscope.model.training.Rank;

/**
 * {@code busbw-below-expected}: an nccl-tests run whose peak bus bandwidth, over the sizes large enough
 * to be bandwidth-bound (at least {@link #MIN_BYTES}), is below {@link #FRACTION} of what the slowest hop
 * of its path carries ({@link BusBwExpectations}). No expectation, no finding; no size that large, no
 * finding (a run up to 8 MiB never reaches the link's rate, however healthy).
 *
 * <p>Why half: healthy runs reach 60 to 85% of the nominal link rate at these sizes (328 of 450 GB/s at
 * 1 GiB and 268 at 64 MiB on the 2x H200 capture; NVIDIA/nccl issue #1264 measures 380 of 450 GB/s with
 * p2pBandwidthLatencyTest on H100; NCCL itself models 20.6 of the nominal 25 GB/s per NVLink4 link), while
 * the faults this is for cost far more than half: the same host with NCCL_P2P_DISABLE=1 (host shared
 * memory) reaches 6%, over sockets 1%; a link that trained at 1x of 4x keeps 25%. A drop of a few NVLinks
 * or a NIC of eight stays under the threshold: compare runs before and after for those.
 */
public final class BusBwCheck implements FabricCheck {
    static final FindingSpec BELOW = new FindingSpec("busbw-below-expected", Layer.TRAINING, Severity.WARNING,
            "An nccl-tests run's peak bus bandwidth is below half of what the slowest link of its path carries",
            "nccl-tests doc/PERFORMANCE.md (bus bandwidth is comparable to the hardware bottleneck); NVLink rates per "
                    + "generation from NVIDIA's architecture documents, NIC rates from the fabric or the NCCL topology, "
                    + "eRDMA NICs per instance type from Alibaba Cloud PAI's eRDMA table (the PAI eRDMA guide)");
    /** Peak below this fraction of the expectation raises the finding. */
    public static final double FRACTION = 0.5;
    /** Only sizes from 64 MiB up count for the peak: below that, latency still weighs (168 of 328 GB/s at 8 MiB on H200). */
    public static final long MIN_BYTES = 64L << 20;

    @Override
    public List<FindingSpec> findings() {
        return List.of(BELOW);
    }

    /** The peak bus bandwidth over the run's rows of at least {@link #MIN_BYTES}, and that row; empty when it has none. */
    public static Optional<NcclTestRow> peakRow(NcclTestRun run) {
        NcclTestRow best = null;
        double bestBw = -1;
        for (NcclTestRow r : run.rows()) {
            if (r.bytes() < MIN_BYTES) {
                continue;
            }
            double bw = busBw(r);
            if (bw > bestBw) {
                bestBw = bw;
                best = r;
            }
        }
        return Optional.ofNullable(best);
    }

    static double busBw(NcclTestRow r) {
        double a = r.outOfPlace() == null || !Double.isFinite(r.outOfPlace().busBw()) ? 0 : r.outOfPlace().busBw();
        double b = r.inPlace() == null || !Double.isFinite(r.inPlace().busBw()) ? 0 : r.inPlace().busBw();
        return Math.max(a, b);
    }

    @Override
    public List<Finding> run(CheckContext context) {
        FabricModel model = context.model();
        List<Finding> out = new ArrayList<>();
        for (NcclTestRun run : model.forensics().ncclTests()) {
            Optional<BusBwExpectation> expected = BusBwExpectations.of(model, run);
            Optional<NcclTestRow> peak = peakRow(run);
            if (expected.isEmpty() || peak.isEmpty() || expected.get().gbPerSec() <= 0) {
                continue;
            }
            BusBwExpectation e = expected.get();
            double measured = busBw(peak.get());
            double fraction = measured / e.gbPerSec();
            if (fraction >= FRACTION) {
                continue;
            }
            List<Subject> refs = new ArrayList<>();
            refs.add(new Subject.LineRef(run.source(), run.line(), run.source() + ":" + run.line()));
            for (String h : e.hosts()) {
                refs.add(new Subject.HostRef(h, h));
            }
            List<Evidence> evidence = new ArrayList<>();
            evidence.add(peak.get().evidence());
            evidence.addAll(e.evidence().subList(0, Math.min(4, e.evidence().size())));
            Map<String, Evidence> transports = transports(model, run);
            evidence.addAll(transports.values());
            String title = String.format(Locale.ROOT,
                    "%s (%s) on %s: peak bus bandwidth %s GB/s (at %s) is %d%% of the expected %s GB/s (%s)", run.test(),
                    run.source().replaceAll(".*[/\\\\]", ""), String.join(", ", e.hosts()), num(measured), size(peak.get().bytes()), Math.round(fraction * 100),
                    num(e.gbPerSec()), e.source());
            if (!transports.isEmpty()) {
                title += "; NCCL's log shows it went via " + String.join(", ", transports.keySet());
            }
            int channels = channels(model, run);
            if (channels > 0) {
                title += String.format(Locale.ROOT, " on %d channel%s", channels, channels == 1 ? "" : "s");
            }
            Map<String, String> env = env(model, run);
            List<String> set = slowing(env);
            if (!set.isEmpty()) {
                title += "; set by the environment: " + String.join(", ", set);
            }
            List<String> remedies = remedies(e, env);
            if (ranks(model, run).isEmpty()) {
                remedies.add(0, "No NCCL log of this run was loaded, so why it falls short is not in the evidence: rerun with "
                        + "NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,ENV,P2P,SHM,NET (and NCCL_DEBUG_FILE) and load the log "
                        + "with the run's output; it names the transport, the channels and the NCCL_* variables set.");
            }
            out.add(new Finding(BELOW.id(), Severity.WARNING, title, refs, evidence, remedies));
        }
        return out;
    }

    /**
     * The variables NCCL reported as set by the environment that can force a slower path or fewer channels
     * (NCCL's environment variable documentation: each one's effect), as {@code NAME=value}, in that order.
     */
    static final List<String> SLOWING = List.of("NCCL_P2P_DISABLE", "NCCL_SHM_DISABLE", "NCCL_P2P_LEVEL",
            "NCCL_IB_DISABLE", "NCCL_NET", "NCCL_IB_HCA", "NCCL_NET_GDR_LEVEL", "NCCL_NET_GDR_READ", "NCCL_ALGO",
            "NCCL_PROTO", "NCCL_MAX_NCHANNELS", "NCCL_MAX_CTAS", "NCCL_NCHANNELS_PER_NET_PEER", "NCCL_BUFFSIZE",
            "NCCL_P2P_USE_CUDA_MEMCPY");

    static List<String> slowing(Map<String, String> env) {
        List<String> set = new ArrayList<>();
        for (String k : SLOWING) {
            if (env.containsKey(k)) {
                set.add(k + "=" + env.get(k));
            }
        }
        return set;
    }

    private static List<String> remedies(BusBwExpectation e, Map<String, String> env) {
        List<String> r = new ArrayList<>();
        List<String> set = slowing(env);
        if (!set.isEmpty()) {
            r.add("The run's NCCL log shows " + String.join(", ", set) + " set by the environment: unset what forces the slower path and rerun.");
        }
        switch (e.hop()) {
            case NVLINK -> {
                r.add("See which transport NCCL chose (NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,P2P,SHM,NET): between GPUs "
                        + "of one host with NVLink it should say 'via P2P'; 'via SHM' means peer access is off "
                        + "(NCCL_P2P_DISABLE=1, NCCL_P2P_LEVEL, a container or VM without peer access), 'via NET/...' that "
                        + "host memory is off as well (NCCL_SHM_DISABLE=1).");
                r.add("Check the NVLinks: nvidia-smi nvlink -s (every link at its rate; an inactive link is missing), "
                        + "nvidia-smi nvlink -e (error counters), nvidia-smi topo -m (NV# between the GPUs) and the kernel "
                        + "log for Xid errors; with NVSwitches, that the fabric manager runs (nvidia-smi -q: Fabric State Completed).");
            }
            case PCIE -> r.add("Check each GPU's PCIe link (nvidia-smi -q -d PCIE: current against max generation and "
                    + "width; lspci -vv LnkSta) and that peer-to-peer is allowed (ACS on the switches, IOMMU): NCCL "
                    + "falls back to SHM through the CPU without it.");
            case NETWORK, ERDMA -> {
                r.add("See which network NCCL used (NCCL_DEBUG=INFO: 'NET/IB : Using [0]mlx5_0:1/IB' and 'via NET/IB/N/GDRDMA'); "
                        + "'NET/Socket' means the RDMA NICs were not found or not allowed (NCCL_IB_HCA, NCCL_IB_DISABLE, "
                        + "the RDMA device not mounted in the pod).");
                r.add("Check that NCCL_IB_HCA names every NIC of the host, that GPUDirect RDMA is on ('GDRDMA' in the "
                        + "channel lines; nvidia-peermem loaded), and the HCA ports' state, width and speed (ibstat, "
                        + "iblinkinfo) and error counters (perfquery) along the path.");
            }
        }
        r.add("Rerun with sizes up to at least 1 GiB (-e 1G) and compare with a run on a healthy host of the same kind.");
        return r;
    }

    /** Transports of the run's NCCL ranks (same host and pid as its header), each with its first channel line. */
    static Map<String, Evidence> transports(FabricModel model, NcclTestRun run) {
        Set<String> comms = new LinkedHashSet<>();
        for (Rank r : ranks(model, run)) {
            comms.add(r.commId());
        }
        Map<String, Evidence> out = new LinkedHashMap<>();
        if (comms.isEmpty()) {
            return out;
        }
        for (ChannelLink c : model.trainingLog().channels()) {
            if (comms.contains(c.commId()) && c.transport() != null && c.evidence() != null) {
                out.putIfAbsent(c.transport().label(), c.evidence());
            }
        }
        return out;
    }

    /** How many channels NCCL set up for the run's communicators (the channel lines of its log); 0 when none were read. */
    static int channels(FabricModel model, NcclTestRun run) {
        Set<String> comms = new LinkedHashSet<>();
        for (Rank r : ranks(model, run)) {
            comms.add(r.commId());
        }
        Map<String, Set<Integer>> per = new LinkedHashMap<>();
        for (ChannelLink c : model.trainingLog().channels()) {
            if (comms.contains(c.commId())) {
                per.computeIfAbsent(c.commId(), k -> new java.util.TreeSet<>()).add(c.channel());
            }
        }
        return per.values().stream().mapToInt(Set::size).max().orElse(0);
    }

    private static Map<String, String> env(FabricModel model, NcclTestRun run) {
        Map<String, String> env = new LinkedHashMap<>();
        for (Rank r : ranks(model, run)) {
            env.putAll(r.env());
        }
        return env;
    }

    private static List<Rank> ranks(FabricModel model, NcclTestRun run) {
        Set<String> processes = new LinkedHashSet<>();
        for (NcclTestDevice d : run.devices()) {
            processes.add(d.host() + ":" + d.pid());
        }
        return model.trainingLog().ranks().stream().filter(r -> processes.contains(r.process())).toList();
    }

    static String num(double v) {
        return String.format(Locale.ROOT, v >= 100 ? "%.0f" : "%.1f", v);
    }

    static String size(long bytes) {
        if (bytes >= 1L << 30 && bytes % (1L << 30) == 0) {
            return (bytes >> 30) + " GiB";
        }
        if (bytes >= 1L << 20 && bytes % (1L << 20) == 0) {
            return (bytes >> 20) + " MiB";
        }
        return bytes + " B";
    }
}
