package org.fabricscope.importers.lldp;

import org.fabricscope.importers.ImportResult;
import org.fabricscope.importers.TestSupport;
import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.core.Severity;
import org.fabricscope.model.fabric.Port;
import org.fabricscope.model.fabric.SwitchPortConfig;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.fabricscope.importers.lldp.MlnxQosReaderTest.nic;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** SONiC config_db.json: PORT, PORT_QOS_MAP and DEVICE_NEIGHBOR on the switch ports LLDP placed. */
class SonicConfigDbReaderTest {
    /** leaf-01's table: gpu-node-01's NIC on Ethernet8. */
    static final String LLDP = "lldp.Ethernet8.chassis.name=gpu-node-01\nlldp.Ethernet8.port.ifname=ens1f0np0\n"
            + "lldp.Ethernet0.chassis.name=spine-01\nlldp.Ethernet0.port.ifname=Ethernet0\n";

    static final String CONFIG = """
            {
                "DEVICE_METADATA": {
                    "localhost": {
                        "hostname": "leaf-01",
                        "hwsku": "sim-32x400G"
                    }
                },
                "DEVICE_NEIGHBOR": {
                    "Ethernet8": {
                        "name": "gpu-node-01",
                        "port": "ens1f0np0"
                    },
                    "Ethernet12": {
                        "name": "gpu-node-02",
                        "port": "ens1f0np0"
                    }
                },
                "PORT": {
                    "Ethernet0": {"admin_status": "up", "alias": "etp1", "mtu": "9100", "speed": "400000"},
                    "Ethernet8": {"admin_status": "up", "alias": "etp3", "mtu": "9000", "speed": "400000"},
                    "Ethernet12": {"admin_status": "up", "alias": "etp4", "mtu": "9000", "speed": "400000"},
                    "Ethernet16": {"admin_status": "down", "alias": "etp5", "mtu": "9100", "speed": "400000"}
                },
                "PORT_QOS_MAP": {
                    "global": {"dscp_to_tc_map": "AZURE"},
                    "Ethernet0,Ethernet12": {"pfc_enable": "3,4", "tc_to_pg_map": "AZURE"},
                    "Ethernet8": {"pfc_enable": "4"}
                }
            }
            """;

    @Test
    void portsQosAndPlannedNeighboursGoOnThePortsLldpPlaced() {
        ImportResult r = TestSupport.importTexts("leaf-01/lldp.kv", LLDP, "leaf-01/config_db.json", CONFIG);
        assertEquals(SonicConfigDbReader.ID, r.formats().get("leaf-01/config_db.json"));
        assertEquals(List.of(), TestSupport.atLeast(r.model(), Severity.WARNING));
        SwitchPortConfig e8 = nic(r, "leaf-01 Ethernet8").switchConfig();
        assertEquals(9000, e8.mtu());
        assertEquals("up", e8.adminStatus());
        assertEquals("etp3", e8.alias());
        assertFalse(e8.pfcEnabled(3));
        assertTrue(e8.pfcEnabled(4));
        assertEquals(27, e8.qosEvidence().line());
        assertEquals("gpu-node-01", e8.expectedNeighbour());
        assertEquals("ens1f0np0", e8.expectedNeighbourPort());
        assertEquals(9, e8.neighbourEvidence().line());
        assertEquals(20, e8.portEvidence().line());
        SwitchPortConfig e0 = nic(r, "leaf-01 Ethernet0").switchConfig();
        assertTrue(e0.pfcEnabled(3) && e0.pfcEnabled(4));
        assertEquals(9100, e0.mtu());
        // a planned port no LLDP table lists is on the map (so lldp-neighbour-missing can name it); an unplanned one is not
        Port e12 = nic(r, "leaf-01 Ethernet12");
        assertNull(e12.cable());
        assertEquals("gpu-node-02", e12.switchConfig().expectedNeighbour());
        assertTrue(r.model().fabric().nodes().values().stream().flatMap(n -> n.ports().stream())
                .noneMatch(p -> "Ethernet16".equals(p.name())));
    }

