package org.fabricscope.model.flows;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import org.fabricscope.model.FabricModel;
import org.fabricscope.model.analysis.Analysis;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.core.FindingSpec;
import org.fabricscope.model.core.Layer;
import org.fabricscope.model.core.Subject;
import org.fabricscope.model.diagnosis.Diagnosis;
import org.fabricscope.model.diagnosis.ErrorThresholds;
import org.fabricscope.model.fabric.Cable;
import org.fabricscope.model.fabric.FabricNode;
import org.fabricscope.model.fabric.Host;
import org.fabricscope.model.fabric.Port;
import org.fabricscope.model.k8s.K8sNode;
import org.fabricscope.model.k8s.K8sPod;
import org.fabricscope.model.k8s.PodSpecSummary;
import org.fabricscope.model.k8s.TrainingJob;
import org.fabricscope.model.ranks.RankRoute;
import org.fabricscope.model.ranks.RankSite;
import org.fabricscope.model.training.Rank;
import org.fabricscope.model.training.TrainingLog;

/**
 * What the facts of a flow look at, computed once per {@link Analysis}: the findings by id, which
 * layers were loaded, the training job (its pods, nodes, hosts, HCAs and fabric cables, so a fact can
 * keep to the job), the rank the {@code nccl-timeout} finding says lagged and where it ran, the failed
 * ranks, and the values the flows' {@code {{placeholders}}} start from.
 */
public final class FlowContext {
    private static volatile Map<String, FindingSpec> catalogue;

    private final Analysis analysis;
    private final Map<String, List<Finding>> findings = new LinkedHashMap<>();
    private final List<K8sPod> trainingPods = new ArrayList<>();
    private final List<Spec> specs = new ArrayList<>();
    private final Set<String> jobPods = new LinkedHashSet<>();
    private final Set<String> jobNodes = new LinkedHashSet<>();
    private final Set<String> jobHosts = new LinkedHashSet<>();
    private final Set<String> jobNames = new LinkedHashSet<>();
    private final Set<Long> jobHcas = new LinkedHashSet<>();
    private final Set<Cable> jobCables = new LinkedHashSet<>();
    private final Set<Long> jobSwitches = new LinkedHashSet<>();
    private final Lag lag;
    private final List<Failure> failures;
    private final Map<String, String> focus;

    /**
     * A pod spec the Kubernetes facts read: a training pod's, or a replica template of a job manifest
     * whose pods were not read ({@code pod} null then).
     */
    public record Spec(String label, Subject subject, PodSpecSummary spec, Evidence evidence, K8sPod pod) {
    }

    /** The rank the {@code nccl-timeout} finding names first (the one that lagged), its NCCL Init line and where it ran. */
    public record Lag(int worldRank, Rank rank, RankSite site, Finding finding) {
    }

    /**
     * A rank or pod that failed: from torchrun's {@code ChildFailedError} entries (root cause first), its
     * {@code failed (exitcode: N) local_rank: L (pid: P)} lines, or a Failed pod. {@code rank} -1 when
     * unknown; {@code signal} empty when it exited; {@code pod} null when no pod is known.
     */
    public record Failure(int rank, int localRank, long pid, String host, String exitCode, String signal,
                          boolean rootCause, String pod, Evidence evidence, Subject subject) {
        /**
         * The signal it died of: the one the log names, else the one its exit code implies (a negative
         * exit code is torchrun's -N for signal N; 128 + N is how a shell or a container runtime reports
         * signal N, e.g. 137 for SIGKILL); empty when it exited on its own.
         */
        public String signalName() {
            return signal.isEmpty() ? Failures.signalOf(exitCode) : signal;
        }

        /** {@code exit code -6 (SIGABRT)}. */
        public String how() {
            if (exitCode.isEmpty()) {
                return "failed";
            }
            String sig = signalName();
            return "exit code " + exitCode + (sig.isEmpty() ? "" : " (" + sig + ")");
        }

        /** {@code rank 0 (local rank 0, pid 720 on localhost)}. */
        public String who() {
            StringBuilder b = new StringBuilder();
            b.append(rank >= 0 ? "rank " + rank : pod != null ? "pod " + pod : "a process");
            List<String> parts = new ArrayList<>();
            if (localRank >= 0) {
                parts.add("local rank " + localRank);
            }
            if (pid >= 0) {
                parts.add("pid " + pid + (host.isEmpty() ? "" : " on " + host));
            } else if (!host.isEmpty()) {
                parts.add("on " + host);
            }
            if (!parts.isEmpty()) {
                b.append(" (").append(String.join(", ", parts)).append(')');
            }
            return b.toString();
        }
    }

