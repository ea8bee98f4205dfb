package org.fabricscope.model.diagnosis;

import org.fabricscope.model.core.Plural;
import org.fabricscope.model.core.Subject;
import org.fabricscope.model.core.Layer;
import org.fabricscope.model.core.FindingSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.fabricscope.model.fabric.Cable;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.FabricModel;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.fabric.Port;
import org.fabricscope.model.core.Severity;
import org.fabricscope.model.ranks.RankMap;
import org.fabricscope.model.training.NcclEvent;
import org.fabricscope.model.ranks.RankRoute;
import org.fabricscope.model.ranks.RankSite;

/**
 * {@code rank-path-errors}: a cable with error counters over threshold, or one that lost its link,
 * lies on the fabric path of ranks that talk over the network. It joins what the logs say (which
 * ranks talk over NET/IB, from which GPU and HCA) with what the fabric dumps say (the counters on
 * every cable of every shortest path between the two HCAs), so a bad cable is named next to the
 * ranks whose traffic it carries.
 */
public final class RankPathErrorsCheck implements FabricCheck {
    private static final int MAX_PAIRS_LISTED = 6;
    private final ErrorThresholds thresholds;

    public RankPathErrorsCheck(ErrorThresholds thresholds) {
        this.thresholds = thresholds;
    }

    static final FindingSpec SPEC = new FindingSpec("rank-path-errors", Layer.TRAINING, Severity.ERROR,
            "A cable with errors (or a lost link) on the fabric path between training ranks that talk over the network",
            "the rank -> GPU -> HCA join, NCCL channel lines and the fabric's counters; the RDMA fabric manual");

    @Override
    public List<FindingSpec> findings() {
        return List.of(SPEC);
    }

