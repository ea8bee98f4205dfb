package org.fabricscope.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

/**
 * What ends a thread other than by returning: a thread that runs out of memory leaves the report to the command's one
 * line (building the default handler's message on a full heap failed once in ten runs at 15-16 MiB, and the JVM
 * printed "OutOfMemoryError thrown from the UncaughtExceptionHandler"); anything else prints as before.
 */
class MainTest {
    private static String uncaught(Throwable e) {
        PrintStream was = System.err;
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            Main.uncaught(new Thread(() -> { }, "fabricscope-parse"), e);
        } finally {
            System.setErr(was);
        }
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void aThreadOutOfMemoryPrintsNothingAndAnyOtherFailureItsTrace() {
        assertEquals("", uncaught(new OutOfMemoryError("Java heap space")));
        String other = uncaught(new IllegalStateException("broken"));
        assertTrue(other.startsWith("Exception in thread \"fabricscope-parse\" java.lang.IllegalStateException: broken"), other);
        assertTrue(other.contains("\tat "), other);
    }
}
