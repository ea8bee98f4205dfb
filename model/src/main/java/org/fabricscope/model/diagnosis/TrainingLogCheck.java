package org.fabricscope.model.diagnosis;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.fabricscope.model.Evidence;
import org.fabricscope.model.FabricModel;
import org.fabricscope.model.Finding;
import org.fabricscope.model.Port;
import org.fabricscope.model.ranks.RankMap;
import org.fabricscope.model.ranks.RankSite;
import org.fabricscope.model.training.Rank;
import org.fabricscope.model.training.TrainingChecks;

/**
 * The training layer's findings ({@code rdma-device-missing}, {@code tcp-fallback}, {@code gdr-not-used},
 * {@code nccl-timeout}, {@code nccl-init-hang}, {@code nccl-version-mismatch}, {@code ib-completion-error},
 * {@code rdma-permission}, {@code memlock-limit}) as one check of the diagnosis pass. When the fabric,
 * host topologies or pods are loaded too, {@code nccl-timeout} names where the lagging rank ran — pod,
 * node, GPU, HCA and leaf port — and the error counters of that link.
 */
public final class TrainingLogCheck implements FabricCheck {
    private static final Pattern LAGGED = Pattern.compile("^rank (\\d+) lagged");
    private final ErrorThresholds thresholds;

    public TrainingLogCheck() {
        this(ErrorThresholds.defaults());
    }

    public TrainingLogCheck(ErrorThresholds thresholds) {
        this.thresholds = thresholds;
    }

    @Override
    public String id() {
        return "training";
    }

    @Override
    public String description() {
        return "NCCL and PyTorch log findings: missing RDMA, TCP fallback, timeouts, init hangs, IB and verbs errors";
    }

    @Override
    public List<Finding> run(FabricModel model) {
        List<Finding> out = TrainingChecks.run(model.trainingLog());
        RankMap ranks = null;
        for (int i = 0; i < out.size(); i++) {
            Finding f = out.get(i);
            if (!f.id().equals("nccl-timeout") || f.subjects().isEmpty()) {
                continue;
            }
            Matcher m = LAGGED.matcher(f.subjects().get(0));
            if (!m.find()) {
                continue;
            }
            Rank r = model.trainingLog().worldRank(Integer.parseInt(m.group(1))).orElse(null);
            if (r == null) {
                continue;
            }
            if (ranks == null) {
                ranks = model.ranks();
            }
            RankSite site = ranks.site(r.commId(), r.rank());
            if (site != null) {
                out.set(i, withSite(f, site));
            }
        }
        return out;
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
                        evidence.add(new Evidence(ev == null ? "" : ev.source(), ev == null ? 0 : ev.line(),
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
        // the title names the place the join found instead of the log's host and device list
        String lagged = "rank " + site.rank().rank() + " lagged";
        int at = f.title().indexOf(lagged);
        String title = at < 0 ? f.title()
                : f.title().substring(0, at) + lagged + " " + site.describe().substring(("rank " + site.rank().rank() + " ").length());
        return new Finding(f.id(), f.severity(), title, f.subjects(), evidence, remedies);
    }
}
