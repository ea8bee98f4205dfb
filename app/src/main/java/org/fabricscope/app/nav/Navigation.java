package org.fabricscope.app.nav;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

import org.fabricscope.model.core.Subject;
import org.fabricscope.model.core.Vertex;
import org.fabricscope.model.fabric.Cable;
import org.fabricscope.model.fabric.FabricNode;
import org.fabricscope.model.fabric.Host;
import org.fabricscope.model.fabric.Port;
import org.fabricscope.model.host.Gpu;
import org.fabricscope.model.host.NetPort;
import org.fabricscope.model.k8s.K8sNode;
import org.fabricscope.model.k8s.K8sPod;
import org.fabricscope.model.k8s.TrainingJob;
import org.fabricscope.model.ranks.RankSite;

/**
 * Where some subjects are shown: the switches, HCAs and hosts ({@code vertices}) and cables to
 * highlight on the map, the rows to select in the Training tab ({@code ranks}) and the Kubernetes tab
 * ({@code nodes}, {@code pods}), the GPUs and NICs of the host drill-down, the input lines, and the
 * subjects the loaded data has no place for. {@code place} is where the first placed subject lives,
 * which the window brings to front. {@code frame}: the map zooms to show every vertex, not only the
 * first (a host found by search: all its HCAs). Immutable; no toolkit.
 */
