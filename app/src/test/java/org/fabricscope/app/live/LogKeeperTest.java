package org.fabricscope.app.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.fabricscope.importers.core.Cancellation;
import org.fabricscope.importers.FabricImporter;
import org.fabricscope.importers.ImportProgress;
import org.fabricscope.app.live.source.LogLine;
import org.fabricscope.model.FabricModel;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.training.Rank;
import org.junit.jupiter.api.Test;

/** Live log lines kept within a budget and parsed into a model with their real line numbers. */
class LogKeeperTest {
    private static List<String> lines(String host) throws IOException {
        try (InputStream in = LogKeeperTest.class.getResourceAsStream("/fabrics/two-host.nccl.log")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().filter(l -> l.startsWith(host)).toList();
        }
    }

    private static FabricModel build(LogKeeper keeper) {
        return new FabricImporter().importSources(List.of(), new ArrayList<>(), ImportProgress.NONE, Cancellation.NEVER,
                b -> keeper.feed(b, "kube://ctx/ml/pods/")).model();
    }

    @Test
    void streamedLinesBecomeRanksCitingPodContainerAndLine() throws IOException {
        LogKeeper keeper = new LogKeeper(10_000);
        List<LogLine> batch = new ArrayList<>();
        long seq = 41; // a stream resumed after 41 lines: evidence must cite the stream's own line numbers
        long t0 = 1_764_201_600_000_000_000L; // 2025-11-27T00:00:00Z, one line a millisecond
        for (String l : lines("gpu-01")) {
            batch.add(new LogLine("train-worker-0", "pytorch", t0 + seq * 1_000_000L, l, seq++));
        }
        seq = 0;
        for (String l : lines("gpu-03")) {
            batch.add(new LogLine("train-worker-1", "pytorch", 0, l, seq++));
        }
        keeper.add(batch);
        FabricModel m = build(keeper);
        assertEquals(2, m.trainingLog().ranks().size());
        Rank r0 = m.trainingLog().ranks().stream().filter(r -> r.rank() == 0).findFirst().orElseThrow();
        assertEquals("kube://ctx/ml/pods/train-worker-0/pytorch", r0.evidence().source());
        assertEquals(45, r0.evidence().line(), "the Init START line is the stream's 4th after line 41");
        Evidence.StreamLine cited = assertInstanceOf(Evidence.StreamLine.class, r0.evidence(), "a line of a live stream");
        assertEquals(java.time.Instant.parse("2025-11-27T00:00:00.044Z"), cited.time(), "the kubelet's time of line 45");
        assertEquals("kube://ctx/ml/pods/train-worker-0/pytorch:45 at 2025-11-27T00:00:00.044Z", cited.where());
        Rank r1 = m.trainingLog().ranks().stream().filter(r -> r.rank() == 1).findFirst().orElseThrow();
        assertEquals(null, ((Evidence.StreamLine) r1.evidence()).time(), "a line without a timestamp has no time");
        assertEquals(java.util.Map.of("NET/IB", 1), m.trainingLog().transportsByPair());
    }

    @Test
    void oldNoiseIsDroppedButNcclLinesAreKept() throws IOException {
        LogKeeper keeper = new LogKeeper(1_000); // 500-line floor per stream: one stream keeps 1,000 recent lines
        List<LogLine> batch = new ArrayList<>();
        long seq = 0;
        for (String l : lines("gpu-01")) {
            batch.add(new LogLine("p", "c", 0, l, seq++));
        }
        for (int i = 0; i < 20_000; i++) {
            batch.add(new LogLine("p", "c", 0, "step " + i + " loss 2.0", seq++));
        }
        keeper.add(batch);
        assertTrue(keeper.size() <= 1_000 + lines("gpu-01").size(), "bounded: " + keeper.size());
        FabricModel m = build(keeper);
        assertEquals(1, m.trainingLog().ranks().size(), "the rank's NCCL lines outlived 20,000 lines of noise");
        assertTrue(m.trainingLog().ranks().get(0).initCompleted());
    }
}
