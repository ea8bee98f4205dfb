package org.fabricscope.app.ui;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.stream.Collectors;

import org.fabricscope.model.core.Plural;
import org.fabricscope.model.FabricModel;
import org.fabricscope.model.fabric.Host;
import org.fabricscope.model.k8s.K8sEvent;
import org.fabricscope.model.k8s.K8sNode;
import org.fabricscope.model.k8s.K8sPod;
import org.fabricscope.model.k8s.NodeFit;
import org.fabricscope.model.k8s.Quantity;
import org.fabricscope.model.k8s.Resources;

import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * The Kubernetes tab: per node, what its pods request against what it can allocate for the
 * resources a training job needs (cpu, memory, GPUs, RDMA devices, hugepages); the pods with phase,
 * restarts, node, requests, last event and container exit codes; the events (type, reason, object,
 * message, count, last seen), filtered by text and with the selected pod's events first or alone;
 * for each pending pod which nodes could take it and why the others cannot (the fit analysis of the
 * {@code insufficient-resources} finding); and the training job the map picks out.
 */
public final class ClusterViewModel {
    private static final String ALL_JOBS = "all training jobs";

    private final ReadOnlyStringWrapper heading = new ReadOnlyStringWrapper("No Kubernetes objects loaded");
    private final ObservableList<K8sNode> nodes = FXCollections.observableArrayList();
    private final ObservableList<K8sPod> pods = FXCollections.observableArrayList();
    private final ObservableList<String> pending = FXCollections.observableArrayList();
    private final ObservableList<String> resources = FXCollections.observableArrayList();
    private final ObservableList<String> jobs = FXCollections.observableArrayList();
    private final StringProperty job = new SimpleStringProperty();
    private final ObjectProperty<List<K8sNode>> selectedNodes = new SimpleObjectProperty<>(List.of());
    private final ObjectProperty<List<K8sPod>> selectedPods = new SimpleObjectProperty<>(List.of());
    private final ObservableList<K8sEvent> events = FXCollections.observableArrayList();
    private final StringProperty eventFilter = new SimpleStringProperty("");
    private final ObjectProperty<K8sPod> eventPod = new SimpleObjectProperty<>();
    private final BooleanProperty onlyPodEvents = new SimpleBooleanProperty();
    private final ReadOnlyStringWrapper eventsHeading = new ReadOnlyStringWrapper("Events");
    private final Map<String, String> jobKeys = new HashMap<>();
    private final Consumer<String> onJob;
    private final Consumer<Host> onShowHost;
    private FabricModel model;
    private boolean updating;

    /** {@code onJob}: the picked job's key ({@code namespace/name}) or null for all; {@code onShowHost}: show a node's host. */
    ClusterViewModel(Consumer<String> onJob, Consumer<Host> onShowHost) {
        this.onJob = onJob;
        this.onShowHost = onShowHost;
        job.addListener((o, a, b) -> {
            if (!updating) {
                onJob.accept(b == null ? null : jobKeys.get(b));
            }
        });
        eventFilter.addListener((o, a, b) -> refilterEvents());
        eventPod.addListener((o, a, b) -> refilterEvents());
        onlyPodEvents.addListener((o, a, b) -> refilterEvents());
    }

    /**
     * The events that match the filter (type, reason, object, message or reporter contains it, any
     * case); the selected pod's first, or only them when {@link #onlyPodEventsProperty()} is set; then
     * warnings before normal events, each group newest first as far as the input says.
     */
    private void refilterEvents() {
        if (model == null) {
            events.clear();
            eventsHeading.set("Events");
            return;
        }
        List<K8sEvent> all = model.k8s().events();
        K8sPod p = eventPod.get();
        List<K8sEvent> mine = p == null ? List.of() : model.k8s().eventsFor(p);
        String needle = eventFilter.get() == null ? "" : eventFilter.get().strip().toLowerCase(java.util.Locale.ROOT);
        List<K8sEvent> first = new ArrayList<>();
        List<K8sEvent> rest = new ArrayList<>();
        for (K8sEvent e : all) {
            if (!needle.isEmpty() && !(e.type() + " " + e.reason() + " " + objectText(e) + " " + e.message() + " "
                    + (e.reporter() == null ? "" : e.reporter())).toLowerCase(java.util.Locale.ROOT).contains(needle)) {
                continue;
            }
            if (mine.contains(e)) {
                first.add(e);
            } else if (p == null || !onlyPodEvents.get()) {
                rest.add(e);
            }
        }
        java.util.Comparator<K8sEvent> order = java.util.Comparator.<K8sEvent, Boolean>comparing(e -> !"Warning".equals(e.type()))
                .thenComparing(K8sEvent::lastSeen, java.util.Comparator.reverseOrder());
        first.sort(order);
        rest.sort(order);
        first.addAll(rest);
        events.setAll(first);
        eventsHeading.set("Events: " + first.size() + " of " + all.size()
                + (p == null ? "" : " · " + mine.size() + " of pod " + p.name() + (onlyPodEvents.get() ? " only" : " first")));
    }

