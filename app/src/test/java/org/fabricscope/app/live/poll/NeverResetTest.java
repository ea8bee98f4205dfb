package org.fabricscope.app.live.poll;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

/** Every option of infiniband-diags that clears counters is refused before a process starts. */
class NeverResetTest {
    @Test
    void resetAndClearOptionsAreRefused() {
        for (String a : List.of("-r", "-R", "--reset_after_read", "--Reset_only", "-k", "-K", "--clear-errors", "--clear-counts",
                "-xr", "-aR")) {
            assertTrue(NeverReset.resets(a), a);
            assertThrows(IllegalArgumentException.class, () -> NeverReset.check(List.of("perfquery", a, "2", "1")));
        }
        for (String a : List.of("-x", "-l", "-a", "-C", "mlx5_0", "-P", "1", "1,2,3", "--extended", "--loop_ports")) {
            assertFalse(NeverReset.resets(a), a);
        }
    }

    @Test
    void theProcessRunnerChecksBeforeStarting() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new ProcessDiags().run(List.of("perfquery", "-R", "2", "1"), Duration.ofSeconds(1)));
        assertTrue(e.getMessage().contains("never resets a counter"), e.getMessage());
    }

    @Test
    void aMissingProgramIsOneLine() {
        Diags.DiagsException e = assertThrows(Diags.DiagsException.class,
                () -> new ProcessDiags().run(List.of("fabricscope-no-such-diag"), Duration.ofSeconds(5)));
        assertTrue(e.missing());
        assertTrue(e.getMessage().startsWith("fabricscope-no-such-diag: not found"), e.getMessage());
    }

    @Test
    void aCommandPastItsDeadlineIsStopped() throws Exception {
        long t0 = System.nanoTime();
        Diags.DiagsException e = assertThrows(Diags.DiagsException.class,
                () -> new ProcessDiags().run(List.of("sleep", "30"), Duration.ofMillis(500)));
        assertTrue(e.getMessage().contains("no answer within"), e.getMessage());
        assertTrue(System.nanoTime() - t0 < 5_000_000_000L);
    }
}
