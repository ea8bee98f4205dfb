package org.fabricscope.model.bandwidth;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.fabricscope.model.FabricModel;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.fabric.FabricNode;
import org.fabricscope.model.fabric.Host;
import org.fabricscope.model.fabric.LinkSpeed;
import org.fabricscope.model.fabric.Port;
import org.fabricscope.model.fabric.PortState;
import org.fabricscope.model.forensics.NcclTestDevice;
import org.fabricscope.model.forensics.NcclTestRun;
import org.fabricscope.model.host.Gpu;
import org.fabricscope.model.host.HostTopology;
import org.fabricscope.model.host.NetPort;
import org.fabricscope.model.host.NvLink;
import org.fabricscope.model.host.NvidiaSmiMatrix;
import org.fabricscope.model.host.PciDevice;
import org.fabricscope.model.k8s.K8sPod;

/**
 * The bus bandwidth an nccl-tests run should reach: the bandwidth of the slowest hop of its path, per
 * direction, in GB/s. nccl-tests normalises bus bandwidth so that it "should reflect the speed of the
 * hardware bottleneck: NVLink, PCI, QPI, or network" (NVIDIA/nccl-tests {@code doc/PERFORMANCE.md},
 * "Bus bandwidth"), which is what this compares it with.
 *
 * <ul>
 * <li>All ranks on one host (the run's {@code Rank N ... on HOST device N} lines): NVLink when every GPU of
 * the run has NVLinks (to NVSwitches, or straight to the run's other GPUs) in that host's NCCL topology,
 * else the pairs' {@code NV#} labels in its {@code nvidia-smi topo -m}: links x the generation's rate per
 * link, the least of the run's GPUs. A GPU without NVLink puts the run on PCIe: its link's generation x
 * width.</li>
 * <li>Ranks on several hosts: per host, the NICs NCCL would use (RDMA nets, else socket nets) x their
 * line rate: the fabric's rate of the HCA port a net joined (active width x speed, from ibnetdiscover or
 * iblinkinfo), else the topology's {@code net speed}; without a topology, the cabled ports of the host's
 * HCAs in the fabric. On an Alibaba Cloud instance type of the PAI eRDMA guide's eRDMA table the NIC count comes
 * from that table (node label {@code node.kubernetes.io/instance-type}) and the rate from the topology's
 * {@code erdma_N} nets. The least host wins, and NVLink inside a host caps it when known.</li>
 * </ul>
 * No number is guessed: a hop whose bandwidth is not in the loaded inputs gives no expectation.
 *
 * <p>NVLink rates per link and direction (NVIDIA): NVLink1 (sm 60, P100) 20 GB/s; NVLink2 (sm 70, V100:
 * 6 links, "25 GB/s per direction", Tesla V100 architecture whitepaper); NVLink3 (sm 80, A100: 12 links,
 * 600 GB/s total, A100 architecture whitepaper) 25 GB/s; GA102's NVLink3 (sm 86: x4 links of 14.0625 GB/s
 * per direction, GA102 architecture whitepaper); NVLink4 (sm 90, H100/H200: "18x 4th Gen NVLink,
 * 900GB/s", NVIDIA's MLPerf system descriptions) 25 GB/s; NVLink5 (sm 100, B200: 18 links, 1.8 TB/s)
 * 50 GB/s. nvidia-smi nvlink -s reports 26.562 GB/s per link on the H200s of
 * sample-fabrics/gpu-captures/h200x2-busbw-nccl-2.28.9. NCCL's own search uses lower effective values
 * (src/graph/topo.h: SM90_NVLINK_BW 20.6 per link), which the threshold of the check leaves room for.
 */
public final class BusBwExpectations {
    /** The PAI eRDMA guide's table: instance type -> eRDMA NICs ({@link ErdmaExpectation#NICS}). */
    public static final Map<String, Integer> ERDMA_NICS = ErdmaExpectation.NICS;
    private static final Pattern NV = Pattern.compile("NV(\\d+)");
    private static final Pattern RDMA_NAME = Pattern.compile("(mlx\\d*_|erdma|rdma|bnxt_re|irdma|efa|qedr|hfi1|rxe|siw).*");

    private BusBwExpectations() {
    }

    /** An NVLink generation: its name and its rate per link and direction in GB/s. */
    public record NvlinkGeneration(String name, double gbPerLink) {
    }

