package org.fabricscope.model;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.fabricscope.model.diagnosis.ErrorThresholds;
import org.fabricscope.model.diagnosis.LinkDegradedCheck;
import org.fabricscope.model.diagnosis.LinkErrorsCheck;

/**
 * The counts that {@code fabricscope summary} prints. Field names are a contract with scripts:
 * add fields, never rename them.
 */
public record FabricSummary(int switches, Map<String, Integer> switchTiers, int cas, int hostCas, int hosts,
                            int routers, int cables, Map<String, Integer> cablesBySpeed, int cablesDegraded,
                            int portsWithErrors, List<Diagnostic> diagnostics) {

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
        return new FabricSummary(switches, tiers, cas, hostCas, model.hosts().size(), routers,
                model.cables().size(), bySpeed, degraded, portsWithErrors, model.diagnostics());
    }
}
