package org.fabricscope.model.diagnosis;

import org.fabricscope.model.core.FindingSpec;
import org.fabricscope.model.core.Subject;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.FabricModel;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.fabric.Port;
import org.fabricscope.model.k8s.K8sPod;
import org.fabricscope.model.ranks.RankMap;
import org.fabricscope.model.ranks.RankSite;
import org.fabricscope.model.training.Rank;
import org.fabricscope.model.training.TrainingChecks;

/**
 * The training layer's findings ({@code rdma-device-missing}, {@code rdma-device-not-needed}, {@code tcp-fallback}, {@code gdr-not-used},
 * {@code nccl-timeout}, {@code nccl-init-hang}, {@code nccl-version-mismatch}, {@code ib-completion-error},
 * {@code rdma-permission}, {@code memlock-limit}) as one check of the diagnosis pass. When the fabric,
 * host topologies or pods are loaded too, {@code nccl-timeout} names where the lagging rank ran — pod,
 * node, GPU, HCA and leaf port — and the error counters of that link. {@code memlock-limit} and
 * {@code rdma-permission} come from host evidence too ({@code ulimit -l}, {@code ls -l /dev/infiniband}).
 */
public final class TrainingLogCheck implements FabricCheck {
    private final ErrorThresholds thresholds;

    public TrainingLogCheck() {
        this(ErrorThresholds.defaults());
    }

    public TrainingLogCheck(ErrorThresholds thresholds) {
        this.thresholds = thresholds;
    }

    @Override
    public List<FindingSpec> findings() {
        return TrainingChecks.SPECS;
    }

    @Override
    public List<Finding> run(CheckContext context) {
        FabricModel model = context.model();
        RankMap ranks = context.ranks();
        List<Finding> out = new ArrayList<>(TrainingChecks.run(model.trainingLog(), rank -> {
            RankSite site = siteOf(model, ranks, rank);
            return site == null || (site.hca() == null && site.pod() == null && site.gpu() == null) ? null : site.place();
        }, host -> rdmaWanted(model, ranks, host)));
        // the host's own evidence: ulimit -l below unlimited, /dev/infiniband/uverbs* only root may open
        out.addAll(HostEvidenceFindings.memlock(model));
        out.addAll(HostEvidenceFindings.permissions(model));
        for (int i = 0; i < out.size(); i++) {
            Finding f = out.get(i);
            // the lagging rank is the timeout's first subject (TrainingChecks puts it there)
            if (f.id().equals("nccl-timeout") && !f.refs().isEmpty() && f.refs().get(0) instanceof Subject.RankRef lag) {
                RankSite site = siteOf(model, ranks, lag.rank());
                if (site != null) {
                    out.set(i, withSite(f, site));
                }
            }
        }
        return out;
    }

    /** The pod a log's host is (a pod's name, or the pod a rank of that host was placed in), when it requests an RDMA resource. */
    private static String rdmaWanted(FabricModel model, RankMap ranks, String host) {
        List<String> names = new ArrayList<>(List.of(host));
        for (RankSite s : ranks.sites()) {
            if (s.rank().host().equals(host) && s.pod() != null && !names.contains(s.pod())) {
                names.add(s.pod());
            }
        }
        for (K8sPod p : model.pods()) {
            if (names.contains(p.name()) && p.spec().requestsRdma()) {
                return "pod " + p.key() + " requests an RDMA resource";
            }
        }
        return null;
    }

    private static RankSite siteOf(FabricModel model, RankMap ranks, int worldRank) {
        return ranks.worldSite(worldRank);
    }

    /** The finding with the lagging rank's place first among the remedies, and its link's counters as evidence. */
    private Finding withSite(Finding f, RankSite site) {
        if (site.hca() == null && site.pod() == null && site.gpu() == null) {
            return f;
        }
        StringBuilder where = new StringBuilder("The lagging rank is ").append(site.describe());
        List<Evidence> evidence = new ArrayList<>(f.evidence());
        if (site.leafPort() != null && site.hcaPort() != null) {
            List<String> over = new ArrayList<>();
            for (Port p : new Port[] {site.hcaPort(), site.leafPort()}) {
                for (Map.Entry<String, Long> c : p.counters().entrySet()) {
                    if (thresholds.judge(c.getKey(), c.getValue()) != null) {
                        over.add(p.label() + " " + c.getKey() + "=" + c.getValue());
                        Evidence ev = p.counterEvidence(c.getKey());
                        evidence.add(Evidence.at(ev == null ? "" : ev.source(), ev == null ? 0 : ev.line(),
                                p.label() + ": " + c.getKey() + "=" + c.getValue()));
                    }
                }
            }
            where.append(over.isEmpty() ? "; its host link's counters are within thresholds."
                    : "; its host link has errors: " + String.join(", ", over) + ". Start there.");
        } else {
            where.append('.');
        }
        List<String> remedies = new ArrayList<>();
        remedies.add(where.toString());
        remedies.addAll(f.remedies());
        return f.with(f.title(), f.refs(), evidence, remedies);
    }
}
