package org.fabricscope.importers.nccl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.fabricscope.importers.ImportResult;
import org.fabricscope.model.FabricModel;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.diagnosis.Diagnosis;
import org.fabricscope.model.diagnosis.ErrorThresholds;
import org.fabricscope.model.host.GpuFabricPath;
import org.fabricscope.model.host.HostNameSource;
import org.fabricscope.model.host.HostTopology;
import org.fabricscope.model.host.NetPort;
import org.junit.jupiter.api.Test;

/**
 * The real OCI dump joined to an ibnetdiscover fabric through the whole import: its net GUIDs are
 * the HCAs' system image GUIDs with the bytes reversed (0x9a70500003ae6d94 = 0x946dae030050709a).
 */
class FabricJoinTest {
    static final String IBNET = """
            vendid=0x2c9
            devid=0xd2f0
            sysimgguid=0xc42a10300010208
            switchguid=0xc42a10300010208(c42a10300010208)
            Switch\t40 "S-0c42a10300010208"\t\t# "MF0;leaf-1:MQM9700/U1" enhanced port 0 lid 25 lmc 0
            [1]\t"H-946dae030050709a"[1](946dae030050709b) \t\t# "oci-h100-01 mlx5_0" lid 250 4xNDR
            [2]\t"H-946dae030050709c"[1](946dae030050709d) \t\t# "oci-h100-01 mlx5_1" lid 251 4xNDR

            vendid=0x2c9
            devid=0x1021
            sysimgguid=0x946dae030050709a
            caguid=0x946dae030050709a
            Ca\t1 "H-946dae030050709a"\t\t# "oci-h100-01 mlx5_0"
            [1](946dae030050709b) \t"S-0c42a10300010208"[1]\t\t# lid 250 lmc 0 "MF0;leaf-1:MQM9700/U1" lid 25 4xNDR

            vendid=0x2c9
            devid=0x1021
            sysimgguid=0x946dae030050709a
            caguid=0x946dae030050709c
            Ca\t1 "H-946dae030050709c"\t\t# "oci-h100-01 mlx5_1"
            [1](946dae030050709d) \t"S-0c42a10300010208"[2]\t\t# lid 251 lmc 0 "MF0;leaf-1:MQM9700/U1" lid 25 4xNDR
            """;

    @Test
    void ociDumpJoinsTheFabricByByteSwappedSysImgGuid() {
        byte[] topo = NcclFiles.bytes(NcclFiles.OCI);
        ImportResult r = NcclFiles.importTexts("ibnetdiscover.txt", IBNET, "dump/topo.xml",
                new String(topo, java.nio.charset.StandardCharsets.UTF_8));
        FabricModel m = r.model();
        assertEquals(3, m.nodes().size());
        HostTopology t = m.hostTopology("oci-h100-01");
        assertNotNull(t, m.hostTopologies().keySet().toString());
        assertEquals(HostNameSource.FABRIC_GUID, t.nameSource(), "the GUID join beats the folder name \"dump\"");
        NetPort m0 = t.net("mlx5_0");
        assertEquals("oci-h100-01 mlx5_0", m0.hca().description());
        assertEquals(NetPort.Join.GUID_BYTE_SWAPPED, m0.join());
        assertEquals("oci-h100-01 mlx5_1", t.net("mlx5_1").hca().description());

        GpuFabricPath p = m.fabricPath(t.gpus().get(0));
        assertEquals("leaf-1", p.leaf().displayName());
        assertEquals(1, p.leafPort().number());

        List<Finding> fs = Diagnosis.standard(ErrorThresholds.defaults()).run(m, ErrorThresholds.defaults());
        List<Finding> unmatched = fs.stream().filter(f -> f.id().equals("nic-unmatched")).toList();
        assertEquals(14, unmatched.size(), "the 14 nets whose HCAs this fabric excerpt leaves out");
        assertTrue(unmatched.stream().allMatch(f -> f.evidence().get(0).source().equals("dump/topo.xml")));
        assertTrue(fs.stream().noneMatch(f -> f.id().equals("gpu-nic-far") || f.id().equals("gdr-disabled")
                || f.id().equals("pcie-degraded")), fs.toString());
    }
}
