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
 * add fields, never rename them. {@code portsWithCounters} counts the ports whose counters were read
 * at all: with none, {@code portsWithErrors} 0 means nothing was judged, not that no port has errors.
 * {@code allocatable} is the total allocatable per resource over all
 * Kubernetes nodes read, in base units (cores, bytes, devices; whole numbers as integers).
 */
public record FabricSummary(int switches, Map<String, Integer> switchTiers, int cas, int hostCas, int hosts,
                            int routers, int cables, Map<String, Integer> cablesBySpeed, int cablesDegraded,
                            int portsWithErrors, int portsWithCounters, int gpus, int nics, int nets, int nvlinks,
                            int k8sNodes, int pods, Map<String, Number> allocatable,
                            int ranks, List<String> ncclVersions, Map<String, Integer> transports,
                            List<Diagnostic> diagnostics, List<ForensicsSummary.NcclTest> ncclTests,
                            List<ForensicsSummary.Collective> collectives) {

    /** Per-host counts from the host layer (NCCL topology files), for {@code summary --json --detail}. */
    public record HostDetail(String name, int gpus, int nics, int nets, int nvlinks, int hcas, int netsJoined) {
    }

    /** The same counts with other diagnostics (e.g. with threshold-file problems added). */
    public FabricSummary withDiagnostics(List<Diagnostic> all) {
        return new FabricSummary(switches, switchTiers, cas, hostCas, hosts, routers, cables, cablesBySpeed,
                cablesDegraded, portsWithErrors, portsWithCounters, gpus, nics, nets, nvlinks, k8sNodes, pods, allocatable,
                ranks, ncclVersions, transports, List.copyOf(all), ncclTests, collectives);
    }

    /** Whether there are cables whose ports' error counters were not read at all: no port was judged for errors. */
    public boolean countersUnread() {
        return cables > 0 && portsWithCounters == 0;
    }

    /** What the window and the CLI say where a count of ports with errors would mislead. */
    public static final String NO_COUNTERS = "no error counters were read: load perfquery/ibqueryerrors output";

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
        int portsWithCounters = 0;
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
                if (!p.counters().isEmpty()) {
                    portsWithCounters++;
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
        long nvlinks = 0;
        for (org.fabricscope.model.host.HostTopology t : model.hostTopologies().values()) {
            gpus += t.gpus().size();
            nics += t.nics().size();
            nets += t.nets().size();
            nvlinks += t.nvlinkCount();
        }
        return new FabricSummary(switches, tiers, cas, hostCas, model.hosts().size(), routers,
                model.cables().size(), bySpeed, degraded, portsWithErrors, portsWithCounters, gpus, nics, nets,
                (int) Math.min(Integer.MAX_VALUE, nvlinks),
                model.k8sNodes().size(), model.pods().size(), model.k8s().allocatableTotals(),
                model.trainingLog().ranks().size(), List.copyOf(model.trainingLog().ncclVersions()),
                model.trainingLog().transportsByPair(), model.diagnostics(), ForensicsSummary.ncclTests(model),
                ForensicsSummary.collectives(model));
    }
}
