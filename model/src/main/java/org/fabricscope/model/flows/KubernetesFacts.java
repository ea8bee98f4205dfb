package org.fabricscope.model.flows;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.fabricscope.model.core.Plural;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.core.Subject;
import org.fabricscope.model.diagnosis.Subjects;
import org.fabricscope.model.fabric.Host;
import org.fabricscope.model.flows.FlowContext.Spec;
import org.fabricscope.model.k8s.K8sEvent;
import org.fabricscope.model.k8s.K8sNode;
import org.fabricscope.model.k8s.K8sPod;
import org.fabricscope.model.k8s.NodeFit;
import org.fabricscope.model.k8s.Quantity;
import org.fabricscope.model.k8s.Resources;
import org.fabricscope.model.k8s.SchedulingFailure;
import org.fabricscope.model.training.Rank;

/**
 * The facts Kubernetes objects and job manifests answer: resources requested and offered, the job's
 * environment (pod specs, manifests, the variables NCCL logged, env dumps), eRDMA set-up and
 * instance types, the pods' network settings and CPU limits, and scheduling (Pending pods, the
 * scheduler's reasons, FabricScope's own fit). Registered by {@link StandardFacts}.
 */
final class KubernetesFacts {
    private KubernetesFacts() {
    }

    private static final String RDMA = StandardFacts.RDMA;
    private static final String INSTANCE_TYPE = "node.kubernetes.io/instance-type";
    private static final String INSTANCE_TYPE_BETA = "beta.kubernetes.io/instance-type";

    private static boolean requests(Map<String, Quantity> req, String resource) {
        if (RDMA.equals(resource)) {
            return Resources.requestsRdma(req);
        }
        Quantity q = req.get(resource);
        return q != null && q.isPositive();
    }

    private static String what(String resource) {
        return RDMA.equals(resource) ? "RDMA device resource (aliyun/erdma, rdma/*)" : resource;
    }

    static Answer resourceRequested(FlowContext c, FactCall call) {
        String res = call.string("resource");
        List<Spec> specs = c.specs();
        if (specs.isEmpty()) {
            return Answer.unknown("no training pod or job manifest was loaded (kubectl get pods -o yaml)");
        }
        List<Spec> missing = specs.stream().filter(s -> !requests(s.spec().effectiveRequests(), res)).toList();
        if (missing.isEmpty()) {
            Set<String> names = new LinkedHashSet<>();
            specs.forEach(s -> s.spec().effectiveRequests().forEach((k, v) -> {
                if (v.isPositive() && (RDMA.equals(res) ? Resources.isRdma(k) : k.equals(res))) {
                    names.add(k + "=" + v.text());
                }
            }));
            return new Answer(Verdict.YES, (specs.size() == 1 ? "the training pod or template requests " : "all " + specs.size() + " training pods and templates request ") + String.join(", ", names),
                    specs.stream().map(Spec::evidence).filter(java.util.Objects::nonNull).toList(), List.of(), Map.of());
        }
        Spec first = missing.get(0);
        Answer a = new Answer(Verdict.NO, first.label() + " requests no " + what(res)
                + (missing.size() > 1 ? " (and " + (missing.size() - 1) + " more)" : ""),
                missing.stream().map(Spec::evidence).filter(java.util.Objects::nonNull).toList(),
                missing.stream().map(Spec::subject).toList(), Map.of());
        return withPod(c, a, first.pod());
    }

    private static Answer withPod(FlowContext c, Answer a, K8sPod pod) {
        if (pod == null) {
            return a;
        }
        Map<String, String> v = new LinkedHashMap<>();
        c.putPod(v, pod);
        return a.withValues(v);
    }

    private static List<K8sNode> jobNodesOrAll(FlowContext c) {
        List<K8sNode> nodes = new ArrayList<>();
        for (String n : c.jobNodes()) {
            K8sNode k = c.model().k8sNodes().get(n);
            if (k != null) {
                nodes.add(k);
            }
        }
        if (nodes.isEmpty()) {
            nodes.addAll(c.model().k8sNodes().values());
        }
        return nodes;
    }

