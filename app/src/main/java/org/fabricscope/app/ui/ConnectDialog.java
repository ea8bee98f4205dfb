package org.fabricscope.app.ui;

import java.util.Optional;

import org.fabricscope.app.task.TaskExecutor;

import javafx.fxml.FXML;
import javafx.scene.control.CheckBox;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Dialog;
import javafx.scene.control.Label;
import javafx.scene.control.TextField;
import javafx.scene.layout.GridPane;
import javafx.stage.FileChooser;
import javafx.stage.Window;

/**
 * File › Connect to cluster: the dialog of {@link ConnectDialogViewModel}, its content declared in
 * {@code ConnectDialog.fxml}. Connect stays disabled in effect (the dialog stays open, the message line
 * says why) until the choice is valid.
 */
public final class ConnectDialog extends Dialog<ConnectDialogViewModel.Choice> {
    private final ConnectDialogViewModel vm;
    private final GridPane content = new GridPane();
    @FXML
    private TextField kubeconfig;
    @FXML
    private ComboBox<String> kubeContext;
    @FXML
    private TextField kubeNamespace;
    @FXML
    private TextField kubeJob;
    @FXML
    private TextField kubeSelector;
    @FXML
    private CheckBox kubeFollow;
    @FXML
    private Label connectMessage;

    public ConnectDialog(Window owner, ConnectDialogViewModel vm) {
        this.vm = vm;
        initOwner(owner);
        setTitle("Connect to a Kubernetes cluster");
        setHeaderText("Watch a training job's nodes, pods and events, read-only, through your kubeconfig");
        ViewLoader.load(this, content, "ConnectDialog.fxml");
        kubeconfig.setPromptText(ConnectDialogViewModel.defaultKubeconfigText());
        kubeconfig.textProperty().bindBidirectional(vm.kubeconfigProperty());
        kubeconfig.focusedProperty().addListener((o, was, now) -> {
            if (!now) {
                vm.kubeconfigEdited(); // a typed path is read when the user moves on, not only on Enter
            }
        });
        kubeContext.setItems(vm.contexts());
        kubeContext.valueProperty().bindBidirectional(vm.contextProperty());
        kubeNamespace.textProperty().bindBidirectional(vm.namespaceProperty());
        kubeNamespace.promptTextProperty().bind(vm.namespacePromptProperty());
        kubeJob.textProperty().bindBidirectional(vm.jobProperty());
        kubeSelector.textProperty().bindBidirectional(vm.selectorProperty());
        kubeFollow.selectedProperty().bindBidirectional(vm.followProperty());
        connectMessage.textProperty().bind(vm.messageProperty());
        ValidatedDialog.install(this, content, "Connect", vm::choice);
        vm.loadContexts();
    }

    @FXML
    private void browse() {
        FileChooser fc = new FileChooser();
        fc.setTitle("Choose a kubeconfig");
        var f = fc.showOpenDialog(getDialogPane().getScene().getWindow());
        if (f != null) {
            vm.kubeconfigProperty().set(f.getPath());
            vm.loadContexts();
        }
    }

    @FXML
    private void loadContexts() {
        vm.loadContexts();
    }

    /** Shows the dialog and waits. */
    public static Optional<ConnectDialogViewModel.Choice> ask(Window owner, ConnectDialogViewModel.Choice previous,
                                                             TaskExecutor executor) {
        return new ConnectDialog(owner, new ConnectDialogViewModel(executor, previous)).showAndWait();
    }
}
