package org.fabricscope.app.ui;

import java.util.function.Consumer;

import org.fabricscope.app.nav.Navigation;
import org.fabricscope.app.nav.SubjectResolver;
import org.fabricscope.model.analysis.Analysis;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.core.Subject;

import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleObjectProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * The findings of the current analysis and the one selected: its subjects, each with where it is
 * shown, its evidence and remedies. Selecting a finding resolves all its typed subjects
 * ({@link SubjectResolver}) and hands the {@link Navigation} to the window to mark ({@code mark}): it
 * highlights them on the map and selects their rows while the finding's detail stays in view; selecting
 * one subject row goes to that subject alone ({@code go}: its tab comes to front). With cables but no
 * error counters read, {@link #noteProperty()} says that no port was judged for errors.
 */
public final class FindingsViewModel {
    /** One subject of the selected finding and where it is shown. */
    public record SubjectRow(Subject subject, Navigation navigation) {
        public String text() {
            return subject.kind() + " · " + subject.label() + "\n    " + navigation.where();
        }
    }

    private final ObservableList<Finding> findings = FXCollections.observableArrayList();
    private final ObjectProperty<Finding> selected = new SimpleObjectProperty<>();
    private final ObservableList<SubjectRow> subjects = FXCollections.observableArrayList();
    private final ObservableList<Evidence> evidence = FXCollections.observableArrayList();
    private final ObjectProperty<Evidence> selectedEvidence = new SimpleObjectProperty<>();
    private final ReadOnlyStringWrapper title = new ReadOnlyStringWrapper("Findings");
    private final ReadOnlyStringWrapper heading = new ReadOnlyStringWrapper("");
    private final ObservableList<String> remedies = FXCollections.observableArrayList();
    private final ReadOnlyStringWrapper flow = new ReadOnlyStringWrapper("");
    private final Consumer<Navigation> mark;
    private final Consumer<Navigation> go;
    private final ReadOnlyStringWrapper note = new ReadOnlyStringWrapper("");
    private SubjectResolver resolver;
    private java.util.function.Function<String, String> explaining = id -> null;
    private Consumer<String> flowOpener = id -> { };

    /**
     * @param mark marks a selected finding's subjects (the window keeps the Findings tab in front)
     * @param go   goes to one subject (the window brings the tab that shows it to front)
     */
    FindingsViewModel(Consumer<Navigation> mark, Consumer<Navigation> go) {
        this.mark = mark;
        this.go = go;
        selected.addListener((o, a, f) -> selectionChanged(f));
    }

    /** A new load's analysis: its findings, nothing selected. */
    void show(Analysis analysis) {
        resolver = new SubjectResolver(analysis);
        selected.set(null);
        findings.setAll(analysis.findings());
        title.set("Findings (" + findings.size() + ")");
        note.set(analysis.summary().countersUnread() ? "No error counters were read: load perfquery/ibqueryerrors output. "
                + "No port was judged for errors, so a cable without a finding here is not known to be healthy." : "");
    }

    private void selectionChanged(Finding f) {
        selectedEvidence.set(null);
        if (f == null || resolver == null) {
            subjects.clear();
            evidence.clear();
            remedies.clear();
            flow.set("");
            heading.set("");
            return;
        }
        remedies.setAll(f.remedies());
        String explainedBy = explaining.apply(f.id());
        flow.set(explainedBy == null ? "" : explainedBy);
        heading.set(f.severity().label().toUpperCase() + "  " + f.id() + ": " + f.title());
        subjects.setAll(f.refs().stream().map(s -> new SubjectRow(s, resolver.resolve(s))).toList());
        evidence.setAll(f.evidence());
        Navigation n = resolver.resolve(f);
        mark.accept(n);
        if (!n.lines().isEmpty()) {
            selectEvidence(n.lines().get(0));
        }
    }

    /** How to find the flow that explains a finding id, and how to open it (the Troubleshoot panel). */
    void setFlows(java.util.function.Function<String, String> flowExplaining, Consumer<String> open) {
        this.explaining = flowExplaining;
        this.flowOpener = open;
    }

    /** Opens the Troubleshoot panel on the flow that explains the selected finding. */
    public void openFlow() {
        if (!flow.get().isEmpty()) {
            flowOpener.accept(flow.get());
        }
    }

    /** Goes to one subject of the selected finding. */
    public void showSubject(SubjectRow row) {
        if (row != null) {
            go.accept(row.navigation());
            if (!row.navigation().lines().isEmpty()) {
                selectEvidence(row.navigation().lines().get(0));
            }
        }
    }

    private void selectEvidence(Subject.LineRef line) {
        evidence.stream().filter(e -> e.source().equals(line.source()) && e.line() == line.line()).findFirst()
                .ifPresent(selectedEvidence::set);
    }

    /** Where a finding's subjects are, without selecting it (tests, tooltips). */
    public Navigation navigationOf(Finding f) {
        return resolver == null ? Navigation.NONE : resolver.resolve(f);
    }

    /** The list row: severity, id, title. */
    public static String text(Finding f) {
        return f.severity().label().toUpperCase() + "  " + f.id() + "\n" + f.title();
    }

    /** The row's tooltip: the subjects and what to do. */
    public static String tooltip(Finding f) {
        return String.join("\n", f.subjects()) + "\n\nWhat to do:\n- " + String.join("\n- ", f.remedies());
    }

    public static String text(Evidence e) {
        return e.where() + "\n    " + e.text();
    }

    public ObservableList<Finding> findings() {
        return findings;
    }

    public ObjectProperty<Finding> selectedProperty() {
        return selected;
    }

    public ObservableList<SubjectRow> subjects() {
        return subjects;
    }

    public ObservableList<Evidence> evidence() {
        return evidence;
    }

    /** The selected finding's remedies, each a command or snippet to copy. */
    public ObservableList<String> remedies() {
        return remedies;
    }

    /** The id of the flow whose conclusion names the selected finding; empty when none. */
    public ReadOnlyStringProperty flowProperty() {
        return flow.getReadOnlyProperty();
    }

    public ObjectProperty<Evidence> selectedEvidenceProperty() {
        return selectedEvidence;
    }

    /** What the findings cannot say for this load (no error counters read); empty when nothing. */
    public ReadOnlyStringProperty noteProperty() {
        return note.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty titleProperty() {
        return title.getReadOnlyProperty();
    }

    /** The selected finding's severity, id and title; empty when none. */
    public ReadOnlyStringProperty headingProperty() {
        return heading.getReadOnlyProperty();
    }
}
