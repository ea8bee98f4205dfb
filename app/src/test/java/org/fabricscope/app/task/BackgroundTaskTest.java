package org.fabricscope.app.task;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;

import org.junit.jupiter.api.Test;

/** One outcome per task, on the UI thread; progress coalesced; cancel drops a late result. */
class BackgroundTaskTest {
    /** A UI thread that runs what it was given only when asked. */
    static final class QueuedUi implements Executor {
        final ArrayDeque<Runnable> queue = new ArrayDeque<>();

        @Override
        public void execute(Runnable r) {
            queue.add(r);
        }

        void runAll() {
            while (!queue.isEmpty()) {
                queue.poll().run();
            }
        }
    }

    @Test
    void successIsDeliveredOnTheUiThreadAfterTheLatestProgress() {
        List<String> seen = new ArrayList<>();
        QueuedUi ui = new QueuedUi();
        BackgroundTask<Integer> t = BackgroundTask.of(ctx -> {
            for (int i = 1; i <= 3; i++) {
                ctx.updateProgress(i, 3);
                ctx.updateMessage("step " + i);
            }
            return 42;
        }).onProgress((f, m) -> seen.add(m + " " + f)).onSuccess(v -> seen.add("ok " + v))
                .onFinished(() -> seen.add("finished"));
        t.run(ui);
        assertTrue(seen.isEmpty(), "nothing reaches the UI until it runs");
        ui.runAll();
        assertEquals(List.of("step 3 1.0", "ok 42", "finished"), seen, "progress coalesced to the latest, then one outcome");
        assertTrue(t.isDone());
    }

    @Test
    void aFailureIsDeliveredNotThrown() {
        List<String> seen = new ArrayList<>();
        new CurrentThreadTaskExecutor().execute(BackgroundTask.<String>of(ctx -> {
            throw new IllegalStateException("broken input");
        }).onSuccess(v -> seen.add("ok")).onFailure(e -> seen.add("failed: " + e.getMessage()))
                .onFinished(() -> seen.add("finished")));
        assertEquals(List.of("failed: broken input", "finished"), seen);
    }

    @Test
    void cancellingDeliversCancelledAtOnceAndDropsTheLateResult() {
        List<String> seen = new ArrayList<>();
        QueuedUi ui = new QueuedUi();
        BackgroundTask<String> t = BackgroundTask.of(ctx -> ctx.isCancelled() ? "saw cancel" : "done")
                .onSuccess(v -> seen.add("ok " + v)).onCancelled(() -> seen.add("cancelled")).onFinished(() -> seen.add("finished"));
        assertTrue(t.cancel());
        assertEquals(List.of("cancelled", "finished"), seen);
        t.run(ui); // the worker gets to it after all
        ui.runAll();
        assertEquals(List.of("cancelled", "finished"), seen, "no second outcome");
        assertFalse(t.cancel(), "already done");
    }

    @Test
    void aResultQueuedBeforeTheCancelIsDropped() {
        List<String> seen = new ArrayList<>();
        QueuedUi ui = new QueuedUi();
        BackgroundTask<String> t = BackgroundTask.of(ctx -> "stale").onSuccess(seen::add).onCancelled(() -> seen.add("cancelled"));
        t.run(ui); // finished on the worker, delivery waits for the UI thread
        t.cancel(); // the user started another import meanwhile
        ui.runAll();
        assertEquals(List.of("cancelled"), seen);
    }

    @Test
    void theCurrentThreadExecutorRunsInline() {
        List<String> seen = new ArrayList<>();
        CurrentThreadTaskExecutor ex = new CurrentThreadTaskExecutor();
        ex.execute(BackgroundTask.ofRunnable(() -> seen.add("work")).onSuccess(v -> seen.add("ok")));
        ex.uiThread().execute(() -> seen.add("ui"));
        assertEquals(List.of("work", "ok", "ui"), seen);
    }
}
