package org.fabricscope.model.flows;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.fabricscope.model.core.Plural;
import org.fabricscope.model.FabricModel;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.core.Subject;
import org.fabricscope.model.diagnosis.Subjects;
import org.fabricscope.model.fabric.Cable;
import org.fabricscope.model.fabric.FabricNode;
import org.fabricscope.model.fabric.Host;
import org.fabricscope.model.fabric.Port;
import org.fabricscope.model.fabric.PortState;
import org.fabricscope.model.flows.FlowContext.Lag;
import org.fabricscope.model.k8s.K8sNode;
import org.fabricscope.model.k8s.K8sPod;
import org.fabricscope.model.ranks.RankSite;

/**
 * The facts the fabric dump answers, joined to the ranks: the host HCA ports' states as iblinkinfo or
 * ibnetdiscover show them (when the hosts' own evidence does not, see {@link HostFacts}), where the
 * lagging rank ran (pod, node, GPU, HCA, leaf port) and whether its links have errors. Registered by
 * {@link StandardFacts}.
 */
final class FabricFacts {
    private FabricFacts() {
    }

    /** A port's logical state, or its peer's when its own was not read (both ends of a link share it). */
    private static PortState state(Port p) {
        if (p.state() != PortState.UNKNOWN) {
            return p.state();
        }
        return p.peer() != null ? p.peer().state() : PortState.UNKNOWN;
    }

    static Answer hcaPortsActive(FlowContext c, FactCall call) {
        FabricModel m = c.model();
        List<Host> hosts = new ArrayList<>();
        if (c.hasJob()) {
            for (String h : c.jobHosts()) {
                Host host = m.host(h);
                if (host != null) {
                    hosts.add(host);
                }
            }
        } else {
            hosts.addAll(m.hosts().values());
        }
        if (hosts.isEmpty()) {
            return Answer.unknown(c.hasJob() ? "the job's nodes are not in the fabric dump" : "no fabric host was loaded");
        }
        List<Port> known = new ArrayList<>();
        List<Port> bad = new ArrayList<>();
        for (Host h : hosts) {
            for (FabricNode a : h.adapters()) {
                for (Port p : a.ports()) {
                    PortState s = state(p);
                    if (s == PortState.UNKNOWN || s == PortState.DOWN && p.cable() == null) {
                        continue;
                    }
                    known.add(p);
                    if (s != PortState.ACTIVE) {
                        bad.add(p);
                    }
                }
            }
        }
        if (known.isEmpty()) {
            return Answer.unknown("the inputs give no port state for the HCAs of " + hosts.get(0).name()
                    + (hosts.size() > 1 ? " and " + Plural.of(hosts.size() - 1, "more host", "more hosts") : "") + " (iblinkinfo, ibv_devinfo)");
        }
        if (bad.isEmpty()) {
            return new Answer(Verdict.YES, "the " + Plural.of(known.size(), "HCA port") + " of " + Plural.of(hosts.size(), "host") + " are Active",
                    known.stream().map(p -> p.stateEvidence() != null ? p.stateEvidence()
                            : p.peer() != null ? p.peer().stateEvidence() : null).filter(java.util.Objects::nonNull).toList(),
                    List.of(), Map.of());
        }
        Port p = bad.get(0);
        Evidence ev = p.stateEvidence() != null ? p.stateEvidence() : p.peer() != null ? p.peer().stateEvidence() : null;
        Answer a = new Answer(Verdict.NO, Subjects.portLabel(p) + " is " + state(p).name() + ", not Active"
                + (bad.size() > 1 ? " (and " + (bad.size() - 1) + " more)" : ""), ev == null ? List.of() : List.of(ev),
                bad.stream().map(x -> (Subject) Subjects.port(x)).toList(), Map.of("hca", FlowContext.hcaName(p.node())));
        Host h = p.node().host();
        if (h != null) {
            a = a.with("host", h.name());
            K8sNode n = m.k8sNodeOf(h);
            a = a.with("node", n == null ? h.name() : n.name());
        }
        return a;
    }

