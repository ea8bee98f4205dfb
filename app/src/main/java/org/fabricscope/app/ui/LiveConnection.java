package org.fabricscope.app.ui;

import java.nio.file.Path;
import java.util.List;

import org.fabricscope.app.live.LiveJob;
import org.fabricscope.app.task.BackgroundTask;
import org.fabricscope.app.task.TaskExecutor;
import org.fabricscope.importers.ImportResult;
import org.fabricscope.importers.kube.ClusterSnapshot;
import org.fabricscope.importers.kube.KubeConnector;
import org.fabricscope.importers.kube.KubeTarget;
import org.fabricscope.importers.kube.LogLine;

/**
 * The main view model's live cluster: connects through the {@link TaskExecutor} (the kubeconfig's
 * context is checked there), feeds each rebuilt model to {@link MainViewModel#liveModel} and each
 * batch of log lines to the log console's queue, all from the live job's threads, and stops the job.
 */
final class LiveConnection {
    /** Starts a live job (the app: through fabric8; tests may pass another). */
    @FunctionalInterface
    interface Starter {
        LiveJob start(KubeTarget target, List<Path> files, boolean followLogs, LiveJob.Listener listener) throws Exception;
    }

    static final Starter KUBE = (target, files, follow, listener) -> LiveJob.start(
            new KubeConnector().withHints(KubeConnector.Hints.DIALOG), target, files, follow, listener);

    private final MainViewModel main;
    private final TaskExecutor executor;
    private final LogConsoleViewModel logs;
    private final Starter starter;
    private LiveJob job;
    private ConnectDialogViewModel.Choice lastChoice;
    /** Counts connects and disconnects, so a connection that completes after a newer request is closed. */
    private int attempt;

    LiveConnection(MainViewModel main, TaskExecutor executor, LogConsoleViewModel logs, Starter starter) {
        this.main = main;
        this.executor = executor;
        this.logs = logs;
        this.starter = starter;
    }

    /** Starts watching a cluster: the loaded files stay, the cluster's layers join them. A previous job stops. */
    void connect(ConnectDialogViewModel.Choice choice) {
        disconnect();
        lastChoice = choice;
        int mine = ++attempt;
        Snapshot s = main.snapshot();
        List<Path> files = s == null ? List.of() : s.paths();
        main.statusProperty().set("Connecting to " + (choice.target().context() == null ? "the current context"
                : choice.target().context()) + "…");
        executor.execute(BackgroundTask.of(ctx -> starter.start(choice.target(), files, choice.followLogs(), listener(files)))
                .onSuccess(started -> {
                    if (mine != attempt) {
                        executor.execute(BackgroundTask.ofRunnable(started::close)); // disconnected meanwhile
                        return;
                    }
                    job = started;
                    main.statusProperty().set(started.statusLine());
                    if (choice.followLogs()) {
                        logs.clear();
                    }
                })
                .onFailure(e -> {
                    if (mine != attempt) {
                        return;
                    }
                    String why = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
                    main.statusProperty().set("Not connected: " + why);
                    main.liveProblem("Cannot connect: " + why); // the banner says it; no modal dialog on top
                }));
    }

    private LiveJob.Listener listener(List<Path> files) {
        return new LiveJob.Listener() {
            @Override
            public void model(ImportResult result, ClusterSnapshot cluster) {
                main.liveModel(files, result);
            }

            @Override
            public void lines(List<LogLine> lines) {
                logs.offer(lines);
            }

            @Override
            public void status(String message) {
                executor.uiThread().execute(() -> main.liveStatus(message));
            }

            @Override
            public void error(String message) {
                executor.uiThread().execute(() -> main.statusProperty().set("Live: " + message));
            }

            @Override
            public void problem(String problem) {
                executor.uiThread().execute(() -> main.liveProblem(problem));
            }
        };
    }

    /** Stops the live job, if any; what it loaded stays on screen. */
    void disconnect() {
        attempt++;
        main.liveProblem(null);
        if (job != null) {
            LiveJob j = job;
            job = null;
            logs.stopDraining();
            executor.execute(BackgroundTask.ofRunnable(j::close));
            main.statusProperty().set("Disconnected; the last model stays");
        }
    }

    LiveJob job() {
        return job;
    }

    ConnectDialogViewModel.Choice lastChoice() {
        return lastChoice;
    }
}
