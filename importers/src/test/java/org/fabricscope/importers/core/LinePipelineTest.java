package org.fabricscope.importers.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntConsumer;

import org.junit.jupiter.api.Test;

/** Lines read and prepared on a thread of their own, handed back in order, with what went wrong in its turn. */
class LinePipelineTest {

    private static TextLines text(int lines) {
        StringBuilder b = new StringBuilder();
        for (int i = 1; i <= lines; i++) {
            b.append("line ").append(i).append(i % 100 == 0 ? "\r\n" : "\n");
        }
        return new TextLines(new ByteArrayInputStream(b.toString().getBytes(StandardCharsets.UTF_8)));
    }

    private static boolean readAheadRunning() {
        return Thread.getAllStackTraces().keySet().stream()
                .anyMatch(t -> t.getName().equals("fabricscope-read-ahead") && t.isAlive());
    }

    @Test
    void handsBackEveryLineInOrderWithWhatWasPreparedOfIt() throws IOException {
        List<Integer> reached = new ArrayList<>();
        List<String> preparedOn = new ArrayList<>();
        try (LinePipeline p = new LinePipeline(text(1000), (l, n) -> {
            preparedOn.add(Thread.currentThread().getName());
            return n + ":" + l;
        }, Cancellation.NEVER, reached::add, 7, true)) {
            int expected = 0;
            while (p.next()) {
                expected++;
                assertEquals(expected, p.lineNumber());
                assertEquals("line " + expected, p.line());
                assertEquals(expected + ":line " + expected, p.prepared());
                assertFalse(p.truncated());
            }
            assertEquals(1000, expected);
            assertFalse(p.next(), "still at the end");
        }
        assertEquals(1000, reached.size());
        assertEquals(1, reached.get(0));
        assertEquals(1000, reached.get(999));
        assertTrue(preparedOn.subList(7, 1000).stream().allMatch("fabricscope-read-ahead"::equals),
                "all but the first batch prepared ahead: " + preparedOn.subList(7, 20));
    }

    @Test
    void aShortFileStartsNoThread() throws IOException {
        List<String> preparedOn = new ArrayList<>();
        try (LinePipeline p = new LinePipeline(text(5), (l, n) -> preparedOn.add(Thread.currentThread().getName()),
                Cancellation.NEVER, n -> { }, 7, true)) {
            int count = 0;
            while (p.next()) {
                count++;
            }
            assertEquals(5, count);
        }
        assertTrue(preparedOn.stream().noneMatch("fabricscope-read-ahead"::equals), preparedOn.toString());
    }

    @Test
    void cutLinesAndLinesHoldingNulAreHandedBackUnprepared() throws IOException {
        byte[] bytes = ("a\nb\0c\n" + "x".repeat(TextLines.MAX_LINE + 10) + "\nd\n").getBytes(StandardCharsets.ISO_8859_1);
        List<String> prepared = new ArrayList<>();
        try (LinePipeline p = new LinePipeline(new TextLines(new ByteArrayInputStream(bytes)), (l, n) -> {
            prepared.add(l);
            return l;
        }, Cancellation.NEVER, n -> { }, 2, true)) {
            assertTrue(p.next());
            assertEquals("a", p.prepared());
            assertTrue(p.next());
            assertTrue(p.hasNul());
            assertNull(p.prepared(), "NUL");
            assertNull(p.line(), "a NUL line's text is not kept");
            assertTrue(p.next());
            assertTrue(p.truncated());
            assertNull(p.prepared(), "cut");
            assertNull(p.line(), "a cut line's 64 KiB are not kept");
            assertTrue(p.next());
            assertEquals("d", p.prepared());
            assertFalse(p.next());
        }
        assertEquals(List.of("a", "d"), prepared);
    }

