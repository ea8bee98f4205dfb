package org.fabricscope.app.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import org.fabricscope.app.task.TaskContext;
import org.fabricscope.importers.core.ImportCancelledException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The import started at launch: taken once by the same paths, cancelled by others, progress and cancel passed on. */
@Timeout(30)
class EarlyImportTest {
    private static final List<Path> PATHS = List.of(Path.of("a.txt"), Path.of("b.txt"));

    /** A task context that records what it was told and can be cancelled. */
    static final class Ctx implements TaskContext {
        final AtomicReference<String> message = new AtomicReference<>();
        volatile long done;
        volatile boolean cancelled;

        @Override
        public void updateProgress(long d, long total) {
            done = d;
        }

        @Override
        public void updateMessage(String m) {
            message.set(m);
        }

        @Override
        public boolean isCancelled() {
            return cancelled;
        }
    }

    @AfterEach
    void clear() {
        EarlyImport.take(List.of()); // nothing pending leaks into another test
    }

    @Test
    void theSamePathsTakeItOnceAndGetItsProgressAndResult() throws Exception {
        CountDownLatch reported = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        EarlyImport.start(PATHS, ctx -> {
            ctx.updateProgress(3, 10);
            ctx.updateMessage("Reading a.txt");
            reported.countDown();
            release.await();
            return null; // a snapshot needs a model; the hand-over is what is tested
        });
        assertTrue(reported.await(10, TimeUnit.SECONDS));
        EarlyImport early = EarlyImport.take(List.copyOf(PATHS));
        assertTrue(early != null);
        assertNull(EarlyImport.take(PATHS), "taken once");
        Ctx ctx = new Ctx();
        Thread waiter = new Thread(() -> {
            try {
                early.await(ctx);
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        });
        waiter.start();
        while (ctx.message.get() == null) {
            Thread.sleep(10);
        }
        assertEquals("Reading a.txt", ctx.message.get());
        assertEquals(3, ctx.done);
        release.countDown();
        waiter.join(10_000);
        assertTrue(!waiter.isAlive());
    }

    @Test
    void otherPathsCancelIt() throws Exception {
        AtomicBoolean sawCancel = new AtomicBoolean();
        CountDownLatch started = new CountDownLatch(1);
        EarlyImport.start(PATHS, ctx -> {
            started.countDown();
            while (!ctx.isCancelled()) {
                Thread.sleep(5);
            }
            sawCancel.set(true);
            throw new ImportCancelledException();
        });
        assertTrue(started.await(10, TimeUnit.SECONDS));
        assertNull(EarlyImport.take(List.of(Path.of("other.txt"))));
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!sawCancel.get() && System.nanoTime() < until) {
            Thread.sleep(5);
        }
        assertTrue(sawCancel.get(), "the import was told to stop");
    }

    @Test
    void cancellingTheWaitingTaskStopsTheImport() throws Exception {
        AtomicBoolean sawCancel = new AtomicBoolean();
        EarlyImport.start(PATHS, ctx -> {
            while (!ctx.isCancelled()) {
                Thread.sleep(5);
            }
            sawCancel.set(true);
            return null;
        });
        EarlyImport early = EarlyImport.take(PATHS);
        Ctx ctx = new Ctx();
        ctx.cancelled = true;
        assertThrows(ImportCancelledException.class, () -> early.await(ctx));
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!sawCancel.get() && System.nanoTime() < until) {
            Thread.sleep(5);
        }
        assertTrue(sawCancel.get());
    }

    @Test
    void largeInputsAreNotImportedBeforeTheWindow(@org.junit.jupiter.api.io.TempDir Path dir) throws IOException {
        Path big = dir.resolve("fabric.txt");
        try (java.io.RandomAccessFile f = new java.io.RandomAccessFile(big.toFile(), "rw")) {
            f.setLength(Loader.EARLY_IMPORT_MAX_BYTES + 1);
        }
        assertTrue(!Loader.openEarly(List.of(big)), "past the limit the window imports, as before");
        assertNull(EarlyImport.take(List.of(big)));
        assertTrue(!Loader.openEarly(List.of(dir)), "a folder counts its files");
        Path small = java.nio.file.Files.writeString(java.nio.file.Files.createDirectories(dir.resolve("small"))
                .resolve("x.txt"), "x");
        assertTrue(Loader.openEarly(List.of(small)), "a small input starts before the window");
        EarlyImport early = EarlyImport.take(List.of(small));
        assertTrue(early != null);
        early.cancel();
        assertEquals(Loader.EARLY_IMPORT_MAX_BYTES + 1, Loader.bytesUpTo(List.of(big, small), Long.MAX_VALUE) - 1);
    }

    @Test
    void aFailureReachesTheWaitingTaskAsItself() {
        IOException boom = new IOException("cannot read a.txt");
        EarlyImport.start(PATHS, ctx -> {
            throw boom;
        });
        EarlyImport early = EarlyImport.take(PATHS);
        IOException e = assertThrows(IOException.class, () -> early.await(new Ctx()));
        assertSame(boom, e);
    }
}
