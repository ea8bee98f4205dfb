package org.fabricscope.model.incident.reasoning;

import org.fabricscope.model.incident.Signature;
import org.fabricscope.model.incident.SignatureCatalogue;
import org.fabricscope.model.incident.SignatureMatch;
import org.fabricscope.model.incident.Stamp;
import org.fabricscope.model.incident.Stamps;
import org.fabricscope.model.incident.Target;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.fabricscope.model.FabricModel;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.k8s.ContainerStatus;
import org.fabricscope.model.k8s.K8sEvent;
import org.fabricscope.model.k8s.K8sPod;

/**
 * Turns what the inputs said into {@link IncidentEvent}s: every log line a signature recognised (with
 * its party placed by {@link Places}), every Kubernetes event and every container state, pod phase and
 * reason in the canonical texts of {@code docs/signatures.md}. A signature that recognises the same
 * party many times keeps its first {@link #MAX_REPEATS} events: the timeline shows when it began.
 */
final class IncidentEvents {
    static final int MAX_REPEATS = 5;

    private IncidentEvents() {
    }

    /**
     * The events of a model's inputs. {@code catalogue} is asked for only when the model holds Kubernetes objects to
     * match: a diagnose of a fabric alone no longer reads and compiles the whole catalogue (about 90 ms of it on
     * two cores; BENCHMARKS.md, issue 27).
     */
    static List<IncidentEvent> collect(FabricModel model, java.util.function.Supplier<SignatureCatalogue> catalogue, Places places) {
        List<IncidentEvent> out = new ArrayList<>();
        Map<String, Integer> repeats = new HashMap<>();
        for (SignatureMatch m : model.incidentLog().matches()) {
            Signature s = m.signature();
            Who who = whoOf(m, places);
            String key = s.id() + "|" + who.label();
            if (repeats.merge(key, 1, Integer::sum) > MAX_REPEATS) {
                continue;
            }
            out.add(event(out.size(), s, m.fields(), m.stamp(), who, blamed(s, m.fields(), who, places), m.evidence()));
        }
        kubernetes(model, catalogue, places, out);
        ForensicEvents.collect(model, places, out);
        FabricEvents.collect(model, places, out);
        return placedByRank(out);
    }

    /**
     * A rank's pod or host, where one event of it names them, given to its events that do not (a kernel
     * line that names the rank's pid, a torchrun summary line): one party, one lane.
     */
    private static List<IncidentEvent> placedByRank(List<IncidentEvent> events) {
        Map<Integer, Who> best = new HashMap<>();
        for (IncidentEvent e : events) {
            Who w = e.who();
            if (w.rank() >= 0 && (!w.host().isEmpty() || !w.pod().isEmpty())) {
                best.merge(w.rank(), w, (a, b) -> !a.pod().isEmpty() || b.pod().isEmpty() ? a : b);
            }
        }
        if (best.isEmpty()) {
            return events;
        }
        List<IncidentEvent> out = new ArrayList<>(events.size());
        for (IncidentEvent e : events) {
            Who w = e.who();
            Who b = w.rank() >= 0 ? best.get(w.rank()) : null;
            if (b != null && w.host().isEmpty() && w.pod().isEmpty()) {
                w = new Who(w.rank(), b.namespace(), b.pod(), w.node().isEmpty() ? b.node() : w.node(), b.host(),
                        w.gpu().isEmpty() ? b.gpu() : w.gpu(), w.device());
                e = new IncidentEvent(e.seq(), e.id(), e.title(), e.role(), e.causeClass(), e.severity(), e.stamp(), w,
                        e.blamed(), e.fields(), e.remedies(), e.evidence(), e.origin());
            }
            out.add(e);
        }
        return out;
    }

    private static IncidentEvent event(int seq, Signature s, Map<String, String> fields, Stamp stamp, Who who, Who blamed,
                                       Evidence ev) {
        return new IncidentEvent(seq, s.id(), s.title(fields), s.role(), s.causeClass(), s.severity(), stamp, who, blamed,
                fields, s.remedies(fields), ev, s.originText());
    }

