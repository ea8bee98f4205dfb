package org.fabricscope.importers.logs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import org.fabricscope.importers.core.Cancellation;
import org.fabricscope.importers.core.ImportCancelledException;
import org.fabricscope.importers.core.TextLines;
import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.incident.IncidentLog;
import org.fabricscope.model.incident.IncidentLogBuilder;
import org.fabricscope.model.training.TrainingLogBuilder;
import org.junit.jupiter.api.Test;

/**
 * The signature scan beside the parser ({@link ScanPipeline}) finds what the scan on the parser's own
 * thread finds, in the same order, however the lines fall into batches; a cancelled read leaves no
 * scan thread behind.
 */
class ScanPipelineTest {
    private static final String WARN = "NCCL WARN socketProgressOpt: Call to recv from 10.0.0.2<45321> failed : Connection reset by peer";

    /** {@code lines} NCCL INFO lines of 64 processes; a failure line at each of {@code failures} (1-based), stamped or not. */
    private static String log(int lines, int... failures) {
        StringBuilder b = new StringBuilder();
        int f = 0;
        for (int n = 1; n <= lines; n++) {
            int r = n % 64;
            String head = "job-worker-" + (r / 8) + ":" + (1000 + r) + ":" + (1000 + r) + " [" + (r % 8) + "] ";
            if (f < failures.length && failures[f] == n) {
                b.append(f % 2 == 0 ? "[2026-11-26 15:47:" + String.format("%02d", f % 60) + "] " : "").append(head).append(WARN);
                f++;
            } else if (n % 50 == 0) {
                b.append("rank ").append(r).append(" step ").append(n).append(" loss 0.5 throughput 1234 samples/s");
            } else {
                b.append(head).append("NCCL INFO Channel 0").append(n % 8).append("/24 : 0 1");
            }
            b.append(n % 7 == 0 ? "\r\n" : "\n");
        }
        return b.toString();
    }

    private static IncidentLog read(String text, boolean beside) throws Exception {
        IncidentLogBuilder incident = new IncidentLogBuilder();
        List<Diagnostic> problems = new ArrayList<>();
        NcclLogParser p = new NcclLogParser(new TrainingLogBuilder(), incident, problems);
        TextLines lines = new TextLines(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)));
        if (beside) {
            p.read(lines, "big.log", Cancellation.NEVER);
        } else { // line by line, as a live stream is read: the scan runs on this thread
            String raw;
            while ((raw = lines.next()) != null) {
                p.line(raw, "big.log", lines.lineNumber());
            }
            p.finish("big.log");
        }
        return incident.build();
    }

    private static List<String> described(IncidentLog log) {
        return log.matches().stream().map(m -> m.signature().id() + " " + m.evidence() + " " + m.host() + ":" + m.pid()
                + " " + m.stamp() + " " + m.fields()).toList();
    }

    @Test
    void findsWhatTheScanOnTheParsersThreadFinds() throws Exception {
        // failures in the first batch, on a batch's last and next line, and in the last, partial batch
        int b = ScanPipeline.BATCH;
        String text = log(3 * b + 100, 5, b, b + 1, 2 * b + 7, 3 * b + 99);
        IncidentLog beside = read(text, true);
        IncidentLog inline = read(text, false);
        assertEquals(5, beside.matches().size(), described(beside).toString());
        assertEquals(described(inline), described(beside));
        assertEquals(inline.sources(), beside.sources());
        assertEquals(3 * b + 100, beside.sources().get(0).lines());
    }

    /** Batches the scan thread gave back are filled again: no line of their last use is scanned twice or lost. */
    @Test
    void batchesUsedAgainHoldOnlyTheirNewLines() throws Exception {
        int b = ScanPipeline.BATCH;
        int n = (ScanPipeline.QUEUED + 6) * b + 17; // more batches than are ever out at once
        String text = log(n, 9, 3 * b - 1, 5 * b + 2, 7 * b, 9 * b + 1, n);
        IncidentLog beside = read(text, true);
        assertEquals(6, beside.matches().size(), described(beside).toString());
        assertEquals(described(read(text, false)), described(beside));
        assertEquals(n, beside.sources().get(0).lines());
    }

    @Test
    void aFileShorterThanABatchIsScannedWithoutAThread() throws Exception {
        String text = log(200, 3, 200);
        assertEquals(described(read(text, false)), described(read(text, true)));
        assertEquals(2, read(text, true).matches().size());
    }

    @Test
    void aCancelledReadLeavesNoScanThread() throws Exception {
        String text = log(20 * ScanPipeline.BATCH, 5);
        AtomicInteger asked = new AtomicInteger();
        Cancellation cancelLate = () -> asked.incrementAndGet() > 10; // asked every 4,096 lines: after 40,000 or so
        NcclLogParser p = new NcclLogParser(new TrainingLogBuilder(), new IncidentLogBuilder(), new ArrayList<>());
        assertThrows(ImportCancelledException.class, () -> p.read(
                new TextLines(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8))), "big.log", cancelLate));
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (scanThreads() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertEquals(0, scanThreads());
    }

    @Test
    void linesBeforeAFailureOfTheParserAreScanned() throws Exception {
        // a line the parser fails on (an I/O error mid-file): what the scan found before it is kept by finish()
        String text = log(2 * ScanPipeline.BATCH + 10, 7, ScanPipeline.BATCH + 3);
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        int cut = bytes.length - 40;
        java.io.InputStream failing = new java.io.InputStream() {
            private int at;

            @Override
            public int read() throws java.io.IOException {
                if (at >= cut) {
                    throw new java.io.IOException("disk gone");
                }
                return bytes[at++] & 0xff;
            }
        };
        IncidentLogBuilder incident = new IncidentLogBuilder();
        NcclLogParser p = new NcclLogParser(new TrainingLogBuilder(), incident, new ArrayList<>());
        assertThrows(java.io.IOException.class, () -> p.read(new TextLines(failing), "big.log", Cancellation.NEVER));
        assertFalse(incident.build().matches().size() > 0, "nothing reaches the incident layer before finish");
        p.finish("big.log"); // as NcclLogReader does after a failure
        assertEquals(2, incident.build().matches().size());
        assertTrue(scanThreads() == 0 || waitForNoScanThread());
    }

    private static boolean waitForNoScanThread() throws InterruptedException {
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (scanThreads() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        return scanThreads() == 0;
    }

    private static long scanThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().equals("fabricscope-signature-scan") && t.isAlive()).count();
    }
}