    /** The run's expectation, or empty when a hop of its path is not known from the loaded inputs. */
    public static Optional<BusBwExpectation> of(FabricModel model, NcclTestRun run) {
        if (run.ranks() < 2 || run.devices().isEmpty()) {
            return Optional.empty(); // one rank moves nothing between GPUs: bus bandwidth is 0 by definition
        }
        Map<String, List<NcclTestDevice>> byHost = new LinkedHashMap<>();
        for (NcclTestDevice d : run.devices()) {
            if (d.host().isEmpty()) {
                return Optional.empty();
            }
            byHost.computeIfAbsent(d.host(), h -> new ArrayList<>()).add(d);
        }
        List<String> hosts = List.copyOf(byHost.keySet());
        // -J JSON lists the devices of one process only: the hosts of the other ranks are then unknown
        boolean allListed = run.devices().size() >= run.ranks();
        if (hosts.size() == 1 && allListed) {
            return intraHost(model, hosts.get(0), byHost.get(hosts.get(0)));
        }
        if (!allListed) {
            return Optional.empty();
        }
        BusBwExpectation slowest = null;
        for (String h : hosts) {
            Optional<BusBwExpectation> e = network(model, h);
            if (e.isEmpty()) {
                return Optional.empty();
            }
            if (slowest == null || e.get().gbPerSec() < slowest.gbPerSec()) {
                slowest = e.get();
            }
        }
        String src = slowest.source();
        if (hosts.size() > 1) {
            src = "slowest of " + hosts.size() + " hosts: " + src;
        }
        List<Evidence> ev = new ArrayList<>(slowest.evidence());
        double gb = slowest.gbPerSec();
        BusBwExpectation.Hop hop = slowest.hop();
        for (String h : hosts) {
            Optional<BusBwExpectation> intra = intraHost(model, h, byHost.get(h));
            if (intra.isPresent() && intra.get().gbPerSec() < gb) {
                gb = intra.get().gbPerSec();
                hop = intra.get().hop();
                src = intra.get().source() + " (below the NICs: " + slowest.source() + ")";
                ev = new ArrayList<>(intra.get().evidence());
            }
        }
        return Optional.of(new BusBwExpectation(gb, hop, src, hosts, ev));
    }

    // ---- inside one host

    static Optional<BusBwExpectation> intraHost(FabricModel model, String host, List<NcclTestDevice> devices) {
        HostTopology t = topology(model, host);
        if (devices.size() < 2) {
            return Optional.empty();
        }
        if (t == null) {
            return byName(host, devices);
        }
        List<Gpu> gpus = new ArrayList<>();
        for (NcclTestDevice d : devices) {
            Gpu g = gpu(t, d);
            if (g == null) {
                return Optional.empty();
            }
            if (!gpus.contains(g)) {
                gpus.add(g);
            }
        }
        if (gpus.size() < 2) {
            return Optional.empty();
        }
        String gpuName = devices.get(0).name();
        Optional<BusBwExpectation> nv = nvlinkFromTopology(t, host, gpus, gpuName);
        if (nv.isPresent()) {
            return nv;
        }
        nv = nvlinkFromSmi(t, host, gpus, gpuName);
        if (nv.isPresent()) {
            return nv;
        }
        boolean anyNvlink = gpus.stream().anyMatch(g -> !g.nvlinks().isEmpty())
                || t.reportedMatrices().stream().anyMatch(NvidiaSmiMatrix::hasNvlink);
        return anyNvlink ? Optional.empty() : pcie(t, host, gpus);
    }

    /**
     * No topology for the host: the GPUs' model name in the run's device lines sets the NVLink rate
     * ({@link GpuModels}); distinct GPUs of one name only.
     */
    private static Optional<BusBwExpectation> byName(String host, List<NcclTestDevice> devices) {
        Set<String> names = new LinkedHashSet<>();
        Set<String> gpus = new LinkedHashSet<>();
        for (NcclTestDevice d : devices) {
            names.add(d.name().trim());
            gpus.add(d.busId().isEmpty() ? String.valueOf(d.device()) : d.busId());
        }
        if (names.size() != 1 || gpus.size() < 2) {
            return Optional.empty();
        }
        return GpuModels.nvlinkByName(names.iterator().next(), host, "the nccl-tests device lines", List.of());
    }