    static Answer allocatableHas(FlowContext c, FactCall call) {
        String res = call.string("resource");
        List<K8sNode> nodes = jobNodesOrAll(c);
        if (nodes.isEmpty()) {
            return Answer.unknown("no node's allocatable was loaded (kubectl get node <node> -o jsonpath='{.status.allocatable}')");
        }
        List<K8sNode> lacking = new ArrayList<>();
        Set<String> offered = new LinkedHashSet<>();
        for (K8sNode n : nodes) {
            Map<String, Quantity> have = RDMA.equals(res) ? Resources.rdmaOffered(n.allocatable())
                    : n.allocatable(res) != null && n.allocatable(res).isPositive() ? Map.of(res, n.allocatable(res)) : Map.of();
            if (have.isEmpty()) {
                lacking.add(n);
            } else {
                have.forEach((k, v) -> offered.add(k + "=" + v.text()));
            }
        }
        if (lacking.isEmpty()) {
            return new Answer(Verdict.YES, Plural.of(nodes.size(), "node") + (nodes.size() == 1 ? " offers " : " offer ") + String.join(", ", offered),
                    nodes.stream().map(K8sNode::allocatableEvidence).filter(java.util.Objects::nonNull).toList(),
                    List.of(), Map.of());
        }
        K8sNode n = lacking.get(0);
        Answer a = new Answer(Verdict.NO, "node " + n.name() + " offers no " + what(res) + " in its allocatable"
                + (lacking.size() > 1 ? " (nor " + Plural.of(lacking.size() - 1, "other node") + ")" : ""),
                lacking.stream().map(K8sNode::allocatableEvidence).filter(java.util.Objects::nonNull).toList(),
                lacking.stream().map(x -> (Subject) Subjects.node(x)).toList(), Map.of("node", n.name()));
        Host h = c.model().hostOf(n);
        return a.with("host", h == null ? n.name() : h.name());
    }

    /** One environment per pod or template, and per process that logged NCCL's variables. */
    private record EnvSource(String label, Map<String, String> env, Evidence evidence, Subject subject, K8sPod pod,
                             String cite) {
    }

    private static List<EnvSource> envSources(FlowContext c, String name) {
        List<EnvSource> out = new ArrayList<>();
        for (Spec s : c.specs()) {
            Evidence cited = s.spec().citation(name);
            out.add(new EnvSource(s.label(), s.spec().env(), cited != null ? cited : s.evidence(), s.subject(), s.pod(), null));
        }
        for (org.fabricscope.model.evidence.HostEvidence h : c.model().hostEvidence().values()) {
            if (h.env().isEmpty() || c.hasJob() && !c.jobHosts().contains(h.host()) && c.podByName(h.host()) == null) {
                continue;
            }
            Map<String, String> env = new LinkedHashMap<>();
            h.env().forEach((k, v) -> env.put(k, v.value()));
            org.fabricscope.model.evidence.EnvVar v = h.env().get(name);
            out.add(new EnvSource("env of " + h.host(), env, v != null ? v.evidence()
                    : h.env().values().iterator().next().evidence(), new Subject.HostRef(h.host(), h.host()),
                    c.podByName(h.host()), null));
        }
        Set<String> seen = new LinkedHashSet<>();
        for (Rank r : c.log().ranks()) {
            // a process that logged no NCCL_* variable at all says nothing about its environment
            if (!r.env().isEmpty() && seen.add(r.process())) {
                out.add(new EnvSource("process " + r.process(), r.env(), r.evidence(), TrainingFacts.rankRef(r), null, null));
            }
        }
        return out;
    }

