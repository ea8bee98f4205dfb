package org.fabricscope.app.ui;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;

import org.fabricscope.app.task.BackgroundTask;
import org.fabricscope.app.task.TaskExecutor;
import org.fabricscope.importers.PasteReaders;
import org.fabricscope.model.flows.Flow;
import org.fabricscope.model.flows.PastedOutput;

import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;

/**
 * Output pasted for the waiting manual step, checked against what the step's command prints
 * ({@link PastedOutput}) off the UI thread, as it is typed or dropped: what was read from it, or why
 * it does not fit the step ({@link #refusedProperty()}). A paste that fits and is of a format is
 * saved with a declaration of that format ({@link PasteReaders#declared}), so that the import reads it
 * as that step's command's output and nothing else; a number or text is never imported.
 */
final class PasteCheck {
    /** A check's answer, with the paste it is about (a later paste makes it stale). */
    record Checked(String text, PastedOutput.Result result) {
    }

    private final TaskExecutor executor;
    private final PastedOutput.Readers readers;
    private final ReadOnlyStringWrapper reading = new ReadOnlyStringWrapper("");
    private final ReadOnlyBooleanWrapper refused = new ReadOnlyBooleanWrapper();
    private Checked last;
    private long asked;

    PasteCheck(TaskExecutor executor, PastedOutput.Readers readers) {
        this.executor = executor;
        this.readers = readers;
    }

    /** Checks {@code text} for the step in the background; {@code then} gets the answer on the UI thread. */
    void check(Flow.Step step, String text, Consumer<Checked> then) {
        long ticket = ++asked;
        if (step == null || text == null || text.isBlank()) {
            show(new Checked(text == null ? "" : text, new PastedOutput.Result(true, "", java.util.List.of(), "")));
            then.accept(last);
            return;
        }
        executor.execute(BackgroundTask.of(ctx -> new Checked(text, PastedOutput.check(step.output(), text, readers)))
                .onSuccess(c -> {
                    if (ticket == asked) {
                        show(c);
                        then.accept(c);
                    }
                })
                .onFailure(e -> {
                    if (ticket == asked) {
                        reading.set("Could not read the paste: " + e.getMessage());
                        refused.set(true);
                    }
                }));
    }

    /** Forgets the shown reading (a new step waits, or the answer was taken). */
    void clear() {
        asked++;
        last = null;
        reading.set("");
        refused.set(false);
    }

    private void show(Checked c) {
        last = c;
        reading.set(c.result().message());
        refused.set(!c.result().fits());
    }

    /**
     * The file that imports a fitting paste as its format (off the UI thread): {@code pasted/<format>.txt} in
     * a temporary folder of the flow and step, names that say nothing of a host, so that the paste's host
     * is the one its own prompt or hostname line names, else an unknown one (never the file's name).
     */
    static Path save(String name, PastedOutput.Result result, String text) throws java.io.IOException {
        Path dir = Files.createTempDirectory("fabricscope-" + name + "-");
        Path file = Files.createDirectories(dir.resolve("pasted")).resolve(result.format() + ".txt");
        Files.writeString(file, PasteReaders.declared(result.format(), text), StandardCharsets.UTF_8);
        for (Path p : new Path[] {dir, file.getParent(), file}) {
            p.toFile().deleteOnExit();
        }
        return file;
    }

    /** What was read from the paste, or why it does not fit the step; empty when nothing is pasted. */
    ReadOnlyStringProperty readingProperty() {
        return reading.getReadOnlyProperty();
    }

    /** Whether the paste shown does not fit the step. */
    ReadOnlyBooleanProperty refusedProperty() {
        return refused.getReadOnlyProperty();
    }
}
