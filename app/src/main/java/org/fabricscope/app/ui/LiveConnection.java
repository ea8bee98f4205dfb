package org.fabricscope.app.ui;

import java.nio.file.Path;
import java.util.List;

import org.fabricscope.app.live.LiveJob;
import org.fabricscope.app.live.StandardSources;
import org.fabricscope.app.task.BackgroundTask;
import org.fabricscope.app.task.TaskExecutor;
import org.fabricscope.importers.ImportResult;
import org.fabricscope.app.live.source.LiveSnapshot;
import org.fabricscope.app.live.source.LiveSources;
import org.fabricscope.app.live.source.LiveTarget;
import org.fabricscope.app.live.source.LogLine;

/**
 * The main view model's live cluster: connects through the {@link TaskExecutor} (the kubeconfig's
 * context is checked there), feeds each rebuilt model to {@link MainViewModel#liveModel} and each
 * batch of log lines to the log console's queue, all from the live job's threads, and stops the job.
 */
final class LiveConnection {
    /** Starts a live job (the app: a source opened through the registry; tests may pass another). */
    @FunctionalInterface
    interface Starter {
        LiveJob start(LiveTarget target, List<Path> files, boolean followLogs, LiveJob.Listener listener) throws Exception;
    }

    static final Starter REGISTRY = (target, files, follow, listener) -> LiveJob.start(
            StandardSources.registry().open(target, LiveSources.Hints.DIALOG), files, follow, listener);

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
        main.statusProperty().set("Connecting to " + choice.target().describe() + "…");
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
            public void model(ImportResult result, LiveSnapshot cluster) {
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

    /** Pauses the live source or resumes it (the fabric poller; a cluster cannot be paused: says so). */
    void togglePause() {
        LiveJob j = job;
        if (j == null) {
            main.statusProperty().set("Nothing live to pause: watch the fabric or connect to a cluster first");
            return;
        }
        if (!j.pausable()) {
            main.statusProperty().set(j.describe() + " cannot be paused; disconnect to stop it");
            return;
        }
        executor.execute(BackgroundTask.of(ctx -> j.togglePause()).onSuccess(paused -> main.statusProperty().set(
                (paused ? "Paused: " : "Resumed: ") + j.describe() + (paused ? "; what was read stays" : ""))));
    }

    LiveJob job() {
        return job;
    }

    ConnectDialogViewModel.Choice lastChoice() {
        return lastChoice;
    }
}