    static Answer laggingRankLocated(FlowContext c, FactCall call) {
        Lag lag = c.lag();
        if (lag == null) {
            return Answer.unknown("no nccl-timeout finding names a lagging rank");
        }
        if (lag.site() == null) {
            return new Answer(Verdict.NO, "rank " + lag.worldRank() + ", the rank nccl-timeout names, printed no NCCL Init line to place it",
                    lag.finding().evidence(), List.of(lag.finding().refs().get(0)), Map.of("rank", String.valueOf(lag.worldRank())));
        }
        RankSite s = lag.site();
        Map<String, String> v = new LinkedHashMap<>();
        c.putSite(v, s);
        List<Subject> subjects = new ArrayList<>();
        subjects.add(lag.finding().refs().get(0));
        if (s.pod() != null) {
            K8sPod p = c.podByName(s.pod());
            if (p != null) {
                subjects.add(Subjects.pod(p));
            }
        }
        if (s.hcaPort() != null) {
            subjects.add(Subjects.port(s.hcaPort()));
        }
        if (s.leafPort() != null) {
            subjects.add(Subjects.port(s.leafPort()));
        }
        List<Evidence> ev = s.rank().evidence() == null ? List.of() : List.of(s.rank().evidence());
        String place = s.place();
        String ran = "rank " + s.rank().rank() + " ran on " + place.substring(1, place.length() - 1);
        if (s.hca() != null && s.leafPort() != null) {
            return new Answer(Verdict.YES, ran, ev, subjects, v);
        }
        return new Answer(Verdict.NO, ran + ": the inputs do not place its HCA and leaf port on the fabric "
                + "(load the fabric dump, host topologies and pods with the logs)", ev, subjects, v);
    }

    static Answer laggingRankPathErrors(FlowContext c, FactCall call) {
        Lag lag = c.lag();
        if (lag == null || lag.site() == null || lag.site().hcaPort() == null) {
            return Answer.unknown(lag == null ? "no nccl-timeout finding names a lagging rank"
                    : "rank " + lag.worldRank() + " is not placed on the fabric, so its links are unknown");
        }
        RankSite s = lag.site();
        List<Evidence> ev = new ArrayList<>();
        List<String> over = new ArrayList<>();
        List<Subject> subjects = new ArrayList<>();
        for (Port p : new Port[] {s.hcaPort(), s.leafPort()}) {
            if (p == null) {
                continue;
            }
            for (var e : p.counters().entrySet()) {
                if (c.analysis().thresholds().judge(e.getKey(), e.getValue()) != null) {
                    over.add(p.label() + " " + e.getKey() + "=" + e.getValue());
                    Evidence x = p.counterEvidence(e.getKey());
                    ev.add(Evidence.at(x == null ? "" : x.source(), x == null ? 0 : x.line(), p.label() + ": " + e.getKey() + "=" + e.getValue()));
                    subjects.add(Subjects.port(p));
                }
            }
            if (p.physState() != null && p.state() == PortState.DOWN && p.cable() != null) {
                over.add(p.label() + " is down");
                subjects.add(Subjects.port(p));
            }
        }
        if (!over.isEmpty()) {
            return new Answer(Verdict.YES, "the lagging rank's host link has errors: " + String.join(", ", over), ev, subjects, Map.of());
        }
        // a rank-path-errors finding whose cable lies on one of the lagging rank's routes
        List<org.fabricscope.model.ranks.RankRoute> routes = c.analysis().ranks().routes().stream()
                .filter(r -> r.a() == s || r.b() == s).toList();
        boolean counted = !s.hcaPort().counters().isEmpty() || s.leafPort() != null && !s.leafPort().counters().isEmpty();
        for (var r : routes) {
            for (Cable cable : r.cables()) {
                counted |= !cable.a().counters().isEmpty() || !cable.b().counters().isEmpty();
            }
        }
        for (Finding f : c.findings("rank-path-errors")) {
            List<Subject.PortRef> ends = f.refs().stream().filter(x -> x instanceof Subject.PortRef)
                    .map(x -> (Subject.PortRef) x).limit(2).toList();
            if (ends.size() < 2) {
                continue;
            }
            for (var r : routes) {
                for (Cable cable : r.cables()) {
                    if (isCable(cable, ends.get(0), ends.get(1))) {
                        return new Answer(Verdict.YES, "rank-path-errors on a path of rank " + lag.worldRank() + ": " + f.title(),
                                f.evidence(), f.refs(), Map.of());
                    }
                }
            }
        }
        if (!counted) {
            return Answer.unknown("no counters were read for the lagging rank's links (perfquery, ibqueryerrors)");
        }
        return Answer.no("the lagging rank's host link (" + s.hcaPort().label() + ") and the cables of its "
                + Plural.of(routes.size(), "fabric route") + " are within thresholds");
    }

    private static boolean isCable(Cable c, Subject.PortRef x, Subject.PortRef y) {
        return end(c.a(), x) && end(c.b(), y) || end(c.a(), y) && end(c.b(), x);
    }

    private static boolean end(Port p, Subject.PortRef r) {
        return p.node().guid() == r.guid() && p.number() == r.port();
    }
}
