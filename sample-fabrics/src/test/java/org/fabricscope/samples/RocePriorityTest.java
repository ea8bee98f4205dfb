package org.fabricscope.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.fabricscope.model.FabricModel;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.ranks.RankMap;
import org.fabricscope.model.ranks.RankSite;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The RoCE priority from NCCL's traffic class (issue 25 part B), and ranks joined to the NICs LLDP placed: the
 * {@code roce-lldp/nccl-tc-*} scenarios, and variants made here.
 */
class RocePriorityTest {
    @TempDir
    Path dir;

    private static final Path LLDP = Samples.root().resolve("roce-lldp");

    private static List<Path> fabric() {
        List<Path> files = new ArrayList<>();
        for (String node : List.of("spine-01", "spine-02", "leaf-01", "leaf-02", "gpu-node-01", "gpu-node-02", "gpu-node-03", "gpu-node-04")) {
            files.add(LLDP.resolve("healthy").resolve(node).resolve("lldpcli-neighbors.json"));
        }
        return files;
    }

    private static List<Path> scenario(String name, boolean rdma) {
        List<Path> files = fabric();
        if (rdma) {
            files.add(LLDP.resolve("rdma/gpu-node-01/rdma-link.txt"));
            files.add(LLDP.resolve("rdma/gpu-node-02/rdma-link.txt"));
        }
        files.add(LLDP.resolve("pfc-off/gpu-node-01/mlnx_qos.txt"));
        files.add(LLDP.resolve("pfc-off/gpu-node-02/mlnx_qos.txt"));
        files.add(LLDP.resolve(name).resolve("gpu-node-01/nccl.log"));
        files.add(LLDP.resolve(name).resolve("gpu-node-02/nccl.log"));
        return files;
    }

    private static List<Finding> withId(List<Finding> all, String id) {
        return all.stream().filter(f -> f.id().equals(id)).toList();
    }

    @Test
    void ncclDefaultTrafficClassIsPriorityZeroWherePfcIsOnThree() {
        List<Finding> f = withId(Samples.diagnose(Samples.load(scenario("nccl-tc-default", true)).model()), "roce-pfc-off");
        assertEquals(4, f.size(), f.toString()); // both NICs of both hosts with ranks
        String t = f.get(0).title();
        assertTrue(t.contains("PFC is enabled on priority 3 but not on 0"), t);
        assertTrue(t.contains("NCCL_IB_TC unset"), t);
        assertTrue(t.contains("NCCL's default 0: DSCP 0, priority 0 by the dscp2prio table"), t);
    }

    @Test
    void trafficClass106IsDscp26PriorityThree() {
        List<Finding> all = Samples.diagnose(Samples.load(scenario("nccl-tc-106", true)).model());
        assertEquals(List.of(), withId(all, "roce-pfc-off"));
    }

    @Test
    void aDscpTableThatMovesDscp26ElsewhereIsFollowed() throws IOException {
        // the host's table puts DSCP 26 on priority 5: PFC on 3 no longer covers NCCL_IB_TC=106
        String qos = Files.readString(LLDP.resolve("pfc-off/gpu-node-01/mlnx_qos.txt"))
                .replace("prio:3 dscp:31,30,29,28,27,26,25,24,", "prio:3 dscp:31,30,29,28,27,25,24,")
                .replace("prio:5 dscp:47,46,45,44,43,42,41,40,", "prio:5 dscp:47,46,45,44,43,42,41,40,26,");
        Path p = dir.resolve("gpu-node-01").resolve("mlnx_qos.txt");
        Files.createDirectories(p.getParent());
        Files.writeString(p, qos);
        List<Path> files = scenario("nccl-tc-106", true);
        files.set(files.indexOf(LLDP.resolve("pfc-off/gpu-node-01/mlnx_qos.txt")), p);
        List<Finding> f = withId(Samples.diagnose(Samples.load(files).model()), "roce-pfc-off");
        assertEquals(2, f.size(), f.toString());
        assertTrue(f.get(0).title().startsWith("gpu-node-01"), f.get(0).title());
        assertTrue(f.get(0).title().contains("NCCL_IB_TC=106 (NCCL log of gpu-node-01:4110): DSCP 26, priority 5 by the dscp2prio table"),
                f.get(0).title());
    }