    private static Who whoOf(SignatureMatch m, Places places) {
        Map<String, String> f = m.fields();
        int rank = intOr(f.get("rank"), m.rank());
        String host = f.getOrDefault("host", m.host());
        String pod = f.getOrDefault("pod", "");
        String node = f.getOrDefault("node", "");
        String source = m.evidence().source();
        boolean kernel = m.signature().source().equals("kernel");
        if (rank < 0 && !m.host().isEmpty() && m.pid() >= 0) {
            rank = places.rankOf(m.host(), m.pid());
            if (rank < 0) {
                rank = places.rankOfSummaryPid(m.host(), m.pid());
            }
        }
        if (rank < 0 && f.containsKey("pid")) {
            rank = places.rankOfPid(intOr(f.get("pid"), -1));
        }
        org.fabricscope.model.training.NcclEvent summary = rank < 0 || host.isEmpty()
                ? places.summaryAt(source, m.evidence().line()) : null;
        if (summary != null) { // a line of torchrun's failure summary: the entry's rank and host
            int r = summary.rank() >= 0 ? summary.rank() : intOr(summary.field("rank"), -1);
            rank = rank < 0 ? r : rank;
            String h = summary.field("host");
            host = host.isEmpty() && h != null ? h : host;
        }
        if (rank < 0 && !kernel) {
            rank = places.rankOfSource(source);
        }
        String ns = "";
        if (pod.isEmpty() && !kernel) {
            K8sPod p = places.podOfSource(source);
            if (p != null) {
                pod = p.name();
                ns = p.namespace();
            } else if (host.isEmpty()) {
                host = places.hostOfSourceName(source);
            }
        }
        if (kernel) { // a kernel log is the machine's: its host is a node
            node = !node.isEmpty() ? node : !host.isEmpty() ? host : places.nodeOfSource(source);
            host = "";
        }
        String gpu = f.getOrDefault("gpu", f.getOrDefault("busId", ""));
        String device = f.getOrDefault("device", f.getOrDefault("interface", ""));
        return places.complete(new Who(rank, ns, pod, node, host, gpu, device));
    }

    /** Whom a consequence points at, from the field its signature {@code blames}. */
    private static Who blamed(Signature s, Map<String, String> fields, Who who, Places places) {
        String v = s.blames().isEmpty() ? null : fields.get(s.blames());
        if (v == null || v.isBlank()) {
            return Who.NOBODY;
        }
        switch (s.blames()) {
            case "peerRank", "rank" -> {
                int r = intOr(v, -1);
                return r < 0 ? Who.NOBODY : places.complete(Who.NOBODY.withRank(r));
            }
            case "localRank", "container" -> {
                return Who.NOBODY; // a local rank or a container names a part of the reporter's own pod: no peer elsewhere
            }
            case "pod" -> {
                return places.complete(Who.NOBODY.withPod("", v));
            }
            default -> {
                String host = Places.shortHost(places.hostOfAddress(hostPart(v)));
                return host.isEmpty() || host.equals(who.host()) && who.rank() >= 0 ? Who.NOBODY
                        : places.complete(Who.NOBODY.withHost(host));
            }
        }
    }

    /** The host of {@code 10.0.0.2<43210>}, {@code [fe80::1]:29500}, {@code host:29500}, {@code (host, 29500)}. */
    static String hostPart(String address) {
        String a = address.strip();
        if (a.startsWith("(")) {
            a = a.substring(1);
        }
        int lt = a.indexOf('<');
        if (lt > 0) {
            return a.substring(0, lt);
        }
        if (a.startsWith("[")) {
            int close = a.indexOf(']');
            return close > 0 ? a.substring(1, close) : a;
        }
        int comma = a.indexOf(',');
        if (comma > 0) {
            return a.substring(0, comma).strip();
        }
        int colon = a.lastIndexOf(':');
        return colon > 0 && a.indexOf(':') == colon ? a.substring(0, colon) : a;
    }

