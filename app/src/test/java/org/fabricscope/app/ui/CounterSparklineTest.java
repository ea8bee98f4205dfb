package org.fabricscope.app.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.fabricscope.model.FabricModel;
import org.fabricscope.model.FabricModelBuilder;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.fabric.FabricNode;
import org.fabricscope.model.fabric.NodeKind;
import org.fabricscope.model.fabric.Port;
import org.junit.jupiter.api.Test;

/** The inspector's sparklines: a counter that rose, drawn over its samples' times; none for a port read once. */
class CounterSparklineTest {
    private static Port port(long... symbolErrorsEvery5Min) {
        FabricModelBuilder b = new FabricModelBuilder();
        FabricNode n = b.node(0x10, NodeKind.CA);
        b.setDescription(n, "node-a mlx5_0");
        b.port(n, 1);
        Instant t0 = Instant.parse("2026-11-27T02:00:00Z");
        for (int i = 0; i < symbolErrorsEvery5Min.length; i++) {
            b.counters(0, 1, 0x10, null, Map.of("SymbolErrorCounter", symbolErrorsEvery5Min[i], "LinkDownedCounter", 2L),
                    Evidence.query("http://prom", "q", t0.plusSeconds(300L * i), ""), false, t0.plusSeconds(300L * i));
        }
        FabricModel m = b.build();
        return m.nodes().iterator().next().port(1);
    }

    @Test
    void aRisingCounterIsDrawnOverTime() {
        long[] v = new long[13];
        for (int i = 0; i < v.length; i++) {
            v[i] = i < 6 ? 7 : 7 + (i - 6) * 25L;
        }
        assertEquals(List.of("SymbolErrorCounter ▁▁▁▁▁▁▁▁▁▁▁▁▁▂▂▃▃▅▅▆▆▇▇█ +150 in 1.0 h"), CounterSparkline.lines(port(v)));
    }

    @Test
    void aPortReadOnceOrQuietHasNone() {
        assertEquals(List.of(), CounterSparkline.lines(port(5)));
        assertEquals(List.of(), CounterSparkline.lines(port(5000, 5000, 5000)));
    }

    @Test
    void aCounterClearedMidWayStillShowsWhatItCounted() {
        // 100 -> 150 (+50), cleared by someone, then 0 -> 30 (+30): it rose by 80, though it ends below where it began
        List<String> lines = CounterSparkline.lines(port(100, 150, 0, 30));
        assertEquals(1, lines.size(), lines.toString());
        assertEquals("+80 in 15 min", lines.get(0).substring(lines.get(0).indexOf('+')));
        assertEquals(PortTrend.of(port(100, 150, 0, 30)).increase(), 80, "the table's line and the text agree");
    }
}
