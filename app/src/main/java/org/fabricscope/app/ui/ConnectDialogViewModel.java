package org.fabricscope.app.ui;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.fabricscope.model.core.Plural;
import org.fabricscope.app.task.BackgroundTask;
import org.fabricscope.app.task.TaskExecutor;
import org.fabricscope.app.live.kube.KubeConnector;
import org.fabricscope.app.live.kube.KubeContext;
import org.fabricscope.app.live.kube.KubeException;
import org.fabricscope.app.live.kube.KubeTarget;
import org.fabricscope.app.live.source.LiveTarget;

import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * File › Connect to cluster: a kubeconfig, one of its contexts (read off the UI thread), a namespace,
 * a training job or a label selector, and whether to follow the pods' logs. Nothing is sent to the
 * cluster until the choice is accepted; the connection itself is read-only.
 */
public final class ConnectDialogViewModel {
    /** What the user picked: a target the live source registry opens (a {@link KubeTarget} from this dialog). */
    public record Choice(LiveTarget target, boolean followLogs) {
    }

    /** Reads a kubeconfig's contexts (null path: $KUBECONFIG, else ~/.kube/config). */
    @FunctionalInterface
    public interface ContextReader {
        List<KubeContext> contexts(Path kubeconfig) throws KubeException;
    }

    private final TaskExecutor executor;
    private final ContextReader reader;
    private final StringProperty kubeconfig = new SimpleStringProperty("");
    private final StringProperty context = new SimpleStringProperty();
    private final ObservableList<String> contexts = FXCollections.observableArrayList();
    private final StringProperty namespace = new SimpleStringProperty("");
    private final ReadOnlyStringWrapper namespacePrompt = new ReadOnlyStringWrapper("the context's namespace, else default");
    private final StringProperty job = new SimpleStringProperty("");
    private final StringProperty selector = new SimpleStringProperty("");
    private final BooleanProperty follow = new SimpleBooleanProperty(true);
    private final ReadOnlyStringWrapper message = new ReadOnlyStringWrapper("");
    private List<KubeContext> read = List.of();
    /** The kubeconfig text whose contexts were last asked for (null: none yet), so a focus change reads each path once. */
    private String loadedFor;

    public ConnectDialogViewModel(TaskExecutor executor, Choice previous) {
        this(executor, previous, new KubeConnector().withHints(KubeConnector.Hints.DIALOG)::contexts);
    }

    ConnectDialogViewModel(TaskExecutor executor, Choice previous, ContextReader reader) {
        this.executor = executor;
        this.reader = reader;
        context.addListener((o, a, b) -> read.stream().filter(c -> c.name().equals(b)).findFirst()
                .ifPresent(c -> namespacePrompt.set(c.effectiveNamespace() + " (the context's namespace)")));
        if (previous != null && previous.target() instanceof KubeTarget t) {
            kubeconfig.set(t.kubeconfig() == null ? "" : t.kubeconfig().toString());
            context.set(t.context());
            namespace.set(t.namespace() == null ? "" : t.namespace());
            job.set(t.job() == null ? "" : t.job());
            selector.set(t.selector() == null ? "" : t.selector());
            follow.set(previous.followLogs());
        }
    }

    /** What an empty kubeconfig field means, as kubectl reads it. */
    public static String defaultKubeconfigText() {
        String env = System.getenv("KUBECONFIG");
        return env != null && !env.isBlank() ? env + " ($KUBECONFIG)" : Path.of(System.getProperty("user.home"), ".kube", "config").toString();
    }

    private Path kubeconfigPath() {
        String t = kubeconfig.get() == null ? "" : kubeconfig.get().strip();
        return t.isEmpty() ? null : Path.of(t);
    }

    /**
     * The kubeconfig field lost the focus: reads the typed path's contexts unless they were read for
     * this text already (Enter, Browse), so typing a path and tabbing on is enough.
     */
    public void kubeconfigEdited() {
        String t = kubeconfig.get() == null ? "" : kubeconfig.get().strip();
        if (!t.equals(loadedFor)) {
            loadContexts();
        }
    }

    /** Reads the contexts off the UI thread; a kubeconfig that cannot be read is said in the message line. */
    public void loadContexts() {
        loadedFor = kubeconfig.get() == null ? "" : kubeconfig.get().strip();
        Path p;
        try {
            p = kubeconfigPath();
        } catch (java.nio.file.InvalidPathException e) {
            message.set("Kubeconfig " + kubeconfig.get() + " is not a path: " + e.getReason());
            return;
        }
        if (p != null && !Files.exists(p)) {
            message.set("Kubeconfig " + p + " does not exist: choose the file with Browse…, or leave the field empty for "
                    + defaultKubeconfigText());
            return;
        }
        if (p != null && !Files.isRegularFile(p)) {
            message.set("Kubeconfig " + p + " is a folder, not a kubeconfig file");
            return;
        }
        executor.execute(BackgroundTask.of(ctx -> reader.contexts(p))
                .onSuccess(list -> {
                    read = List.copyOf(list);
                    String keep = context.get();
                    contexts.setAll(read.stream().map(KubeContext::name).toList());
                    if (keep == null || keep.isBlank()) {
                        read.stream().filter(KubeContext::current).findFirst().ifPresent(c -> context.set(c.name()));
                    }
                    message.set(read.isEmpty() ? "No contexts in " + (p == null ? defaultKubeconfigText() : p.toString())
                            + ": choose a kubeconfig file" : Plural.of(read.size(), "context"));
                })
                .onFailure(e -> message.set(String.valueOf(e.getMessage()))));
    }

    /** The target, or null with the reason in the message line. */
    public Choice choice() {
        try {
            KubeTarget t = KubeTarget.current().withKubeconfig(kubeconfigPath()).withContext(context.get())
                    .withNamespace(namespace.get().strip());
            if (!job.get().isBlank() && !selector.get().isBlank()) {
                message.set("Give a job name or a label selector, not both");
                return null;
            }
            if (!job.get().isBlank()) {
                t = t.withJob(job.get().strip());
            } else if (!selector.get().isBlank()) {
                t = t.withSelector(selector.get().strip());
            }
            return new Choice(t.withLogs(false), follow.get());
        } catch (IllegalArgumentException e) {
            message.set(e.getMessage());
            return null;
        }
    }

    public StringProperty kubeconfigProperty() {
        return kubeconfig;
    }

    public StringProperty contextProperty() {
        return context;
    }

    public ObservableList<String> contexts() {
        return contexts;
    }

    public StringProperty namespaceProperty() {
        return namespace;
    }

    public ReadOnlyStringProperty namespacePromptProperty() {
        return namespacePrompt.getReadOnlyProperty();
    }

    public StringProperty jobProperty() {
        return job;
    }

    public StringProperty selectorProperty() {
        return selector;
    }

    public BooleanProperty followProperty() {
        return follow;
    }

    public ReadOnlyStringProperty messageProperty() {
        return message.getReadOnlyProperty();
    }
}