    @Test
    void aPrepareThatThrowsIsThrownInItsTurnAfterEveryLineBefore() throws IOException {
        IllegalStateException boom = new IllegalStateException("boom");
        List<Integer> reached = new ArrayList<>();
        try (LinePipeline p = new LinePipeline(text(500), (l, n) -> {
            if (n == 333) {
                throw boom;
            }
            return l;
        }, Cancellation.NEVER, reached::add, 10, true)) {
            int last = 0;
            IllegalStateException thrown = null;
            try {
                while (p.next()) {
                    last = p.lineNumber();
                }
            } catch (IllegalStateException e) {
                thrown = e;
            }
            assertSame(boom, thrown);
            assertEquals(332, last, "every line before the one that failed");
            assertEquals(333, reached.get(reached.size() - 1), "the failed line is the one reached");
        }
    }

    /** Five lines, then "disk gone". */
    private static InputStream fiveLinesThenDiskGone() {
        byte[] good = "one\ntwo\nthree\nfour\nfive\n".getBytes(StandardCharsets.UTF_8);
        return new InputStream() {
            private int at;

            @Override
            public int read() throws IOException {
                if (at < good.length) {
                    return good[at++];
                }
                throw new IOException("disk gone");
            }
        };
    }

    @Test
    void aReadThatFailsIsThrownAfterTheLinesReadBeforeIt() throws IOException {
        for (int workers : new int[] {1, 3}) {
            readThatFails(workers, workers == 1 ? 2 : 1);
        }
    }

    private static void readThatFails(int workers, int batch) throws IOException {
        InputStream failing = fiveLinesThenDiskGone();
        List<Integer> reached = new ArrayList<>();
        try (LinePipeline p = several(new TextLines(failing), () -> (l, n) -> l, workers, batch, reached::add)) {
            List<String> got = new ArrayList<>();
            IOException e = assertThrows(IOException.class, () -> {
                while (p.next()) {
                    got.add(p.line());
                }
            });
            assertEquals("disk gone", e.getMessage());
            assertEquals(List.of("one", "two", "three", "four", "five"), got);
            assertEquals(5, reached.get(reached.size() - 1), "the last line read, as a reader without read-ahead says");
        }
    }

    @Test
    void aCancelledImportStopsReadingAhead() {
        AtomicBoolean cancelled = new AtomicBoolean();
        try (LinePipeline p = new LinePipeline(text(100_000), (l, n) -> l, cancelled::get, n -> { }, 64, true)) {
            assertThrows(ImportCancelledException.class, () -> {
                while (p.next()) {
                    if (p.lineNumber() == 1000) {
                        cancelled.set(true);
                    }
                }
            });
        }
        assertFalse(readAheadRunning());
    }

