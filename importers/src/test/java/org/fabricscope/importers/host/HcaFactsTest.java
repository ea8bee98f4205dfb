package org.fabricscope.importers.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.fabricscope.importers.TestSupport;
import org.fabricscope.model.FabricModel;
import org.fabricscope.model.evidence.HcaFact;
import org.fabricscope.model.evidence.HostEvidence;
import org.junit.jupiter.api.Test;

/**
 * The HCAs' facts a comparison needs: firmware and CA type from {@code ibstat}, firmware, part and board id and each
 * port's active MTU from {@code ibv_devinfo -v}, an interface's MTU from {@code ip addr}; a value past
 * {@link HcaFact#MAX_VALUE} is named and its line skipped while the rest of the file is read.
 */
class HcaFactsTest {
    private static final String IBSTAT = "CA 'mlx5_0'\n\tCA type: MT4123\n\tNumber of ports: 1\n\tFirmware version: 20.35.1012\n"
            + "\tHardware version: 0\n\tNode GUID: 0xb8cef60301050010\n\tPort 1:\n\t\tState: Active\n\t\tPhysical state: LinkUp\n"
            + "\t\tRate: 200\n\t\tBase lid: 33\n\t\tSM lid: 1\n\t\tLink layer: InfiniBand\n";
    private static final String DEVINFO = "hca_id:\tmlx5_3\n\ttransport:\t\t\tInfiniBand (0)\n\tfw_ver:\t\t\t\t20.35.1012\n"
            + "\tnode_guid:\t\t\tb8ce:f603:0105:0016\n\tvendor_part_id:\t\t\t4123\n\tboard_id:\t\t\tMT_0000000223\n"
            + "\tphys_port_cnt:\t\t\t1\n\t\tport:\t1\n\t\t\tstate:\t\t\tPORT_ACTIVE (4)\n\t\t\tmax_mtu:\t\t4096 (5)\n"
            + "\t\t\tactive_mtu:\t\t2048 (4)\n\t\t\tlink_layer:\t\tInfiniBand\n";

    private static List<String> facts(FabricModel m, String host) {
        HostEvidence h = m.hostEvidence().get(host);
        return h.hcaFacts().stream().map(f -> f.field() + "=" + f.value()).toList();
    }

    @Test
    void ibstatAndIbvDevinfoGiveFirmwareTypeAndMtu() {
        FabricModel m = TestSupport.importTexts("gpu-a17/ibstat.txt", IBSTAT, "gpu-a17/ibv_devinfo-v.txt", DEVINFO).model();
        assertEquals(List.of("mlx5_0 ca type=MT4123", "mlx5_0 firmware=20.35.1012", "mlx5_3 firmware=20.35.1012",
                "mlx5_3 part id=4123", "mlx5_3 board id=MT_0000000223", "mlx5_3 port 1 active mtu=2048"), facts(m, "gpu-a17"));
    }

    @Test
    void ipAddrGivesTheMtu() {
        FabricModel m = TestSupport.importTexts("gpu-a17/ip-addr.txt", "2: eth0: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 9000 qdisc mq "
                + "state UP group default qlen 1000\n    inet 10.0.1.5/24 brd 10.0.1.255 scope global eth0\n"
                + "3: ib0: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 4092 qdisc mq state UP group default qlen 256\n").model();
        HostEvidence h = m.hostEvidence().get("gpu-a17");
        assertEquals(9000, h.iface("eth0").orElseThrow().mtu());
        assertEquals(4092, h.iface("ib0").orElseThrow().mtu());
    }

    @Test
    void aValuePastTheLimitIsNamedAndTheRestIsRead() {
        String longFw = "9".repeat(HcaFact.MAX_VALUE + 1);
        FabricModel m = TestSupport.importTexts("gpu-a17/ibstat.txt", IBSTAT.replace("20.35.1012", longFw)).model();
        String d = TestSupport.dump(m.diagnostics());
        assertTrue(d.contains("ibstat.txt:4") && d.contains("HcaFact.MAX_VALUE"), d);
        assertEquals(List.of("mlx5_0 ca type=MT4123"), facts(m, "gpu-a17"), "the long value is not kept, the rest is");
        assertEquals(1, m.hostEvidence().get("gpu-a17").hcaPorts().size(), "the port after it is read");
    }
}