    @Test
    void theRedisDumpFormAndOldNeighbourKeysAreRead() {
        String dump = """
                {
                    "DEVICE_METADATA|localhost": {"hostname": "leaf-01"},
                    "PORT|Ethernet8": {"mtu": "9100", "alias": "etp3"},
                    "PORT_QOS_MAP|Ethernet8": {"pfc_enable": "3,4"},
                    "DEVICE_NEIGHBOR": {"gpu-node-01": {"local_port": "Ethernet8", "port": "mlx5_0"}}
                }
                """;
        ImportResult r = TestSupport.importTexts("leaf-01/lldp.kv", LLDP, "dump.json", dump);
        assertEquals(SonicConfigDbReader.ID, r.formats().get("dump.json"));
        SwitchPortConfig c = nic(r, "leaf-01 Ethernet8").switchConfig();
        assertEquals(9100, c.mtu());
        assertTrue(c.pfcEnabled(3));
        assertEquals("gpu-node-01", c.expectedNeighbour());
        assertEquals("mlx5_0", c.expectedNeighbourPort());
    }

    @Test
    void badJsonIsReportedAtItsLineAndTheLldpFabricKept() {
        String bad = "{\n  \"DEVICE_METADATA\": {\"localhost\": {\"hostname\": \"leaf-01\"}},\n  \"PORT\": {\"Ethernet8\": {\"mtu\": \"9100\",}}\n}\n";
        ImportResult r = TestSupport.importTexts("leaf-01/lldp.kv", LLDP, "leaf-01/config_db.json", bad);
        List<Diagnostic> w = TestSupport.atLeast(r.model(), Severity.WARNING);
        assertEquals(1, w.size(), w.toString());
        assertEquals("leaf-01/config_db.json", w.get(0).source());
        assertEquals(3, w.get(0).line());
        assertTrue(w.get(0).message().startsWith("SONiC config_db.json: not valid JSON"), w.toString());
        assertFalse(w.get(0).message().contains("fasterxml") || w.get(0).message().contains("Exception"), w.toString());
        assertNotNull(nic(r, "leaf-01 Ethernet8").cable(), "the LLDP fabric is kept");
        assertNull(nic(r, "leaf-01 Ethernet8").switchConfig());
    }

    @Test
    void hugeAndBadValuesAreRefusedAtTheirLinesWithTheLimitNamed() {
        String cfg = """
                {
                    "DEVICE_METADATA": {"localhost": {"hostname": "leaf-01"}},
                    "PORT": {
                        "Ethernet8": {"mtu": "900000000000000000000"},
                        "Ethernet0": {"mtu": "9100"}
                    },
                    "PORT_QOS_MAP": {"Ethernet8": {"pfc_enable": "3,9"}}
                }
                """;
        ImportResult r = TestSupport.importTexts("leaf-01/lldp.kv", LLDP, "leaf-01/config_db.json", cfg);
        List<Diagnostic> w = TestSupport.atLeast(r.model(), Severity.WARNING);
        assertEquals(2, w.size(), w.toString());
        assertTrue(w.get(0).message().contains("IpLinkReader.MAX_MTU") && w.get(0).line() == 4, w.toString());
        assertTrue(w.get(1).message().contains("pfc_enable \"3,9\"") && w.get(1).line() == 7, w.toString());
        SwitchPortConfig c = nic(r, "leaf-01 Ethernet8").switchConfig();
        assertEquals(-1, c.mtu());
        assertFalse(c.pfcKnown(), "a bad pfc_enable is unknown, never taken as PFC off");
        assertEquals(9100, nic(r, "leaf-01 Ethernet0").switchConfig().mtu());
    }

    @Test
    void missingTablesAndNamesAreSaidNotGuessed() {
        ImportResult r = TestSupport.importTexts("leaf-01/lldp.kv", LLDP, "leaf-01/config_db.json",
                "{\"DEVICE_METADATA\": {\"localhost\": {\"hostname\": \"leaf-01\"}}, \"PORT\": {}, \"VLAN\": {}}\n",
                "config_db.json", "{\"PORT\": {\"Ethernet0\": {\"mtu\": \"9100\"}}}\n");
        List<Diagnostic> w = TestSupport.atLeast(r.model(), Severity.WARNING);
        assertEquals(2, w.size(), w.toString());
        assertTrue(w.stream().anyMatch(d -> d.source().equals("leaf-01/config_db.json") && d.message().contains("has no PORT, PORT_QOS_MAP or DEVICE_NEIGHBOR")), w.toString());
        assertTrue(w.stream().anyMatch(d -> d.source().equals("config_db.json") && d.message().contains("whose it is cannot be told")), w.toString());
    }