    static Answer envSet(FlowContext c, FactCall call) {
        String name = call.string("name");
        String value = call.string("value");
        boolean any = "any".equals(call.string("in", "all"));
        List<EnvSource> sources = envSources(c, name);
        if (sources.isEmpty()) {
            return Answer.unknown("no pod, job manifest or NCCL log was loaded to show the job's environment");
        }
        List<EnvSource> ok = new ArrayList<>();
        List<EnvSource> bad = new ArrayList<>();
        for (EnvSource s : sources) {
            String v = s.env().get(name);
            boolean good = value == null ? v != null && !v.isBlank() : v != null && value.equals(v.trim());
            (good ? ok : bad).add(s);
        }
        String want = name + (value == null ? "" : "=" + value);
        if (any ? !ok.isEmpty() : bad.isEmpty()) {
            EnvSource s = ok.get(0);
            Answer a = new Answer(Verdict.YES, (any ? s.label() + " sets " : (sources.size() == 1 ? "the pod or process sets " : "all " + sources.size() + " pods and processes set "))
                    + name + "=" + s.env().get(name), ok.stream().map(EnvSource::evidence).filter(java.util.Objects::nonNull).toList(),
                    ok.stream().map(EnvSource::subject).toList(), Map.of());
            return withPod(c, a, s.pod());
        }
        EnvSource s = bad.get(0);
        String v = s.env().get(name);
        String detail = any ? "no pod or process sets " + want
                : s.label() + (v == null ? " does not set " + name : " sets " + name + "=" + v) + (value == null || v == null ? "" : ", not " + value)
                + (bad.size() > 1 ? " (and " + (bad.size() - 1) + " more)" : "");
        Answer a = new Answer(Verdict.NO, detail, bad.stream().map(EnvSource::evidence).filter(java.util.Objects::nonNull).toList(),
                bad.stream().map(EnvSource::subject).toList(), Map.of());
        return withPod(c, a, s.pod());
    }

    static Answer erdmaSetup(FlowContext c, FactCall call) {
        boolean loaded = false;
        for (Spec s : c.specs()) {
            loaded = true;
            if (requests(s.spec().effectiveRequests(), Resources.ERDMA)) {
                return new Answer(Verdict.YES, s.label() + " requests " + Resources.ERDMA,
                        s.evidence() == null ? List.of() : List.of(s.evidence()), List.of(s.subject()), Map.of());
            }
            String hca = s.spec().env().get("NCCL_IB_HCA");
            if (hca != null && hca.contains("erdma")) {
                return new Answer(Verdict.YES, s.label() + " sets NCCL_IB_HCA=" + hca,
                        s.evidence() == null ? List.of() : List.of(s.evidence()), List.of(s.subject()), Map.of());
            }
        }
        for (K8sNode n : jobNodesOrAll(c)) {
            loaded = true;
            Quantity q = n.allocatable(Resources.ERDMA);
            if (q != null && q.isPositive()) {
                return new Answer(Verdict.YES, "node " + n.name() + " offers " + Resources.ERDMA + "=" + q.text(),
                        n.allocatableEvidence() == null ? List.of() : List.of(n.allocatableEvidence()), List.of(), Map.of());
            }
        }
        for (Rank r : c.log().ranks()) {
            loaded = true;
            for (String d : r.rdmaDevices()) {
                if (d.startsWith("erdma")) {
                    return new Answer(Verdict.YES, r.process() + " uses " + d, List.of(r.evidence()), List.of(TrainingFacts.rankRef(r)), Map.of());
                }
            }
            String hca = r.env().get("NCCL_IB_HCA");
            if (hca != null && hca.contains("erdma")) {
                return new Answer(Verdict.YES, r.process() + " has NCCL_IB_HCA=" + hca, List.of(r.evidence()), List.of(TrainingFacts.rankRef(r)), Map.of());
            }
        }
        return loaded ? Answer.no("no aliyun/erdma request or offer, no erdma_* device and no NCCL_IB_HCA=erdma")
                : Answer.unknown("no pod, node or NCCL log was loaded");
    }

