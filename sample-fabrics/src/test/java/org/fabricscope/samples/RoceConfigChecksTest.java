package org.fabricscope.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.fabricscope.model.core.Finding;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code roce-mtu-mismatch}, {@code roce-pfc-one-end} and {@code lldp-neighbour-missing} beyond their golden
 * scenarios, on the captured {@code roce-lldp/configured} fabric with one file changed: a host MTU larger than its
 * switch port's, a host below the fabric's RoCE MTU with no switch end known, ends that agree, a plan that names the
 * RDMA device, and a switch whose own LLDP table was not loaded.
 */
class RoceConfigChecksTest {
    static final List<String> NODES = List.of("spine-01", "spine-02", "leaf-01", "leaf-02", "gpu-node-01", "gpu-node-02",
            "gpu-node-03", "gpu-node-04");
    static final Path CONFIGURED = Samples.root().resolve("roce-lldp/configured");

    @TempDir
    Path dir;

    private static List<Path> tables(List<String> nodes) {
        List<Path> out = new ArrayList<>();
        for (String n : nodes) {
            out.add(CONFIGURED.resolve(n).resolve("lldpcli-neighbors.json"));
        }
        return out;
    }

    private static List<Path> configs() {
        List<Path> out = new ArrayList<>();
        for (String n : NODES.subList(0, 4)) {
            out.add(CONFIGURED.resolve(n).resolve("config_db.json"));
        }
        return out;
    }

    /** gpu-node-02's ip -d link with its ens1f0np0 at {@code mtu}. */
    private Path ipLink(int mtu) throws IOException {
        return ipLink("gpu-node-02", mtu);
    }

    private Path ipLink(String host, int mtu) throws IOException {
        String text = Files.readString(CONFIGURED.resolve(host + "/ip-d-link.txt"));
        String changed = text.replaceFirst("(ens1f0np0@\\S+ <[A-Z_,]+> mtu )9000", "$1" + mtu);
        assertTrue(!changed.equals(text), "the capture has " + host + "'s ens1f0np0 at 9000");
        Path p = dir.resolve(host).resolve("ip-d-link.txt");
        Files.createDirectories(p.getParent());
        Files.writeString(p, changed);
        return p;
    }

    private static List<Finding> withId(List<Finding> all, String id) {
        return all.stream().filter(f -> f.id().equals(id)).toList();
    }

    @Test
    void aHostMtuLargerThanItsSwitchPortsDropsFrames() throws IOException {
        List<Path> in = new ArrayList<>(tables(NODES));
        in.addAll(configs());
        in.add(ipLink(9216));
        List<Finding> f = withId(Samples.diagnose(Samples.load(in).model()), "roce-mtu-mismatch");
        assertEquals(1, f.size(), f.toString());
        assertTrue(f.get(0).title().startsWith("gpu-node-02 ens1f0np0 MTU 9216 (ip link) is larger than leaf-01 Ethernet12 MTU 9000"
                + " (config_db.json): frames larger than 9000 bytes from gpu-node-02 are dropped by leaf-01"), f.get(0).title());
        assertEquals(2, f.get(0).evidence().size(), "both ends cited");
        assertTrue(f.get(0).evidence().get(1).source().endsWith("leaf-01/config_db.json"), f.get(0).evidence().toString());
    }

    @Test
    void withoutTheSwitchEndAHostBelowTheFabricsRoceMtuIsNamed() throws IOException {
        List<Path> in = new ArrayList<>(tables(NODES));
        for (String h : NODES.subList(4, 8)) {
            if (!h.equals("gpu-node-02")) {
                in.add(CONFIGURED.resolve(h).resolve("ip-d-link.txt"));
            }
        }
        in.add(ipLink(1500));
        List<Finding> f = withId(Samples.diagnose(Samples.load(in).model()), "roce-mtu-mismatch");
        assertEquals(1, f.size(), f.toString());
        assertTrue(f.get(0).title().startsWith("gpu-node-02 ens1f0np0 MTU 1500 (ip link) caps RoCE at 1024-byte packets while 7 of "
                + "the 8 RoCE NICs whose MTU is known get 4096"), f.get(0).title());
    }

    @Test
    void endsThatAgreeRaiseNothingAndAHostAt4200StillGets4096() throws IOException {
        List<Path> in = new ArrayList<>(tables(NODES));
        in.addAll(configs());
        in.add(ipLink(4200)); // 4200 - 96 RoCE header bytes >= 4096: RoCE is not capped, and 4200 < 9000
        List<Finding> f = Samples.diagnose(Samples.load(in).model());
        assertEquals(List.of(), f.stream().map(Finding::id).toList(), f.toString());
    }

