package org.fabricscope.importers.forensics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import org.fabricscope.importers.core.Cancellation;
import org.junit.jupiter.api.Test;

/**
 * Running out of memory or stack while one dump is read is that dump's diagnostic, and the next dump is
 * read as if nothing happened. The error is raised from inside the read (the cancellation check between
 * entries), where a real one would come from.
 */
class FlightRecorderGuardTest {
    @Test
    void outOfMemoryWhileReadingOneDumpIsItsDiagnostic() throws Exception {
        assertGuarded(() -> new OutOfMemoryError("Java heap space"), "more memory than the Java heap has");
    }

    @Test
    void stackOverflowWhileReadingOneDumpIsItsDiagnostic() throws Exception {
        assertGuarded(StackOverflowError::new, "nest too deeply");
    }

    private static void assertGuarded(Supplier<Error> error, String said) throws Exception {
        byte[] dump = FrPickles.pickle(FlightRecorderLargeJobTest.dump(2, 0, 3));
        FlightRecorderReader reader = new FlightRecorderReader(new SharedValues());
        AtomicInteger calls = new AtomicInteger();
        Cancellation failing = () -> {
            if (calls.incrementAndGet() > 1) { // the first check is before the read begins
                throw error.get();
            }
            return false;
        };
        FlightRecorderReader.Parsed bad = reader.parse(new ByteArrayInputStream(dump), "fr/nccl_trace_rank_0", dump.length,
                failing);
        assertNull(bad.dump());
        assertEquals(1, bad.problems().size(), bad.problems().toString());
        assertTrue(bad.problems().get(0).message().contains(said) && bad.problems().get(0).source().equals("fr/nccl_trace_rank_0"),
                bad.problems().toString());
        assertTrue(calls.get() > 1);
        FlightRecorderReader.Parsed good = reader.parse(new ByteArrayInputStream(dump), "fr/nccl_trace_rank_1", dump.length,
                Cancellation.NEVER);
        assertNotNull(good.dump());
        assertEquals(3, good.dump().entries().size());
    }
}