    void show(FabricModel m) {
        this.model = m;
        var k8s = m.k8s();
        heading.set(k8s.nodes().isEmpty() && k8s.pods().isEmpty() ? "No Kubernetes objects loaded"
                : Plural.of(k8s.nodes().size(), "node") + " · " + Plural.of(k8s.pods().size(), "pod") + " · " + Plural.of(k8s.jobs().size(), "job"));
        TreeSet<String> rs = new TreeSet<>((a, b) -> rank(a) != rank(b) ? Integer.compare(rank(a), rank(b)) : a.compareTo(b));
        for (K8sNode n : k8s.nodes().values()) {
            for (String r : n.allocatable().keySet()) {
                if (rank(r) < 9) {
                    rs.add(r);
                }
            }
        }
        selectedNodes.set(List.of());
        selectedPods.set(List.of());
        resources.setAll(rs);
        nodes.setAll(k8s.nodes().values());
        pods.setAll(k8s.pods());
        eventPod.set(null);
        refilterEvents();
        updating = true;
        try {
            String keep = job.get();
            jobKeys.clear();
            List<String> labels = new ArrayList<>();
            labels.add(ALL_JOBS);
            for (var j : k8s.jobs()) {
                String label = j.namespace() + "/" + j.name() + " · " + j.kind() + " · " + Plural.of(k8s.podsOf(j).size(), "pod");
                jobKeys.put(label, j.key());
                labels.add(label);
            }
            jobs.setAll(labels);
            job.set(keep != null && labels.contains(keep) ? keep : labels.get(0));
        } finally {
            updating = false;
        }
        List<String> rows = new ArrayList<>();
        for (K8sPod p : k8s.pods()) {
            if (p.pending()) {
                rows.add(fitText(p));
            }
        }
        pending.setAll(rows);
    }

    private String fitText(K8sPod p) {
        List<NodeFit> fits = model.k8s().fit(p);
        String ok = fits.stream().filter(NodeFit::fits).map(NodeFit::node).collect(Collectors.joining(", "));
        StringBuilder b = new StringBuilder(p.namespace()).append('/').append(p.name()).append(" requests ")
                .append(p.requests().entrySet().stream().filter(e -> e.getValue().isPositive())
                        .map(e -> e.getKey() + "=" + e.getValue().display(e.getKey())).collect(Collectors.joining(", ")));
        b.append(ok.isEmpty() ? "\n  fits no node" : "\n  fits: " + ok);
        for (NodeFit f : fits) {
            if (!f.fits()) {
                b.append("\n  ").append(f.node()).append(": ").append(String.join("; ", f.reasons()));
            }
        }
        return b.toString();
    }

    /** Selects the rows of these nodes and pods (a finding's subjects). */
    void select(List<K8sNode> ns, List<K8sPod> ps) {
        selectedNodes.set(List.copyOf(ns));
        selectedPods.set(List.copyOf(ps));
    }

    /** Shows the node's host on the map (a double-click on its row). */
    public void showHostOf(K8sNode n) {
        Host h = n == null || model == null ? null : model.hostOf(n);
        if (h != null) {
            onShowHost.accept(h);
        }
    }

    /** Shows the pod's node's host on the map. */
    public void showHostOf(K8sPod p) {
        if (p != null && p.node() != null && model != null) {
            showHostOf(model.k8sNodes().get(p.node()));
        }
    }

    /** Column order: cpu, memory, GPUs, RDMA, hugepages; other resources are left out (9). */
    private static int rank(String r) {
        if (r.equals("cpu")) {
            return 0;
        }
        if (r.equals("memory")) {
            return 1;
        }
        if (r.contains("gpu")) {
            return 2;
        }
        if (Resources.isRdma(r)) {
            return 3;
        }
        if (r.startsWith("hugepages-")) {
            return 4;
        }
        return 9;
    }