    private FlowContext(Analysis analysis) {
        this.analysis = Objects.requireNonNull(analysis, "analysis");
        for (Finding f : analysis.findings()) {
            findings.computeIfAbsent(f.id(), k -> new ArrayList<>()).add(f);
        }
        FabricModel model = analysis.model();
        for (K8sPod p : model.pods()) {
            if (p.training()) {
                trainingPods.add(p);
                specs.add(new Spec("pod " + p.key(), new Subject.PodRef(p.namespace(), p.name(), "pod " + p.key()),
                        p.spec(), p.evidence(), p));
                jobPods.add(p.name());
                if (p.node() != null) {
                    jobNodes.add(p.node());
                }
                if (p.job() != null) {
                    jobNames.add(p.job().jobName());
                }
            }
        }
        for (TrainingJob j : model.jobs()) {
            jobNames.add(j.name());
            if (!j.podNames().isEmpty() || trainingPods.stream().anyMatch(p -> p.job() != null
                    && p.job().jobName().equals(j.name()) && p.namespace().equals(j.namespace()))) {
                continue;
            }
            for (TrainingJob.Replica r : j.replicas()) {
                if (r.type().equalsIgnoreCase("Launcher")
                        && !r.template().effectiveRequests().containsKey(org.fabricscope.model.k8s.Resources.GPU)) {
                    continue;
                }
                String label = j.kind() + " " + j.key() + " replica " + r.type();
                specs.add(new Spec(label, new Subject.JobRef(j.namespace(), j.name(), r.type(), "job " + j.key() + " " + r.type()),
                        r.template(), r.evidence() != null ? r.evidence() : j.evidence(), null));
            }
        }
        for (String n : jobNodes) {
            K8sNode node = model.k8sNodes().get(n);
            Host h = node == null ? null : model.hostOf(node);
            jobHosts.add(h != null ? h.name() : n);
        }
        for (RankSite s : analysis.ranks().sites()) {
            jobHosts.add(s.rank().host());
            if (s.host() != null) {
                jobHosts.add(s.host());
            }
            if (s.pod() != null) {
                jobPods.add(s.pod());
            }
            if (s.k8sNode() != null) {
                jobNodes.add(s.k8sNode());
            }
            if (s.hca() != null) {
                jobHcas.add(s.hca().guid());
            }
        }
        for (String h : jobHosts) {
            Host host = model.host(h);
            if (host != null) {
                host.adapters().forEach(a -> jobHcas.add(a.guid()));
            }
        }
        for (RankRoute r : analysis.ranks().routes()) {
            jobCables.addAll(r.cables());
        }
        for (Long guid : jobHcas) {
            FabricNode n = model.node(guid);
            if (n != null) {
                for (Port p : n.ports()) {
                    if (p.cable() != null) {
                        jobCables.add(p.cable());
                    }
                }
            }
        }
        for (Cable c : jobCables) {
            for (Port p : new Port[] {c.a(), c.b()}) {
                if (p.node().isSwitch()) {
                    jobSwitches.add(p.node().guid());
                }
            }
        }
        this.lag = findLag();
        this.failures = Failures.find(this);
        this.focus = Collections.unmodifiableMap(findFocus());
    }

    /** The context of one analysis. */
    public static FlowContext of(Analysis analysis) {
        return new FlowContext(analysis);
    }

    public Analysis analysis() {
        return analysis;
    }

    public FabricModel model() {
        return analysis.model();
    }

    public TrainingLog log() {
        return analysis.model().trainingLog();
    }

    /** The findings with this id, in the analysis' order. */
    public List<Finding> findings(String id) {
        return findings.getOrDefault(id, List.of());
    }

    /** Every finding id the standard checks declare, with its spec. */
    public static Map<String, FindingSpec> catalogue() {
        Map<String, FindingSpec> c = catalogue;
        if (c == null) {
            Map<String, FindingSpec> m = new LinkedHashMap<>();
            for (FindingSpec s : Diagnosis.standard(ErrorThresholds.defaults()).catalogue()) {
                m.putIfAbsent(s.id(), s);
            }
            catalogue = c = Collections.unmodifiableMap(m);
        }
        return c;
    }

    /** Whether the inputs held anything of this layer, so that the absence of its findings means something. */
    public boolean loaded(Layer layer) {
        FabricModel m = model();
        return switch (layer) {
            case FABRIC -> !m.nodes().isEmpty();
            case HOST -> !m.hostTopologies().isEmpty() || !m.hostEvidence().isEmpty();
            case KUBERNETES -> !m.k8sNodes().isEmpty() || !m.pods().isEmpty() || !m.jobs().isEmpty() || !m.events().isEmpty();
            case TRAINING -> !m.trainingLog().isEmpty();
        };
    }

