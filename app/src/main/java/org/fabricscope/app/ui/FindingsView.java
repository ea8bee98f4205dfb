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
 * The findings list and, for the selected finding in a pane of its own below it, its subjects (each
 * with where it is shown), evidence and remedies (wrapped, each with its own Copy button), so that the
 * detail stays in view whatever is selected. A note above the list says what the findings cannot
 * tell (no error counters read). Declared in {@code FindingsView.fxml}; the state is
 * {@link FindingsViewModel}'s.
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
    private VBox findingRemedies;
    @FXML
    private Label findingsNote;
    @FXML
    private Label noSelection;
    @FXML
    private javafx.scene.control.ScrollPane detailsScroll;
    @FXML
    private javafx.scene.control.Hyperlink explainingFlow;
    private FindingsViewModel model;

    public FindingsView() {
        ViewLoader.load(this);
    }

    private SubjectNotes notes;

    /** The user's notes: a finding's row marks and shows its note; its menu writes one. */
    void bindNotes(SubjectNotes userNotes) {
        this.notes = userNotes;
        userNotes.all().addListener((javafx.collections.MapChangeListener<String, org.fabricscope.app.session.Session.Note>) c -> findings.refresh());
        CopyMenus.addItems(findings, this::noteItems);
    }

    private java.util.List<javafx.scene.control.MenuItem> noteItems(int index) {
        if (notes == null || index < 0 || index >= findings.getItems().size()) {
            return java.util.List.of();
        }
        Finding f = findings.getItems().get(index);
        javafx.scene.control.MenuItem item = new javafx.scene.control.MenuItem("Note on this finding…");
        item.setOnAction(e -> {
            String key = SubjectNotes.key(f);
            NoteDialog.ask(getScene() == null ? null : getScene().getWindow(), f.id() + ": " + f.title(), notes.text(key))
                    .ifPresent(text -> notes.put(key, f.id() + ": " + f.title(), text));
        });
        return java.util.List.of(item);
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
                    String note = notes == null ? null : notes.text(SubjectNotes.key(f));
                    setText((note == null ? "" : "\u270E ") + FindingsViewModel.text(f));
                    getStyleClass().add(Styles.severity(f.severity()));
                    setTooltip(new Tooltip(FindingsViewModel.tooltip(f) + (note == null ? "" : "\n\nNote: " + note)));
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
        detailsScroll.visibleProperty().bind(vm.selectedProperty().isNotNull());
        noSelection.visibleProperty().bind(vm.selectedProperty().isNull());
        findingsNote.textProperty().bind(vm.noteProperty());
        findingsNote.visibleProperty().bind(vm.noteProperty().isNotEmpty());
        findingsNote.managedProperty().bind(findingsNote.visibleProperty());
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
        vm.remedies().addListener((javafx.collections.ListChangeListener<String>) c -> drawRemedies(vm.remedies()));
        // the subjects and evidence lists as tall as their rows (up to three), so the remedies below them stay in view
        fitRows(findingSubjects);
        fitRows(findingEvidence);
        vm.selectedProperty().addListener((o, a, f) -> detailsScroll.setVvalue(0)); // a new finding's detail from its top
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

    /** A list of two-line rows sized to show up to three of them, and no empty rows under fewer. */
    private static <T> void fitRows(ListView<T> list) {
        Runnable fit = () -> list.setPrefHeight(Math.max(1, Math.min(3, list.getItems().size())) * 38 + 22); // and a scroll bar
        list.getItems().addListener((javafx.collections.ListChangeListener<T>) c -> fit.run());
        list.itemsProperty().addListener((o, a, b) -> fit.run());
        fit.run();
    }

    /** One row per remedy: its text wrapped to the pane's width (selectable, as a command is copied in part) and a Copy button. */
    private void drawRemedies(java.util.List<String> remedies) {
        findingRemedies.getChildren().clear();
        for (String r : remedies) {
            Label text = new Label(r);
            text.setWrapText(true);
            text.setMinWidth(0);
            text.setMinHeight(javafx.scene.layout.Region.USE_PREF_SIZE);
            text.setMaxWidth(Double.MAX_VALUE);
            text.getStyleClass().add("remedy-text");
            javafx.scene.layout.HBox.setHgrow(text, javafx.scene.layout.Priority.ALWAYS);
            javafx.scene.control.Button copy = new javafx.scene.control.Button("Copy");
            copy.setMinWidth(javafx.scene.layout.Region.USE_PREF_SIZE);
            copy.setOnAction(e -> TroubleshootView.copy(r));
            copy.setTooltip(new Tooltip("Copy this remedy"));
            javafx.scene.layout.HBox row = new javafx.scene.layout.HBox(6, text, copy);
            row.setAlignment(javafx.geometry.Pos.TOP_LEFT);
            row.getStyleClass().add("remedy");
            findingRemedies.getChildren().add(row);
        }
    }

    /** The remedy rows shown, each a wrapped label and its Copy button (tests). */
    java.util.List<javafx.scene.layout.HBox> remedyRows() {
        return findingRemedies.getChildren().stream().map(n -> (javafx.scene.layout.HBox) n).toList();
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
