package org.fabricscope.app.ui;

import static org.fabricscope.app.nav.Samples.RAIL;
import static org.fabricscope.app.nav.Samples.paths;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.fabricscope.app.prefs.UserState;
import org.fabricscope.app.task.CurrentThreadTaskExecutor;
import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.core.Severity;
import org.fabricscope.model.flows.Flow;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The user's flow folder in the window: a flow file that does not load is shown (Import diagnostics,
 * status line), naming the file and the field, and the good ones are used; before, the window
 * dropped the errors and the user never learned why a flow was missing.
 */
class UserFlowsTest {
    @TempDir
    Path config;
    private final RecordingDialogs dialogs = new RecordingDialogs();

    private static String builtIn(String name) throws IOException {
        try (InputStream in = Flow.class.getResourceAsStream(name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private MainViewModel window() {
        return new MainViewModel(new CurrentThreadTaskExecutor(), dialogs, LiveConnection.REGISTRY, UserState.in(config));
    }

    @Test
    void badFlowFilesAreImportDiagnosticsNamingFileAndField() throws IOException {
        Path flows = Files.createDirectories(config.resolve("flows"));
        String linkErrors = builtIn("link-errors.json");
        Path broken = flows.resolve("a-broken.json");
        Files.writeString(broken, linkErrors.replaceFirst("\"id\": \"link-errors\"", "\"id\": \"my-broken-flow\"")
                .replaceFirst("\"fact\": \"finding-present\"", "\"fact\": \"no-such-fact\""));
        Path duplicate = flows.resolve("b-duplicate.json");
        Files.writeString(duplicate, linkErrors);
        Files.writeString(flows.resolve("c-mine.json"), linkErrors.replaceFirst("\"id\": \"link-errors\"", "\"id\": \"my-own-flow\""));

        MainViewModel vm = window();
        List<Diagnostic> shown = List.copyOf(vm.tabs().diagnostics());
        assertEquals(2, shown.size(), shown.toString());
        Diagnostic first = shown.get(0);
        assertEquals(broken.toString(), first.source());
        assertEquals(Severity.ERROR, first.severity());
        assertTrue(first.message().startsWith("flow not loaded: field /steps/") && first.message().contains("no-such-fact"),
                first.message());
        assertEquals(duplicate.toString(), shown.get(1).source());
        assertEquals("flow not loaded: field /id: flow 'link-errors' is already defined by builtin:link-errors.json; give this one another id",
                shown.get(1).message());
        assertEquals("Import diagnostics (2)", vm.tabs().diagnosticsTitleProperty().get());
        String status = vm.statusProperty().get();
        assertTrue(status.startsWith("Flow file " + broken + " not loaded: field /steps/")
                && status.endsWith("(and 1 more in Import diagnostics)"), status);
        assertEquals(List.of(), dialogs.shown, "shown, not in the way");

        // a load lists its own diagnostics first, keeps the flow files' and says so in its summary
        vm.open(paths(RAIL), false, null);
        List<Diagnostic> model = vm.snapshot().model().diagnostics();
        assertEquals(model.size() + 2, vm.tabs().diagnostics().size());
        assertEquals(shown, vm.tabs().diagnostics().subList(model.size(), model.size() + 2));
        assertEquals("Import diagnostics (" + (model.size() + 2) + ")", vm.tabs().diagnosticsTitleProperty().get());
        assertTrue(vm.statusProperty().get().endsWith(" · 2 flow file errors (Import diagnostics)"), vm.statusProperty().get());
        // the good file is used, the broken ones are not
        List<String> ids = vm.troubleshoot().symptoms().stream().map(Flow::id).toList();
        assertTrue(ids.contains("my-own-flow") && !ids.contains("my-broken-flow"), ids.toString());
    }

    @Test
    void goodFlowFilesSayNothing() throws IOException {
        Path flows = Files.createDirectories(config.resolve("flows"));
        Files.writeString(flows.resolve("mine.json"), builtIn("link-errors.json")
                .replaceFirst("\"id\": \"link-errors\"", "\"id\": \"my-own-flow\""));
        MainViewModel vm = window();
        assertEquals(List.of(), vm.tabs().diagnostics());
        assertEquals("Import diagnostics", vm.tabs().diagnosticsTitleProperty().get());
        assertEquals("Ready", vm.statusProperty().get());
        vm.open(paths(RAIL), false, null);
        assertTrue(vm.statusProperty().get().endsWith(" findings (2 errors)"), vm.statusProperty().get());
        assertTrue(vm.troubleshoot().symptoms().stream().anyMatch(f -> f.id().equals("my-own-flow")));
    }

    @Test
    void withoutAConfigFolderOnlyTheBuiltInFlowsAreRead() {
        MainViewModel vm = new MainViewModel(new CurrentThreadTaskExecutor(), dialogs);
        vm.open(paths(RAIL), false, null);
        assertTrue(vm.troubleshoot().symptoms().stream().allMatch(f -> f.source().startsWith("builtin:")),
                "no user folder is read for a window that remembers nothing (tests): "
                        + vm.troubleshoot().symptoms().stream().map(Flow::source).toList());
    }
}