    /** The pods of training jobs (or asking for GPUs), every phase. */
    public List<K8sPod> trainingPods() {
        return Collections.unmodifiableList(trainingPods);
    }

    /** The training pods' specs, and the replica templates of manifests whose pods were not read. */
    public List<Spec> specs() {
        return Collections.unmodifiableList(specs);
    }

    /** Whether a training job was loaded: its pods, its manifest, or its ranks' logs. */
    public boolean hasJob() {
        return !trainingPods.isEmpty() || !specs.isEmpty() || !log().ranks().isEmpty();
    }

    /** The Kubernetes nodes the training pods and ranks ran on. */
    public Set<String> jobNodes() {
        return Collections.unmodifiableSet(jobNodes);
    }

    /** The fabric hosts (or the host names logs give) of the job. */
    public Set<String> jobHosts() {
        return Collections.unmodifiableSet(jobHosts);
    }

    /**
     * Whether a finding's subject is about the loaded job: its pods, nodes, hosts and their GPUs and
     * NICs, its ranks, its HCAs and the cables its traffic can take. Everything is, when no job was loaded.
     */
    public boolean touchesJob(Subject s) {
        if (!hasJob()) {
            return true;
        }
        if (s instanceof Subject.HostRef h) {
            return jobHosts.contains(h.host());
        } else if (s instanceof Subject.GpuRef g) {
            return jobHosts.contains(g.host());
        } else if (s instanceof Subject.NicRef n) {
            return jobHosts.contains(n.host());
        } else if (s instanceof Subject.PciRef p) {
            return jobHosts.contains(p.host());
        } else if (s instanceof Subject.K8sNodeRef n) {
            return jobNodes.contains(n.node());
        } else if (s instanceof Subject.PodRef p) {
            return jobPods.contains(p.pod());
        } else if (s instanceof Subject.ContainerRef c) {
            return jobPods.contains(c.pod());
        } else if (s instanceof Subject.JobRef j) {
            return jobNames.contains(j.job());
        } else if (s instanceof Subject.HcaRef h) {
            return jobHcas.contains(h.guid());
        } else if (s instanceof Subject.SwitchRef sw) {
            return jobSwitches.contains(sw.guid());
        } else if (s instanceof Subject.PortRef p) {
            if (jobHcas.contains(p.guid())) {
                return true;
            }
            for (Cable c : jobCables) {
                if (c.a().node().guid() == p.guid() && c.a().number() == p.port()
                        || c.b().node().guid() == p.guid() && c.b().number() == p.port()) {
                    return true;
                }
            }
            return false;
        } else if (s instanceof Subject.CableRef c) {
            if (jobHcas.contains(c.guidA()) || jobHcas.contains(c.guidB())) {
                return true;
            }
            for (Cable x : jobCables) {
                long a = x.a().node().guid();
                long b = x.b().node().guid();
                if (a == c.guidA() && x.a().number() == c.portA() && b == c.guidB() && x.b().number() == c.portB()
                        || a == c.guidB() && x.a().number() == c.portB() && b == c.guidA() && x.b().number() == c.portA()) {
                    return true;
                }
            }
            return false;
        }
        return true; // ranks, communicators and log lines are the job's own
    }

    /** Whether any subject of the finding is about the job. */
    public boolean touchesJob(Finding f) {
        if (!hasJob()) {
            return true;
        }
        return f.refs().stream().anyMatch(this::touchesJob);
    }

    /** The rank the {@code nccl-timeout} finding says lagged, or null when there is none. */
    public Lag lag() {
        return lag;
    }

    /** The failed ranks (root cause first) or, with no process failure in the logs, the Failed training pods. */
    public List<Failure> failures() {
        return failures;
    }

    /** The values the placeholders start from: the job, the pod in question, its node, host and rank. */
    public Map<String, String> focus() {
        return focus;
    }

    /** The first Pending training pod (else the first Pending pod), or null. */
    public K8sPod pendingPod() {
        for (K8sPod p : trainingPods) {
            if (p.pending() && p.node() == null) {
                return p;
            }
        }
        for (K8sPod p : model().pods()) {
            if (p.pending() && p.node() == null) {
                return p;
            }
        }
        return null;
    }

