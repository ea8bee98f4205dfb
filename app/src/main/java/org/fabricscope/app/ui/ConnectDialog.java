package org.fabricscope.app.ui;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import org.fabricscope.importers.kube.KubeConnector;
import org.fabricscope.importers.kube.KubeContext;
import org.fabricscope.importers.kube.KubeException;
import org.fabricscope.importers.kube.KubeTarget;

import javafx.concurrent.Task;
import javafx.geometry.Insets;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonType;
import javafx.scene.control.CheckBox;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Dialog;
import javafx.scene.control.Label;
import javafx.scene.control.TextField;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.stage.FileChooser;
import javafx.stage.Window;

/**
 * File › Connect to cluster: a kubeconfig, one of its contexts (read off the FX thread), a
 * namespace, a training job or a label selector, and whether to follow the pods' logs. Nothing
 * is sent to the cluster until the dialog is accepted; the connection itself is read-only.
 */
public final class ConnectDialog extends Dialog<ConnectDialog.Choice> {
    /** What the user picked. */
    public record Choice(KubeTarget target, boolean followLogs) {
    }

    private final TextField kubeconfig = new TextField();
    private final ComboBox<String> context = new ComboBox<>();
    private final TextField namespace = new TextField();
    private final TextField job = new TextField();
    private final TextField selector = new TextField();
    private final CheckBox follow = new CheckBox("Follow the pods' logs (NCCL and PyTorch lines feed the model)");
    private final Label message = new Label();
    private List<KubeContext> contexts = List.of();

    public ConnectDialog(Window owner, Choice previous) {
        initOwner(owner);
        setTitle("Connect to a Kubernetes cluster");
        setHeaderText("Watch a training job's nodes, pods and events, read-only, through your kubeconfig");
        kubeconfig.setId("kubeconfig");
        kubeconfig.setPromptText(defaultKubeconfigText());
        kubeconfig.setTooltip(new Tooltip("Empty: $KUBECONFIG, else ~/.kube/config, as kubectl reads them"));
        context.setId("kubeContext");
        context.setEditable(true);
        context.setPromptText("current context");
        context.setMaxWidth(Double.MAX_VALUE);
        namespace.setId("kubeNamespace");
        namespace.setPromptText("the context's namespace, else default");
        job.setId("kubeJob");
        job.setPromptText("e.g. llama-pretrain (Kubeflow, JobSet, Arena or <job>-worker-N pods)");
        selector.setId("kubeSelector");
        selector.setPromptText("or a label selector, e.g. app=bert,team=nlp");
        follow.setId("kubeFollow");
        follow.setSelected(true);
        message.setWrapText(true);
        message.setId("connectMessage");
        Button browse = new Button("Browse…");
        browse.setOnAction(e -> {
            FileChooser fc = new FileChooser();
            fc.setTitle("Choose a kubeconfig");
            var f = fc.showOpenDialog(getDialogPane().getScene().getWindow());
            if (f != null) {
                kubeconfig.setText(f.getPath());
                loadContexts();
            }
        });
        kubeconfig.setOnAction(e -> loadContexts());
        context.valueProperty().addListener((o, a, b) -> contexts.stream().filter(c -> c.name().equals(b)).findFirst()
                .ifPresent(c -> namespace.setPromptText(c.effectiveNamespace() + " (the context's namespace)")));
        HBox cfg = new HBox(6, kubeconfig, browse);
        HBox.setHgrow(kubeconfig, Priority.ALWAYS);
        GridPane g = new GridPane();
        g.setHgap(8);
        g.setVgap(8);
        g.setPadding(new Insets(10));
        g.addRow(0, new Label("Kubeconfig"), cfg);
        g.addRow(1, new Label("Context"), context);
        g.addRow(2, new Label("Namespace"), namespace);
        g.addRow(3, new Label("Job"), job);
        g.addRow(4, new Label("Selector"), selector);
        g.add(follow, 1, 5);
        g.add(message, 0, 6, 2, 1);
        GridPane.setHgrow(cfg, Priority.ALWAYS);
        getDialogPane().setContent(g);
        getDialogPane().setPrefWidth(640);
        ButtonType connect = new ButtonType("Connect", javafx.scene.control.ButtonBar.ButtonData.OK_DONE);
        getDialogPane().getButtonTypes().addAll(connect, ButtonType.CANCEL);
        Button ok = (Button) getDialogPane().lookupButton(connect);
        ok.addEventFilter(javafx.event.ActionEvent.ACTION, e -> {
            if (choice() == null) {
                e.consume(); // stay open: message says what is wrong
            }
        });
        setResultConverter(b -> b == connect ? choice() : null);
        if (previous != null) {
            KubeTarget t = previous.target();
            kubeconfig.setText(t.kubeconfig() == null ? "" : t.kubeconfig().toString());
            context.setValue(t.context());
            namespace.setText(t.namespace() == null ? "" : t.namespace());
            job.setText(t.job() == null ? "" : t.job());
            selector.setText(t.selector() == null ? "" : t.selector());
            follow.setSelected(previous.followLogs());
        }
        loadContexts();
    }

    private static String defaultKubeconfigText() {
        String env = System.getenv("KUBECONFIG");
        return env != null && !env.isBlank() ? env + " ($KUBECONFIG)" : Path.of(System.getProperty("user.home"), ".kube", "config").toString();
    }

    private Path kubeconfigPath() {
        String t = kubeconfig.getText().strip();
        return t.isEmpty() ? null : Path.of(t);
    }

    /** Reads the contexts off the FX thread; a kubeconfig that cannot be read is said in the message line. */
    private void loadContexts() {
        Path p = kubeconfigPath();
        if (p != null && !Files.isRegularFile(p)) {
            message.setText(p + " is not a file");
            return;
        }
        Task<List<KubeContext>> t = new Task<>() {
            @Override
            protected List<KubeContext> call() throws KubeException {
                return new KubeConnector().contexts(p);
            }
        };
        t.setOnSucceeded(e -> {
            contexts = t.getValue();
            String keep = context.getValue();
            context.getItems().setAll(contexts.stream().map(KubeContext::name).toList());
            if (keep == null || keep.isBlank()) {
                contexts.stream().filter(KubeContext::current).findFirst().ifPresent(c -> context.setValue(c.name()));
            }
            message.setText(contexts.isEmpty() ? "No contexts found: give a kubeconfig file" : contexts.size() + " context(s)");
        });
        t.setOnFailed(e -> message.setText(String.valueOf(t.getException().getMessage())));
        Thread th = new Thread(t, "fabricscope-kubeconfig");
        th.setDaemon(true);
        th.start();
    }

    /** The target, or null with the reason in the message line. */
    Choice choice() {
        try {
            KubeTarget t = KubeTarget.current().withKubeconfig(kubeconfigPath()).withContext(context.getValue())
                    .withNamespace(namespace.getText().strip());
            if (!job.getText().isBlank() && !selector.getText().isBlank()) {
                message.setText("Give a job name or a label selector, not both");
                return null;
            }
            if (!job.getText().isBlank()) {
                t = t.withJob(job.getText().strip());
            } else if (!selector.getText().isBlank()) {
                t = t.withSelector(selector.getText().strip());
            }
            return new Choice(t.withLogs(false), follow.isSelected());
        } catch (IllegalArgumentException e) {
            message.setText(e.getMessage());
            return null;
        }
    }

    /** Shows the dialog and waits. */
    public static Optional<Choice> ask(Window owner, Choice previous) {
        return new ConnectDialog(owner, previous).showAndWait();
    }
}
