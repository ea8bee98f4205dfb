package org.fabricscope.importers.lldp;

import org.fabricscope.importers.ImportResult;
import org.fabricscope.importers.TestSupport;
import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.core.Severity;
import org.fabricscope.model.evidence.HostEvidence;
import org.fabricscope.model.fabric.NetdevLink;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.fabricscope.importers.lldp.MlnxQosReaderTest.nic;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** ip -d link / ip addr / ip -j: each host netdev's MTU, state, MAC and addresses, put on the NIC LLDP placed. */
class IpLinkReaderTest {
    static final String LLDP = MlnxQosReaderTest.LLDP;

    /** ip -d link show of a namespace, as iproute2 6.1.0 printed it (sample-fabrics/roce-lldp). */
    static final String D_LINK = """
            1: lo: <LOOPBACK> mtu 65536 qdisc noop state DOWN mode DEFAULT group default qlen 1000
                link/loopback 00:00:00:00:00:00 brd 00:00:00:00:00:00 promiscuity 0  allmulti 0 minmtu 0 maxmtu 0 addrgenmode eui64
            98: ens1f0np0@if97: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 9000 qdisc noqueue state UP mode DEFAULT group default qlen 1000
                link/ether 4e:8e:22:e8:8d:9d brd ff:ff:ff:ff:ff:ff link-netns fsl3571-leaf-01 promiscuity 0  allmulti 0 minmtu 68 maxmtu 65535
                veth addrgenmode eui64 numtxqueues 2 numrxqueues 2 gso_max_size 65536 gso_max_segs 65535
            100: ens2f0np0@if99: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 qdisc noqueue state UP mode DEFAULT group default qlen 1000
                link/ether da:e7:b9:7c:b9:ec brd ff:ff:ff:ff:ff:ff link-netns fsl3571-leaf-02 promiscuity 0  allmulti 0 minmtu 68 maxmtu 65535
            """;

    /** ip -j addr show, one line, as iproute2 6.1.0 printed it. */
    static final String J_ADDR = "[{\"ifindex\":1,\"ifname\":\"lo\",\"flags\":[\"LOOPBACK\"],\"mtu\":65536,\"operstate\":\"DOWN\","
            + "\"address\":\"00:00:00:00:00:00\",\"addr_info\":[]},{\"ifindex\":596,\"link_index\":595,\"ifname\":\"ens1f0np0\","
            + "\"flags\":[\"BROADCAST\",\"MULTICAST\",\"UP\",\"LOWER_UP\"],\"mtu\":9000,\"qdisc\":\"noqueue\",\"operstate\":\"UP\","
            + "\"address\":\"a2:8f:4d:06:e5:73\",\"addr_info\":[{\"family\":\"inet\",\"local\":\"192.168.10.1\",\"prefixlen\":24,"
            + "\"scope\":\"global\"},{\"family\":\"inet6\",\"local\":\"fe80::a08f:4dff:fe06:e573\",\"prefixlen\":64,\"scope\":\"link\"}]}]\n";

    @Test
    void ipDLinkGivesEachPlacedNicItsMtuStateAndMac() {
        ImportResult r = TestSupport.importTexts("gpu-node-01/lldp.kv", LLDP, "gpu-node-01/ip-d-link.txt", D_LINK);
        assertEquals(IpLinkReader.ID, r.formats().get("gpu-node-01/ip-d-link.txt"));
        assertEquals(List.of(), TestSupport.atLeast(r.model(), Severity.WARNING));
        NetdevLink a = nic(r, "gpu-node-01 ens1f0np0").netdevLink();
        assertEquals(9000, a.mtu());
        assertEquals("UP", a.state());
        assertEquals("4e:8e:22:e8:8d:9d", a.mac());
        assertEquals(3, a.evidence().line());
        assertEquals(1500, nic(r, "gpu-node-01 ens2f0np0").netdevLink().mtu());
        HostEvidence h = r.model().hostEvidence("gpu-node-01");
        assertTrue(h != null && h.iface("ens1f0np0").isPresent(), "the netdevs also go to the host's evidence");
    }

    @Test
    void ipJAddrGivesAddressesAndStaysWithIpJson() {
        ImportResult r = TestSupport.importTexts("gpu-node-01/lldp.kv", LLDP, "gpu-node-01/ip-j-addr.json", J_ADDR);
        assertEquals(IpLinkReader.ID, r.formats().get("gpu-node-01/ip-j-addr.json"));
        NetdevLink a = nic(r, "gpu-node-01 ens1f0np0").netdevLink();
        assertEquals(9000, a.mtu());
        assertEquals(List.of("192.168.10.1/24", "fe80::a08f:4dff:fe06:e573/64"), a.addresses());
        assertEquals(1, a.evidence().line());
        assertNull(nic(r, "gpu-node-01 ens2f0np0").netdevLink());
    }

    @Test
    void manyHostsInOneFileAfterTheirMarkers() {
        String addr = """
                ==> gpu-node-01/ip-addr.txt <==
                5: ens1f0np0: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 9000 qdisc mq state UP group default qlen 1000
                    link/ether 0c:42:a1:00:00:01 brd ff:ff:ff:ff:ff:ff
                    inet 192.168.10.1/24 brd 192.168.10.255 scope global ens1f0np0
                       valid_lft forever preferred_lft forever
                ### node: gpu-node-02
                5: ens1f0np0: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 4200 qdisc mq state UP group default qlen 1000
                    link/ether 0c:42:a1:00:00:02 brd ff:ff:ff:ff:ff:ff
                    inet 192.168.10.2/24 brd 192.168.10.255 scope global ens1f0np0
                """;
        String lldp2 = LLDP.replace("Ethernet0", "Ethernet4");
        ImportResult r = TestSupport.importTexts("gpu-node-01/lldp.kv", LLDP, "gpu-node-02/lldp.kv", lldp2, "hosts-ip.txt", addr);
        assertEquals(IpLinkReader.ID, r.formats().get("hosts-ip.txt"));
        assertEquals(List.of("192.168.10.1/24"), nic(r, "gpu-node-01 ens1f0np0").netdevLink().addresses());
        NetdevLink b = nic(r, "gpu-node-02 ens1f0np0").netdevLink();
        assertEquals(4200, b.mtu());
        assertEquals(7, b.evidence().line());
        assertEquals("0c:42:a1:00:00:02", b.mac());
    }

