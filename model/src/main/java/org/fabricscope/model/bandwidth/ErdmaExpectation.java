package org.fabricscope.model.bandwidth;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import org.fabricscope.model.FabricModel;
import org.fabricscope.model.host.HostTopology;
import org.fabricscope.model.host.NetPort;
import org.fabricscope.model.k8s.K8sNode;
import org.fabricscope.model.k8s.K8sPod;

/**
 * What the eRDMA NICs of an Alibaba Cloud instance carry: how many it has, from the PAI eRDMA guide's table by
 * instance type (the node's {@code node.kubernetes.io/instance-type} label), times the rate of one eRDMA NIC from
 * the host's NCCL topology. No topology, no number: the guide gives the count, not the rate.
 */
final class ErdmaExpectation {
    /** The PAI eRDMA guide (Alibaba Cloud PAI "eRDMA: Use high-performance networks"): instance type -> eRDMA NICs. */
    static final Map<String, Integer> NICS = table();
    static final List<String> LABELS = List.of("node.kubernetes.io/instance-type", "beta.kubernetes.io/instance-type");

    private ErdmaExpectation() {
    }

    static Optional<BusBwExpectation> of(HostTopology t, String host, String instanceType, int nics) {
        if (t == null) {
            return Optional.empty(); // the PAI eRDMA guide gives the count, not the rate: without the topology's speed, no number
        }
        double mbps = 0;
        NetPort rated = null;
        for (NetPort n : t.nets()) {
            if (n.name().toLowerCase(Locale.ROOT).startsWith("erdma") && n.speed() > mbps) {
                mbps = n.speed();
                rated = n;
            }
        }
        if (rated == null) {
            return Optional.empty();
        }
        double gbits = nics * mbps / 1000.0;
        String src = String.format(Locale.ROOT, "the PAI eRDMA guide table: %s has %d eRDMA %s x %s Gb/s (speed of %s in %s) = %s Gb/s of host %s",
                instanceType, nics, nics == 1 ? "NIC" : "NICs", BusBwExpectations.num(mbps / 1000.0), rated.name(), BusBwExpectations.fileName(rated.evidence() == null ? t.source()
                        : rated.evidence().source()), BusBwExpectations.num(gbits), host);
        return Optional.of(new BusBwExpectation(gbits / 8, BusBwExpectation.Hop.ERDMA, src, List.of(host),
                rated.evidence() == null ? List.of() : List.of(rated.evidence())));
    }

    static String instanceType(FabricModel model, String host) {
        K8sNode n = model.k8sNodes().get(host);
        if (n == null) {
            for (K8sPod p : model.pods()) {
                if (p.name().equals(host) && p.node() != null) {
                    n = model.k8sNodes().get(p.node());
                    break;
                }
            }
        }
        if (n == null) {
            return null;
        }
        for (String l : LABELS) {
            String v = n.labels().get(l);
            if (v != null && !v.isBlank()) {
                return v.strip();
            }
        }
        return null;
    }

    private static Map<String, Integer> table() {
        Map<String, Integer> m = new LinkedHashMap<>();
        m.put("ecs.ebmgn7v.32xlarge", 2);
        m.put("ecs.ebmgn8v.48xlarge", 2);
        m.put("ecs.ebmgn8is.32xlarge", 2);
        m.put("ecs.ebmgn8i.32xlarge", 4);
        m.put("ecs.gn8is.2xlarge", 1);
        m.put("ecs.gn8is.4xlarge", 1);
        m.put("ecs.gn8is-2x.8xlarge", 1);
        m.put("ecs.gn8is-4x.16xlarge", 1);
        return java.util.Collections.unmodifiableMap(m);
    }
}
