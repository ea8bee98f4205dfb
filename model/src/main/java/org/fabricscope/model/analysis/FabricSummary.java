package org.fabricscope.model.analysis;

import org.fabricscope.model.FabricModel;
import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.core.NaturalOrder;
import org.fabricscope.model.fabric.Cable;
import org.fabricscope.model.fabric.FabricNode;
import org.fabricscope.model.fabric.Host;
import org.fabricscope.model.fabric.Port;
import org.fabricscope.model.fabric.Tier;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.fabricscope.model.diagnosis.ErrorThresholds;
import org.fabricscope.model.diagnosis.LinkDegradedCheck;
import org.fabricscope.model.diagnosis.LinkErrorsCheck;

/**
 * The counts that {@code fabricscope summary} prints. Field names are a contract with scripts:
 * add fields, never rename them. {@code allocatable} is the total allocatable per resource over all
 * Kubernetes nodes read, in base units (cores, bytes, devices; whole numbers as integers).
 */
public record FabricSummary(int switches, Map<String, Integer> switchTiers, int cas, int hostCas, int hosts,
                            int routers, int cables, Map<String, Integer> cablesBySpeed, int cablesDegraded,
                            int portsWithErrors, int gpus, int nics, int nets, int nvlinks,
                            int k8sNodes, int pods, Map<String, Number> allocatable,
                            int ranks, List<String> ncclVersions, Map<String, Integer> transports,
                            List<Diagnostic> diagnostics, List<NcclTest> ncclTests, List<Collective> collectives) {

    /**
     * One nccl-tests run: the binary ({@code all_reduce_perf}), its ranks, the average bus bandwidth it
     * printed (null when it did not), the peak bus and algorithm bandwidth over its rows (GB/s), its
     * wrong elements, the rows, and the file it came from.
     */
    public record NcclTest(String test, int ranks, Double avgBusBw, double peakBusBw, double peakAlgBw, long wrong,
                           List<NcclTestRow> rows, String source) {
    }

    /** One size of an nccl-tests run: bytes, count, type, reduction, and both placements (null when not run). */
    public record NcclTestRow(long bytes, long count, String type, String redop, NcclTestResult outOfPlace,
                              NcclTestResult inPlace) {
    }

    /** Time (us), algorithm and bus bandwidth (GB/s), wrong elements (null when the test printed N/A). */
    public record NcclTestResult(double timeUs, double algBw, double busBw, Long wrong) {
    }

    /**
     * One communicator's progress: a PyTorch process group from flight recorder dumps ({@code from}
     * {@code flight-recorder}; {@code communicator} is the group's name), an NCCL communicator from a
     * RAS report ({@code ras}; its hash) or from NCCL Inspector output ({@code inspector}; its id).
     * {@code lastSequence} is, per rank, the last collective enqueued (flight recorder), the collectives
     * launched (RAS) or the last collective's {@code coll_sn} (Inspector, which records completed ones);
     * {@code lastCompleted} the last completed (flight recorder only). {@code source} is the file the numbers come from (the last report, for RAS).
     */
    public record Collective(String communicator, String name, String from, List<Integer> ranks,
                             Map<String, Long> lastSequence, Map<String, Long> lastCompleted, String source) {
    }

    /** Per-host counts from the host layer (NCCL topology files), for {@code summary --json --detail}. */
    public record HostDetail(String name, int gpus, int nics, int nets, int nvlinks, int hcas, int netsJoined) {
    }

    /** The same counts with other diagnostics (e.g. with threshold-file problems added). */
    public FabricSummary withDiagnostics(List<Diagnostic> all) {
        return new FabricSummary(switches, switchTiers, cas, hostCas, hosts, routers, cables, cablesBySpeed,
                cablesDegraded, portsWithErrors, gpus, nics, nets, nvlinks, k8sNodes, pods, allocatable,
                ranks, ncclVersions, transports, List.copyOf(all), ncclTests, collectives);
    }

    /** One row per host that has a topology, in host-name order. */
    public static List<HostDetail> hostDetails(FabricModel model) {
        List<HostDetail> out = new java.util.ArrayList<>();
        model.hostTopologies().values().stream()
                .sorted(java.util.Comparator.comparing(org.fabricscope.model.host.HostTopology::name, NaturalOrder.INSTANCE))
                .forEach(t -> {
                    Host h = model.host(t.name());
                    out.add(new HostDetail(t.name(), t.gpus().size(), t.nics().size(), t.nets().size(), t.nvlinkCount(),
                            h == null ? 0 : h.adapters().size(),
                            (int) t.nets().stream().filter(n -> n.hca() != null).count()));
                });
        return out;
    }

    public static FabricSummary of(FabricModel model, ErrorThresholds thresholds) {
        Map<String, Integer> tiers = new LinkedHashMap<>();
        for (Tier t : Tier.values()) {
            tiers.put(t.label(), 0);
        }
        int switches = 0;
        int cas = 0;
        int hostCas = 0;
        int routers = 0;
        int portsWithErrors = 0;
        for (FabricNode n : model.nodes()) {
            switch (n.kind()) {
                case SWITCH -> {
                    switches++;
                    tiers.merge(n.tier().label(), 1, Integer::sum);
                }
                case CA -> {
                    cas++;
                    if (n.isHostAdapter()) {
                        hostCas++;
                    }
                }
                case ROUTER -> routers++;
                default -> { }
            }
            for (Port p : n.ports()) {
                if (LinkErrorsCheck.worst(p, thresholds) != null) {
                    portsWithErrors++;
                }
            }
        }
        Map<String, Integer> bySpeed = new TreeMap<>(NaturalOrder.INSTANCE);
        for (Cable c : model.cables()) {
            bySpeed.merge(c.rateToken(), 1, Integer::sum);
        }
        int degraded = LinkDegradedCheck.assess(model).size();
        int gpus = 0;
        int nics = 0;
        int nets = 0;
        int nvlinks = 0;
        for (org.fabricscope.model.host.HostTopology t : model.hostTopologies().values()) {
            gpus += t.gpus().size();
            nics += t.nics().size();
            nets += t.nets().size();
            nvlinks += t.nvlinkCount();
        }
        return new FabricSummary(switches, tiers, cas, hostCas, model.hosts().size(), routers,
                model.cables().size(), bySpeed, degraded, portsWithErrors, gpus, nics, nets, nvlinks,
                model.k8sNodes().size(), model.pods().size(), model.k8s().allocatableTotals(),
                model.trainingLog().ranks().size(), List.copyOf(model.trainingLog().ncclVersions()),
                model.trainingLog().transportsByPair(), model.diagnostics(), ncclTests(model), collectives(model));
    }

    static List<NcclTest> ncclTests(FabricModel model) {
        List<NcclTest> out = new java.util.ArrayList<>();
        for (org.fabricscope.model.forensics.NcclTestRun r : model.forensics().ncclTests()) {
            List<NcclTestRow> rows = new java.util.ArrayList<>();
            for (org.fabricscope.model.forensics.NcclTestRow row : r.rows()) {
                rows.add(new NcclTestRow(row.bytes(), row.count(), row.type(), row.redop(), result(row.outOfPlace()),
                        result(row.inPlace())));
            }
            out.add(new NcclTest(r.test(), r.ranks(), Double.isNaN(r.avgBusBw()) ? null : r.avgBusBw(), r.peakBusBw(),
                    r.peakAlgBw(), r.wrong(), rows, r.source()));
        }
        return out;
    }

    private static NcclTestResult result(org.fabricscope.model.forensics.NcclTestRow.Result r) {
        return r == null ? null : new NcclTestResult(finite(r.timeUs()), finite(r.algBw()), finite(r.busBw()),
                r.wrong() < 0 ? null : r.wrong());
    }

    private static double finite(double v) {
        return Double.isFinite(v) ? v : -1;
    }

    /** Flight recorder process groups (by name), then RAS communicators (by hash, from the last report naming each). */
    static List<Collective> collectives(FabricModel model) {
        List<Collective> out = new java.util.ArrayList<>();
        var f = model.forensics();
        for (org.fabricscope.model.forensics.ProcessGroupProgress p
                : org.fabricscope.model.forensics.FlightRecorderAnalysis.progress(f.flightRecorder())) {
            Map<String, Long> seq = new LinkedHashMap<>();
            Map<String, Long> done = new LinkedHashMap<>();
            java.util.Set<String> sources = new java.util.LinkedHashSet<>();
            p.ranks().forEach((rank, pr) -> {
                seq.put(String.valueOf(rank), pr.lastEnqueued());
                done.put(String.valueOf(rank), pr.lastCompleted());
                sources.add(pr.source());
            });
            out.add(new Collective(p.name(), p.desc(), "flight-recorder", p.members(), seq, done,
                    String.join(", ", sources)));
        }
        Map<String, Collective> ras = new LinkedHashMap<>();
        for (org.fabricscope.model.forensics.RasStatus s : f.ras()) {
            for (org.fabricscope.model.forensics.RasCommunicator c : s.communicators()) {
                if (c.ranks().isEmpty()) {
                    continue;
                }
                Map<String, Long> seq = new LinkedHashMap<>();
                List<Integer> ranks = new java.util.ArrayList<>();
                for (org.fabricscope.model.forensics.RasRank r : c.ranks()) {
                    ranks.add(r.rank());
                    seq.put(String.valueOf(r.rank()), r.totalCount());
                }
                Collective had = ras.remove(c.hash());
                String label = c.label().isEmpty() && had != null ? had.name() : c.label();
                ras.put(c.hash(), new Collective(c.hash(), label, "ras", ranks, seq, Map.of(), s.source()));
            }
        }
        out.addAll(ras.values());
        Map<String, Collective> inspector = new LinkedHashMap<>();
        for (org.fabricscope.model.forensics.InspectorCommunicator c : f.inspector()) {
            Collective had = inspector.get(c.commId());
            List<Integer> ranks = new java.util.ArrayList<>(had == null ? List.of() : had.ranks());
            Map<String, Long> seq = new java.util.TreeMap<>(java.util.Comparator.comparingLong(Long::parseLong));
            if (had != null) {
                seq.putAll(had.lastSequence());
            }
            if (!ranks.contains(c.rank())) {
                ranks.add(c.rank());
                ranks.sort(null);
            }
            seq.merge(String.valueOf(c.rank()), c.lastSeq(), Math::max);
            String src = had == null || had.source().contains(c.source()) ? c.source() : had.source() + ", " + c.source();
            inspector.put(c.commId(), new Collective(c.commId(), "", "inspector", ranks, new LinkedHashMap<>(seq), Map.of(),
                    had == null ? c.source() : src));
        }
        out.addAll(inspector.values());
        return out;
    }
}
