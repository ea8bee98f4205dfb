package org.fabricscope.app.ui;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;

import org.fabricscope.app.nav.Navigation;
import org.fabricscope.app.task.BackgroundTask;
import org.fabricscope.app.task.TaskExecutor;
import org.fabricscope.model.core.Plural;
import org.fabricscope.model.core.Vertex;
import org.fabricscope.model.fabric.FabricNode;
import org.fabricscope.model.fabric.Host;

import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;

/**
 * The toolbar's find field: a host, switch, GUID or LID. While the user types, the first matches are
 * suggested with their count ("12 matches"), searched off the UI thread. Enter lands on one hit, or an
 * exact one; several are offered, every one of them ({@link #choicesProperty()}). A host lands as its
 * HCAs: all marked on the map, the faulty one first (shown in the inspector), the map zoomed to them
 * ({@link HostLanding}).
 */
public final class SearchViewModel {
    /** How many suggestions are listed while typing (the count says how many match in all). */
    static final int SUGGESTIONS = 12;

    private final StringProperty text = new SimpleStringProperty("");
    private final ReadOnlyObjectWrapper<List<Vertex>> choices = new ReadOnlyObjectWrapper<>(List.of());
    private final ReadOnlyObjectWrapper<List<Vertex>> suggestions = new ReadOnlyObjectWrapper<>(List.of());
    private final ReadOnlyStringWrapper count = new ReadOnlyStringWrapper("");
    private final TaskExecutor executor;
    private final Supplier<Snapshot> snapshot;
    private final Consumer<String> status;
    private final Consumer<Navigation> land;
    private long asked;
    /** While a search or a pick sets the field, typing suggestions stay quiet. */
    private boolean setting;

    SearchViewModel(TaskExecutor executor, Supplier<Snapshot> snapshot, Consumer<String> status, Consumer<Navigation> land) {
        this.executor = executor;
        this.snapshot = snapshot;
        this.status = status;
        this.land = land;
        text.addListener((o, a, t) -> {
            if (!setting) {
                suggest(t);
            }
        });
    }

    /** What Enter does: lands on the one (or exact) hit, else offers them all. */
    public void search() {
        Snapshot s = snapshot.get();
        asked++; // a suggestion still on its way is stale now
        suggestions.set(List.of());
        if (s == null) {
            return;
        }
        String q = text.get();
        List<Vertex> hits = s.model().search(q, Integer.MAX_VALUE); // all of them: the view lists them virtualised
        count.set(countText(hits.size()));
        if (hits.isEmpty()) {
            status.accept("No match for \"" + q.strip() + "\"");
            return;
        }
        boolean exactFirst = hits.get(0).displayName().equalsIgnoreCase(q.strip())
                && (hits.size() == 1 || !hits.get(1).displayName().equalsIgnoreCase(q.strip()));
        if (hits.size() == 1 || exactFirst) {
            Vertex first = hits.get(0);
            // a host's own HCAs match its name too: they are where it lands, not other matches
            long others = hits.stream().skip(1).filter(v -> !(first instanceof Host h && h.adapters().contains(v))).count();
            landOn(first, others == 0 ? "" : " (" + Plural.of(others, "more partial match", "more partial matches") + ")");
            return;
        }
        choices.set(List.copyOf(hits));
        status.accept(countText(hits.size()) + " for \"" + q.strip() + "\"");
    }

    /** Picks one of the offered hits or suggestions. */
    public void choose(Vertex v) {
        if (v == null) {
            return;
        }
        asked++;
        suggestions.set(List.of());
        setting = true;
        try {
            text.set(v.displayName());
        } finally {
            setting = false;
        }
        landOn(v, "");
    }

    private void landOn(Vertex v, String more) {
        Snapshot s = snapshot.get();
        if (v instanceof Host h && s != null) {
            HostLanding l = HostLanding.of(h, s);
            land.accept(Navigation.toHost(h, l.hcas()));
            status.accept(l.text() + more);
        } else {
            land.accept(Navigation.toVertex(v));
            status.accept("Found " + v.displayName() + more);
        }
    }

