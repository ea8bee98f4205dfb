package org.fabricscope.app.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.fabricscope.app.live.source.LogLine;
import org.fabricscope.model.core.Subject;
import org.junit.jupiter.api.Test;

/** The console's queue, filters and line lookup, without a stage. */
class LogConsoleViewModelTest {
    private final List<Runnable> ui = new ArrayList<>();
    private final LogConsoleViewModel vm = new LogConsoleViewModel(ui::add);

    private static LogLine line(String pod, long seq, String text) {
        return new LogLine(pod, "pytorch", 0, text, seq);
    }

    @Test
    void linesWaitForTheNextFrameAndTheFirstBatchStartsTheDraining() throws Exception {
        Thread t = new Thread(() -> vm.offer(List.of(line("w-0", 0, "step 1"), line("w-1", 0, "[rank3]:[E1121 x] Watchdog caught"))));
        t.start();
        t.join();
        assertEquals(2, vm.waitingCount());
        assertEquals(1, ui.size(), "one hand-over to the UI thread");
        ui.get(0).run();
        assertTrue(vm.drainingProperty().get());
        assertTrue(vm.drain());
        assertFalse(vm.drain(), "nothing more waits");
        assertEquals(2, vm.shown().size());
        assertEquals(List.of("all pods", "w-0", "w-1"), vm.podChoices());
        vm.levelProperty().set("errors");
        assertEquals(1, vm.shown().size());
        vm.rankProperty().set("x");
        assertTrue(vm.rankInvalidProperty().get());
        assertEquals(0, vm.shown().size());
        vm.stopDraining();
        assertFalse(vm.drainingProperty().get());
    }

    @Test
    void theQueueKeepsTheNewestLinesWhenTheUiFallsBehind() {
        List<LogLine> many = new ArrayList<>();
        for (int i = 0; i < LogConsoleViewModel.MAX_LINES + 10; i++) {
            many.add(line("w-0", i, "line " + i));
        }
        vm.offer(many);
        assertEquals(LogConsoleViewModel.MAX_LINES, vm.waitingCount());
    }

    @Test
    void anEvidenceLineIsFoundByItsStreamAndNumberEvenWhenFiltered() {
        vm.offer(List.of(line("w-0", 0, "step 1"), line("w-0", 1, "step 2")));
        vm.drain();
        vm.textProperty().set("step 1");
        assertTrue(vm.reveal(new Subject.LineRef("kubernetes://ctx/ml-train/pods/w-0/pytorch", 2, "w-0/pytorch:2")));
        assertEquals("step 2", vm.selectedProperty().get().text());
        assertEquals("", vm.textProperty().get(), "the filter that hid it is cleared");
        assertFalse(vm.reveal(new Subject.LineRef("w-0/pytorch", 9, "x")));
        assertFalse(vm.reveal(new Subject.LineRef("w-1/pytorch", 2, "x")));
    }
}
