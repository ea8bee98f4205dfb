package org.fabricscope.app.ui;

import org.fabricscope.model.core.Diagnostic;

import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleObjectProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/** The tabs beside the map: which is in front, their titles with counts, and the import diagnostics tab's rows. */
public final class SideTabs {
    /** The tabs, in order. */
    public enum Tab { INSPECTOR, FINDINGS, TRAINING, KUBERNETES, LOGS, DIAGNOSTICS, TROUBLESHOOT }

    private final ObjectProperty<Tab> selected = new SimpleObjectProperty<>(Tab.INSPECTOR);
    private final ReadOnlyStringWrapper trainingTitle = new ReadOnlyStringWrapper("Training");
    private final ReadOnlyStringWrapper clusterTitle = new ReadOnlyStringWrapper("Kubernetes");
    private final ReadOnlyStringWrapper diagnosticsTitle = new ReadOnlyStringWrapper("Import diagnostics");
    private final ObservableList<Diagnostic> diagnostics = FXCollections.observableArrayList();

    /** A new load's counts and diagnostics. */
    void show(Snapshot s) {
        clusterTitle.set(s.model().k8sNodes().isEmpty() ? "Kubernetes" : "Kubernetes (" + s.model().k8sNodes().size() + ")");
        trainingTitle.set(s.ranks().isEmpty() ? "Training" : "Training (" + s.ranks().sites().size() + ")");
        diagnosticsTitle.set("Import diagnostics (" + s.model().diagnostics().size() + ")");
        diagnostics.setAll(s.model().diagnostics());
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