    private static Optional<BusBwExpectation> nvlinkFromTopology(HostTopology t, String host, List<Gpu> gpus, String gpuName) {
        double least = Double.MAX_VALUE;
        Gpu leastGpu = null;
        int leastLinks = 0;
        NvlinkGeneration leastGen = null;
        List<Evidence> ev = new ArrayList<>();
        for (Gpu g : gpus) {
            int links = 0;
            for (NvLink l : g.nvlinks()) {
                Gpu peer = l.peerGpu();
                if (l.targetKind() == NvLink.TargetKind.NVSWITCH || (peer != null && gpus.contains(peer))) {
                    links += Math.max(0, l.count());
                    if (l.evidence() != null && ev.size() < 8) {
                        ev.add(l.evidence());
                    }
                }
            }
            NvlinkGeneration gen = generation(g.sm(), gpuName);
            if (links == 0 || gen == null) {
                return Optional.empty();
            }
            double bw = links * gen.gbPerLink();
            if (bw < least) {
                least = bw;
                leastGpu = g;
                leastLinks = links;
                leastGen = gen;
            }
        }
        String file = fileName(leastGpu.evidence() != null ? leastGpu.evidence().source() : t.source());
        String src = String.format(Locale.ROOT, "%s x %d links x %s GB/s (%s, %s) from %s of host %s", leastGen.name(),
                leastLinks, num(leastGen.gbPerLink()), leastGpu.label(),
                leastGpu.sm() > 0 ? "sm " + leastGpu.sm() : gpuName, file, host);
        return Optional.of(new BusBwExpectation(least, BusBwExpectation.Hop.NVLINK, src, List.of(host), ev));
    }

    private static Optional<BusBwExpectation> nvlinkFromSmi(HostTopology t, String host, List<Gpu> gpus, String gpuName) {
        for (NvidiaSmiMatrix m : t.reportedMatrices()) {
            int least = Integer.MAX_VALUE;
            String pair = "";
            for (Gpu a : gpus) {
                int sum = 0;
                for (Gpu b : gpus) {
                    if (a == b) {
                        continue;
                    }
                    String label = m.label(a.label(), b.label());
                    Matcher nv = label == null ? null : NV.matcher(label);
                    if (nv != null && nv.matches()) {
                        // a pair's NV# counts the links between them; with NVSwitches every pair shows all of them
                        sum = Math.max(sum, Integer.parseInt(nv.group(1)));
                        if (pair.isEmpty()) {
                            pair = label + " between " + a.label() + " and " + b.label();
                        }
                    }
                }
                least = Math.min(least, sum);
            }
            NvlinkGeneration gen = generation(gpus.get(0).sm(), gpuName);
            if (least == 0 || least == Integer.MAX_VALUE || gen == null) {
                continue;
            }
            String src = String.format(Locale.ROOT, "%s x %d links x %s GB/s (%s in nvidia-smi topo -m of host %s, %s)",
                    gen.name(), least, num(gen.gbPerLink()), pair, host, fileName(m.evidence() == null ? "" : m.evidence().source()));
            return Optional.of(new BusBwExpectation(least * gen.gbPerLink(), BusBwExpectation.Hop.NVLINK, src, List.of(host),
                    m.evidence() == null ? List.of() : List.of(m.evidence())));
        }
        return Optional.empty();
    }

    private static Optional<BusBwExpectation> pcie(HostTopology t, String host, List<Gpu> gpus) {
        double least = Double.MAX_VALUE;
        String src = "";
        List<Evidence> ev = new ArrayList<>();
        for (Gpu g : gpus) {
            PciDevice p = g.pci();
            if (p == null || p.linkWidthRaw() <= 0 || p.pcieGeneration() <= 0) {
                return Optional.empty(); // NCCL writes width 0 when it could not read it: no number to stand on
            }
            double bw = pcieGbPerLane(p.pcieGeneration()) * p.linkWidthRaw();
            if (p.evidence() != null) {
                ev.add(p.evidence());
            }
            if (bw < least) {
                least = bw;
                src = String.format(Locale.ROOT, "PCIe Gen%d x%d (%s GB/s per lane) of %s, no NVLink, from %s of host %s",
                        p.pcieGeneration(), p.linkWidthRaw(), num(pcieGbPerLane(p.pcieGeneration())), g.label(),
                        fileName(p.evidence() == null ? t.source() : p.evidence().source()), host);
            }
        }
        return Optional.of(new BusBwExpectation(least, BusBwExpectation.Hop.PCIE, src, List.of(host), ev));
    }