    // cells

    public static String readyText(K8sNode n) {
        return (n.ready() == null ? "?" : n.ready() ? "Ready" : "NotReady") + (n.unschedulable() ? ", cordoned" : "");
    }

    public static boolean unhealthy(K8sNode n) {
        return Boolean.FALSE.equals(n.ready()) || n.unschedulable();
    }

    public String hostText(K8sNode n) {
        Host h = model == null ? null : model.hostOf(n);
        return h == null ? "" : h.name();
    }

    /** {@code requested / allocatable} in display units. */
    public String usage(K8sNode n, String resource) {
        Quantity alloc = n.allocatable().get(resource);
        if (alloc == null || model == null) {
            return "—";
        }
        Quantity f = model.k8s().free(n.name()).get(resource);
        Quantity used = f == null ? Quantity.ZERO : alloc.minus(f);
        return used.display(resource) + " / " + alloc.display(resource);
    }

    public static String restartsText(K8sPod p) {
        return p.containers().isEmpty() ? "" : Integer.toString(p.restarts());
    }

    /** The pod's effective requests that are not zero: {@code cpu=8, memory=64Gi, nvidia.com/gpu=8}. */
    public static String requestsText(K8sPod p) {
        return p.requests().entrySet().stream().filter(e -> e.getValue().isPositive())
                .map(e -> e.getKey() + "=" + e.getValue().display(e.getKey())).collect(Collectors.joining(", "));
    }

    /** The pod's last event ({@code Warning FailedScheduling: 0/4 nodes ...}), by last seen where the input says, else the last read. */
    public String lastEventText(K8sPod p) {
        K8sEvent e = lastEvent(p);
        return e == null ? "" : e.type() + " " + e.reason() + (e.count() > 1 ? " (x" + e.count() + ")" : "") + ": " + e.message();
    }

    K8sEvent lastEvent(K8sPod p) {
        if (model == null) {
            return null;
        }
        K8sEvent last = null;
        for (K8sEvent e : model.k8s().eventsFor(p)) {
            if (last == null || e.lastSeen().compareTo(last.lastSeen()) >= 0) {
                last = e;
            }
        }
        return last;
    }

    public static String exitCodesText(K8sPod p) {
        return p.exitCodes();
    }

    /** {@code Pod/ns/name} or {@code Pod/name} when the input did not say the namespace. */
    public static String objectText(K8sEvent e) {
        return (e.objectKind() == null ? "" : e.objectKind() + "/") + (e.namespace().isEmpty() ? "" : e.namespace() + "/")
                + e.objectName();
    }

    public static String jobText(K8sPod p) {
        return p.job() == null ? "" : p.job().jobName() + (p.job().replicaType() == null ? "" : " " + p.job().replicaType()
                + (p.job().replicaIndex() == null ? "" : "-" + p.job().replicaIndex()));
    }

    /** The events shown: filtered, the selected pod's first. */
    public ObservableList<K8sEvent> events() {
        return events;
    }

    /** Text the events must contain (type, reason, object, message or reporter). */
    public StringProperty eventFilterProperty() {
        return eventFilter;
    }

    /** The pod whose events come first (the selected pod row), or null. */
    public ObjectProperty<K8sPod> eventPodProperty() {
        return eventPod;
    }

    /** Only the selected pod's events. */
    public BooleanProperty onlyPodEventsProperty() {
        return onlyPodEvents;
    }

    public ReadOnlyStringProperty eventsHeadingProperty() {
        return eventsHeading.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty headingProperty() {
        return heading.getReadOnlyProperty();
    }

    public ObservableList<K8sNode> nodes() {
        return nodes;
    }

    public ObservableList<K8sPod> pods() {
        return pods;
    }

    public ObservableList<String> pending() {
        return pending;
    }

    /** The resource columns, in order. */
    public ObservableList<String> resources() {
        return resources;
    }

    public ObservableList<String> jobs() {
        return jobs;
    }

    /** The picked job's row ("all training jobs" for none). */
    public StringProperty jobProperty() {
        return job;
    }

    public ObjectProperty<List<K8sNode>> selectedNodesProperty() {
        return selectedNodes;
    }

    public ObjectProperty<List<K8sPod>> selectedPodsProperty() {
        return selectedPods;
    }
}
