package org.fabricscope.importers.nccl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.fabricscope.importers.ImportResult;
import org.fabricscope.importers.TestSupport;
import org.fabricscope.model.core.Severity;
import org.fabricscope.model.host.HostTopology;
import org.fabricscope.model.host.NetPort;
import org.fabricscope.model.host.NvLink;
import org.fabricscope.model.host.PathType;
import org.junit.jupiter.api.Test;

/** The variants of FORMATS.md 1-2 that the reference files do not all show, written from the grammar. */
class NcclGrammarTest {
    static HostTopology read(String name, String text) {
        ImportResult r = NcclFiles.importTexts(name, text);
        assertEquals("", TestSupport.dump(TestSupport.atLeast(r.model(), Severity.WARNING)));
        return r.model().hostTopologies().values().iterator().next();
    }

    @Test
    void flattenedFileWithCommentsAndSixteenGts() {
        HostTopology t = read("ndv2.xml", """
                <!-- licence header -->
                <system version="1">
                  <cpu numaid="0" affinity="0000ffff" arch="x86_64" vendor="GenuineIntel" familyid="6" modelid="85">
                    <!-- GPU 0 -->
                    <pci busid="0000:00:04.0" class="0x030200" link_speed="16 GT/s" link_width="16"/>
                    <pci busid="0000:00:05.0" class="0x030000" link_speed="16 GT/s" link_width="16"/>
                    <pci busid="0000:00:08.0" class="0x020700" link_speed="16 GT/s" link_width="16"/>
                    <pci busid="0000:00:09.0" class="0x020000" link_speed="" link_width="16"/>
                  </cpu>
                </system>
                """);
        assertEquals("ndv2", t.name());
        assertEquals(2, t.gpus().size());
        assertEquals(2, t.nics().size());
        assertEquals(16.0, t.gpus().get(0).pci().linkGts());
        assertEquals(0.0, t.nics().get(1).pci().linkGts(), "empty link_speed is unknown, not an error");
        assertEquals("PHB", t.affinity().cell("GPU0", "NIC0").label());
    }

    @Test
    void nicDirectlyUnderCpuAndVersion2() {
        HostTopology t = read("mi300.xml", """
                <system version="2">
                  <cpu numaid="0" arch="x86_64" vendor="AuthenticAMD" familyid="25" modelid="17">
                    <pci busid="0000:0c:00.0" class="0x038000" link_speed="32.0 GT/s PCIe" link_width="16">
                      <gpu dev="0" sm="94" gcn="21943" arch="38911" rank="0" gdr="1"/>
                    </pci>
                    <nic>
                      <net name="eth0" dev="1" speed="25000" port="0" guid="17" maxconn="65536" gdr="0"/>
                    </nic>
                  </cpu>
                  <cpu numaid="1" arch="x86_64" vendor="AuthenticAMD">
                    <nic><net name="ib0" dev="0" speed="0" port="1" guid="0x10" gdr="0"/></nic>
                  </cpu>
                </system>
                """);
        assertEquals(2, t.version());
        assertEquals("21943", t.gpus().get(0).gcn());
        assertEquals(2, t.nics().size());
        NetPort eth0 = t.net("eth0");
        assertNull(eth0.nic().pci());
        assertEquals(17, eth0.guid(), "guid in decimal");
        assertEquals(16, t.net("ib0").guid(), "guid in hex");
        assertEquals(PathType.PHB, t.affinity().cell(t.gpus().get(0), eth0).type());
        assertEquals(PathType.SYS, t.affinity().cell(t.gpus().get(0), t.net("ib0")).type());
    }