    // ---- across hosts

    static Optional<BusBwExpectation> network(FabricModel model, String host) {
        HostTopology t = topology(model, host);
        String instanceType = ErdmaExpectation.instanceType(model, host);
        Integer erdma = instanceType == null ? null : ERDMA_NICS.get(instanceType);
        if (erdma != null) {
            return ErdmaExpectation.of(t, host, instanceType, erdma);
        }
        if (t != null && !t.nets().isEmpty()) {
            List<NetPort> rdma = t.nets().stream().filter(BusBwExpectations::isRdma).toList();
            List<NetPort> used = rdma.isEmpty() ? t.nets() : rdma;
            double gbits = 0;
            List<Evidence> ev = new ArrayList<>();
            Set<String> kinds = new LinkedHashSet<>();
            Set<String> from = new LinkedHashSet<>();
            for (NetPort n : used) {
                double rate = fabricGbits(n.hcaPort());
                if (rate > 0) {
                    kinds.add(rateLabel(n.hcaPort()));
                    from.add(fileName(n.hcaPort().evidence() == null ? "the fabric" : n.hcaPort().evidence().source()));
                    if (n.hcaPort().evidence() != null) {
                        ev.add(n.hcaPort().evidence());
                    }
                } else if (n.speed() > 0) {
                    rate = n.speed() / 1000.0;
                    kinds.add(num(rate) + " Gb/s");
                    from.add(fileName(n.evidence() == null ? t.source() : n.evidence().source()));
                    if (n.evidence() != null) {
                        ev.add(n.evidence());
                    }
                } else {
                    return Optional.empty();
                }
                gbits += rate;
            }
            String src = String.format(Locale.ROOT, "%d %s NIC %s (%s) = %s Gb/s of host %s, from %s", used.size(),
                    rdma.isEmpty() ? "socket" : "RDMA", used.size() == 1 ? "port" : "ports", String.join(", ", kinds), num(gbits), host, String.join(", ", from));
            return Optional.of(new BusBwExpectation(gbits / 8, BusBwExpectation.Hop.NETWORK, src, List.of(host), ev));
        }
        Host h = model.host(host);
        if (h == null) {
            return Optional.empty();
        }
        double gbits = 0;
        int ports = 0;
        Set<String> kinds = new LinkedHashSet<>();
        Set<String> from = new LinkedHashSet<>();
        List<Evidence> ev = new ArrayList<>();
        for (FabricNode hca : h.adapters()) {
            for (Port p : hca.ports()) {
                double rate = p.cable() == null ? 0 : fabricGbits(p);
                if (rate > 0) {
                    gbits += rate;
                    ports++;
                    kinds.add(rateLabel(p));
                    if (p.evidence() != null) {
                        ev.add(p.evidence());
                        from.add(fileName(p.evidence().source()));
                    }
                }
            }
        }
        if (ports == 0) {
            return Optional.empty();
        }
        String src = String.format(Locale.ROOT, "%d HCA %s (%s) = %s Gb/s of host %s, from %s", ports, ports == 1 ? "port" : "ports",
                String.join(", ", kinds), num(gbits), host, from.isEmpty() ? "the fabric" : String.join(", ", from));
        return Optional.of(new BusBwExpectation(gbits / 8, BusBwExpectation.Hop.NETWORK, src, List.of(host), ev));
    }

    // ---- rates

    /**
     * The NVLink generation of a GPU from its compute capability x 10 ({@code sm} of the NCCL topology),
     * else from its marketing name as nccl-tests prints it; null when neither tells.
     */
    public static NvlinkGeneration generation(int sm, String gpuName) {
        if (sm >= 100) {
            return new NvlinkGeneration("NVLink5", 50);
        }
        if (sm >= 90) {
            return new NvlinkGeneration("NVLink4", 25);
        }
        if (sm >= 86) {
            return new NvlinkGeneration("NVLink3 (GA10x)", 14.0625);
        }
        if (sm >= 80) {
            return new NvlinkGeneration("NVLink3", 25);
        }
        if (sm >= 70) {
            return new NvlinkGeneration("NVLink2", 25);
        }
        if (sm >= 60) {
            return new NvlinkGeneration("NVLink1", 20);
        }
        String n = gpuName == null ? "" : gpuName.toUpperCase(Locale.ROOT);
        if (n.matches(".*\\bG?B[123]00\\b.*")) {
            return new NvlinkGeneration("NVLink5", 50);
        }
        if (n.matches(".*\\bG?H(100|200|800|20)\\b.*")) {
            return new NvlinkGeneration("NVLink4", 25);
        }
        if (n.matches(".*\\bA(100|800)\\b.*")) {
            return new NvlinkGeneration("NVLink3", 25);
        }
        if (n.matches(".*\\bV100\\b.*")) {
            return new NvlinkGeneration("NVLink2", 25);
        }
        return null;
    }