    @Test
    void aPlanNamingTheRdmaDeviceMatchesTheNicThatCarriesIt() throws IOException {
        String cfg = Files.readString(CONFIGURED.resolve("leaf-01/config_db.json"))
                .replace("\"name\": \"gpu-node-01\",\n            \"port\": \"ens1f0np0\"", "\"name\": \"gpu-node-01\",\n            \"port\": \"mlx5_0\"")
                .replace("\"name\": \"gpu-node-02\",\n            \"port\": \"ens1f0np0\"", "\"name\": \"gpu-node-02\",\n            \"port\": \"mlx5_1\"");
        Path leaf = dir.resolve("leaf-01").resolve("config_db.json");
        Files.createDirectories(leaf.getParent());
        Files.writeString(leaf, cfg);
        List<Path> in = new ArrayList<>(tables(NODES));
        in.add(leaf);
        in.add(Samples.root().resolve("roce-lldp/rdma/gpu-node-01/rdma-link.txt"));
        in.add(Samples.root().resolve("roce-lldp/rdma/gpu-node-02/rdma-link.txt"));
        List<Finding> f = withId(Samples.diagnose(Samples.load(in).model()), "lldp-neighbour-missing");
        assertEquals(1, f.size(), f.toString()); // gpu-node-02's ens1f0np0 carries mlx5_0, not mlx5_1
        assertTrue(f.get(0).title().startsWith("leaf-01 Ethernet12: the plan (DEVICE_NEIGHBOR) expects gpu-node-02 mlx5_1 but LLDP shows "
                + "gpu-node-02 mlx5_0"), f.get(0).title());
    }

    @Test
    void aMissingNeighbourNeedsTheSwitchsOwnTable() throws IOException {
        Path nm = Samples.root().resolve("roce-lldp/neighbour-missing");
        List<Path> in = new ArrayList<>();
        for (String n : NODES) {
            if (!n.equals("leaf-02")) {
                in.add(nm.resolve(n).resolve("lldpcli-neighbors.json"));
            }
        }
        in.add(nm.resolve("leaf-02/config_db.json"));
        List<Finding> f = withId(Samples.diagnose(Samples.load(in).model()), "lldp-neighbour-missing");
        // the two swapped cables are still seen from the hosts' ends; the unplugged port cannot be told without leaf-02's table
        assertEquals(2, f.size(), f.toString());
        assertTrue(f.stream().noneMatch(x -> x.title().contains("Ethernet12")), f.toString());
    }

    @Test
    void pfcThatAgreesAtBothEndsIsNoFinding() throws IOException {
        List<Path> in = new ArrayList<>(tables(NODES));
        in.addAll(configs());
        in.add(Samples.root().resolve("roce-lldp/pfc-off/gpu-node-01/mlnx_qos.txt"));
        List<Finding> f = Samples.diagnose(Samples.load(in).model());
        assertEquals(List.of(), f.stream().map(Finding::id).toList(), f.toString());
        List<Finding> one = withId(Samples.diagnose(Samples.load(List.of(CONFIGURED.resolve("leaf-02/lldpcli-neighbors.json"),
                CONFIGURED.resolve("gpu-node-04/lldpcli-neighbors.json"), CONFIGURED.resolve("leaf-02/config_db.json"),
                Samples.root().resolve("roce-lldp/pfc-off/gpu-node-04/mlnx_qos.txt"))).model()), "roce-pfc-one-end");
        assertEquals(1, one.size(), one.toString()); // gpu-node-04's ens2f0np0 has PFC off, leaf-02 pauses on 3
        assertTrue(one.get(0).title().contains("enabled at leaf-02 Ethernet20 (config_db.json PORT_QOS_MAP: PFC on priorities 3,4) "
                + "but not at gpu-node-04 ens2f0np0 (mlnx_qos: PFC on no priority)"), one.get(0).title());
    }

    @Test
    void anActiveMtuTheNetdevCannotCarryIsNamedWithBothLines() throws IOException {
        // ibv_devinfo's layout (rdma-core libibverbs/examples/devinfo.c) for a ConnectX port in RoCE mode
        String devinfo = """
                hca_id:\tmlx5_0
                \ttransport:\t\t\tInfiniBand (0)
                \tnode_guid:\t\t\t0c42:a103:0012:3456
                \tphys_port_cnt:\t\t\t1
                \t\tport:\t1
                \t\t\tstate:\t\t\tPORT_ACTIVE (4)
                \t\t\tmax_mtu:\t\t4096 (5)
                \t\t\tactive_mtu:\t\t4096 (5)
                \t\t\tsm_lid:\t\t\t0
                \t\t\tport_lid:\t\t0
                \t\t\tlink_layer:\t\tEthernet
                """;
        Path info = dir.resolve("gpu-node-01").resolve("ibv_devinfo.txt");
        Files.createDirectories(info.getParent());
        Files.writeString(info, devinfo);
        List<Path> in = new ArrayList<>(tables(NODES));
        in.add(Samples.root().resolve("roce-lldp/rdma/gpu-node-01/rdma-link.txt"));
        in.add(ipLink("gpu-node-01", 1500));
        in.add(info);
        List<Finding> f = withId(Samples.diagnose(Samples.load(in).model()), "roce-mtu-mismatch");
        assertEquals(1, f.size(), f.toString());
        assertTrue(f.get(0).title().startsWith("gpu-node-01 mlx5_0: active_mtu 4096 (ibv_devinfo) needs a netdev MTU of at least 4192, "
                + "but ens1f0np0 has MTU 1500 (ip link), which holds RoCE packets of 1024 at most"), f.get(0).title());
        assertEquals(2, f.get(0).evidence().size());
        assertTrue(f.get(0).evidence().get(1).source().endsWith("ibv_devinfo.txt") && f.get(0).evidence().get(1).line() == 6,
                f.get(0).evidence().toString());
    }
}
