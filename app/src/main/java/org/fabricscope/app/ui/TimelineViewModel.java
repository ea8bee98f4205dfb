package org.fabricscope.app.ui;

import java.util.List;
import java.util.function.Consumer;

import org.fabricscope.app.nav.IncidentSubjects;
import org.fabricscope.app.nav.Navigation;
import org.fabricscope.app.nav.SubjectResolver;
import org.fabricscope.app.task.BackgroundTask;
import org.fabricscope.app.task.TaskExecutor;
import org.fabricscope.model.analysis.Analysis;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.incident.reasoning.Incident;
import org.fabricscope.model.incident.reasoning.IncidentEvent;
import org.fabricscope.model.incident.reasoning.IncidentReasoner;
import org.fabricscope.model.incident.SignatureCatalogue;

import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * The Timeline tab's state: the incident of the current analysis ({@link IncidentReasoner}, worked out
 * in the background each time an analysis is loaded), its lanes, the header (the root cause, or that
 * none was found) and notes, and the event selected. Selecting an event shows its party on the map
 * (through the window's navigation, leaving this tab in front); opening it hands its evidence line to
 * the view, which opens it in the Logs tab or a viewer as findings do. No controls.
 */
public final class TimelineViewModel {
    /** The header while nothing is loaded. */
    static final String NOTHING_LOADED = "Open logs (NCCL, torchrun, kernel) or Kubernetes objects to see the incident's timeline";

    private final TaskExecutor executor;
    private final Consumer<Navigation> showParty;
    private final ReadOnlyObjectWrapper<TimelineData> data = new ReadOnlyObjectWrapper<>(TimelineData.EMPTY);
    private final ObservableList<IncidentEvent> events = FXCollections.observableArrayList();
    private final ReadOnlyObjectWrapper<IncidentEvent> selected = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyStringWrapper header = new ReadOnlyStringWrapper(NOTHING_LOADED);
    private final ObservableList<String> notes = FXCollections.observableArrayList();
    private final ReadOnlyStringWrapper title = new ReadOnlyStringWrapper("Timeline");
    private final ReadOnlyBooleanWrapper busy = new ReadOnlyBooleanWrapper();
    private BackgroundTask<Result> running;
    private long generation;
    private SubjectResolver resolver;

    /** What the background work hands over: the timeline, the resolver of its analysis, whether no signature was loaded. */
    private record Result(TimelineData data, SubjectResolver resolver, boolean noSignatures) {
    }

    /** {@code showParty}: marks an event's party on the map and selects its rows, leaving the tab in front. */
    TimelineViewModel(TaskExecutor executor, Consumer<Navigation> showParty) {
        this.executor = executor;
        this.showParty = showParty;
    }

    /** A new load's analysis: its incident is worked out off the UI thread; the event selected before stays if it is still there. */
    void show(Analysis analysis) {
        // the incident the checks reasoned over this model, when they did; reasoned here (off the UI thread) when not
        show(analysis, a -> IncidentReasoner.of(a.model()));
    }

    /** As {@link #show(Analysis)}, with the reasoning given (tests hand it an incident of their own). */
    void show(Analysis analysis, java.util.function.Function<Analysis, Incident> reasoner) {
        if (running != null) {
            running.cancel();
        }
        long gen = ++generation;
        busy.set(true);
        header.set("Working out the incident's timeline…");
        running = executor.execute(BackgroundTask.of(ctx -> {
            Incident incident = reasoner.apply(analysis);
            return new Result(TimelineData.of(incident), new SubjectResolver(analysis), SignatureCatalogue.active().signatures().isEmpty());
        }).onSuccess(r -> {
            if (gen == generation) {
                apply(r);
            }
        }).onFailure(e -> {
            if (gen == generation) {
                apply(new Result(TimelineData.EMPTY, null, false));
                header.set("The timeline could not be worked out: " + e.getMessage());
            }
        }).onFinished(() -> {
            if (gen == generation) {
                busy.set(false);
            }
        }));
    }

    private void apply(Result r) {
        IncidentEvent before = selected.get();
        resolver = r.resolver();
        TimelineData d = r.data();
        selected.set(null);
        data.set(d);
        events.setAll(d.incident().events());
        header.set(header(d.incident()));
        List<String> n = new java.util.ArrayList<>(d.incident().notes());
        if (r.noSignatures()) {
            n.add("no failure signatures are loaded, so no line can be recognised (fabricscope signatures lists the catalogue)");
        }
        notes.setAll(n);
        title.set(d.isEmpty() ? "Timeline" : "Timeline (" + d.incident().events().size() + ")");
        if (before != null) { // a live rebuild: the same line's event stays selected, without moving the map again
            selected.set(d.incident().events().stream().filter(e -> same(e, before)).findFirst().orElse(null));
        }
    }

    private static boolean same(IncidentEvent a, IncidentEvent b) {
        return a.id().equals(b.id()) && a.evidence().equals(b.evidence()) && a.who().equals(b.who());
    }

    /** {@code Root cause: rank 1 (trainer-worker-1): CUDA out of memory at 15:47:41.200 [gpu-memory]}, or that none was found. */
    static String header(Incident incident) {
        IncidentEvent root = incident.rootCause();
        if (root == null) {
            return incident.events().isEmpty() ? "No failure found: no line, kernel message or Kubernetes object of the inputs"
                    + " matched a failure signature" : "No failure found: the events below are context only";
        }
        return "Root cause: " + root.who().label() + ": " + root.title() + (root.stamp().known() ? " at " + root.stamp().clock() : "")
                + " [" + root.causeClass().id() + "]";
    }

    /** Selects an event (null: none) and shows its party on the map; the tab stays in front. */
    public void select(IncidentEvent e) {
        selected.set(e);
        if (e != null && resolver != null) {
            Navigation n = IncidentSubjects.resolve(resolver, e.who());
            if (!n.isEmpty()) {
                showParty.accept(n);
            }
        }
    }

    /**
     * Selects the event and returns the line to open (the view opens it in the Logs tab, or a viewer
     * for other inputs); null when the event cites no input line (a conclusion of the reasoning may not).
     */
    public Evidence open(IncidentEvent e) {
        if (e == null) {
            return null;
        }
        if (e != selected.get()) {
            select(e);
        }
        Evidence ev = e.evidence();
        return ev == null || ev.source().isEmpty() || ev.line() <= 0 ? null : ev;
    }

    /** The line of the selected event to open, as {@link #open}. */
    public Evidence openSelected() {
        return open(selected.get());
    }

    /**
     * Moves the selection: {@code steps} events later (negative: earlier) in time order, or to the
     * event closest in time order in the lane {@code lanes} below (negative: above). With nothing
     * selected, any move selects the root cause (else the first event).
     */
    public void move(int steps, int lanes) {
        List<IncidentEvent> all = events;
        if (all.isEmpty()) {
            return;
        }
        TimelineData d = data.get();
        IncidentEvent cur = selected.get();
        int at = d.orderOf(cur);
        if (at < 0) {
            IncidentEvent root = d.incident().rootCause();
            select(d.orderOf(root) >= 0 ? all.get(d.orderOf(root)) : all.get(0));
            return;
        }
        if (lanes == 0) {
            select(all.get(Math.max(0, Math.min(all.size() - 1, at + steps))));
            return;
        }
        int lane = Math.max(0, Math.min(d.lanes().size() - 1, d.laneOf(cur) + lanes));
        IncidentEvent best = cur;
        int bestDistance = Integer.MAX_VALUE;
        for (IncidentEvent e : d.lanes().get(lane).events()) {
            int distance = Math.abs(d.orderOf(e) - at);
            if (distance < bestDistance) {
                best = e;
                bestDistance = distance;
            }
        }
        select(best);
    }

    /** Selects the first or last event in time order. */
    public void moveToEnd(boolean last) {
        if (!events.isEmpty()) {
            select(events.get(last ? events.size() - 1 : 0));
        }
    }

    /** The hover text of a mark: time, who, what, the line and where the signature comes from. */
    public static String tooltip(TimelineData d, IncidentEvent e) {
        StringBuilder b = new StringBuilder();
        b.append(e.stamp().known() ? e.stamp().iso() : "(no time: placed by its line's order)");
        if (e.stamp().inferred()) {
            b.append(" or later (the line has no time of its own: this is the last one before it in its file)");
        }
        b.append('\n');
        b.append(e.who().label()).append('\n');
        b.append(d.isRoot(e) ? "ROOT CAUSE: " : "").append(e.title()).append('\n');
        b.append(e.severity().label()).append(" · ").append(e.role().label()).append(" · ").append(e.causeClass().id())
                .append(" · ").append(e.id()).append('\n');
        Integer cause = d.incident().causeOf().get(e.seq());
        IncidentEvent c = cause == null ? null : d.incident().event(cause);
        if (c != null) {
            b.append("follows: ").append(c.line()).append('\n');
        }
        if (!e.evidence().source().isEmpty()) {
            b.append(e.evidence().where()).append('\n');
        }
        if (!e.evidence().text().isEmpty()) {
            b.append("  ").append(e.evidence().text()).append('\n');
        }
        if (!e.origin().isEmpty()) {
            b.append("Origin: ").append(e.origin());
        }
        return b.toString().stripTrailing();
    }

    /**
     * The table's time cell: {@code 23:14:05.000}, {@code ≥ 23:14:05.000} for a time taken from an earlier line of the
     * file (a lower bound), or {@code no time}.
     */
    public static String time(IncidentEvent e) {
        return !e.stamp().known() ? "no time" : e.stamp().inferred() ? "\u2265 " + e.stamp().clock() : e.stamp().clock();
    }

    /** The table's lane cell. */
    public static String lane(IncidentEvent e) {
        return e.who().lane().isEmpty() ? "—" : e.who().lane();
    }

    /** The timeline of the current analysis ({@link TimelineData#EMPTY} until one is worked out). */
    public ReadOnlyObjectProperty<TimelineData> dataProperty() {
        return data.getReadOnlyProperty();
    }

    public TimelineData data() {
        return data.get();
    }

    /** The events in time order: the table's rows. */
    public ObservableList<IncidentEvent> events() {
        return events;
    }

    public ReadOnlyObjectProperty<IncidentEvent> selectedProperty() {
        return selected.getReadOnlyProperty();
    }

    /** The root cause line, or that no failure was found. */
    public ReadOnlyStringProperty headerProperty() {
        return header.getReadOnlyProperty();
    }

    /** How sure the order is (clock skew, lines without a time), as the reasoning says. */
    public ObservableList<String> notes() {
        return notes;
    }

    /** The tab's title: {@code Timeline (n)}. */
    public ReadOnlyStringProperty titleProperty() {
        return title.getReadOnlyProperty();
    }

    /** True while the incident is being worked out. */
    public ReadOnlyBooleanProperty busyProperty() {
        return busy.getReadOnlyProperty();
    }
}