    @Override
    public List<Finding> run(CheckContext context) {
        FabricModel model = context.model();
        RankMap ranks = org.fabricscope.model.ranks.RankMap.of(model);
        if (ranks.routes().isEmpty()) {
            return List.of();
        }
        Map<Cable, List<RankRoute>> byCable = new LinkedHashMap<>();
        for (RankRoute r : ranks.routes()) {
            for (Cable c : r.cables()) {
                if (judge(c) != null) {
                    byCable.computeIfAbsent(c, k -> new ArrayList<>()).add(r);
                }
            }
        }
        List<Finding> out = new ArrayList<>();
        for (var e : byCable.entrySet()) {
            Cable c = e.getKey();
            List<RankRoute> routes = e.getValue();
            Severity sev = judge(c);
            List<Evidence> evidence = new ArrayList<>();
            StringBuilder counters = new StringBuilder();
            for (Port p : new Port[] {c.a(), c.b()}) {
                for (var ce : p.counters().entrySet()) {
                    if (CounterRates.judge(p, ce.getKey(), ce.getValue(), thresholds) != null) {
                        Evidence ev = p.counterEvidence(ce.getKey());
                        String what = p.label() + ": " + ce.getKey() + "=" + Long.toUnsignedString(ce.getValue());
                        evidence.add(ev == null ? Evidence.at("", 0, what) : ev.withText(what));
                        counters.append(counters.length() == 0 ? "" : ", ").append(ce.getKey()).append('=')
                                .append(Long.toUnsignedString(ce.getValue()));
                    }
                }
                if (LinkDownCheck.lostLink(p)) {
                    evidence.add(p.stateEvidence() != null ? p.stateEvidence()
                            : Evidence.at("", 0, p.label() + " lost its link"));
                    counters.append(counters.length() == 0 ? "" : ", ").append("link lost");
                }
            }
            Set<Subject> subjects = new LinkedHashSet<>();
            subjects.add(Subjects.port(c.a()));
            subjects.add(Subjects.port(c.b()));
            StringBuilder pairs = new StringBuilder();
            int listed = 0;
            for (RankRoute r : routes) {
                subjects.add(who(r.a()));
                subjects.add(who(r.b()));
                if (listed++ < MAX_PAIRS_LISTED) {
                    pairs.append(pairs.length() == 0 ? "" : "; ").append(r.a().describe()).append(" <-> ")
                            .append(r.b().describe()).append(" over ").append(r.transport().label());
                }
                if (r.a().rank().evidence() != null && evidence.size() < 12) {
                    evidence.add(r.a().rank().evidence());
                }
            }
            if (routes.size() > MAX_PAIRS_LISTED) {
                pairs.append("; and ").append(Plural.of(routes.size() - MAX_PAIRS_LISTED, "more pair", "more pairs"));
            }
            subjects.add(Subjects.cable(c)); // the finding is about this cable; added last, so subjects only grow
            boolean onlyPath = true;
            for (RankRoute r : routes) {
                boolean endHop = c.touches(r.a().hca()) || c.touches(r.b().hca());
                onlyPath &= endHop || r.cables().size() <= r.path().size() - 1;
            }
            // a rank on this path whose process reported an IB completion error: the link is the likely cause
            List<String> hit = new ArrayList<>();
            for (NcclEvent ev : model.trainingLog().events()) {
                if (ev.kind() != NcclEvent.Kind.IB_COMPLETION_ERROR) {
                    continue;
                }
                for (RankRoute r : routes) {
                    for (RankSite s : new RankSite[] {r.a(), r.b()}) {
                        if (s.rank().host().equals(ev.host()) && s.rank().pid() == ev.pid()) {
                            String what = "rank " + s.rank().rank() + " got " + ev.fields().getOrDefault("statusName", "a completion error");
                            if (!hit.contains(what)) {
                                hit.add(what);
                                evidence.add(0, ev.evidence());
                            }
                        }
                    }
                }
            }
            if (!hit.isEmpty()) {
                sev = Severity.ERROR;
            }
            List<String> remedies = new ArrayList<>();
            if (!hit.isEmpty()) {
                remedies.add("Likely cause of the job's failure: " + String.join(", ", hit) + " on this path.");
            }
            remedies.add("Rank pairs on this path: " + pairs + ".");
            remedies.add(onlyPath
                    ? "This cable is the only way between those HCAs: their traffic crosses it. Reseat or replace it, "
                            + "then clear the counters (perfquery -R) and watch whether they grow while the job runs."
                    : "The subnet manager may route those pairs over any of several equal-cost paths; this cable is on "
                            + "one of them. Reseat or replace it, clear the counters (perfquery -R) and watch them under load.");
            remedies.add("Until it is fixed, errors here slow or stall every collective of the job: NCCL retries on the "
                    + "link (NCCL_IB_TIMEOUT, NCCL_IB_RETRY_CNT) and a retry-exceeded completion error (status 12) ends the "
                    + "communicator.");
            out.add(new Finding(SPEC.id(), sev, Plural.of(routes.size(), "rank pair") + (routes.size() == 1 ? " talks" : " talk") + " over a link with " + counters + ": "
                    + c.a().label() + " <-> " + c.b().label() + (hit.isEmpty() ? "" : "; " + String.join(", ", hit)), new ArrayList<>(subjects), evidence, remedies));
        }
        return out;
    }

    /** Where a rank ran, as precisely as the join found it: its pod, else its host, else the host its log names. */
    private static Subject who(RankSite s) {
        if (s.pod() != null) {
            return new Subject.PodRef("", s.pod(), s.pod());
        }
        String host = s.host() != null ? s.host() : s.rank().host();
        return new Subject.HostRef(host, host);
    }

    private Severity judge(Cable c) {
        Severity worst = null;
        for (Port p : new Port[] {c.a(), c.b()}) {
            Severity s = LinkErrorsCheck.worst(p, thresholds);
            if (s == null && LinkDownCheck.lostLink(p)) {
                s = Severity.WARNING;
            }
            if (s != null && (worst == null || s.compareTo(worst) < 0)) {
                worst = s;
            }
        }
        return worst;
    }
}