    @Test
    void withoutNcclSettingsThePriorityIsSaidToBeAssumed() throws IOException {
        Path p = dir.resolve("gpu-node-04").resolve("mlnx_qos.txt");
        Files.createDirectories(p.getParent());
        Files.writeString(p, Files.readString(LLDP.resolve("pfc-off/gpu-node-04/mlnx_qos.txt")));
        List<Path> files = fabric();
        files.add(p);
        List<Finding> f = withId(Samples.diagnose(Samples.load(files).model()), "roce-pfc-off");
        assertEquals(1, f.size(), f.toString());
        assertTrue(f.get(0).title().contains("priority 3 assumed"), f.get(0).title());
        assertTrue(f.get(0).remedies().stream().anyMatch(r -> r.contains("could not be told")), f.get(0).remedies().toString());
    }

    @Test
    void ranksJoinTheirRoceNicsAndLeaves() {
        FabricModel m = Samples.load(scenario("nccl-tc-106", true)).model();
        RankMap ranks = RankMap.of(m);
        assertEquals(4, ranks.sites().size(), ranks.sites().toString());
        for (RankSite s : ranks.sites()) {
            assertNotNull(s.hca(), s.describe());
            String host = s.rank().host();
            // a rail job: GPU 0 on mlx5_0 (ens1f0np0, leaf-01), GPU 1 on mlx5_1 (ens2f0np0, leaf-02)
            assertEquals(host + " mlx5_" + s.rank().cudaDev(), s.hca().displayName(), s.describe());
            assertEquals(s.rank().cudaDev() == 0 ? "ens1f0np0" : "ens2f0np0", s.hcaPort().name(), s.describe());
            assertNotNull(s.leafPort(), s.describe());
            assertEquals(s.rank().cudaDev() == 0 ? "leaf-01" : "leaf-02", s.leafPort().node().displayName(), s.describe());
        }
    }

    @Test
    void withoutRdmaLinkRanksJoinThroughTheGidTable() throws IOException {
        // no rdma link show: show_gids' netdev column says mlx5_0 is ens1f0np0 and mlx5_1 ens2f0np0
        List<Path> files = scenario("nccl-tc-106", false);
        for (String h : List.of("gpu-node-01", "gpu-node-02")) {
            Path p = dir.resolve(h).resolve("show_gids.txt");
            Files.createDirectories(p.getParent());
            String n = h.substring(h.length() - 1);
            Files.writeString(p, "root@" + h + ":~# show_gids\nDEV\tPORT\tINDEX\tGID\t\t\t\t\tIPv4  \t\tVER\tDEV\n"
                    + "---\t----\t-----\t---\t\t\t\t\t------------  \t---\t---\n"
                    + "mlx5_0\t1\t3\t0000:0000:0000:0000:0000:ffff:c0a8:0a0" + n + "\t192.168.10." + n + "  \tv2\tens1f0np0\n"
                    + "mlx5_1\t1\t3\t0000:0000:0000:0000:0000:ffff:c0a8:0b0" + n + "\t192.168.11." + n + "  \tv2\tens2f0np0\n"
                    + "n_gids_found=2\n");
            files.add(p);
        }
        FabricModel m = Samples.load(files).model();
        RankMap ranks = RankMap.of(m);
        assertFalse(ranks.sites().isEmpty());
        for (RankSite s : ranks.sites()) {
            assertNotNull(s.hcaPort(), s.describe());
            assertEquals(s.rank().cudaDev() == 0 ? "ens1f0np0" : "ens2f0np0", s.hcaPort().name(), s.describe());
            assertEquals(s.rank().cudaDev() == 0 ? "leaf-01" : "leaf-02", s.leafPort().node().displayName(), s.describe());
        }
    }