    static Answer instanceTypeIn(FlowContext c, FactCall call) {
        Map<String, Integer> table = call.table("types");
        String scope = call.string("scope");
        List<K8sNode> nodes = jobNodesOrAll(c);
        K8sNode found = null;
        for (K8sNode n : nodes) {
            String type = n.labels().getOrDefault(INSTANCE_TYPE, n.labels().get(INSTANCE_TYPE_BETA));
            if (type == null) {
                continue;
            }
            if (scope != null && !type.startsWith(scope)) {
                return new Answer(Verdict.UNKNOWN, "node " + n.name() + " is a " + type + ", outside " + scope + "*",
                        List.of(), List.of(), Map.of("node", n.name(), "instance-type", type));
            }
            if (!table.containsKey(type)) {
                return new Answer(Verdict.NO, "node " + n.name() + " is a " + type + ", not in the table", 
                        n.evidence() == null ? List.of() : List.of(n.evidence()), List.of(Subjects.node(n)),
                        Map.of("node", n.name(), "instance-type", type));
            }
            found = found == null ? n : found;
        }
        if (found == null) {
            return Answer.unknown("no node read carries an instance type label (" + INSTANCE_TYPE + ")");
        }
        String type = found.labels().getOrDefault(INSTANCE_TYPE, found.labels().get(INSTANCE_TYPE_BETA));
        return new Answer(Verdict.YES, "node " + found.name() + " is a " + type + " (" + table.get(type) + ")",
                found.evidence() == null ? List.of() : List.of(found.evidence()), List.of(Subjects.node(found)),
                Map.of("node", found.name(), "instance-type", type, "erdma-nics", String.valueOf(table.get(type))));
    }

    static Answer sameRdmaNetwork(FlowContext c, FactCall call) {
        Map<String, List<Spec>> byJob = new LinkedHashMap<>();
        for (Spec s : c.specs()) {
            String job = s.pod() != null && s.pod().job() != null ? s.pod().namespace() + "/" + s.pod().job().jobName()
                    : s.subject() instanceof Subject.JobRef j ? j.namespace() + "/" + j.job() : s.label();
            byJob.computeIfAbsent(job, k -> new ArrayList<>()).add(s);
        }
        for (var e : byJob.entrySet()) {
            List<Spec> specs = e.getValue();
            for (String key : new String[] {"networks", "NCCL_IB_HCA", "NCCL_SOCKET_IFNAME"}) {
                Map<String, Spec> seen = new LinkedHashMap<>();
                for (Spec s : specs) {
                    String v = key.equals("networks") ? s.spec().networks() : s.spec().env().get(key);
                    seen.putIfAbsent(String.valueOf(v), s);
                }
                if (seen.size() > 1) {
                    List<String> parts = new ArrayList<>();
                    seen.forEach((v, s) -> parts.add(s.label() + ": " + ("null".equals(v) ? "none" : v)));
                    String what = key.equals("networks") ? "secondary network (k8s.v1.cni.cncf.io/networks)" : key;
                    Spec first = seen.values().iterator().next();
                    return new Answer(Verdict.NO, "job " + e.getKey() + " differs in " + what + ": " + String.join("; ", parts),
                            seen.values().stream().map(Spec::evidence).filter(java.util.Objects::nonNull).toList(),
                            seen.values().stream().map(Spec::subject).toList(), Map.of()).with("pod",
                            first.pod() == null ? null : first.pod().name());
                }
            }
        }
        return Answer.unknown(byJob.isEmpty() ? "no training pod or manifest was loaded"
                : "the pods agree on their network settings; VLAN and partition membership are not in the inputs");
    }