    private Lag findLag() {
        for (Finding f : findings("nccl-timeout")) {
            if (!f.refs().isEmpty() && f.refs().get(0) instanceof Subject.RankRef r) {
                Rank rank = log().worldRank(r.rank()).orElse(null);
                RankSite site = rank == null ? null : analysis.ranks().site(rank.commId(), rank.rank());
                return new Lag(r.rank(), rank, site, f);
            }
        }
        return null;
    }


    private Map<String, String> findFocus() {
        Map<String, String> v = new LinkedHashMap<>();
        K8sPod pod = null;
        if (lag != null && lag.site() != null) {
            putSite(v, lag.site());
            pod = lag.site().pod() == null ? null : podByName(lag.site().pod());
        }
        if (pod == null && v.get("pod") == null) {
            // a Failed pod, else one that runs (its logs exist), else a Pending one, else the first
            pod = trainingPods.stream().filter(p -> "Failed".equalsIgnoreCase(p.phase())).findFirst()
                    .or(() -> trainingPods.stream().filter(p -> p.node() != null && !p.terminated()).findFirst())
                    .orElse(pendingPod());
            if (pod == null && !trainingPods.isEmpty()) {
                pod = trainingPods.get(0);
            }
        }
        if (pod != null) {
            putPod(v, pod);
        }
        if (!v.containsKey("job") && !model().jobs().isEmpty()) {
            TrainingJob j = model().jobs().get(0);
            v.put("job", j.name());
            v.putIfAbsent("namespace", j.namespace());
        }
        if (!v.containsKey("host") && !log().ranks().isEmpty()) {
            v.put("host", log().ranks().get(0).host());
        }
        if (!v.containsKey("hca")) {
            for (Rank r : log().ranks()) {
                if (!r.rdmaDevices().isEmpty()) {
                    v.put("hca", device(r.rdmaDevices().get(0)));
                    break;
                }
            }
        }
        v.values().removeIf(Objects::isNull);
        return v;
    }

    K8sPod podByName(String name) {
        for (K8sPod p : model().pods()) {
            if (p.name().equals(name)) {
                return p;
            }
        }
        return null;
    }

    /** Puts a pod's name, namespace, job and node (and the node's fabric host) into the values. */
    void putPod(Map<String, String> v, K8sPod pod) {
        v.put("pod", pod.name());
        v.put("namespace", pod.namespace());
        if (pod.job() != null) {
            v.put("job", pod.job().jobName());
        }
        if (pod.node() != null) {
            v.put("node", pod.node());
            K8sNode n = model().k8sNodes().get(pod.node());
            Host h = n == null ? null : model().hostOf(n);
            v.putIfAbsent("host", h != null ? h.name() : pod.node());
        }
    }

    /** Puts where a rank ran (rank, pod, node, host, GPU, HCA, leaf port) into the values. */
    void putSite(Map<String, String> v, RankSite s) {
        v.put("rank", String.valueOf(s.rank().rank()));
        if (s.pod() != null) {
            v.put("pod", s.pod());
            K8sPod p = podByName(s.pod());
            if (p != null) {
                v.put("namespace", p.namespace());
                if (p.job() != null) {
                    v.put("job", p.job().jobName());
                }
            }
        }
        if (s.k8sNode() != null) {
            v.put("node", s.k8sNode());
        }
        v.put("host", s.host() != null ? s.host() : s.rank().host());
        if (s.gpu() != null) {
            v.put("gpu", s.gpu().label());
        }
        if (s.hca() != null) {
            v.put("hca", hcaName(s.hca()));
        } else if (!s.rank().rdmaDevices().isEmpty()) {
            v.put("hca", device(s.rank().rdmaDevices().get(0)));
        }
        if (s.leafPort() != null) {
            v.put("leaf-port", s.leafPort().node().displayName() + " port " + s.leafPort().number());
        }
    }

    /** The device part of an HCA's description ({@code dgx-su2-h07 mlx5_4} is {@code mlx5_4}). */
    static String hcaName(FabricNode hca) {
        String d = hca.description() == null ? hca.displayName() : hca.description();
        int sp = d.lastIndexOf(' ');
        return sp >= 0 ? d.substring(sp + 1) : d;
    }

    /** {@code mlx5_4:1/IB} is {@code mlx5_4}. */
    static String device(String netDevice) {
        int colon = netDevice.indexOf(':');
        return colon < 0 ? netDevice : netDevice.substring(0, colon);
    }

    static int intOf(String s, int orElse) {
        if (s == null) {
            return orElse;
        }
        try {
            return Integer.parseInt(s.trim());
        } catch (NumberFormatException e) {
            return orElse;
        }
    }
}