    /**
     * Data rate of one PCIe lane per direction in GB/s: 2.5 and 5 GT/s with 8b/10b, 8/16/32 GT/s with
     * 128b/130b, 64 GT/s with FLIT mode (242 of 256 bytes) (PCI-SIG base specifications 1.0 to 6.0).
     */
    public static double pcieGbPerLane(int generation) {
        return switch (generation) {
            case 1 -> 0.25;
            case 2 -> 0.5;
            case 3 -> 8 * 128.0 / 130 / 8;
            case 4 -> 16 * 128.0 / 130 / 8;
            case 5 -> 32 * 128.0 / 130 / 8;
            case 6 -> 64 * 242.0 / 256 / 8;
            default -> 0;
        };
    }

    /**
     * Data rate of an InfiniBand port in Gb/s: active width x the speed's data rate per lane (SDR to QDR
     * 8b/10b; FDR 64b/66b at 14.0625; EDR 25, HDR 50, NDR 100, XDR 200: the nominal rates the IBTA names
     * them by). 0 when the port is down or not yet active, or its width or speed is not known (ibnetdiscover
     * prints no state: its cabled ports count).
     */
    public static double fabricGbits(Port p) {
        if (p == null || p.width() == null || p.speed() == null || p.state() == PortState.DOWN
                || p.state() == PortState.INIT || p.state() == PortState.ARMED) {
            return 0;
        }
        return p.width().lanes() * laneDataGbits(p.speed());
    }

    static double laneDataGbits(LinkSpeed s) {
        return switch (s) {
            case SDR -> 2;
            case DDR -> 4;
            case QDR -> 8;
            case FDR10 -> 10;
            case FDR -> 14.0625 * 64 / 66;
            case EDR -> 25;
            case HDR -> 50;
            case NDR -> 100;
            case XDR -> 200;
        };
    }

    private static String rateLabel(Port p) {
        return p.width().token() + p.speed().name() + " " + num(fabricGbits(p)) + " Gb/s";
    }

    /** An RDMA device NCCL's IB plugin would use; {@code ib0} and {@code eth0} are socket interfaces (IPoIB, Ethernet). */
    static boolean isRdma(NetPort n) {
        return n.guid() != 0 || RDMA_NAME.matcher(n.name().toLowerCase(Locale.ROOT)).matches();
    }

    // ---- joins

    /** The host's topology by name, else through the pod of that name (in Kubernetes NCCL's host is the pod). */
    static HostTopology topology(FabricModel model, String host) {
        HostTopology t = model.hostTopology(host);
        if (t != null) {
            return t;
        }
        for (K8sPod p : model.pods()) {
            if (p.name().equals(host) && p.node() != null && !p.node().isEmpty()) {
                return model.hostTopology(p.node());
            }
        }
        return null;
    }

    /** The topology's GPU of a header line: by bus id ({@code 0000:00:06} matches {@code 0000:00:06.0}), else by CUDA device. */
    static Gpu gpu(HostTopology t, NcclTestDevice d) {
        String want = d.busId().toLowerCase(Locale.ROOT);
        if (!want.isEmpty()) {
            for (Gpu g : t.gpus()) {
                String b = g.busId().toLowerCase(Locale.ROOT);
                if (!b.isEmpty() && (b.equals(want) || b.startsWith(want + "."))) {
                    return g;
                }
            }
        }
        return d.device() >= 0 ? t.gpuByDev(d.device()) : null;
    }

    static String fileName(String path) {
        return path == null || path.isEmpty() ? "the topology" : path.replaceAll(".*[/\\\\]", "");
    }

    static String num(double v) {
        return v == Math.rint(v) ? String.valueOf((long) v) : String.format(Locale.ROOT, "%.2f", v).replaceAll("0+$", "");
    }
}