    static Answer cpuLimitPerGpuBelow(FlowContext c, FactCall call) {
        double cores = call.number("cores", 0);
        boolean anyLimit = false;
        if (c.specs().isEmpty()) {
            return Answer.unknown("no training pod or job manifest was loaded");
        }
        for (Spec s : c.specs()) {
            Quantity cpu = s.spec().limits().get("cpu");
            Quantity gpu = s.spec().effectiveRequests().get(Resources.GPU);
            if (cpu == null) {
                continue;
            }
            anyLimit = true;
            if (gpu == null || !gpu.isPositive()) {
                continue;
            }
            BigDecimal per = cpu.value().divide(gpu.value(), 2, RoundingMode.HALF_UP);
            if (per.compareTo(BigDecimal.valueOf(cores)) < 0) {
                return withPod(c, new Answer(Verdict.YES, s.label() + " limits CPU to " + cpu.text() + " for " + gpu.text()
                        + (gpu.value().compareTo(BigDecimal.ONE) == 0 ? " GPU: " : " GPUs: ") + per.stripTrailingZeros().toPlainString() + " per GPU, below " + fmt(cores),
                        s.evidence() == null ? List.of() : List.of(s.evidence()), List.of(s.subject()), Map.of()), s.pod());
            }
        }
        return Answer.no(anyLimit ? "every CPU limit leaves at least " + fmt(cores) + " cores per GPU"
                : "no training pod limits its CPU");
    }

    private static String fmt(double d) {
        return d == Math.rint(d) ? String.valueOf((long) d) : String.valueOf(d);
    }

    static Answer podPending(FlowContext c, FactCall call) {
        K8sPod p = c.pendingPod();
        if (p == null) {
            if (c.model().pods().isEmpty()) {
                return Answer.unknown("no pod was loaded (kubectl get pods -o yaml)");
            }
            return Answer.no("no pod is Pending");
        }
        long more = c.model().pods().stream().filter(x -> x.pending() && x.node() == null).count() - 1;
        return withPod(c, new Answer(Verdict.YES, "pod " + p.key() + " is Pending" + (more > 0 ? " (and " + more + " more)" : ""),
                p.evidence() == null ? List.of() : List.of(p.evidence()), List.of(Subjects.pod(p)), Map.of()), p);
    }

    /** A reason the Pending pod does not fit, from the scheduler's event or the model's own fit. */
    private record Why(SchedulingFailure.Kind kind, String subject, String text, int count, Evidence evidence) {
    }

    private static List<Why> reasons(FlowContext c, K8sPod pod) {
        List<Why> out = new ArrayList<>();
        for (K8sEvent e : c.model().k8s().eventsFor(pod)) {
            if (e.scheduling() != null) {
                for (SchedulingFailure.Reason r : e.scheduling().reasons()) {
                    out.add(new Why(r.kind(), r.subject(), r.count() + " " + r.text(), r.count(), e.evidence()));
                }
            }
        }
        if (!out.isEmpty() || c.model().k8sNodes().isEmpty()) {
            return out;
        }
        Map<String, Integer> counts = new LinkedHashMap<>();
        for (NodeFit f : c.model().k8s().fit(pod)) {
            f.reasons().forEach(r -> counts.merge(r, 1, Integer::sum));
        }
        counts.forEach((r, n) -> {
            SchedulingFailure.Kind k = r.startsWith("Insufficient ") ? SchedulingFailure.Kind.INSUFFICIENT
                    : r.contains("taint") ? SchedulingFailure.Kind.UNTOLERATED_TAINT
                    : r.contains("affinity/selector") ? SchedulingFailure.Kind.NODE_AFFINITY
                    : r.contains("unschedulable") ? SchedulingFailure.Kind.UNSCHEDULABLE : SchedulingFailure.Kind.OTHER;
            out.add(new Why(k, r.startsWith("Insufficient ") ? r.substring(13) : "", n + " " + r + " (FabricScope's fit)", n,
                    pod.evidence()));
        });
        return out;
    }

