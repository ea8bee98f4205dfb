package org.fabricscope.app.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.fabricscope.app.task.CurrentThreadTaskExecutor;
import org.fabricscope.app.ui.LogConsole.Line;
import org.fabricscope.model.core.Subject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Loaded log files in the console: picked as a source, filtered by level, rank and text, an evidence line selected. */
class LogConsoleFilesTest {
    private static final String LOG = """
            w0:1:1 [0] NCCL INFO NCCL version 2.21.5+cuda12.4
            w0:1:1 [0] NCCL INFO comm 0x1 rank 3 nranks 8 cudaDev 0 busId 1b000 - Init COMPLETE
            step 1 loss 2.3
            w0:1:2 [0] transport/net_ib.cc:1696 NCCL WARN NET/IB : Got completion from peer 10.0.0.5 with status=12
            step 2 loss 2.2
            """;

    @TempDir
    Path dir;

    private final CurrentThreadTaskExecutor executor = new CurrentThreadTaskExecutor();
    private final LogConsoleViewModel vm = new LogConsoleViewModel(Runnable::run, executor);

    private String file() throws IOException {
        Path p = dir.resolve("w0.log");
        Files.writeString(p, LOG);
        vm.setFiles(List.of(p.toString()));
        return p.toString();
    }

    private List<String> rows() {
        return vm.rowsProperty().get().stream().map(Line::text).toList();
    }

    @Test
    void logsAreThoseReadAsLogsOrNamedLikeOne() {
        Map<String, String> formats = new java.util.LinkedHashMap<>();
        formats.put("a/ibnetdiscover.txt", "ibnetdiscover");
        formats.put("a/rank0.log", "nccl-log");
        formats.put("a/all_reduce.txt", "nccl-tests");
        formats.put("a/notes.log", "unknown");
        formats.put("a/notes.txt", "unknown");
        formats.put("a/blob.bin", null);
        formats.put("a/ib_write_bw_n1_n2.txt", "perftest");
        assertEquals(List.of("a/rank0.log", "a/all_reduce.txt", "a/notes.log", "a/ib_write_bw_n1_n2.txt"),
                LogConsoleViewModel.logSources(formats));
    }

    @Test
    void pickingAFileListsAllItsLinesNumbered() throws IOException {
        String f = file();
        assertEquals(List.of(LogConsoleViewModel.LIVE, f), vm.sources());
        assertFalse(vm.fileModeProperty().get());
        vm.sourceProperty().set(f);
        assertTrue(vm.fileModeProperty().get());
        assertEquals(LOG.lines().toList(), rows());
        Line fourth = vm.rowsProperty().get().get(3);
        assertEquals(4, fourth.number());
        assertTrue(fourth.fromFile());
        assertEquals(Line.Level.ERROR, fourth.level());
        assertEquals("w0.log", fourth.pod());
        assertEquals("5 lines · " + f, vm.countProperty().get());
        vm.sourceProperty().set(LogConsoleViewModel.LIVE);
        assertTrue(vm.rowsProperty().get() == vm.shown());
    }

    @Test
    void theFiltersScanTheFile() throws IOException {
        vm.sourceProperty().set(file());
        vm.levelProperty().set("errors");
        assertEquals(List.of(LOG.lines().toList().get(3)), rows());
        assertTrue(vm.countProperty().get().startsWith("1 of 5 lines match"), vm.countProperty().get());
        vm.levelProperty().set(LogConsoleViewModel.LEVELS.get(0));
        vm.rankProperty().set("3");
        assertEquals(1, rows().size(), "NCCL's 'rank 3 nranks 8'");
        vm.rankProperty().set("");
        vm.textProperty().set("LOSS");
        assertEquals(List.of("step 1 loss 2.3", "step 2 loss 2.2"), rows());
        assertEquals(5, vm.rowsProperty().get().get(1).number(), "a match keeps its line number");
    }

    @Test
    void anEvidenceLinePicksTheFileAndSelectsTheLineClearingFiltersThatHideIt() throws IOException {
        String f = file();
        vm.textProperty().set("loss");
        assertTrue(vm.reveal(new Subject.LineRef(f, 4, f + ":4")));
        assertEquals(f, vm.sourceProperty().get());
        assertEquals("", vm.textProperty().get(), "the filter hid the line");
        assertEquals(3, vm.selectedRowProperty().get());
        assertEquals(4, vm.rowsProperty().get().get(vm.selectedRowProperty().get()).number());
        vm.levelProperty().set("errors");
        assertTrue(vm.reveal(new Subject.LineRef(f, 4, f + ":4")));
        assertEquals("errors", vm.levelProperty().get(), "a filter that shows the line stays");
        assertEquals(0, vm.selectedRowProperty().get());
        assertFalse(vm.reveal(new Subject.LineRef(dir.resolve("other.txt").toString(), 1, "other.txt:1")),
                "not a loaded log: the window opens it in a viewer");
    }

    @Test
    void aFileThatWentAwaySaysSoAndKeepsTheConsole() throws IOException {
        String f = file();
        Files.delete(Path.of(f));
        vm.sourceProperty().set(f);
        assertTrue(vm.countProperty().get().startsWith("Cannot show " + f), vm.countProperty().get());
        assertEquals(0, vm.rowsProperty().get().size());
    }
}