public record Navigation(List<Subject> subjects, Place place, List<Vertex> vertices, List<Cable> cables, List<Port> ports,
                         List<RankSite> ranks, List<K8sNode> nodes, List<K8sPod> pods, List<TrainingJob> jobs,
                         List<Subject.LineRef> lines, List<Gpu> gpus, List<NetPort> nets, List<Subject> unresolved,
                         boolean frame) {
    /** Where a subject is shown best. */
    public enum Place {
        /** The fabric map (and the inspector of its first vertex). */
        MAP,
        /** The Training tab's rank rows. */
        TRAINING,
        /** The Kubernetes tab's node and pod rows. */
        KUBERNETES,
        /** An input line: the Logs tab when it holds the line, else the finding's evidence. */
        LINES,
        /** Not in the loaded data. */
        NOWHERE
    }

    public static final Navigation NONE = new Builder().build();

    public Navigation {
        subjects = List.copyOf(subjects);
        vertices = List.copyOf(vertices);
        cables = List.copyOf(cables);
        ports = List.copyOf(ports);
        ranks = List.copyOf(ranks);
        nodes = List.copyOf(nodes);
        pods = List.copyOf(pods);
        jobs = List.copyOf(jobs);
        lines = List.copyOf(lines);
        gpus = List.copyOf(gpus);
        nets = List.copyOf(nets);
        unresolved = List.copyOf(unresolved);
    }

    /**
     * A host as search lands on it: its HCAs (in the order given: the faulty first), marked on the map,
     * which zooms to show them all; the inspector shows the first.
     */
    public static Navigation toHost(Host host, List<? extends Vertex> hcas) {
        Builder b = new Builder();
        b.subjects.add(new Subject.HostRef(host.name(), host.name()));
        if (hcas.isEmpty()) {
            b.show(host, Place.MAP);
        }
        for (Vertex v : hcas) {
            b.show(v, Place.MAP);
        }
        b.frame = true;
        return b.build();
    }

    /** One switch, HCA or host, e.g. a search hit or a double-clicked row. */
    public static Navigation toVertex(Vertex v) {
        Builder b = new Builder();
        if (v != null) {
            b.vertices.add(v);
            b.place(Place.MAP);
        }
        return b.build();
    }

    /**
     * The cable a finding is about: its first cable subject, when that cable is still cabled as named
     * (the map selects the cable and the inspector shows its cable view); null when it names no cable.
     */
    public Cable primaryCable() {
        for (Subject s : subjects) {
            if (s instanceof Subject.CableRef r) {
                for (Cable c : cables) {
                    if (ends(c, r)) {
                        return c;
                    }
                }
                return null;
            }
        }
        return null;
    }

    private static boolean ends(Cable c, Subject.CableRef r) {
        boolean ab = c.a().node().guid() == r.guidA() && c.a().number() == r.portA()
                && c.b().node().guid() == r.guidB() && c.b().number() == r.portB();
        boolean ba = c.b().node().guid() == r.guidA() && c.b().number() == r.portA()
                && c.a().node().guid() == r.guidB() && c.a().number() == r.portB();
        return ab || ba;
    }

    /** The first switch, HCA or host, the one the map centres on and the inspector shows; null for none. */
    public Vertex primary() {
        return vertices.isEmpty() ? null : vertices.get(0);
    }

    public boolean isEmpty() {
        return vertices.isEmpty() && cables.isEmpty() && ranks.isEmpty() && nodes.isEmpty() && pods.isEmpty()
                && jobs.isEmpty() && lines.isEmpty() && gpus.isEmpty() && nets.isEmpty();
    }

    /** Both, in order, without repeats; the place of the first that has one. */
    public Navigation merge(Navigation o) {
        Builder b = new Builder();
        b.subjects.addAll(subjects);
        b.subjects.addAll(o.subjects);
        b.place(place);
        b.place(o.place);
        for (Navigation n : List.of(this, o)) {
            b.vertices.addAll(n.vertices);
            b.cables.addAll(n.cables);
            b.ports.addAll(n.ports);
            b.ranks.addAll(n.ranks);
            b.nodes.addAll(n.nodes);
            b.pods.addAll(n.pods);
            b.jobs.addAll(n.jobs);
            b.lines.addAll(n.lines);
            b.gpus.addAll(n.gpus);
            b.nets.addAll(n.nets);
            b.unresolved.addAll(n.unresolved);
        }
        return b.build();
    }

    /** One line for people: {@code map: leaf-01, gpu-01 mlx5_0 · Training: rank 12}; "not in the loaded data" for none. */
    public String where() {
        List<String> parts = new ArrayList<>();
        add(parts, "map", vertices, Navigation::name);
        add(parts, "Training", ranks, s -> "rank " + s.rank().rank());
        add(parts, "Kubernetes", nodes, n -> "node " + n.name());
        add(parts, "Kubernetes", pods, p -> "pod " + p.key());
        add(parts, "host topology", gpus, Gpu::displayName);
        add(parts, "host topology", nets, NetPort::displayName);
        if (!lines.isEmpty()) {
            parts.add("line " + lines.get(0).source() + ":" + lines.get(0).line());
        }
        return parts.isEmpty() ? "not in the loaded data" : String.join(" · ", parts);
    }

    private static String name(Vertex v) {
        return v instanceof FabricNode n ? n.displayName() : v instanceof Host h ? h.name() + " (host)" : v.displayName();
    }

    private static <T> void add(List<String> parts, String where, List<T> items, Function<T, String> name) {
        if (items.isEmpty()) {
            return;
        }
        StringBuilder b = new StringBuilder(where).append(": ");
        for (int i = 0; i < Math.min(3, items.size()); i++) {
            b.append(i == 0 ? "" : ", ").append(name.apply(items.get(i)));
        }
        parts.add(b.append(items.size() > 3 ? " and " + (items.size() - 3) + " more" : "").toString());
    }

    /** Collects a navigation without repeats. */
    static final class Builder {
        final Set<Subject> subjects = new LinkedHashSet<>();
        final Set<Vertex> vertices = new LinkedHashSet<>();
        final Set<Cable> cables = new LinkedHashSet<>();
        final Set<Port> ports = new LinkedHashSet<>();
        final Set<RankSite> ranks = new LinkedHashSet<>();
        final Set<K8sNode> nodes = new LinkedHashSet<>();
        final Set<K8sPod> pods = new LinkedHashSet<>();
        final Set<TrainingJob> jobs = new LinkedHashSet<>();
        final Set<Subject.LineRef> lines = new LinkedHashSet<>();
        final Set<Gpu> gpus = new LinkedHashSet<>();
        final Set<NetPort> nets = new LinkedHashSet<>();
        final Set<Subject> unresolved = new LinkedHashSet<>();
        Place place = Place.NOWHERE;
        boolean frame;

        void place(Place p) {
            if (place == Place.NOWHERE) {
                place = p;
            }
        }

        /** Adds a vertex to mark, placed at {@code p} unless placed already; false for null. */
        boolean show(Vertex v, Place p) {
            if (v == null) {
                return false;
            }
            vertices.add(v);
            place(p);
            return true;
        }

        Navigation build() {
            return new Navigation(List.copyOf(subjects), place, List.copyOf(vertices), List.copyOf(cables),
                    List.copyOf(ports), List.copyOf(ranks), List.copyOf(nodes), List.copyOf(pods), List.copyOf(jobs),
                    List.copyOf(lines), List.copyOf(gpus), List.copyOf(nets), List.copyOf(unresolved), frame);
        }
    }
}