    @Test
    void aSingleHostsPlainIpAddrStaysWithTheIpAddrReader() {
        String addr = "2: eth0@if12: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 qdisc noqueue state UP group default\n"
                + "    inet 10.0.1.5/24 brd 10.0.1.255 scope global eth0\n";
        ImportResult r = TestSupport.importTexts("pod-a/ip.txt", addr);
        assertEquals("ip-addr", r.formats().get("pod-a/ip.txt"));
    }

    @Test
    void badJsonIsReportedAtItsLineAndTheOtherHostsKept() {
        String text = "==> gpu-node-01/ip.json <==\n[{\"ifname\": \"ens1f0np0\", \"mtu\": 9000,\n  \"operstate\": }]\n"
                + "==> gpu-node-02/ip.json <==\n[{\"ifindex\": 5, \"ifname\": \"ens1f0np0\", \"mtu\": 9000}]\n";
        String lldp2 = LLDP.replace("Ethernet0", "Ethernet4");
        ImportResult r = TestSupport.importTexts("gpu-node-01/lldp.kv", LLDP, "gpu-node-02/lldp.kv", lldp2, "all.txt", text);
        List<Diagnostic> w = TestSupport.atLeast(r.model(), Severity.WARNING);
        assertEquals(1, w.size(), w.toString());
        assertEquals("all.txt", w.get(0).source());
        assertEquals(3, w.get(0).line());
        assertTrue(w.get(0).message().contains("not valid JSON") && w.get(0).message().contains("other hosts read"), w.toString());
        assertTrue(!w.get(0).message().contains("com.fasterxml") && !w.get(0).message().contains("Exception"), w.toString());
        assertNull(nic(r, "gpu-node-01 ens1f0np0").netdevLink());
        assertEquals(9000, nic(r, "gpu-node-02 ens1f0np0").netdevLink().mtu());
    }

    @Test
    void hugeMtusAreUnknownWithTheLimitNamed() {
        String text = "[{\"ifindex\": 5, \"ifname\": \"ens1f0np0\", \"mtu\": 99999999999999999999999},"
                + " {\"ifindex\": 6, \"ifname\": \"ens2f0np0\", \"mtu\": 2000000}]\n";
        ImportResult r = TestSupport.importTexts("gpu-node-01/lldp.kv", LLDP, "gpu-node-01/ip.json", text);
        List<Diagnostic> w = TestSupport.atLeast(r.model(), Severity.WARNING);
        assertEquals(2, w.size(), w.toString());
        assertTrue(w.stream().allMatch(d -> d.message().contains("IpLinkReader.MAX_MTU") && d.line() == 1), w.toString());
        assertEquals(-1, nic(r, "gpu-node-01 ens1f0np0").netdevLink().mtu());
        assertEquals(-1, nic(r, "gpu-node-01 ens2f0np0").netdevLink().mtu());
    }

    @Test
    void tooManyAddressesAreCutWithTheLimitNamed() {
        StringBuilder sb = new StringBuilder("### node: gpu-node-01\n5: ens1f0np0: <UP,LOWER_UP> mtu 9000 qdisc mq state UP\n");
        for (int i = 0; i < IpLinkReader.MAX_ADDRESSES + 5; i++) {
            sb.append("    inet 10.").append(i / 65536).append('.').append(i / 256 % 256).append('.').append(i % 256).append("/32 scope global\n");
        }
        ImportResult r = TestSupport.importTexts("gpu-node-01/lldp.kv", LLDP, "ip.txt", sb.toString());
        assertEquals(IpLinkReader.MAX_ADDRESSES, nic(r, "gpu-node-01 ens1f0np0").netdevLink().addresses().size());
        List<Diagnostic> w = TestSupport.atLeast(r.model(), Severity.WARNING);
        assertEquals(1, w.size(), w.toString());
        assertTrue(w.get(0).message().contains("IpLinkReader.MAX_ADDRESSES") && w.get(0).message().contains("5 not kept"), w.toString());
        assertEquals(3 + IpLinkReader.MAX_ADDRESSES, w.get(0).line());
    }

    @Test
    void aJsonObjectInsteadOfAnArrayAndEntriesWithoutNamesAreSkipped() {
        ImportResult r = TestSupport.importTexts("gpu-node-01/lldp.kv", LLDP, "gpu-node-01/ip.json",
                "[{\"ifindex\": 1, \"mtu\": 9000}, {\"ifindex\": 5, \"ifname\": \"ens1f0np0\", \"mtu\": 9000}]\n");
        List<Diagnostic> w = TestSupport.atLeast(r.model(), Severity.WARNING);
        assertEquals(1, w.size(), w.toString());
        assertTrue(w.get(0).message().contains("without an \"ifname\""), w.toString());
        assertEquals(9000, nic(r, "gpu-node-01 ens1f0np0").netdevLink().mtu());
    }
}
