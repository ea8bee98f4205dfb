package org.fabricscope.app.ui;

import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;

import org.fabricscope.model.core.Vertex;
import org.fabricscope.model.fabric.FabricNode;

import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;

/**
 * The toolbar's find field: a host, switch, GUID or LID. One hit, or an exact one, is shown; several
 * are offered, every one of them ({@link #choicesProperty()}, the view lists them under the field with
 * their count).
 */
public final class SearchViewModel {
    private final StringProperty text = new SimpleStringProperty("");
    private final ReadOnlyObjectWrapper<List<Vertex>> choices = new ReadOnlyObjectWrapper<>(List.of());
    private final Supplier<Snapshot> snapshot;
    private final Consumer<String> status;
    private final Consumer<Vertex> reveal;

    SearchViewModel(Supplier<Snapshot> snapshot, Consumer<String> status, Consumer<Vertex> reveal) {
        this.snapshot = snapshot;
        this.status = status;
        this.reveal = reveal;
    }

    public void search() {
        Snapshot s = snapshot.get();
        if (s == null) {
            return;
        }
        String q = text.get();
        List<Vertex> hits = s.model().search(q, Integer.MAX_VALUE); // all of them: the view lists them virtualised
        if (hits.isEmpty()) {
            status.accept("No match for \"" + q + "\"");
            return;
        }
        boolean exactFirst = hits.get(0).displayName().equalsIgnoreCase(q.strip())
                && (hits.size() == 1 || !hits.get(1).displayName().equalsIgnoreCase(q.strip()));
        if (hits.size() == 1 || exactFirst) {
            reveal.accept(hits.get(0));
            status.accept(hits.size() == 1 ? "Found " + hits.get(0).displayName()
                    : "Showing " + hits.get(0).displayName() + " (" + (hits.size() - 1) + " more partial matches)");
            return;
        }
        choices.set(List.copyOf(hits));
        status.accept(hits.size() + " matches for \"" + q + "\"");
    }

    /** Picks one of the offered hits. */
    public void choose(Vertex v) {
        reveal.accept(v);
    }

    /** How a hit is offered. */
    public static String choiceText(Vertex v) {
        return v.displayName() + (v instanceof FabricNode n ? "  (" + (n.isSwitch() ? n.tier().label() : "HCA") + ", LID "
                + n.lid() + ")" : "  (host)");
    }

    public StringProperty textProperty() {
        return text;
    }

    /** The hits of the last search that found several; a new list each time. */
    public ReadOnlyObjectProperty<List<Vertex>> choicesProperty() {
        return choices.getReadOnlyProperty();
    }
}
