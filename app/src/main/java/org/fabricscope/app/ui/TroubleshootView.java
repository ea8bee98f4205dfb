package org.fabricscope.app.ui;

import java.io.File;
import java.util.function.Consumer;

import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.flows.Flow;
import org.fabricscope.model.flows.FlowResult;
import org.fabricscope.model.flows.Verdict;

import javafx.fxml.FXML;
import javafx.scene.control.Button;
import javafx.scene.control.ComboBox;
import javafx.scene.control.ContextMenu;
import javafx.scene.control.Hyperlink;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.scene.control.MenuItem;
import javafx.scene.control.TextArea;
import javafx.scene.control.TextField;
import javafx.scene.control.Tooltip;
import javafx.scene.input.Clipboard;
import javafx.scene.input.ClipboardContent;
import javafx.scene.input.TransferMode;
import javafx.scene.layout.HBox;
import javafx.scene.layout.VBox;
import javafx.util.StringConverter;

/**
 * The Troubleshoot panel, declared in {@code TroubleshootView.fxml}: a symptom to pick or "What's
 * wrong?", the ranked flows, the walk of the one shown (each step's answer, evidence lines that open
 * the file, subjects as links), the waiting manual step (its command with Copy, what to look for, a
 * paste area that takes a dropped file, what was read from the paste or why it does not fit the step,
 * yes and no), and the conclusion with copyable remedies. The
 * state is {@link TroubleshootViewModel}'s.
 */
public final class TroubleshootView extends VBox {
    @FXML private ComboBox<Flow> symptom;
    @FXML private ListView<FlowResult> flows;
    @FXML private VBox walk;
    @FXML private Label heading;
    @FXML private VBox steps;
    @FXML private VBox waiting;
    @FXML private TextField command;
    @FXML private Label expect;
    @FXML private TextArea pasted;
    @FXML private Label pasteReading;
    @FXML private Label outcome;
    @FXML private VBox remedyBox;
    @FXML private ListView<String> remedies;
    @FXML private Label message;
    private TroubleshootViewModel vm;
    private Consumer<Evidence> openEvidence = e -> { };
    private boolean syncing;

    public TroubleshootView() {
        ViewLoader.load(this);
    }

    void bind(TroubleshootViewModel model, Consumer<Evidence> evidenceOpener) {
        this.vm = model;
        this.openEvidence = evidenceOpener;
        symptom.setItems(vm.symptoms());
        symptom.setConverter(new StringConverter<>() {
            @Override
            public String toString(Flow f) {
                return f == null ? "" : f.title() + "  (" + f.id() + ")";
            }

            @Override
            public Flow fromString(String s) {
                return null;
            }
        });
        symptom.valueProperty().addListener((o, a, f) -> {
            if (f != null && !syncing) {
                vm.open(f.id());
            }
        });
        flows.setItems(vm.results());
        flows.setCellFactory(lv -> new ListCell<>() {
            @Override
            protected void updateItem(FlowResult r, boolean empty) {
                super.updateItem(r, empty);
                getStyleClass().removeAll(Styles.SEV_ERROR, Styles.SEV_WARNING, Styles.SEV_INFO);
                if (empty || r == null) {
                    setText(null);
                    setTooltip(null);
                } else {
                    setText(TroubleshootViewModel.text(r));
                    setTooltip(new Tooltip(r.flow().description().isEmpty() ? r.flow().title() : r.flow().description()));
                    if (r.severity() != null) {
                        getStyleClass().add(Styles.severity(r.severity()));
                    }
                }
            }
        });
        flows.getSelectionModel().selectedItemProperty().addListener((o, a, r) -> {
            if (r != null && !syncing) {
                vm.open(r.flow().id());
            }
        });
        heading.textProperty().bind(vm.headingProperty());
        outcome.textProperty().bind(vm.outcomeProperty());
        message.textProperty().bind(vm.messageProperty());
        message.visibleProperty().bind(vm.messageProperty().isNotEmpty());
        message.managedProperty().bind(message.visibleProperty());
        waiting.visibleProperty().bind(vm.waitingProperty().isNotNull());
        waiting.managedProperty().bind(waiting.visibleProperty());
        remedies.setItems(vm.remedies());
        remedies.setCellFactory(lv -> {
            ListCell<String> cell = new ListCell<>() {
                @Override
                protected void updateItem(String s, boolean empty) {
                    super.updateItem(s, empty);
                    setText(empty || s == null ? null : s);
                    setWrapText(true);
                    setPrefWidth(0);
                }
            };
            MenuItem copy = new MenuItem("Copy");
            copy.setOnAction(e -> copy(cell.getItem()));
            cell.setContextMenu(new ContextMenu(copy));
            return cell;
        });
        remedyBox.visibleProperty().bind(javafx.beans.binding.Bindings.isNotEmpty(vm.remedies()));
        remedyBox.managedProperty().bind(remedyBox.visibleProperty());
        pasted.textProperty().bindBidirectional(vm.pastedProperty());
        pasteReading.textProperty().bind(vm.pasteReadingProperty());
        pasteReading.visibleProperty().bind(vm.pasteReadingProperty().isNotEmpty());
        pasteReading.managedProperty().bind(pasteReading.visibleProperty());
        vm.pasteRefusedProperty().addListener((o, a, refused) -> {
            pasteReading.pseudoClassStateChanged(Styles.INVALID, refused);
            pasted.pseudoClassStateChanged(Styles.INVALID, refused);
        });
        pasted.setOnDragOver(e -> {
            if (e.getDragboard().hasFiles()) {
                e.acceptTransferModes(TransferMode.COPY);
            }
            e.consume();
        });
        pasted.setOnDragDropped(e -> {
            java.util.List<File> files = e.getDragboard().getFiles();
            if (!files.isEmpty()) {
                vm.pasteFile(files.get(0).toPath());
            }
            e.setDropCompleted(!files.isEmpty());
            e.consume();
        });
        vm.waitingProperty().addListener((o, a, w) -> {
            command.setText(w == null ? "" : w.step().command());
            expect.setText(w == null || w.step().expect().isEmpty() ? "" : "Yes when: " + w.step().expect());
        });
        vm.steps().addListener((javafx.collections.ListChangeListener<TroubleshootViewModel.StepRow>) c -> drawSteps());
        vm.currentProperty().addListener((o, a, r) -> syncSelection(r));
    }