    @Test
    void deepNestingAndTooManyPortsAreRefusedWithTheLimitNamed() {
        String deep = "{\"PORT\": " + "[".repeat(200) + "]".repeat(200) + "}\n";
        StringBuilder many = new StringBuilder("{\"DEVICE_METADATA\": {\"localhost\": {\"hostname\": \"leaf-01\"}},\n\"PORT\": {\n");
        for (int i = 0; i < SonicConfigDb.MAX_PORTS + 10; i++) {
            many.append(i == 0 ? "" : ",\n").append("\"Ethernet").append(i * 4).append("\": {\"mtu\": \"9100\"}");
        }
        many.append("\n}}\n");
        ImportResult r = TestSupport.importTexts("leaf-01/lldp.kv", LLDP, "leaf-01/deep/config_db.json", deep,
                "leaf-01/config_db.json", many.toString());
        List<Diagnostic> w = TestSupport.atLeast(r.model(), Severity.WARNING);
        assertEquals(2, w.size(), w.toString());
        assertTrue(w.stream().anyMatch(d -> d.message().contains("JsonTree.MAX_DEPTH") && d.line() == 1), w.toString());
        assertTrue(w.stream().anyMatch(d -> d.message().contains("SonicConfigDb.MAX_PORTS") && d.message().contains("10 entries skipped")
                && d.line() == 3 + SonicConfigDb.MAX_PORTS), w.toString());
        assertEquals(9100, nic(r, "leaf-01 Ethernet8").switchConfig().mtu(), "the ports before the limit are kept");
    }

    @Test
    void aSortedConfigWhosePortTableIsPastTheHeadIsStillDetected() {
        StringBuilder sb = new StringBuilder("{\n    \"ACL_TABLE\": {},\n    \"BUFFER_PG\": {\n");
        for (int i = 0; i < 40; i++) {
            sb.append("        \"Ethernet").append(i * 4).append("|3-4\": {\n            \"profile\": \"pg_lossless_400000_5m_profile\"\n        },\n");
        }
        sb.append("        \"Ethernet999|0\": {}\n    },\n");
        sb.append(CONFIG.substring(CONFIG.indexOf('\n') + 1));
        ImportResult r = TestSupport.importTexts("leaf-01/lldp.kv", LLDP, "leaf-01/config_db.json", sb.toString());
        assertEquals(SonicConfigDbReader.ID, r.formats().get("leaf-01/config_db.json"));
        assertEquals(9000, nic(r, "leaf-01 Ethernet8").switchConfig().mtu());
    }

    @Test
    void multiAsicRunningConfigurationMergesTheNamespaces() {
        String all = """
                {
                    "localhost": {
                        "DEVICE_METADATA": {"localhost": {"hostname": "leaf-01"}}
                    },
                    "asic0": {
                        "PORT": {"Ethernet0": {"mtu": "9100"}},
                        "DEVICE_METADATA": {"localhost": {"hostname": "asic0-name"}}
                    },
                    "asic1": {
                        "PORT": {"Ethernet8": {"mtu": "9000"}},
                        "PORT_QOS_MAP": {"Ethernet8": {"pfc_enable": "3"}}
                    },
                    "bgpraw": "!"
                }
                """;
        ImportResult r = TestSupport.importTexts("leaf-01/lldp.kv", LLDP, "running.json", all);
        assertEquals(SonicConfigDbReader.ID, r.formats().get("running.json"));
        assertEquals(9100, nic(r, "leaf-01 Ethernet0").switchConfig().mtu());
        SwitchPortConfig e8 = nic(r, "leaf-01 Ethernet8").switchConfig();
        assertEquals(9000, e8.mtu());
        assertTrue(e8.pfcEnabled(3));
        assertEquals(11, e8.qosEvidence().line());
    }
}
