package org.fabricscope.app.ui;

import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.core.Finding;

import javafx.fxml.FXML;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.VBox;

/**
 * The findings list and, for the selected finding, its subjects (each with where it is shown) and
 * evidence. Declared in {@code FindingsView.fxml}; the state is {@link FindingsViewModel}'s.
 */
public final class FindingsView extends VBox {
    @FXML
    private ListView<Finding> findings;
    @FXML
    private VBox details;
    @FXML
    private Label heading;
    @FXML
    private ListView<FindingsViewModel.SubjectRow> findingSubjects;
    @FXML
    private ListView<Evidence> findingEvidence;
    @FXML
    private ListView<String> findingRemedies;
    @FXML
    private javafx.scene.control.Hyperlink explainingFlow;
    private FindingsViewModel model;

    public FindingsView() {
        ViewLoader.load(this);
    }

    void bind(FindingsViewModel vm, java.util.function.Consumer<Evidence> openEvidence) {
        this.model = vm;
        findings.setItems(vm.findings());
        findings.setCellFactory(lv -> new ListCell<>() {
            @Override
            protected void updateItem(Finding f, boolean empty) {
                super.updateItem(f, empty);
                getStyleClass().removeAll(Styles.SEV_ERROR, Styles.SEV_WARNING, Styles.SEV_INFO);
                if (empty || f == null) {
                    setText(null);
                    setTooltip(null);
                } else {
                    setText(FindingsViewModel.text(f));
                    getStyleClass().add(Styles.severity(f.severity()));
                    setTooltip(new Tooltip(FindingsViewModel.tooltip(f)));
                }
            }
        });
        // the list's selection drives the view model's; a new load clears both
        findings.getSelectionModel().selectedItemProperty().addListener((o, a, f) -> vm.selectedProperty().set(f));
        vm.selectedProperty().addListener((o, a, f) -> {
            if (f == null) {
                findings.getSelectionModel().clearSelection();
            } else if (findings.getSelectionModel().getSelectedItem() != f) {
                findings.getSelectionModel().select(f);
            }
        });
        details.visibleProperty().bind(vm.selectedProperty().isNotNull());
        details.managedProperty().bind(details.visibleProperty());
        heading.textProperty().bind(vm.headingProperty());
        findingSubjects.setItems(vm.subjects());
        findingSubjects.setCellFactory(lv -> cell(FindingsViewModel.SubjectRow::text));
        findingSubjects.setOnMouseClicked(e -> vm.showSubject(findingSubjects.getSelectionModel().getSelectedItem()));
        findingSubjects.setOnKeyReleased(e -> {
            if (e.getCode() == javafx.scene.input.KeyCode.ENTER) {
                vm.showSubject(findingSubjects.getSelectionModel().getSelectedItem());
            }
        });
        findingEvidence.setItems(vm.evidence());
        findingEvidence.setCellFactory(lv -> cell(FindingsViewModel::text));
        findingEvidence.setOnMouseClicked(e -> {
            Evidence ev = findingEvidence.getSelectionModel().getSelectedItem();
            if (ev != null && e.getClickCount() == 1 && e.getButton() == javafx.scene.input.MouseButton.PRIMARY) {
                openEvidence.accept(ev);
            }
        });
        findingEvidence.setOnKeyReleased(e -> {
            Evidence ev = findingEvidence.getSelectionModel().getSelectedItem();
            if (ev != null && e.getCode() == javafx.scene.input.KeyCode.ENTER) {
                openEvidence.accept(ev);
            }
        });
        findingRemedies.setItems(vm.remedies());
        findingRemedies.setCellFactory(lv -> {
            ListCell<String> c = cell(s -> s);
            javafx.scene.control.MenuItem copy = new javafx.scene.control.MenuItem("Copy");
            copy.setOnAction(e -> TroubleshootView.copy(c.getItem()));
            c.setContextMenu(new javafx.scene.control.ContextMenu(copy));
            return c;
        });
        explainingFlow.textProperty().bind(javafx.beans.binding.Bindings.concat("Troubleshoot: the flow that explains it (",
                vm.flowProperty(), ")"));
        explainingFlow.visibleProperty().bind(vm.flowProperty().isNotEmpty());
        explainingFlow.managedProperty().bind(explainingFlow.visibleProperty());
        vm.selectedEvidenceProperty().addListener((o, a, ev) -> {
            if (ev != null) {
                findingEvidence.getSelectionModel().select(ev);
                findingEvidence.scrollTo(ev);
            }
        });
    }

    @FXML private void copyRemedy() {
        String s = findingRemedies.getSelectionModel().getSelectedItem();
        TroubleshootView.copy(s != null ? s : findingRemedies.getItems().isEmpty() ? null : findingRemedies.getItems().get(0));
    }

    @FXML private void openFlow() {
        model.openFlow();
    }

    private static <T> ListCell<T> cell(java.util.function.Function<T, String> text) {
        return new ListCell<>() {
            @Override
            protected void updateItem(T item, boolean empty) {
                super.updateItem(item, empty);
                setText(empty || item == null ? null : text.apply(item));
                setTooltip(empty || item == null ? null : new Tooltip(text.apply(item)));
            }
        };
    }

    /** The findings list (tests select in it as a user does). */
    public ListView<Finding> list() {
        return findings;
    }
}
