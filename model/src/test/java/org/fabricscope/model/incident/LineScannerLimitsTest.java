package org.fabricscope.model.incident;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.fabricscope.model.FabricModel;
import org.fabricscope.model.FabricModelBuilder;
import org.fabricscope.model.core.Diagnostic;
import org.junit.jupiter.api.Test;

/** How many printers a log keeps, and that going past the limit is said, never silent. */
class LineScannerLimitsTest {
    private static String init(int i) {
        return "node-" + i + ":" + (1000 + i) + ":" + (2000 + i) + " [0] NCCL INFO ncclCommInitRankConfig comm 0x1 rank " + i
                + " nranks 70000 cudaDev 0 nvmlDev 0 busId 1000 commId 0x1 - Init START";
    }

    @Test
    void aCombinedLogOfThousandsOfRanksKeepsThemAll() {
        FabricModelBuilder b = new FabricModelBuilder();
        LineScanner s = b.incident().scanner("all-ranks.log", false);
        for (int i = 0; i < 7_700; i++) {
            s.line(init(i), i + 1);
            s.line("[rank" + i + "]: step 1", i + 1);
        }
        s.close();
        LogSource src = b.incident().build().sources().get(0);
        assertEquals(7_700, src.processes().size(), "7,700 ranks (the old cap was 4,096)");
        assertEquals(7_700, src.ranks().size());
        assertEquals(List.of(), b.incident().cappedSources());
    }

    @Test
    void pastTheLimitTheImportSaysSo() {
        FabricModelBuilder b = new FabricModelBuilder();
        LineScanner s = b.incident().scanner("huge.log", false);
        int n = LineScanner.MAX_PROCESSES + 10;
        for (int i = 0; i < n; i++) {
            s.line(init(i), i + 1);
        }
        s.line(init(3), n + 1); // one already kept: no harm
        s.close();
        assertEquals(LineScanner.MAX_PROCESSES, b.incident().build().sources().get(0).processes().size());
        assertEquals(List.of("huge.log"), b.incident().cappedSources());
        FabricModel m = b.build();
        List<Diagnostic> said = m.diagnostics().stream().filter(d -> d.source().equals("huge.log")).toList();
        assertEquals(1, said.size(), m.diagnostics().toString());
        assertTrue(said.get(0).message().contains("LineScanner.MAX_PROCESSES"), said.get(0).message());
    }

    @Test
    void aLogReadAgainMergesItsPrintersOnce() {
        IncidentLogBuilder b = new IncidentLogBuilder();
        for (int pass = 0; pass < 2; pass++) { // a live pod's log after a reconnect: the same source again
            LineScanner s = b.scanner("pod.log", false);
            for (int i = 0; i < 3_000 + pass * 10; i++) {
                s.line(init(i), i + 1);
            }
            s.close();
        }
        assertEquals(3_010, b.build().sources().get(0).processes().size());
    }
}
