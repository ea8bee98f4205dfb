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

    public FindingsView() {
        ViewLoader.load(this);
    }

    void bind(FindingsViewModel vm) {
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
        vm.selectedEvidenceProperty().addListener((o, a, ev) -> {
            if (ev != null) {
                findingEvidence.getSelectionModel().select(ev);
                findingEvidence.scrollTo(ev);
            }
        });
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
