package org.fabricscope.app.ui;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import org.fabricscope.app.prefs.RecentFiles;
import org.fabricscope.app.task.BackgroundTask;
import org.fabricscope.app.task.TaskExecutor;

import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * File › Open Recent as the window shows it, and the writes to its store. The store is written off the UI
 * thread, one write after the other in the order they were asked for: the task pool runs tasks side by side,
 * so a Clear right after an open could run before the open's write, and the cleared file come back in the
 * store and the menu. The list shown is only replaced by the result of a write asked for no earlier than the
 * one it shows. Used on the UI thread.
 */
final class RecentFilesModel {
    private final ObservableList<List<Path>> shown = FXCollections.observableArrayList();
    private final RecentFiles store;
    private final TaskExecutor executor;
    private final Consumer<String> status;
    /** The store's writes, in the order asked for: one thread at most, and none while idle. */
    private final ExecutorService lane = new ThreadPoolExecutor(0, 1, 5, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), r -> {
        Thread t = new Thread(r, "fabricscope-recent-files");
        t.setDaemon(true);
        return t;
    });
    /** The last write asked for, and the write whose result (or, for a Clear, whose intent) is shown. */
    private long asked;
    private long showing;

    RecentFilesModel(RecentFiles store, TaskExecutor executor, Consumer<String> status) {
        this.store = store;
        this.executor = executor;
        this.status = status;
        shown.setAll(store.entries());
    }

    /** The entries shown, newest first. */
    ObservableList<List<Path>> list() {
        return shown;
    }

    /** Inputs were loaded: they go to the top. */
    void opened(List<Path> paths) {
        List<Path> copy = List.copyOf(paths);
        write(() -> store.record(copy), "Could not remember the recent files: ");
    }

    /** Clear: the menu empties at once, and no write asked for before it shows its list afterwards. */
    void clear() {
        shown.clear();
        showing = write(() -> {
            store.clear();
            return store.entries();
        }, "Could not clear the recent files: ");
    }

    /** Stops the writing thread once the writes asked for are done. */
    void dispose() {
        lane.shutdown();
    }

    private long write(Callable<List<List<Path>>> body, String failure) {
        long ticket = ++asked;
        Future<List<List<Path>>> written;
        try {
            written = lane.submit(body); // handed over here, on the UI thread: the lane's order is the order asked
        } catch (RejectedExecutionException e) {
            return ticket; // the window is closing: nothing more is written
        }
        executor.execute(BackgroundTask.<List<List<Path>>>of(ctx -> {
            try {
                return written.get();
            } catch (ExecutionException e) {
                throw e.getCause() instanceof Exception cause ? cause : e;
            }
        }).onSuccess(list -> {
            if (ticket >= showing) {
                showing = ticket;
                shown.setAll(list);
            }
        }).onFailure(e -> status.accept(failure + e.getMessage())));
        return ticket;
    }
}
