package org.fabricscope.app.nav;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.fabricscope.model.FabricModel;
import org.fabricscope.model.analysis.Analysis;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.core.Subject;
import org.fabricscope.model.fabric.FabricNode;
import org.fabricscope.model.fabric.Host;
import org.fabricscope.model.fabric.Port;
import org.fabricscope.model.host.Gpu;
import org.fabricscope.model.host.HostTopology;
import org.fabricscope.model.host.NetPort;
import org.fabricscope.model.k8s.K8sNode;
import org.fabricscope.model.k8s.K8sPod;
import org.fabricscope.model.k8s.TrainingJob;
import org.fabricscope.model.ranks.RankSite;

/**
 * Finds a finding's typed subjects in one analysis, by their keys only (GUIDs and port numbers, host
 * and node names, pod namespace and name, communicator and rank, file and line); no label is read.
 * Ports, cables, switches and HCAs are their nodes (and cables) on the map; a host, GPU, NIC or PCI
 * device is its host on the map (a NIC the HCA it joined), a GPU or NIC also a row of the host
 * drill-down; a Kubernetes node, pod or job is its host(s) on the map and its rows in the Kubernetes
 * tab; a rank is its rank row, its pod, and its HCA (else its host) on the map. No toolkit.
 */
public final class SubjectResolver {
    private final Analysis analysis;
    private final FabricModel model;

    private final Map<String, List<K8sPod>> podsByName = new HashMap<>();

    public SubjectResolver(Analysis analysis) {
        this.analysis = analysis;
        this.model = analysis.model();
        for (K8sPod p : model.pods()) {
            podsByName.computeIfAbsent(p.name(), k -> new ArrayList<>()).add(p);
        }
    }

    /** All of a finding's subjects, in its order. */
    public Navigation resolve(Finding f) {
        return resolveAll(f.refs());
    }

    public Navigation resolveAll(List<Subject> subjects) {
        Navigation all = Navigation.NONE;
        for (Subject s : subjects) {
            all = all.merge(resolve(s));
        }
        return all;
    }

    /** One subject. */
    public Navigation resolve(Subject s) {
        Navigation.Builder b = new Navigation.Builder();
        b.subjects.add(s);
        boolean found = s instanceof Subject.SwitchRef sw ? node(b, sw.guid())
                : s instanceof Subject.HcaRef hca ? node(b, hca.guid())
                : s instanceof Subject.PortRef port ? port(b, port.guid(), port.port())
                : s instanceof Subject.CableRef cable ? cable(b, cable)
                : s instanceof Subject.HostRef host ? hostOrWorkload(b, host.host())
                : s instanceof Subject.GpuRef gpu ? gpu(b, gpu)
                : s instanceof Subject.NicRef nic ? nic(b, nic)
                : s instanceof Subject.PciRef pci ? mapHost(b, pci.host())
                : s instanceof Subject.K8sNodeRef node ? k8sNode(b, node.node())
                : s instanceof Subject.PodRef pod ? pod(b, pod.namespace(), pod.pod())
                : s instanceof Subject.ContainerRef ctr ? pod(b, ctr.namespace(), ctr.pod())
                : s instanceof Subject.JobRef job ? job(b, job)
                : s instanceof Subject.RankRef rank ? rank(b, rank)
                : s instanceof Subject.CommRef comm ? comm(b, comm.commId())
                : s instanceof Subject.LineRef line && b.lines.add(line);
        if (s instanceof Subject.LineRef) {
            b.place(Navigation.Place.LINES);
        }
        if (!found) {
            b.unresolved.add(s);
        }
        return b.build();
    }

    private boolean node(Navigation.Builder b, long guid) {
        return b.show(model.node(guid), Navigation.Place.MAP);
    }

    private Port portOf(long guid, int number) {
        FabricNode n = model.node(guid);
        return n == null ? null : n.port(number);
    }

    private boolean port(Navigation.Builder b, long guid, int number) {
        Port p = portOf(guid, number);
        if (p != null) {
            b.ports.add(p);
            if (p.cable() != null) {
                b.cables.add(p.cable());
            }
        }
        return node(b, guid);
    }

    /** Both ends; the cable itself only while it still joins them (a re-cabled port shows both ports, no cable). */
    private boolean cable(Navigation.Builder b, Subject.CableRef r) {
        Port a = portOf(r.guidA(), r.portA());
        Port z = portOf(r.guidB(), r.portB());
        boolean found = node(b, r.guidA()) | node(b, r.guidB());
        for (Port p : new Port[] {a, z}) {
            if (p != null) {
                b.ports.add(p);
            }
        }
        if (a != null && a.cable() != null && a.peer() == z) {
            b.cables.add(a.cable());
        }
        return found;
    }

    /** The fabric host of this name, or of its first DNS label; null when neither is in the fabric. */
    private Host fabricHost(String name) {
        if (name == null || name.isEmpty()) {
            return null;
        }
        Host h = model.host(name);
        int dot = name.indexOf('.');
        return h != null || dot <= 0 ? h : model.host(name.substring(0, dot));
    }

    private boolean mapHost(Navigation.Builder b, String name) {
        return b.show(fabricHost(name), Navigation.Place.MAP);
    }

