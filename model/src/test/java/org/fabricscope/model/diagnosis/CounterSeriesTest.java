package org.fabricscope.model.diagnosis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.fabricscope.model.FabricModel;
import org.fabricscope.model.FabricModelBuilder;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.core.Severity;
import org.fabricscope.model.fabric.CounterRate;
import org.fabricscope.model.fabric.Port;
import org.junit.jupiter.api.Test;

/** Port counters as time series (decision 0013): with two timed samples the checks judge the rate per hour. */
class CounterSeriesTest {
    private static final Instant T0 = Instant.parse("2026-11-27T00:00:00Z");
    private static final ErrorThresholds T = ErrorThresholds.defaults();

    private final ChecksTest.Small s = new ChecksTest.Small(null, null);
    private final FabricModelBuilder b = s.b();

    private Port port(int i) {
        return s.hcas.get(i).port(1);
    }

    private void read(int i, long symbolErrors, Instant at) {
        b.counters(port(i).lid(), 1, 0, null, Map.of("SymbolErrorCounter", symbolErrors),
                Evidence.at("perfquery-" + (at == null ? "once" : at.toString()), 1, "SymbolErrorCounter:" + symbolErrors),
                false, at);
    }

    @Test
    void aHighCountThatStoppedGrowingIsQuietButOneSampleOfItIsNot() {
        read(0, 1000, T0);
        read(0, 1005, T0.plusSeconds(3600)); // 5 an hour: under 10/h
        read(1, 1000, null);                 // one sample: judged by its count, as always
        s.f.build();
        assertNull(LinkErrorsCheck.worst(port(0), T), "5/h is under the 10/h threshold");
        assertEquals(Severity.ERROR, LinkErrorsCheck.worst(port(1), T), "1000 is 100x the count threshold");
        assertEquals(2, port(0).counterSamples().size());
        assertEquals(1, port(1).counterSamples().size());
        assertNull(port(1).counterRate("SymbolErrorCounter"), "one sample has no rate");
    }

    @Test
    void aLowCountGrowingFastIsFlaggedWithItsRate() {
        read(2, 0, T0);
        read(2, 30, T0.plusSeconds(3600));   // 30/h: over 10/h, a warning
        read(3, 0, T0);
        read(3, 150, T0.plusSeconds(1800));  // 300/h: over 10x 10/h, an error
        FabricModel m = s.f.build();
        assertEquals(Severity.WARNING, LinkErrorsCheck.worst(port(2), T));
        assertEquals(Severity.ERROR, LinkErrorsCheck.worst(port(3), T));
        CounterRate r = port(3).counterRate("SymbolErrorCounter");
        assertEquals(150, r.increase());
        assertEquals(300.0, r.perHour(), 1e-9);
        List<Finding> f = new LinkErrorsCheck(T).run(CheckContext.of(m));
        Finding warn = f.stream().filter(x -> x.severity() == Severity.WARNING).findFirst().orElseThrow();
        assertEquals("SymbolErrorCounter +30 in 1.0 h = 30.0/h (threshold 10/h; 2 samples, now 30)",
                warn.evidence().get(0).text());
        assertEquals("perfquery-2026-11-27T01:00:00Z", warn.evidence().get(0).source(), "cited at the latest reading");
    }

    @Test
    void aClearedCounterCountsFromZeroAgain() {
        read(4, 50, T0);
        read(4, 3, T0.plusSeconds(1800)); // perfquery -R in between: 3 since, 6/h
        read(4, 7, T0.plusSeconds(3600)); // 4 more: 7 in the hour
        s.f.build();
        CounterRate r = port(4).counterRate("SymbolErrorCounter");
        assertEquals(7, r.increase());
        assertEquals(3, r.samples());
        assertNull(LinkErrorsCheck.worst(port(4), T));
    }

    @Test
    void readingsAreOrderedByTimeWhateverTheFileOrder() {
        read(5, 40, T0.plusSeconds(7200)); // the later reading comes first
        read(5, 20, T0);
        s.f.build();
        assertEquals(40L, port(5).counter("SymbolErrorCounter"), "the port's counters are the latest reading");
        assertEquals(T0, port(5).counterSamples().get(0).time());
        assertEquals(10.0, port(5).counterRate("SymbolErrorCounter").perHour(), 1e-9);
        assertNull(LinkErrorsCheck.worst(port(5), T), "10/h is at the threshold, not over it");
    }

    @Test
    void readingsWithoutTimesAreJudgedByTheLastCountAsBefore() {
        read(6, 5, null);
        read(6, 12, null);
        s.f.build();
        assertNull(port(6).counterRate("SymbolErrorCounter"));
        assertEquals(Severity.WARNING, LinkErrorsCheck.worst(port(6), T));
        assertTrue(port(6).counterSamples().stream().allMatch(x -> x.time() == null));
    }
}
