package org.fabricscope.importers.k8s;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.fabricscope.importers.ImportResult;
import org.fabricscope.importers.TestSupport;
import org.fabricscope.model.FabricModel;
import org.junit.jupiter.api.Test;

/**
 * A {@code kubectl get events} table whose header has tens of thousands of columns: refused at
 * {@link EventsTableImporter#MAX_COLUMNS} with one diagnostic, its rows skipped in linear time, and a real
 * table after it in the same file is read.
 */
class WideTableHostileTest {
    @Test
    void aHeaderOfThousandsOfColumnsIsRefusedQuickly() {
        StringBuilder header = new StringBuilder("LAST SEEN   TYPE      REASON    OBJECT    MESSAGE");
        String row = "5m          Warning   Failed    pod/a     boom";
        while (header.length() < 60_000) {
            header.append(" X");
        }
        StringBuilder sb = new StringBuilder();
        sb.append(header).append('\n');
        for (int i = 0; i < 20_000; i++) {
            sb.append(row).append('\n');
        }
        sb.append("""
                LAST SEEN   TYPE      REASON             OBJECT                  MESSAGE
                3m12s       Warning   FailedScheduling   pod/train-worker-0      0/4 nodes are available
                """);
        long start = System.nanoTime();
        ImportResult r = TestSupport.importTexts("events.txt", sb.toString());
        long ms = (System.nanoTime() - start) / 1_000_000;
        FabricModel m = r.model();
        String diags = TestSupport.dump(m.diagnostics());
        assertTrue(diags.contains("EventsTableImporter.MAX_COLUMNS"), diags);
        assertTrue(diags.contains("20000 rows under a header of more than " + EventsTableImporter.MAX_COLUMNS
                + " columns skipped"), diags);
        assertEquals(1, m.k8s().events().size(), "the real table after it is read");
        assertEquals("FailedScheduling", m.k8s().events().get(0).reason());
        assertTrue(ms < 20_000, ms + " ms");
    }

    @Test
    void rowsAreCutOnlyAtTheColumnsRead() {
        StringBuilder header = new StringBuilder("LAST SEEN   TYPE      REASON    OBJECT    MESSAGE");
        String row = "5m          Warning   Failed    pod/a%04d boom   ";
        StringBuilder trailing = new StringBuilder();
        for (int i = 0; i < EventsTableImporter.MAX_COLUMNS - 6; i++) {
            trailing.append(" EXTRA");
        }
        header.insert(0, "   ").insert(0, "NAMESPACE").append(trailing);
        StringBuilder sb = new StringBuilder(header).append('\n');
        for (int i = 0; i < 2_000; i++) {
            sb.append("ml          ").append(String.format(row, i)).append('\n');
        }
        FabricModel m = TestSupport.importTexts("events.txt", sb.toString()).model();
        assertEquals(2_000, m.k8s().events().size(), TestSupport.dump(m.diagnostics()));
    }
}