    /** The first matches of what is typed and how many there are, searched in the background; nothing under 2 characters. */
    private void suggest(String typed) {
        long ticket = ++asked;
        Snapshot s = snapshot.get();
        String q = typed == null ? "" : typed.strip();
        if (s == null || q.length() < 2) {
            suggestions.set(List.of());
            count.set("");
            return;
        }
        executor.execute(BackgroundTask.of(ctx -> s.model().search(q, Integer.MAX_VALUE)).onSuccess(hits -> {
            if (ticket == asked) {
                count.set(countText(hits.size()));
                suggestions.set(List.copyOf(hits.subList(0, Math.min(SUGGESTIONS, hits.size()))));
            }
        }));
    }

    /** {@code No match}, {@code 1 match}, {@code 12 matches}. */
    static String countText(int n) {
        return n == 0 ? "No match" : Plural.of(n, "match");
    }

    /** How a hit is offered. */
    public static String choiceText(Vertex v) {
        return v.displayName() + (v instanceof FabricNode n ? "  (" + (n.isSwitch() ? n.tier().label() : "HCA") + ", LID "
                + n.lid() + ")" : v instanceof Host h ? "  (host, " + Plural.of(h.adapters().size(), "HCA") + ")" : "  (host)");
    }

    public StringProperty textProperty() {
        return text;
    }

    /** The hits of the last search that found several; a new list each time. */
    public ReadOnlyObjectProperty<List<Vertex>> choicesProperty() {
        return choices.getReadOnlyProperty();
    }

    /** The first matches of what is being typed (at most {@link #SUGGESTIONS}); empty when nothing to suggest. */
    public ReadOnlyObjectProperty<List<Vertex>> suggestionsProperty() {
        return suggestions.getReadOnlyProperty();
    }

    /** How many match what is typed or was searched: {@code 12 matches}; empty before anything is typed. */
    public ReadOnlyStringProperty countProperty() {
        return count.getReadOnlyProperty();
    }

    /**
     * A host as search lands on it: its HCAs, those with a problem first (a finding names them or a
     * port of theirs, or their port lost its link or has errors over thresholds), then in name order;
     * and the status line that says so.
     */
    record HostLanding(List<FabricNode> hcas, String text) {
        static HostLanding of(Host h, Snapshot s) {
            java.util.Set<Long> named = new java.util.HashSet<>();
            for (org.fabricscope.model.core.Finding f : s.findings()) {
                for (org.fabricscope.model.core.Subject r : f.refs()) {
                    if (r instanceof org.fabricscope.model.core.Subject.PortRef p) {
                        named.add(p.guid());
                    } else if (r instanceof org.fabricscope.model.core.Subject.HcaRef c) {
                        named.add(c.guid());
                    } else if (r instanceof org.fabricscope.model.core.Subject.CableRef c) {
                        named.add(c.guidA());
                        named.add(c.guidB());
                    }
                }
            }
            List<FabricNode> faulty = new ArrayList<>();
            List<FabricNode> rest = new ArrayList<>();
            for (FabricNode n : h.adapters()) {
                boolean bad = named.contains(n.guid()) || n.ports().stream().anyMatch(p ->
                        org.fabricscope.model.diagnosis.LinkDownCheck.lostLink(p)
                                || org.fabricscope.model.diagnosis.LinkErrorsCheck.worst(p, s.thresholds()) != null
                                || (p.peer() != null && org.fabricscope.model.diagnosis.LinkErrorsCheck.worst(p.peer(), s.thresholds()) != null)
                                || (p.cable() != null && s.colouring().degraded().containsKey(p.cable())));
                (bad ? faulty : rest).add(n);
            }
            Comparator<FabricNode> byName = Comparator.comparing(FabricNode::displayName, org.fabricscope.model.core.NaturalOrder.INSTANCE);
            faulty.sort(byName);
            rest.sort(byName);
            List<FabricNode> all = new ArrayList<>(faulty);
            all.addAll(rest);
            String text = "Host " + h.name() + ": " + Plural.of(all.size(), "HCA") + " marked"
                    + (faulty.isEmpty() ? ", none with a problem" : ", " + (faulty.size() == 1 ? faulty.get(0).displayName()
                    + " has a problem (shown first)" : Plural.of(faulty.size(), "HCA") + " with a problem first"));
            return new HostLanding(List.copyOf(all), text);
        }
    }
}
