package org.fabricscope.app.ui;

import java.util.Optional;

import javafx.fxml.FXML;
import javafx.scene.control.Dialog;
import javafx.scene.control.Label;
import javafx.scene.control.TextField;
import javafx.scene.layout.GridPane;
import javafx.stage.Window;

/**
 * File › Connect to Prometheus: the dialog of {@link PromConnectDialogViewModel}, its content declared in
 * {@code PromConnectDialog.fxml}. Connect keeps the dialog open, the message line saying why, until the
 * choice is valid.
 */
public final class PromConnectDialog extends Dialog<ConnectDialogViewModel.Choice> {
    private final GridPane content = new GridPane();
    @FXML
    private TextField promUrl;
    @FXML
    private TextField promTokenFile;
    @FXML
    private TextField promUser;
    @FXML
    private TextField promPasswordFile;
    @FXML
    private TextField promCaFile;
    @FXML
    private TextField promAt;
    @FXML
    private TextField promWindow;
    @FXML
    private Label promMessage;

    public PromConnectDialog(Window owner, PromConnectDialogViewModel vm) {
        initOwner(owner);
        setTitle("Connect to Prometheus");
        setHeaderText("Read InfiniBand counters, link flaps, Xids and NCCL bus bandwidth over an incident window, "
                + "through the query API only (Prometheus, VictoriaMetrics, Thanos, Mimir)");
        ViewLoader.load(this, content, "PromConnectDialog.fxml");
        promUrl.textProperty().bindBidirectional(vm.urlProperty());
        promTokenFile.textProperty().bindBidirectional(vm.tokenFileProperty());
        promUser.textProperty().bindBidirectional(vm.userProperty());
        promPasswordFile.textProperty().bindBidirectional(vm.passwordFileProperty());
        promCaFile.textProperty().bindBidirectional(vm.caFileProperty());
        promAt.textProperty().bindBidirectional(vm.atProperty());
        promWindow.textProperty().bindBidirectional(vm.windowProperty());
        promMessage.textProperty().bind(vm.messageProperty());
        ValidatedDialog.install(this, content, "Connect", vm::choice);
    }

    /** Shows the dialog and waits. */
    public static Optional<ConnectDialogViewModel.Choice> ask(Window owner, ConnectDialogViewModel.Choice previous) {
        return new PromConnectDialog(owner, new PromConnectDialogViewModel(previous)).showAndWait();
    }
}