    /** nccl-tc-106's inputs with each host's log's NCCL_IB_TC value replaced. */
    private List<Path> withTc(String tc1, String tc2) throws IOException {
        List<Path> files = scenario("nccl-tc-106", true);
        String[] tcs = {tc1, tc2};
        for (int n = 1; n <= 2; n++) {
            Path src = LLDP.resolve("nccl-tc-106/gpu-node-0" + n + "/nccl.log");
            Path p = dir.resolve("gpu-node-0" + n).resolve("nccl.log");
            Files.createDirectories(p.getParent());
            Files.writeString(p, Files.readString(src).replace("NCCL_IB_TC set by environment to 106.",
                    "NCCL_IB_TC set by environment to " + tcs[n - 1] + "."));
            files.set(files.indexOf(src), p);
        }
        return files;
    }

    @Test
    void aHexTrafficClassIsReadAsNcclReadsIt() throws IOException {
        // NCCL parses its integer variables with strtoll base 0: 0x68 is 104, DSCP 26
        assertEquals(List.of(), withId(Samples.diagnose(Samples.load(withTc("0x68", "0x68")).model()), "roce-pfc-off"));
    }

    @Test
    void unusableTrafficClassesAreSaidNotGuessed() throws IOException {
        for (String[] c : new String[][] {{"abc", "is not a number"}, {"300", "is past 255"}}) {
            List<Finding> f = Samples.diagnose(Samples.load(withTc(c[0], c[0])).model());
            // priority 3 assumed, PFC is on 3: no finding, but nothing was made up either
            assertEquals(List.of(), withId(f, "roce-pfc-off"), c[0]);
        }
        // the assumption shows where it decides: a NIC with PFC off everywhere
        Path qos = dir.resolve("q").resolve("gpu-node-01").resolve("mlnx_qos.txt");
        Files.createDirectories(qos.getParent());
        Files.writeString(qos, Files.readString(LLDP.resolve("pfc-off/gpu-node-01/mlnx_qos.txt"))
                .replace("enabled     0   0   0   1   0   0   0   0", "enabled     0   0   0   0   0   0   0   0"));
        List<Path> files = withTc("abc", "abc");
        files.set(files.indexOf(LLDP.resolve("pfc-off/gpu-node-01/mlnx_qos.txt")), qos);
        List<Finding> f = withId(Samples.diagnose(Samples.load(files).model()), "roce-pfc-off");
        assertEquals(2, f.size(), f.toString());
        assertTrue(f.get(0).title().contains("priority 3 assumed") && f.get(0).title().contains("NCCL_IB_TC=abc")
                && f.get(0).title().contains("is not a number"), f.get(0).title());
    }

    @Test
    void ranksThatDisagreeOnAHostWithoutItsOwnLogAreNotAveraged() throws IOException {
        // gpu-node-03 has no rank: the job's ranks set 106 and 0 -> its priority cannot be told
        Path qos = dir.resolve("gpu-node-03").resolve("mlnx_qos.txt");
        Files.createDirectories(qos.getParent());
        Files.writeString(qos, Files.readString(LLDP.resolve("pfc-off/gpu-node-03/mlnx_qos.txt"))
                .replace("enabled     0   0   0   1   0   0   0   0", "enabled     1   0   0   0   0   0   0   0"));
        List<Path> files = withTc("106", "0");
        files.add(qos);
        List<Finding> f = withId(Samples.diagnose(Samples.load(files).model()), "roce-pfc-off");
        List<String> titles = f.stream().map(Finding::title).toList();
        // gpu-node-02's own ranks say 0 (priority 0, PFC on 3): found; gpu-node-03 (PFC on 0): judged on the assumed 3
        assertTrue(titles.stream().anyMatch(t -> t.startsWith("gpu-node-02") && t.contains("NCCL_IB_TC=0 (NCCL log of gpu-node-02")), titles.toString());
        assertTrue(titles.stream().anyMatch(t -> t.startsWith("gpu-node-03") && t.contains("NCCL_IB_TC differs between the job's ranks (106, 0)")
                && t.contains("priority 3 assumed")), titles.toString());
        assertTrue(titles.stream().noneMatch(t -> t.startsWith("gpu-node-01")), titles.toString());
    }
}
