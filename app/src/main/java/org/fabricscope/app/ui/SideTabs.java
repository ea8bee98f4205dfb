package org.fabricscope.app.ui;

import java.util.ArrayList;
import java.util.List;

import org.fabricscope.model.core.Diagnostic;

import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleObjectProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * The tabs beside the map: which is in front, their titles with counts, and the import diagnostics
 * tab's rows: the lines the last import could not read, then the user's flow files that did not load.
 */
public final class SideTabs {
    /** The tabs, in order. */
    public enum Tab { INSPECTOR, FINDINGS, TIMELINE, PAIRS, TRAINING, KUBERNETES, LOGS, DIAGNOSTICS, TROUBLESHOOT, COMPARE }

    private final ObjectProperty<Tab> selected = new SimpleObjectProperty<>(Tab.INSPECTOR);
    private final ReadOnlyStringWrapper trainingTitle = new ReadOnlyStringWrapper("Training");
    private final ReadOnlyStringWrapper clusterTitle = new ReadOnlyStringWrapper("Kubernetes");
    private final ReadOnlyStringWrapper diagnosticsTitle = new ReadOnlyStringWrapper("Import diagnostics");
    private final ObservableList<Diagnostic> diagnostics = FXCollections.observableArrayList();
    private List<Diagnostic> imported = List.of();
    private List<Diagnostic> flowErrors = List.of();
    private boolean imports;

    /** A new load's counts and diagnostics. */
    void show(Snapshot s) {
        clusterTitle.set(s.model().k8sNodes().isEmpty() ? "Kubernetes" : "Kubernetes (" + s.model().k8sNodes().size() + ")");
        trainingTitle.set(s.ranks().isEmpty() ? "Training" : "Training (" + s.ranks().sites().size() + ")");
        showImported(s.model().diagnostics());
    }

    /** An import's diagnostics (also of one that read nothing, whose model is not shown). */
    void showImported(List<Diagnostic> list) {
        imported = List.copyOf(list);
        imports = true;
        refreshDiagnostics();
    }

    /** The user's flow files that did not load: listed after every import's diagnostics. */
    void showFlowErrors(List<Diagnostic> list) {
        flowErrors = List.copyOf(list);
        refreshDiagnostics();
    }

    private void refreshDiagnostics() {
        List<Diagnostic> all = new ArrayList<>(imported);
        all.addAll(flowErrors);
        diagnostics.setAll(all);
        diagnosticsTitle.set(!imports && all.isEmpty() ? "Import diagnostics" : "Import diagnostics (" + all.size() + ")");
    }

    public ObjectProperty<Tab> selectedProperty() {
        return selected;
    }

    public ReadOnlyStringProperty trainingTitleProperty() {
        return trainingTitle.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty clusterTitleProperty() {
        return clusterTitle.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty diagnosticsTitleProperty() {
        return diagnosticsTitle.getReadOnlyProperty();
    }

    public ObservableList<Diagnostic> diagnostics() {
        return diagnostics;
    }
}