    @Test
    void closingMidFileStopsTheThreadBeforeItReturns() throws IOException {
        AtomicInteger prepared = new AtomicInteger();
        LinePipeline p = new LinePipeline(text(200_000), (l, n) -> prepared.incrementAndGet(), Cancellation.NEVER,
                n -> { }, 16, true);
        for (int i = 0; i < 100; i++) {
            assertTrue(p.next());
        }
        p.close();
        assertFalse(readAheadRunning(), "the read-ahead thread has ended");
        int after = prepared.get();
        assertTrue(after < 200_000, "it stopped before the end: " + after);
        try {
            Thread.sleep(200);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        assertEquals(after, prepared.get(), "and prepares nothing after close");
    }

    /** A checked exception thrown unchecked, as some library code does. */
    @SuppressWarnings("unchecked")
    private static <E extends Throwable> RuntimeException sneaky(Throwable t) throws E {
        throw (E) t;
    }

    /** An input whose reading throws {@code t} (unchecked, whatever it is) once {@code after} bytes of text were read. */
    private static TextLines failingAfter(int lines, int after, Throwable t) {
        StringBuilder b = new StringBuilder();
        for (int i = 1; i <= lines; i++) {
            b.append("line ").append(i).append('\n');
        }
        byte[] bytes = b.toString().getBytes(StandardCharsets.UTF_8);
        return new TextLines(new InputStream() {
            private int at;

            @Override
            public int read() {
                if (at >= after) {
                    throw LinePipelineTest.<RuntimeException>sneaky(t);
                }
                return at < bytes.length ? bytes[at++] : -1;
            }

            @Override
            public int read(byte[] into, int off, int len) {
                if (at >= after) {
                    throw LinePipelineTest.<RuntimeException>sneaky(t);
                }
                if (at >= bytes.length) {
                    return -1;
                }
                int n = Math.min(Math.min(len, 100), Math.min(after, bytes.length) - at); // a little at a time, as a pipe
                System.arraycopy(bytes, at, into, off, n);
                at += n;
                return n;
            }
        });
    }

    @Test
    void whatAReadThrowsUncheckedIsThrownInItsTurnNamingTheLastLineRead() {
        for (int workers : new int[] {1, 3}) {
            Exception odd = new Exception("not an IOException, thrown unchecked");
            List<Integer> seen = new ArrayList<>();
            List<Integer> reached = new ArrayList<>();
            IllegalStateException e = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(
                    java.time.Duration.ofSeconds(20), () -> assertThrows(IllegalStateException.class, () -> {
                        try (LinePipeline p = several(failingAfter(5000, 20_000, odd), () -> (l, n) -> l, workers, 4,
                                reached::add)) {
                            while (p.next()) {
                                seen.add(p.lineNumber());
                            }
                        }
                    }));
            assertSame(odd, e.getCause());
            // "line N\n": 20,000 bytes end inside line 2,223; TextLines hands back the lines whose bytes it had taken
            assertTrue(seen.size() >= 2_000 && seen.size() <= 2_222, workers + " threads: " + seen.size());
            for (int i = 0; i < seen.size(); i++) {
                assertEquals(i + 1, seen.get(i));
            }
            assertEquals(seen.size(), reached.get(reached.size() - 1), "the last line read, which was handed back");
            assertFalse(readAheadRunning());
        }
    }

    @Test
    void aCheckedExceptionAPreparerThrowsUncheckedIsThrownInItsTurn() {
        java.io.IOException io = new java.io.IOException("thrown unchecked");
        List<Integer> seen = new ArrayList<>();
        IOException e = assertThrows(IOException.class, () -> {
            try (LinePipeline p = new LinePipeline(text(1000), (l, n) -> {
                if (n == 50) {
                    throw LinePipelineTest.<RuntimeException>sneaky(io);
                }
                return l;
            }, Cancellation.NEVER, n -> { }, 10, true)) {
                while (p.next()) {
                    seen.add(p.lineNumber());
                }
            }
        });
        assertSame(io, e);
        assertEquals(49, seen.size(), "every line before it");
    }

    @Test
    void aBatchEndsAtItsCharactersAsWellAsItsLines() throws IOException {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < 100; i++) {
            b.append("x".repeat(60_000)).append('\n');
        }
        List<String> preparedOn = new ArrayList<>();
        try (LinePipeline p = new LinePipeline(new TextLines(new ByteArrayInputStream(b.toString().getBytes(StandardCharsets.UTF_8))),
                (l, n) -> preparedOn.add(Thread.currentThread().getName()), Cancellation.NEVER, n -> { }, LinePipeline.BATCH, true)) {
            int count = 0;
            while (p.next()) {
                count++;
            }
            assertEquals(100, count);
        }
        // the first batch (read here) ends after a mebibyte of text, not after 2,048 lines: the rest was read ahead
        int here = (int) preparedOn.stream().filter(t -> !t.equals("fabricscope-read-ahead")).count();
        assertEquals(LinePipeline.BATCH_CHARS / 60_000 + 1, here, preparedOn.toString());
    }

    @Test
    void refusesAnEmptyBatch() {
        assertThrows(IllegalArgumentException.class,
                () -> new LinePipeline(text(1), (l, n) -> l, Cancellation.NEVER, n -> { }, 0, true));
    }

