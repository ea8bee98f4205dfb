package org.fabricscope.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.fabricscope.model.core.Finding;
import org.fabricscope.model.core.Severity;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code roce-pause-storm} and {@code roce-ecn-inactive} beyond their golden scenarios: a storm that made the NIC
 * stop sending pauses is an error, and a counter that was not read is unknown, never a flat zero.
 */
class RoceCongestionTest {
    @TempDir
    Path dir;

    /** Two samples five minutes apart of gpu-node-02's ens1f0np0, each with the given counter lines. */
    private Path counters(String first, String second) throws IOException {
        String head = "root@gpu-node-02:~# date\n%s\nroot@gpu-node-02:~# ethtool -S ens1f0np0\nNIC statistics:\n     rx_packets: 1000\n";
        String hw = "root@gpu-node-02:~# grep . /sys/class/infiniband/mlx5_0/ports/1/hw_counters/*\n";
        Path p = dir.resolve("gpu-node-02").resolve("counters.txt");
        Files.createDirectories(p.getParent());
        Files.writeString(p, String.format(head, "Fri Nov 27 02:00:00 UTC 2026") + first.replace("HW\n", hw)
                + String.format(head, "Fri Nov 27 02:05:00 UTC 2026") + second.replace("HW\n", hw));
        return p;
    }

    private List<Finding> diagnose(Path counters) throws IOException {
        assertTrue(Samples.load(List.of(counters)).model().diagnostics().stream()
                .noneMatch(d -> d.message().contains("not a format")), "the counters file is read");
        Path lldp = Samples.root().resolve("roce-lldp");
        List<Path> files = new ArrayList<>();
        for (String node : List.of("spine-01", "spine-02", "leaf-01", "leaf-02", "gpu-node-01", "gpu-node-02", "gpu-node-03", "gpu-node-04")) {
            files.add(lldp.resolve("healthy").resolve(node).resolve("lldpcli-neighbors.json"));
        }
        files.add(lldp.resolve("rdma/gpu-node-02/rdma-link.txt"));
        files.add(counters);
        return Samples.diagnose(Samples.load(files).model());
    }

    private static List<Finding> withId(List<Finding> all, String id) {
        return all.stream().filter(f -> f.id().equals(id)).toList();
    }

    @Test
    void aStormThatStoppedPausesIsAnError() throws IOException {
        List<Finding> f = withId(diagnose(counters("     tx_pause_storm_error_events: 0\n",
                "     tx_pause_storm_error_events: 3\n")), "roce-pause-storm");
        assertEquals(1, f.size(), f.toString());
        assertEquals(Severity.ERROR, f.get(0).severity());
        assertTrue(f.get(0).title().startsWith("gpu-node-02 mlx5_0 ens1f0np0: PFC pause storm in 5 min: tx_pause_storm_error_events +3"),
                f.get(0).title());
    }

    @Test
    void shortPausesAreNoStorm() throws IOException {
        // 10 s paused in 5 min: 3%, PFC doing its job
        List<Finding> f = diagnose(counters("     rx_prio3_pause: 10\n     rx_prio3_pause_duration: 0\n",
                "     rx_prio3_pause: 9000\n     rx_prio3_pause_duration: 10000000\n"));
        assertEquals(List.of(), withId(f, "roce-pause-storm"));
    }

    @Test
    void marksWithoutTheCnpCounterReadAreUnknownNotInactive() throws IOException {
        // np_cnp_sent is not in the samples: whether CNPs were sent is unknown
        List<Finding> f = diagnose(counters("HW\n/sys/class/infiniband/mlx5_0/ports/1/hw_counters/np_ecn_marked_roce_packets:0\n",
                "HW\n/sys/class/infiniband/mlx5_0/ports/1/hw_counters/np_ecn_marked_roce_packets:5000\n"));
        assertEquals(List.of(), withId(f, "roce-ecn-inactive"));
    }

    @Test
    void ignoredCnpsAreInactive() throws IOException {
        List<Finding> f = withId(diagnose(counters("HW\n/sys/class/infiniband/mlx5_0/ports/1/hw_counters/rp_cnp_ignored:0\n",
                "HW\n/sys/class/infiniband/mlx5_0/ports/1/hw_counters/rp_cnp_ignored:700\n")), "roce-ecn-inactive");
        assertEquals(1, f.size(), f.toString());
        assertTrue(f.get(0).title().contains("rp_cnp_ignored +700"), f.get(0).title());
    }
}
