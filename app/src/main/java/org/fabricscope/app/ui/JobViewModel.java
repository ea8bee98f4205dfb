package org.fabricscope.app.ui;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.fabricscope.app.task.BackgroundTask;
import org.fabricscope.app.task.TaskExecutor;
import org.fabricscope.model.FabricModel;
import org.fabricscope.model.analysis.Analysis;
import org.fabricscope.model.core.Plural;
import org.fabricscope.model.core.Subject;
import org.fabricscope.model.layout.JobLayout;
import org.fabricscope.model.training.Transport;

import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;

/**
 * The Job tab's state: the job's {@link JobLayout} (worked out off the UI thread for each load), a line
 * that counts it, and the boxes a selected finding marks. No controls.
 */
public final class JobViewModel {
    private final TaskExecutor executor;
    private final ReadOnlyObjectWrapper<JobLayout> layout = new ReadOnlyObjectWrapper<>(JobLayout.EMPTY);
    private final ReadOnlyObjectWrapper<Set<String>> marked = new ReadOnlyObjectWrapper<>(Set.of());
    private final ReadOnlyStringWrapper header = new ReadOnlyStringWrapper(EMPTY_TEXT);
    private List<Subject> marks = List.of();
    private BackgroundTask<JobLayout> running;
    private long generation;

    static final String EMPTY_TEXT = "No training job loaded: open the job's NCCL logs (NCCL_DEBUG=INFO) or its pods "
            + "(kubectl get pods -o json) to draw its nodes, pods and ranks";

    JobViewModel(TaskExecutor executor) {
        this.executor = executor;
    }

    /** Whether a load is best shown on the job: it has ranks or pods and no fabric to draw. */
    static boolean opensOnJob(FabricModel model) {
        return model.nodes().isEmpty() && (!model.trainingLog().ranks().isEmpty() || !model.pods().isEmpty());
    }

    /** A new load: its job is laid out in the background; the marks are cleared. */
    void show(Analysis analysis) {
        if (running != null) {
            running.cancel();
        }
        long gen = ++generation;
        marks = List.of();
        marked.set(Set.of());
        header.set("Laying out the job…");
        running = executor.execute(BackgroundTask.of(ctx -> JobLayout.of(analysis.model(), analysis.ranks()))
                .onSuccess(l -> {
                    if (gen == generation) {
                        layout.set(l);
                        header.set(headerOf(l));
                        marked.set(l.marked(marks));
                    }
                }).onFailure(e -> {
                    if (gen == generation) {
                        layout.set(JobLayout.EMPTY);
                        header.set("The job could not be laid out: " + e.getMessage());
                    }
                }));
    }

    /** Marks the boxes of these subjects (a finding's); an empty list clears. */
    void mark(List<Subject> subjects) {
        marks = List.copyOf(subjects);
        marked.set(layout.get().marked(marks));
    }

    /** A transport as the job view's legend and header name it. */
    static String transportName(org.fabricscope.model.training.Transport t) {
        return switch (t) {
            case P2P -> "NVLink/P2P";
            case SHM -> "SHM";
            case NET_IB_GDR -> "IB with GDR";
            case NET_IB -> "IB without GDR";
            case NET_OTHER -> "other network";
            case NET_SOCKET -> "socket";
        };
    }

    static String headerOf(JobLayout l) {
        if (l.isEmpty()) {
            return EMPTY_TEXT;
        }
        StringBuilder b = new StringBuilder();
        b.append(Plural.of(l.boxes(JobLayout.Kind.NODE).size(), "node"));
        int pods = l.boxes(JobLayout.Kind.POD).size();
        if (pods > 0) {
            b.append(" · ").append(Plural.of(pods, "pod"));
        }
        b.append(" · ").append(Plural.of(l.boxes(JobLayout.Kind.RANK).size(), "rank"));
        Map<Transport, Integer> by = new EnumMap<>(Transport.class);
        l.edges().forEach(e -> by.merge(e.transport(), 1, Integer::sum));
        if (!by.isEmpty()) {
            b.append(" · ").append(Plural.of(l.edges().size(), "rank pair")).append(": ");
            StringBuilder t = new StringBuilder();
            by.forEach((k, v) -> t.append(t.length() == 0 ? "" : ", ").append(v).append(' ').append(transportName(k)));
            b.append(t);
        } else if (!l.boxes(JobLayout.Kind.RANK).isEmpty()) {
            b.append(" · no channel lines in the logs (NCCL_DEBUG=INFO prints them)");
        }
        return b.toString();
    }

    public ReadOnlyObjectProperty<JobLayout> layoutProperty() {
        return layout.getReadOnlyProperty();
    }

    /** The keys of the boxes marked ({@code rank:3}, {@code pod:NAME}, {@code node:NAME}). */
    public ReadOnlyObjectProperty<Set<String>> markedProperty() {
        return marked.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty headerProperty() {
        return header.getReadOnlyProperty();
    }
}