    private static int intOr(String s, int fallback) {
        if (s == null) {
            return fallback;
        }
        try {
            return Integer.parseInt(s.strip());
        } catch (NumberFormatException e) {
            return fallback;
        }
    }

    private static void kubernetes(FabricModel model, java.util.function.Supplier<SignatureCatalogue> catalogue, Places places,
                                   List<IncidentEvent> out) {
        if (model.pods().isEmpty() && model.jobs().isEmpty() && model.events().isEmpty()) {
            return;
        }
        SignatureCatalogue.Matcher status = catalogue.get().matcher(Target.K8S_STATUS);
        SignatureCatalogue.Matcher events = catalogue.get().matcher(Target.K8S_EVENT);
        for (K8sPod p : model.pods()) {
            Who who = places.complete(new Who(-1, p.namespace(), p.name(), p.node() == null ? "" : p.node(), "", "", ""));
            for (String text : statusTexts(p)) {
                SignatureCatalogue.Hit h = status.first(text);
                if (h != null) {
                    Evidence ev = p.evidence() == null ? Evidence.at("", 0, text) : p.evidence().withText(text);
                    out.add(event(out.size(), h.signature(), h.fields(), Stamp.NONE, who, Who.NOBODY, ev));
                }
            }
        }
        for (org.fabricscope.model.k8s.TrainingJob j : model.jobs()) {
            for (org.fabricscope.model.k8s.TrainingJob.Condition c : j.conditions()) {
                String text = "job condition " + c.type() + "=" + c.status() + " " + c.reason() + ": " + c.message();
                SignatureCatalogue.Hit h = status.first(text);
                if (h != null) {
                    Who who = new Who(-1, j.namespace(), "", "", j.name(), "", "");
                    Stamp stamp = c.lastTransition().length() >= 19 ? Stamps.of(c.lastTransition()) : Stamp.NONE;
                    Evidence ev = j.evidence() == null ? Evidence.at("", 0, text) : j.evidence().withText(text);
                    out.add(event(out.size(), h.signature(), h.fields(), stamp, who, Who.NOBODY, ev));
                }
            }
        }
        for (K8sEvent e : model.events()) {
            String text = e.type() + " " + e.reason() + ": " + e.message();
            SignatureCatalogue.Hit h = events.first(text);
            if (h == null) {
                continue;
            }
            Who who;
            if ("Node".equals(e.objectKind())) {
                who = new Who(-1, "", "", e.objectName(), "", "", "");
            } else {
                who = places.complete(new Who(-1, e.namespace(), e.objectName(), "", "", "", ""));
            }
            Stamp stamp = e.lastSeen().isEmpty() || !Character.isDigit(e.lastSeen().charAt(0)) || e.lastSeen().length() < 19
                    ? Stamp.NONE : Stamps.of(e.lastSeen());
            out.add(event(out.size(), h.signature(), h.fields(), stamp, who, Who.NOBODY, e.evidence()));
        }
    }

    /** The canonical {@code k8s-status} texts of a pod (docs/signatures.md). */
    static List<String> statusTexts(K8sPod p) {
        List<String> out = new ArrayList<>();
        for (ContainerStatus c : p.containers()) {
            if ("terminated".equals(c.state()) || c.exitCode() != null) {
                out.add(join("container " + c.name() + " terminated", c.reason()) + " exitCode=" + c.exitCode());
            } else if ("waiting".equals(c.state())) {
                out.add(join("container " + c.name() + " waiting", c.reason()));
            }
            if (c.lastExitCode() != null) {
                out.add(join("container " + c.name() + " last-terminated", c.lastReason()) + " exitCode=" + c.lastExitCode());
            }
        }
        if (p.phase() != null && !p.phase().isEmpty()) {
            out.add("pod phase " + p.phase());
        }
        return out;
    }

    private static String join(String a, String b) {
        return b == null || b.isEmpty() ? a : a + " " + b;
    }
}
