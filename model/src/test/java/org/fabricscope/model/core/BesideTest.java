package org.fabricscope.model.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

class BesideTest {
    @Test
    void startedWorkRunsOnItsOwnThreadOnce() throws Exception {
        AtomicReference<Thread> ran = new AtomicReference<>();
        AtomicInteger runs = new AtomicInteger();
        CountDownLatch started = new CountDownLatch(1);
        Beside<String> b = Beside.start("beside-test", () -> {
            ran.set(Thread.currentThread());
            runs.incrementAndGet();
            started.countDown();
            return "done";
        });
        started.await(); // a join before the thread starts runs the work itself, as the next test shows
        assertEquals("done", b.join());
        assertEquals("done", b.join());
        assertEquals(1, runs.get());
        assertNotEquals(Thread.currentThread(), ran.get());
        assertEquals("beside-test", ran.get().getName());
        assertTrue(ran.get().isDaemon());
    }

    @Test
    void deferredWorkRunsOnTheJoiningThread() {
        AtomicReference<Thread> ran = new AtomicReference<>();
        Beside<Integer> b = Beside.deferred(() -> {
            ran.set(Thread.currentThread());
            return 42;
        });
        assertEquals(null, ran.get(), "nothing runs before join");
        assertEquals(42, b.join());
        assertSame(Thread.currentThread(), ran.get());
    }

    @Test
    void whatTheWorkThrowsIsRethrownUnwrapped() {
        IllegalArgumentException boom = new IllegalArgumentException("boom");
        assertSame(boom, assertThrows(IllegalArgumentException.class,
                () -> Beside.start("beside-fail", () -> {
                    throw boom;
                }).join()));
        StackOverflowError deep = new StackOverflowError("deep");
        assertSame(deep, assertThrows(StackOverflowError.class, () -> Beside.deferred(() -> {
            throw deep;
        }).join()));
        IllegalStateException checked = assertThrows(IllegalStateException.class, () -> Beside.deferred(() -> {
            throw new IOException("disk");
        }).join());
        assertEquals("disk", checked.getCause().getMessage());
    }

    @Test
    void anInterruptWhileWaitingIsKeptForTheCaller() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        Beside<String> b = Beside.start("beside-slow", () -> {
            started.countDown();
            Thread.sleep(200);
            return "late";
        });
        started.await();
        Thread.currentThread().interrupt();
        try {
            assertEquals("late", b.join(), "the result still comes");
            assertTrue(Thread.currentThread().isInterrupted(), "and the interrupt is passed on");
        } finally {
            Thread.interrupted();
        }
    }
}