    static Answer schedulingReason(FlowContext c, FactCall call) {
        K8sPod pod = c.pendingPod();
        if (pod == null) {
            return c.model().pods().isEmpty() ? Answer.unknown("no pod was loaded") : Answer.no("no pod is Pending");
        }
        List<Why> why = reasons(c, pod);
        if (why.isEmpty()) {
            return withPod(c, Answer.unknown("no FailedScheduling event for pod " + pod.key() + " and no node was loaded to fit it"), pod);
        }
        SchedulingFailure.Kind kind = switch (call.string("kind")) {
            case "insufficient" -> SchedulingFailure.Kind.INSUFFICIENT;
            case "taint" -> SchedulingFailure.Kind.UNTOLERATED_TAINT;
            case "selector" -> SchedulingFailure.Kind.NODE_AFFINITY;
            default -> SchedulingFailure.Kind.UNSCHEDULABLE;
        };
        String res = call.string("resource");
        List<Why> hit = why.stream().filter(w -> w.kind() == kind && (res == null
                || (RDMA.equals(res) ? Resources.isRdma(w.subject()) : res.equals(w.subject())))).toList();
        String all = why.stream().map(Why::text).reduce((a, b) -> a + ", " + b).orElse("");
        if (hit.isEmpty()) {
            return withPod(c, new Answer(Verdict.NO, "pod " + pod.key() + ": " + all, List.of(why.get(0).evidence()),
                    List.of(Subjects.pod(pod)), Map.of()), pod);
        }
        return withPod(c, new Answer(Verdict.YES, "pod " + pod.key() + ": " + hit.stream().map(Why::text)
                .reduce((a, b) -> a + ", " + b).orElse("") + (hit.size() < why.size() ? " (all: " + all + ")" : ""),
                List.of(hit.get(0).evidence()), List.of(Subjects.pod(pod)), Map.of()), pod);
    }

    static Answer podFitsANode(FlowContext c, FactCall call) {
        K8sPod pod = c.pendingPod();
        if (pod == null) {
            return c.model().pods().isEmpty() ? Answer.unknown("no pod was loaded") : Answer.no("no pod is Pending");
        }
        if (c.model().k8sNodes().isEmpty()) {
            return withPod(c, Answer.unknown("no node was loaded (kubectl get nodes -o json) to fit pod " + pod.key()), pod);
        }
        List<NodeFit> fits = c.model().k8s().fit(pod);
        for (NodeFit f : fits) {
            if (f.fits()) {
                return withPod(c, Answer.yes("pod " + pod.key() + " fits node " + f.node()
                        + " by its requests, selectors and tolerations").with("node", f.node()), pod);
            }
        }
        List<String> parts = fits.stream().map(f -> f.node() + ": " + String.join(", ", f.reasons())).toList();
        return withPod(c, new Answer(Verdict.NO, "pod " + pod.key() + " fits no node (" + String.join("; ", parts) + ")",
                pod.evidence() == null ? List.of() : List.of(pod.evidence()), List.of(Subjects.pod(pod)), Map.of()), pod);
    }

    static Answer socketIfnameSecondary(FlowContext c, FactCall call) {
        if (c.specs().isEmpty()) {
            return Answer.unknown("no training pod or manifest was loaded");
        }
        boolean judged = false;
        for (Spec s : c.specs()) {
            List<String> ifs = s.spec().socketInterfaces();
            boolean secondary = !ifs.isEmpty() && ifs.stream().allMatch(i -> i.matches("net\\d+"));
            String nets = s.spec().networks();
            Evidence ev = s.spec().citation("NCCL_SOCKET_IFNAME") != null ? s.spec().citation("NCCL_SOCKET_IFNAME") : s.evidence();
            if (nets != null && !nets.isBlank()) {
                judged = true;
                if (!secondary) {
                    return withPod(c, new Answer(Verdict.NO, s.label() + " attaches " + nets + " (net1) but NCCL_SOCKET_IFNAME="
                            + s.spec().env().getOrDefault("NCCL_SOCKET_IFNAME", "(unset)"), ev == null ? List.of() : List.of(ev),
                            List.of(s.subject()), Map.of()), s.pod());
                }
            } else if (secondary) {
                judged = true;
                return withPod(c, new Answer(Verdict.NO, s.label() + " sets NCCL_SOCKET_IFNAME=" + String.join(",", ifs)
                        + " but attaches no secondary network: the interface does not exist in the pod",
                        ev == null ? List.of() : List.of(ev), List.of(s.subject()), Map.of()), s.pod());
            }
        }
        return judged ? Answer.yes("every pod with a secondary network names it in NCCL_SOCKET_IFNAME")
                : Answer.unknown("the pods attach no secondary (Multus) network");
    }
}
