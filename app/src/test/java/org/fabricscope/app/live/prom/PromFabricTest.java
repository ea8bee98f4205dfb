package org.fabricscope.app.live.prom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.fabricscope.model.FabricModel;
import org.fabricscope.model.FabricModelBuilder;
import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.fabric.FabricNode;
import org.fabricscope.model.fabric.NodeKind;
import org.fabricscope.model.fabric.Port;
import org.junit.jupiter.api.Test;

/** node_exporter's series join an HCA by host and device; without one they are skipped, said once per HCA. */
class PromFabricTest {
    private static final Instant T0 = Instant.parse("2026-11-27T02:00:00Z");

    private static PromSeries series(String name, String instance, String device, double... values) {
        long[] t = new long[values.length];
        for (int i = 0; i < t.length; i++) {
            t[i] = T0.plusSeconds(30L * i).toEpochMilli();
        }
        return new PromSeries(Map.of("__name__", name, "instance", instance, "device", device, "port", "1"), t, values);
    }

    private static PromSnapshot snapshot(List<PromSeries> node) {
        return new PromSnapshot("http://prom:9090", T0, T0.plusSeconds(90), Duration.ofSeconds(30),
                Map.of("node_exporter", node), Map.of(), List.of(), T0);
    }

    private static final List<PromSeries> NODE = List.of(
            series("node_infiniband_symbol_error_total", "node-a:9100", "mlx5_0", 0, 0, 40, 80),
            series("node_infiniband_port_transmit_wait_total", "node-a:9100", "mlx5_0", 10, 20, 30, 40),
            series("node_infiniband_symbol_error_total", "node-b:9100", "mlx5_1", 0, 0, 0, 0),
            series("node_infiniband_port_transmit_wait_total", "node-b:9100", "mlx5_1", 0, 0, 0, 0));

    @Test
    void withoutAnHcaTheSeriesAreSkippedWithOneWarningPerHca() {
        FabricModelBuilder b = new FabricModelBuilder();
        snapshot(NODE).contribute(b);
        FabricModel m = b.build();
        List<String> warnings = m.diagnostics().stream().map(Diagnostic::message).filter(x -> x.contains("match no HCA")).toList();
        assertEquals(2, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).startsWith("node_exporter counters of \"node-a mlx5_0\""), warnings.get(0));
    }

    @Test
    void anHcaDescribedHostAndDeviceGetsTheSamplesWhereAnErrorCounterChanged() {
        FabricModelBuilder b = new FabricModelBuilder();
        FabricNode a = b.node(0xa0, NodeKind.CA);
        b.setDescription(a, "node-a mlx5_0");
        b.port(a, 1);
        snapshot(NODE).contribute(b);
        FabricModel m = b.build();
        Port p = m.nodes().iterator().next().port(1);
        // the first, the two where symbol errors rose, the last: PortXmitWait's growth alone keeps none
        assertEquals(List.of(T0, T0.plusSeconds(60), T0.plusSeconds(90)),
                p.counterSamples().stream().map(x -> x.time()).toList());
        assertEquals(80L, p.counters().get("SymbolErrorCounter"));
        assertEquals(40L, p.counters().get("PortXmitWait"));
        assertEquals(80L, p.counterRate("SymbolErrorCounter").increase());
        assertEquals(30L, p.counterRate("PortXmitWait").increase());
    }
}