    /**
     * A host as a check names it: a fabric host, else a Kubernetes node, else a pod (NCCL's line
     * prefix names the pod in Kubernetes), else the host a rank of that log host ran on.
     */
    private boolean hostOrWorkload(Navigation.Builder b, String name) {
        if (mapHost(b, name)) {
            return true;
        }
        if (model.k8sNodes().containsKey(name)) {
            return k8sNodeOnMap(b, model.k8sNodes().get(name));
        }
        K8sPod pod = podNamed("", name);
        if (pod != null) {
            b.pods.add(pod);
            return pod.node() != null && k8sNodeOnMap(b, model.k8sNodes().get(pod.node()));
        }
        for (RankSite s : analysis.ranks().sites()) {
            if (name.equals(s.rank().host()) && s.host() != null && mapHost(b, s.host())) {
                return true;
            }
        }
        return false;
    }

    private boolean gpu(Navigation.Builder b, Subject.GpuRef r) {
        boolean onMap = mapHost(b, r.host());
        HostTopology t = model.hostTopology(r.host());
        Gpu g = null;
        if (t != null) {
            g = r.busId().isEmpty() ? null : t.gpuByBusId(r.busId());
            for (int i = 0; g == null && r.index() >= 0 && i < t.gpus().size(); i++) {
                g = t.gpus().get(i).index() == r.index() ? t.gpus().get(i) : null;
            }
        }
        if (g != null) {
            b.gpus.add(g);
        }
        return onMap || g != null;
    }

    private boolean nic(Navigation.Builder b, Subject.NicRef r) {
        HostTopology t = model.hostTopology(r.host());
        NetPort net = t == null ? null : t.net(r.device());
        if (net != null) {
            b.nets.add(net);
        }
        FabricNode hca = net == null ? null : net.hca();
        if (hca == null) {
            // no topology join: the host's adapter whose node description ends with the device, as ibstat names it
            Host h = fabricHost(r.host());
            for (FabricNode a : h == null ? List.<FabricNode>of() : h.adapters()) {
                String d = a.description().strip();
                hca = hca == null && (d.equals(r.device()) || d.endsWith(" " + r.device())) ? a : hca;
            }
        }
        return b.show(hca, Navigation.Place.MAP) || mapHost(b, r.host()) || net != null;
    }

    private boolean k8sNodeOnMap(Navigation.Builder b, K8sNode n) {
        return n != null && (b.show(model.hostOf(n), Navigation.Place.MAP) || mapHost(b, n.name()));
    }

    private boolean k8sNode(Navigation.Builder b, String name) {
        K8sNode n = model.k8sNodes().get(name);
        if (n == null) {
            return mapHost(b, name);
        }
        b.nodes.add(n);
        b.place(Navigation.Place.KUBERNETES);
        k8sNodeOnMap(b, n);
        return true;
    }

    /** A pod by name, in this namespace unless it is empty (a log that did not say). */
    private K8sPod podNamed(String namespace, String name) {
        for (K8sPod p : podsByName.getOrDefault(name, List.of())) {
            if (namespace.isEmpty() || namespace.equals(p.namespace())) {
                return p;
            }
        }
        return null;
    }

    private boolean pod(Navigation.Builder b, String namespace, String name) {
        K8sPod p = podNamed(namespace, name);
        if (p == null) {
            // no pod objects loaded: the ranks whose log host is the pod still place it
            return hostOrWorkload(b, name);
        }
        b.pods.add(p);
        b.place(Navigation.Place.KUBERNETES);
        if (p.node() != null && model.k8sNodes().containsKey(p.node())) {
            K8sNode n = model.k8sNodes().get(p.node());
            b.nodes.add(n);
            k8sNodeOnMap(b, n);
        }
        return true;
    }

    private boolean job(Navigation.Builder b, Subject.JobRef r) {
        for (TrainingJob j : model.jobs()) {
            if (j.name().equals(r.job()) && (r.namespace().isEmpty() || r.namespace().equals(j.namespace()))) {
                b.jobs.add(j);
                b.place(Navigation.Place.KUBERNETES);
                for (K8sPod p : model.k8s().podsOf(j)) {
                    if (r.replica().isEmpty() || (p.job() != null && r.replica().equalsIgnoreCase(p.job().replicaType()))) {
                        b.pods.add(p);
                        if (p.node() != null) {
                            k8sNodeOnMap(b, model.k8sNodes().get(p.node()));
                        }
                    }
                }
                return true;
            }
        }
        return false;
    }

    private boolean rank(Navigation.Builder b, Subject.RankRef r) {
        RankSite site = analysis.ranks().site(r.commId(), r.rank());
        for (RankSite s : site != null ? List.<RankSite>of() : analysis.ranks().sites()) {
            boolean same = s.rank().rank() == r.rank() && (r.commId().isEmpty() || r.commId().equals(s.rank().commId()))
                    && (r.host().isEmpty() || r.host().equals(s.rank().host()));
            if (same) {
                site = s;
                break;
            }
        }
        if (site == null) {
            return false;
        }
        b.ranks.add(site);
        b.place(Navigation.Place.TRAINING);
        b.show(site.hca() != null ? site.hca() : fabricHost(site.host()), Navigation.Place.TRAINING);
        if (site.gpu() != null) {
            b.gpus.add(site.gpu());
        }
        K8sPod pod = site.pod() == null ? null : podNamed("", site.pod());
        if (pod != null) {
            b.pods.add(pod);
        }
        return true;
    }

    private boolean comm(Navigation.Builder b, String commId) {
        for (RankSite s : analysis.ranks().sites()) {
            if (commId.isEmpty() || commId.equals(s.rank().commId())) {
                b.ranks.add(s);
                b.place(Navigation.Place.TRAINING);
            }
        }
        return !b.ranks.isEmpty();
    }
}
