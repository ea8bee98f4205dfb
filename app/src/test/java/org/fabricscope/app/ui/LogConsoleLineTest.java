package org.fabricscope.app.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.fabricscope.app.ui.LogConsole.Line;
import org.fabricscope.app.ui.LogConsole.Line.Level;
import org.junit.jupiter.api.Test;

/** How the log console classifies lines for its level and rank filters. */
class LogConsoleLineTest {
    @Test
    void ncclInfoWarnAndErrorsAreTold() {
        assertEquals(Level.NCCL, Line.of("p", "w-0:1:1 [0] NCCL INFO Using network IB").level());
        assertEquals(Level.WARN, Line.of("p", "w-0:1:1 [0] init.cc:1 NCCL WARN Unknown env NCCL_FOO").level());
        assertEquals(Level.ERROR, Line.of("p", "w-0:1:1 [4] net_ib.cc:1696 NCCL WARN NET/IB : Got completion from peer "
                + "10.0.0.1<1> with status=12 opcode=0 len=0 vendor err 129 (Send)").level());
        assertEquals(Level.ERROR, Line.of("p", "[rank3]:[E1121 23:24:06.1 ProcessGroupNCCL.cpp:616] [Rank 3] Watchdog caught "
                + "collective operation timeout").level());
        assertEquals(Level.OTHER, Line.of("p", "step 400 loss 3.1").level());
    }

    @Test
    void ranksComeFromPyTorchPrefixesAndNcclInitLines() {
        assertEquals(12, Line.of("p", "[rank12]:[E1121 ProcessGroupNCCL.cpp:1785] [PG ID 0 Rank 12] Exception").rank());
        assertEquals(3, Line.of("p", "[E ProcessGroupNCCL.cpp:737] [Rank 3] Watchdog caught").rank());
        assertEquals(9, Line.of("p", "w:1:2 [1] NCCL INFO comm 0x1 rank 9 nranks 16 cudaDev 1 busId 1b000 - Init COMPLETE").rank());
        assertEquals(-1, Line.of("p", "w:1:2 [1] NCCL INFO Using network IB").rank());
    }
}