    /** A pipeline of {@code workers} threads, each preparer made by {@code preparers}. */
    private static LinePipeline several(TextLines lines, java.util.function.Supplier<LinePipeline.Preparer> preparers,
                                        int workers, int batch, IntConsumer reached) {
        return new LinePipeline(lines, preparers, workers, Cancellation.NEVER, reached, batch, true);
    }

    @Test
    void severalThreadsHandBackEveryLineInOrderEachPreparerOnOneThreadAtATime() throws IOException {
        java.util.Set<Integer> used = java.util.concurrent.ConcurrentHashMap.newKeySet();
        AtomicInteger made = new AtomicInteger();
        AtomicBoolean overlapped = new AtomicBoolean();
        java.util.function.Supplier<LinePipeline.Preparer> preparers = () -> {
            int id = made.getAndIncrement();
            AtomicBoolean busy = new AtomicBoolean();
            return (l, n) -> {
                if (!busy.compareAndSet(false, true)) {
                    overlapped.set(true);
                }
                used.add(id);
                busy.set(false);
                return id + "@" + n;
            };
        };
        List<Integer> reached = new ArrayList<>();
        try (LinePipeline p = several(text(30_000), preparers, 3, 7, reached::add)) {
            int expected = 0;
            while (p.next()) {
                expected++;
                assertEquals(expected, p.lineNumber());
                assertEquals("line " + expected, p.line());
                assertTrue(((String) p.prepared()).endsWith("@" + expected), p.prepared() + " for line " + expected);
            }
            assertEquals(30_000, expected);
        }
        assertEquals(30_000, reached.size());
        assertFalse(overlapped.get(), "a preparer was called on two threads at once");
        assertEquals(3, made.get(), "the caller's preparer and one for each thread but the first, which goes on with it");
        assertTrue(used.size() >= 2, "the batches were prepared on more than one thread: " + used);
        assertFalse(readAheadRunning());
    }

    @Test
    void withSeveralThreadsWhatFailsIsThrownInItsTurn() throws IOException {
        for (int batch : new int[] {1, 5, 64}) {
            IllegalStateException boom = new IllegalStateException("boom");
            List<Integer> reached = new ArrayList<>();
            try (LinePipeline p = several(text(5_000), () -> (l, n) -> {
                if (n == 3_333) {
                    throw boom;
                }
                return l;
            }, 3, batch, reached::add)) {
                List<Integer> seen = new ArrayList<>();
                IllegalStateException thrown = assertThrows(IllegalStateException.class, () -> {
                    while (p.next()) {
                        seen.add(p.lineNumber());
                    }
                });
                assertSame(boom, thrown);
                assertEquals(3_332, seen.size(), "batch " + batch + ": every line before the one that failed");
                assertEquals(3_332, seen.get(seen.size() - 1));
                assertEquals(3_333, reached.get(reached.size() - 1), "the failed line is the one reached");
            }
            assertFalse(readAheadRunning());
        }
    }

    @Test
    void withSeveralThreadsADeadThreadIsThrownInItsBatchsTurnAndCloseLeavesNone() throws Exception {
        List<Integer> seen = new ArrayList<>();
        List<Integer> reached = new ArrayList<>();
        IllegalStateException e = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(20),
                () -> assertThrows(IllegalStateException.class, () -> {
                    try (LinePipeline p = several(text(5000), () -> (l, n) -> l, 3, 10, reached::add)) {
                        assertTrue(p.next());
                        seen.add(p.lineNumber());
                        Thread.sleep(300); // the threads fill the window and wait for room
                        // interrupted by something other than close(): each ends, and the batches they held are lost
                        Thread.getAllStackTraces().keySet().stream()
                                .filter(t -> t.getName().equals(LinePipeline.THREAD_NAME)).forEach(Thread::interrupt);
                        while (p.next()) {
                            seen.add(p.lineNumber());
                        }
                    }
                }));
        assertTrue(e.getCause() instanceof InterruptedException, String.valueOf(e.getCause()));
        for (int i = 0; i < seen.size(); i++) {
            assertEquals(i + 1, seen.get(i));
        }
        // the batches handed over before the first one lost: at least those read while the reader slept (another
        // thread may have read one more between the interrupted thread letting go of the reading and ending)
        assertTrue(seen.size() >= 10 + 10 * LinePipeline.QUEUED && seen.size() < 5000 && seen.size() % 10 == 0,
                "whole batches, in order: " + seen.size());
        assertEquals(seen.size(), reached.get(reached.size() - 1), "no line was being read: the last handed out stands");
        assertFalse(readAheadRunning());