    private void syncSelection(FlowResult r) {
        syncing = true;
        try {
            if (r == null) {
                flows.getSelectionModel().clearSelection();
                symptom.setValue(null);
            } else {
                flows.getSelectionModel().select(r);
                symptom.setValue(r.flow());
            }
        } finally {
            syncing = false;
        }
    }

    private void drawSteps() {
        steps.getChildren().clear();
        for (TroubleshootViewModel.StepRow row : vm.steps()) {
            VBox box = new VBox(2);
            box.setMinWidth(0);
            box.getStyleClass().add("flow-step");
            Label q = new Label(row.heading());
            q.setWrapText(true);
            q.setMinWidth(0);
            q.setStyle("-fx-font-weight: bold;");
            Label a = new Label(row.answer());
            a.setWrapText(true);
            a.setMinWidth(0);
            a.getStyleClass().add("flow-step-answer");
            box.getChildren().addAll(q, a);
            if (row.manual() && !row.step().command().isEmpty()) {
                TextField cmd = new TextField(row.step().command());
                cmd.setEditable(false);
                cmd.getStyleClass().add("flow-command");
                Button copy = new Button("Copy");
                copy.setOnAction(e -> copy(row.step().command()));
                HBox.setHgrow(cmd, javafx.scene.layout.Priority.ALWAYS);
                box.getChildren().add(new HBox(4, cmd, copy));
            }
            for (Evidence e : row.step().answer().evidence()) {
                Hyperlink link = new Hyperlink(e.where() + ": " + e.text());
                link.setWrapText(true);
                link.setMinWidth(0);
                link.getStyleClass().add("flow-evidence");
                link.setTooltip(new Tooltip("Open " + e.source() + " at line " + e.line()));
                link.setOnAction(x -> openEvidence.accept(e));
                box.getChildren().add(link);
            }
            if (!row.subjects().isEmpty()) {
                HBox subjects = new HBox(2);
                subjects.getChildren().add(new Label("Subjects:"));
                for (FindingsViewModel.SubjectRow s : row.subjects()) {
                    Hyperlink link = new Hyperlink(s.subject().label());
                    link.setWrapText(true);
                    link.setMinWidth(0);
                    link.setTooltip(new Tooltip(s.navigation().where()));
                    link.setOnAction(x -> vm.showSubject(s));
                    subjects.getChildren().add(link);
                }
                javafx.scene.layout.FlowPane wrap = new javafx.scene.layout.FlowPane(2, 2);
                wrap.setMinWidth(0);
                wrap.prefWrapLengthProperty().bind(walk.widthProperty().subtract(40));
                wrap.getChildren().addAll(subjects.getChildren());
                box.getChildren().add(wrap);
            }
            steps.getChildren().add(box);
        }
    }

    static void copy(String text) {
        if (text != null) {
            ClipboardContent c = new ClipboardContent();
            c.putString(text);
            Clipboard.getSystemClipboard().setContent(c);
        }
    }

    @FXML private void whatsWrong() {
        vm.whatsWrong();
    }

    @FXML private void restart() {
        vm.restart();
    }

    @FXML private void copyCommand() {
        copy(command.getText());
    }

    @FXML private void copyRemedy() {
        String s = remedies.getSelectionModel().getSelectedItem();
        copy(s != null ? s : remedies.getItems().isEmpty() ? null : remedies.getItems().get(0));
    }

    @FXML private void answerYes() {
        vm.answer(Verdict.YES);
    }

    @FXML private void answerNo() {
        vm.answer(Verdict.NO);
    }
}
