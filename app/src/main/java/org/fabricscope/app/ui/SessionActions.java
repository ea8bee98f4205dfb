package org.fabricscope.app.ui;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.fabricscope.app.task.TaskExecutor;

/**
 * File › Save session… and Open session…: the window's state to a {@link org.fabricscope.app.session.SessionFile}
 * and back (the inputs, the answers given to the flows' steps, the view, the notes on subjects).
 */
final class SessionActions {
    private final MainViewModel vm;
    private final TaskExecutor executor;
    private final Dialogs dialogs;

    SessionActions(MainViewModel vm, TaskExecutor executor, Dialogs dialogs) {
        this.vm = vm;
        this.executor = executor;
        this.dialogs = dialogs;
    }

    /**
     * File › Save session…: the loaded inputs, the answers given to the flows' steps and the view, as JSON
     * ({@link org.fabricscope.app.session.SessionFile}), written off the UI thread, whole or not at all.
     */
    public void saveSession(Path file, boolean problemsOnly) {
        Snapshot s = vm.snapshot();
        if (s == null) {
            vm.statusProperty().set("Load some inputs first: a session holds what is loaded");
            return;
        }
        Map<String, org.fabricscope.app.session.Session.Answer> answers = new java.util.LinkedHashMap<>();
        vm.troubleshoot().given().forEach((k, g) -> answers.put(k, new org.fabricscope.app.session.Session.Answer(g.verdict().label(),
                g.output(), g.read())));
        var session = new org.fabricscope.app.session.Session(s.paths().stream().map(p -> p.toAbsolutePath().normalize().toString())
                .toList(), new java.util.TreeMap<>(answers), new org.fabricscope.app.session.Session.View(
                vm.loader().colourModeProperty().get().name(), problemsOnly, vm.loader().collapseAllProperty().get(),
                vm.tabs().selectedProperty().get().name()), new java.util.LinkedHashMap<>(vm.inspector().notes().all()));
        executor.execute(org.fabricscope.app.task.BackgroundTask.of(ctx -> {
            org.fabricscope.app.session.SessionFile.write(file, session);
            return file;
        }).onSuccess(f -> vm.statusProperty().set("Saved the session to " + f))
                .onFailure(e -> vm.statusProperty().set("Could not write " + file + ": " + org.fabricscope.app.report.OutputFile.reason(e)
                        + "; nothing written")));
    }

    /**
     * File › Open session…: reads the file off the UI thread, then puts the view back ({@code problemsOnly} gets the
     * map's filter), loads the sources in place of what is loaded and, once loaded, the answers. A file that is not
     * a session is one message naming it; nothing loaded is lost.
     */
    public void openSession(Path file, java.util.function.Consumer<Boolean> problemsOnly) {
        executor.execute(org.fabricscope.app.task.BackgroundTask.of(ctx -> org.fabricscope.app.session.SessionFile.read(file))
                .onSuccess(session -> restore(session, problemsOnly))
                .onFailure(e -> {
                    String why = e instanceof org.fabricscope.app.session.SessionFile.Invalid ? e.getMessage()
                            : file + ": " + org.fabricscope.importers.ReaderFailure.describe(e);
                    vm.statusProperty().set("Session not opened: " + why);
                    dialogs.error("Open session", "Session not opened: " + why + "\n\nWhat is loaded stays as it was.");
                }));
    }

    private void restore(org.fabricscope.app.session.Session session, java.util.function.Consumer<Boolean> problemsOnly) {
        List<Path> missing = session.sources().stream().map(Path::of).filter(p -> !java.nio.file.Files.exists(p)).toList();
        if (session.sources().isEmpty() || missing.size() == session.sources().size()) {
            String why = session.sources().isEmpty() ? "it names no inputs" : "none of its inputs exists here (" + missing.get(0) + ")";
            vm.statusProperty().set("Session not opened: " + why);
            dialogs.error("Open session", "Session not opened: " + why + ".\n\nWhat is loaded stays as it was.");
            return;
        }
        Map<String, org.fabricscope.model.flows.FlowEngine.Given> answers = new java.util.LinkedHashMap<>();
        session.answers().forEach((k, a) -> answers.put(k, new org.fabricscope.model.flows.FlowEngine.Given(
                org.fabricscope.model.flows.Verdict.of(a.verdict()), a.output(), a.read())));
        vm.troubleshoot().restoreOnNextLoad(answers);
        vm.inspector().notes().setAll(session.notes());
        try {
            vm.loader().colourModeProperty().set(org.fabricscope.app.render.ColourMode.valueOf(session.view().colour()));
        } catch (IllegalArgumentException unknown) {
            // a colour mode this version does not have: the current one stays
        }
        vm.loader().collapseAllProperty().set(session.view().collapseAll());
        problemsOnly.accept(session.view().problemsOnly());
        try {
            vm.tabs().selectedProperty().set(SideTabs.Tab.valueOf(session.view().tab()));
        } catch (IllegalArgumentException unknown) {
            // a tab this version does not have
        }
        List<Path> present = session.sources().stream().map(Path::of).filter(java.nio.file.Files::exists).toList();
        if (!missing.isEmpty()) {
            vm.statusProperty().set("Session: " + missing.size() + " of its inputs no longer exist (first " + missing.get(0) + "); loading the rest");
        }
        vm.open(present, false, null);
    }

}
