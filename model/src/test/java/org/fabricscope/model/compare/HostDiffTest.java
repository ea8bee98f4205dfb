package org.fabricscope.model.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.fabricscope.model.FabricModel;
import org.fabricscope.model.FabricModelBuilder;
import org.fabricscope.model.evidence.HcaFact;
import org.fabricscope.model.evidence.NetInterface;
import org.junit.jupiter.api.Test;

/** The hosts' firmware, MTUs and device facts: changed, added and removed, one change each (in field order), nothing when equal. */
class HostDiffTest {
    private static FabricModel host(String fw, int ifaceMtu, String activeMtu, String board) {
        FabricModelBuilder b = new FabricModelBuilder();
        var d = b.hostEvidence().file("gpu-a17/ibv_devinfo.txt", List.of("gpu-a17"));
        d.hcaFact(new HcaFact("mlx5_0", 0, HcaFact.FIRMWARE, fw, null));
        d.hcaFact(new HcaFact("mlx5_0", 1, HcaFact.ACTIVE_MTU, activeMtu, null));
        if (board != null) {
            d.hcaFact(new HcaFact("mlx5_0", 0, HcaFact.BOARD_ID, board, null));
        }
        b.hostEvidence().file("gpu-a17/ip-addr.txt", List.of("gpu-a17")).iface(new NetInterface("eth0", "UP", List.of("10.0.1.5/24"),
                null, ifaceMtu));
        return b.build();
    }

    private static List<String> changes(FabricModel before, FabricModel after) {
        return Comparison.of(before, List.of(), after, List.of()).changes(Change.HOSTS).stream().map(Change::text).toList();
    }

    @Test
    void firmwareMtuAndDeviceFactsChange() {
        FabricModel before = host("20.33.1048", 1500, "2048", "MT_0000000223");
        FabricModel after = host("20.35.1012", 9000, "4096", null);
        assertEquals(List.of("gpu-a17: interface eth0 mtu 1500 -> 9000", "gpu-a17: mlx5_0 board id removed (was MT_0000000223)",
                "gpu-a17: mlx5_0 firmware 20.33.1048 -> 20.35.1012", "gpu-a17: mlx5_0 port 1 active mtu 2048 -> 4096"),
                changes(before, after));
        assertEquals(List.of(), changes(before, host("20.33.1048", 1500, "2048", "MT_0000000223")));
    }

    @Test
    void anMtuNotGivenIsNotAChange() {
        assertEquals(List.of("gpu-a17: interface eth0 mtu removed (was 1500)"), changes(host("1", 1500, "4096", null), host("1", -1, "4096", null)));
    }
}