    @Test
    void nvlinkTargetsGpuCpuAndSentinelAndC2c() {
        HostTopology t = read("gh.xml", """
                <system version="1">
                  <cpu numaid="0" arch="arm64">
                    <pci busid="0009:01:00.0" class="0x030200" link_speed="" link_width="0">
                      <gpu dev="0" sm="90" rank="0" gdr="1" mlopart="0">
                        <nvlink target="0009:02:00.0" count="6" tclass="0x030200"/>
                        <nvlink target="0000:00:00.0" count="2" tclass="0x068001"/>
                        <c2c bw="45000" count="10"/>
                      </gpu>
                    </pci>
                    <pci busid="0009:02:00.0" class="0x030200" link_speed="" link_width="0">
                      <gpu dev="1" sm="90" rank="1" gdr="1">
                        <nvlink target="0009:01:00.0" count="6" tclass="0x030200"/>
                        <nvlink target="fffffff:ff:ff.0" count="18" tclass="0x068000"/>
                      </gpu>
                    </pci>
                  </cpu>
                </system>
                """);
        var g0 = t.gpus().get(0);
        assertEquals(NvLink.TargetKind.GPU, g0.nvlinks().get(0).targetKind());
        assertEquals(t.gpus().get(1), g0.nvlinks().get(0).peerGpu());
        assertEquals(NvLink.TargetKind.CPU, g0.nvlinks().get(1).targetKind());
        assertEquals(450.0, g0.c2c().get(0).gigabytesPerSecond());
        assertEquals("NV6", t.affinity().cell("GPU0", "GPU1").label());
        assertTrue(t.gpus().get(1).nvlinks().get(1).remote());
    }

    @Test
    void brokenAttributesAreDiagnosedWithLines() {
        ImportResult r = NcclFiles.importTexts("bad.xml", """
                <system>
                  <cpu numaid="zero">
                    <pci class="0x030200"/>
                    <pci busid="0000:01:00.0" class="0x030200" link_speed="fast" link_width="x16">
                      <gpu dev="0" sm="90" rank="0"/>
                      <bogus/>
                    </pci>
                  </cpu>
                  <nic/>
                </system>
                """);
        String d = TestSupport.dump(r.model().diagnostics());
        assertTrue(d.contains("bad.xml:1: warning: <system> has no version"), d);
        assertTrue(d.contains("bad.xml:2: warning: numaid=\"zero\" is not a number"), d);
        assertTrue(d.contains("bad.xml:3: warning: <pci> without busid"), d);
        assertTrue(d.contains("bad.xml:4: warning: link_speed \"fast\""), d);
        assertTrue(d.contains("bad.xml:4: warning: link_width=\"x16\" is not a number"), d);
        assertTrue(d.contains("bad.xml:5: warning: <gpu> has no gdr"), d);
        assertTrue(d.contains("bad.xml:6: info: <bogus> is not expected inside <pci>"), d);
        assertTrue(d.contains("bad.xml:9: info: <nic> is not expected inside <system>"), d);
        assertEquals(1, r.model().hostTopologies().get("bad").gpus().size());
    }

    @Test
    void nvidiaSmiWithNics() {
        String smi = """
                \tGPU0\tGPU1\tNIC0\tNIC1\tCPU Affinity\tNUMA Affinity\tGPU NUMA ID
                GPU0\t X \tNV12\tPXB\tSYS\t0-63\t0\t\tN/A
                GPU1\tNV12\t X \tSYS\tPXB\t64-127\t1\t\tN/A
                NIC0\tPXB\tSYS\t X \tSYS
                NIC1\tSYS\tPXB\tSYS\t X\s

                Legend:

                  X    = Self

                NIC Legend:

                  NIC0: mlx5_0
                  NIC1: mlx5_1
                """;
        ImportResult r = NcclFiles.importTexts("dgx-a/nvidia-smi-topo.txt", smi);
        assertEquals("nvidia-smi-topo", r.formats().get("dgx-a/nvidia-smi-topo.txt"));
        HostTopology t = r.model().hostTopology("dgx-a");
        assertEquals(2, t.gpus().size());
        assertEquals(List.of("mlx5_0", "mlx5_1"), t.nets().stream().map(NetPort::name).toList());
        assertEquals("PXB", t.affinity().cell("GPU1", "NIC1").label());
        assertEquals("64-127", t.reportedMatrices().get(0).cpuAffinity().get("GPU1"));
        assertEquals(t.nets().get(0), t.affinity().nearestNet(t.gpus().get(0)));
    }
}
