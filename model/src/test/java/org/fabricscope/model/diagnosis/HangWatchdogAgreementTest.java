package org.fabricscope.model.diagnosis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.forensics.ProcessGroupProgress;
import org.fabricscope.model.training.NcclEvent;
import org.fabricscope.model.training.TrainingLog;
import org.fabricscope.model.training.TrainingLogBuilder;
import org.junit.jupiter.api.Test;

/** collective-hang set beside the logs' watchdog lines: cited when they agree, said when they do not. */
class HangWatchdogAgreementTest {
    private static final ProcessGroupProgress DEFAULT_PG = new ProcessGroupProgress("0", "default_pg", List.of(0, 1, 2, 3),
            Map.of(), List.of());

    private static NcclEvent watchdog(int rank, String seq, Map<String, String> pg, int line) {
        Map<String, String> f = new java.util.HashMap<>(Map.of("seqNum", seq, "opType", "ALLREDUCE", "timeoutMs", "30000"));
        f.putAll(pg);
        return new NcclEvent(NcclEvent.Kind.WATCHDOG_TIMEOUT, "", -1, rank, "Watchdog caught collective operation timeout",
                f, Evidence.at("torchrun.log", line, "watchdog"));
    }

    private static TrainingLog log(NcclEvent... events) {
        TrainingLogBuilder b = new TrainingLogBuilder();
        for (NcclEvent e : events) {
            b.addEvent(e);
        }
        return b.build();
    }

    @Test
    void aWatchdogOnTheSameSequenceNumberIsCitedAsAgreeing() {
        List<Evidence> evidence = new ArrayList<>();
        List<String> remedies = new ArrayList<>();
        HangForensicsCheck.watchdogAgreement(log(watchdog(0, "4", Map.of(), 18), watchdog(0, "4",
                Map.of("pgId", "0", "pgName", "default_pg"), 36)), DEFAULT_PG, 4, evidence, remedies);
        assertEquals(1, evidence.size(), "one line per rank: " + evidence);
        assertEquals(Evidence.at("torchrun.log", 18, "rank 0's watchdog fired on ALLREDUCE SeqNum 4: the log agrees with the dumps"),
                evidence.get(0));
        assertEquals(List.of(), remedies);
    }

    @Test
    void aWatchdogOnAnotherSequenceNumberIsSaid() {
        List<Evidence> evidence = new ArrayList<>();
        List<String> remedies = new ArrayList<>();
        HangForensicsCheck.watchdogAgreement(log(watchdog(2, "7", Map.of("pgId", "0"), 5)), DEFAULT_PG, 4, evidence, remedies);
        assertTrue(evidence.get(0).text().endsWith("not the collective the dumps say the group waits in (seq 4)"), evidence.toString());
        assertEquals(1, remedies.size());
        assertTrue(remedies.get(0).startsWith("The logs' watchdog fired elsewhere (rank 2 on SeqNum 7) than seq 4"), remedies.get(0));
    }

    @Test
    void anotherGroupsWatchdogAndANonMemberAreLeftOut() {
        List<Evidence> evidence = new ArrayList<>();
        List<String> remedies = new ArrayList<>();
        HangForensicsCheck.watchdogAgreement(log(watchdog(1, "9", Map.of("pgId", "3", "pgName", "tp_group"), 5),
                watchdog(9, "9", Map.of(), 6)), DEFAULT_PG, 4, evidence, remedies);
        assertEquals(List.of(), evidence);
        assertEquals(List.of(), remedies);
    }
}