        AtomicInteger prepared = new AtomicInteger();
        LinePipeline p = several(text(200_000), () -> (l, n) -> prepared.incrementAndGet(), 3, 16, n -> { });
        for (int i = 0; i < 100; i++) {
            assertTrue(p.next());
        }
        p.close();
        assertFalse(readAheadRunning(), "every read-ahead thread has ended");
        assertTrue(prepared.get() < 200_000, "they stopped before the end: " + prepared.get());
    }

    @Test
    void aPreparerThatCannotBeMadeLeavesFewerThreadsAndNoneBehind() throws IOException {
        AtomicInteger made = new AtomicInteger();
        java.util.function.Supplier<LinePipeline.Preparer> preparers = () -> {
            if (made.incrementAndGet() == 2) {
                throw new OutOfMemoryError("no room for a second reader");
            }
            return (l, n) -> l;
        };
        try (LinePipeline p = several(text(20_000), preparers, 3, 16, n -> { })) {
            int count = 0;
            while (p.next()) {
                count++;
                assertEquals("line " + count, p.prepared());
            }
            assertEquals(20_000, count);
        }
        assertFalse(readAheadRunning());
    }

    @Test
    void withSeveralThreadsAPreparersFailureIsThrownInItsTurn() {
        Exception odd = new Exception("not an IOException, thrown unchecked");
        List<Integer> seen = new ArrayList<>();
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> {
            try (LinePipeline p = several(text(2_000), () -> (l, n) -> {
                if (n == 500) {
                    throw LinePipelineTest.<RuntimeException>sneaky(odd);
                }
                return l;
            }, 3, 10, n -> { })) {
                while (p.next()) {
                    seen.add(p.lineNumber());
                }
            }
        });
        assertSame(odd, e.getCause());
        assertEquals(499, seen.size(), "every line before it");
    }

    @Test
    void theReadAheadThreadsPropertyIsTakenWithinItsRange() {
        String before = System.getProperty(LineImporter.READ_AHEAD_THREADS);
        try {
            System.setProperty(LineImporter.READ_AHEAD_THREADS, "1");
            assertEquals(1, LinePipeline.workersWorthIt());
            System.setProperty(LineImporter.READ_AHEAD_THREADS, "5");
            assertEquals(5, LinePipeline.workersWorthIt());
            System.setProperty(LineImporter.READ_AHEAD_THREADS, "0");
            assertEquals(1, LinePipeline.workersWorthIt(), "at least one");
            System.setProperty(LineImporter.READ_AHEAD_THREADS, "1000");
            assertEquals(8, LinePipeline.workersWorthIt(), "at most eight");
            System.setProperty(LineImporter.READ_AHEAD_THREADS, "many");
            assertEquals(Math.min(3, Runtime.getRuntime().availableProcessors()), LinePipeline.workersWorthIt(),
                    "not a number: the default");
        } finally {
            if (before == null) {
                System.clearProperty(LineImporter.READ_AHEAD_THREADS);
            } else {
                System.setProperty(LineImporter.READ_AHEAD_THREADS, before);
            }
        }
    }
}
