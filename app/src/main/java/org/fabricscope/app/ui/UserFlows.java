package org.fabricscope.app.ui;

import java.nio.file.Path;
import java.util.List;
import java.util.function.Supplier;

import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.flows.FlowError;
import org.fabricscope.model.flows.FlowLibrary;

/**
 * The built-in flows plus the user's flow folder ({@code ~/.config/fabricscope/flows}), as the CLI
 * loads them: read once, on first use (a few small files), and kept. The window reads it in the
 * background when it starts and shows the files that did not load ({@link #diagnostics}).
 */
final class UserFlows implements Supplier<FlowLibrary> {
    private final Path folder;
    private FlowLibrary library;

    /** {@code folder}: the user's flow folder; null for the built-in flows only. */
    UserFlows(Path folder) {
        this.folder = folder;
    }

    @Override
    public synchronized FlowLibrary get() {
        if (library == null) {
            library = FlowLibrary.load(folder == null ? List.of() : List.of(folder));
        }
        return library;
    }

    /** Where the user's flows are read from, or null. */
    Path folder() {
        return folder;
    }

    /**
     * The library's errors as import diagnostics: the file, and in the message the field (a JSON
     * pointer such as {@code /steps/2/ask/fact}) and what is wrong with it.
     */
    static List<Diagnostic> diagnostics(FlowLibrary lib) {
        return lib.errors().stream().map(UserFlows::diagnostic).toList();
    }

    private static Diagnostic diagnostic(FlowError e) {
        return Diagnostic.error(e.source(), 0, "flow not loaded: " + problem(e));
    }

    /** What is wrong, with the field when it is one: {@code field /steps/2/ask/fact: no fact 'x'}. */
    static String problem(FlowError e) {
        return (e.pointer().isEmpty() ? "" : "field " + e.pointer() + ": ") + e.message();
    }
}
