package org.fabricscope.importers.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;

import org.fabricscope.importers.FormatRegistry;
import org.fabricscope.importers.ImportResult;
import org.fabricscope.importers.TestSupport;
import org.fabricscope.importers.core.Head;
import org.fabricscope.model.FabricModel;
import org.fabricscope.model.core.Guids;
import org.fabricscope.model.core.Severity;
import org.fabricscope.model.evidence.GidEntry;
import org.fabricscope.model.evidence.HcaPortStatus;
import org.fabricscope.model.evidence.HostEvidence;
import org.fabricscope.model.fabric.PhysState;
import org.fabricscope.model.fabric.PortState;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The host evidence readers against golden files: each input under {@code src/test/resources/host}
 * is detected as its format, read under the host its folder names ({@code gpu-a17/...}), and its facts,
 * rendered one per line, must equal {@code <input>.expected} beside it. Rewrite after an intended change
 * with {@code -Dfabricscope.golden.rewrite=true} and review the diff.
 */
class HostEvidenceReadersTest {
    static final Path DIR = Path.of("src", "test", "resources", "host");
    static final boolean REWRITE = Boolean.getBoolean("fabricscope.golden.rewrite");

    static final Map<String, String> FORMATS = Map.ofEntries(
            Map.entry("ibstat-before-sm.txt", IbstatReader.ID), Map.entry("ibstat-after-sm.txt", IbstatReader.ID),
            Map.entry("ibv_devinfo.txt", IbvDevinfoReader.ID), Map.entry("ibv_devinfo-v-erdma.txt", IbvDevinfoReader.ID),
            Map.entry("ibstatus.txt", IbstatusReader.ID), Map.entry("gids-sysfs-roce.txt", GidTableReader.ID),
            Map.entry("show_gids.txt", GidTableReader.ID), Map.entry("ulimit-l.txt", UlimitReader.ID),
            Map.entry("ls-dev-infiniband-group.txt", DevInfinibandReader.ID), Map.entry("ip-addr.txt", IpAddrReader.ID),
            Map.entry("ip-o-addr.txt", IpAddrReader.ID), Map.entry("ip-o-link.txt", IpAddrReader.ID),
            Map.entry("df-shm.txt", DfShmReader.ID), Map.entry("env-worker-1.txt", PodEnvReader.ID),
            Map.entry("lspci-vv.txt", LspciReader.ID), Map.entry("eadm-stat-l.txt", EadmStatReader.ID),
            Map.entry("eadm-stat-missing.txt", EadmStatReader.ID), Map.entry("eadm-stat-counters.txt", EadmStatReader.ID),
            Map.entry("dmesg-T-memcg-oom.txt", KernelLogReader.ID), Map.entry("journalctl-k-oom.txt", KernelLogReader.ID));

    /** The facts of a model's host evidence, one per line, as the golden files hold them. */
    static String render(FabricModel m) {
        StringBuilder sb = new StringBuilder();
        for (HostEvidence h : m.hostEvidence().values()) {
            sb.append("host ").append(h.host()).append('\n');
            for (HcaPortStatus p : h.hcaPorts()) {
                sb.append("  port ").append(p.label()).append(" state=").append(p.state()).append(" phys=").append(p.physState())
                        .append(" rate=").append(p.rate()).append(" lid=").append(p.lid()).append(" smLid=").append(p.smLid())
                        .append(" portGuid=").append(p.portGuid() == 0 ? "-" : Guids.format(p.portGuid()))
                        .append(" nodeGuid=").append(p.nodeGuid() == 0 ? "-" : Guids.format(p.nodeGuid()))
                        .append(" linkLayer=").append(p.linkLayer()).append(" @").append(at(p.evidence())).append('\n');
            }
            for (GidEntry g : h.gids()) {
                sb.append("  gid ").append(g.device()).append(':').append(g.port()).append('[').append(g.index()).append("] ")
                        .append(g.gid()).append(" type=").append(g.type()).append(" netdev=").append(g.netdev())
                        .append(g.ipv4() == null ? "" : " ipv4=" + g.ipv4()).append(" @").append(at(g.evidence())).append('\n');
            }
            if (h.memlock() != null) {
                sb.append("  memlock ").append(h.memlock().text()).append(" @").append(at(h.memlock().evidence())).append('\n');
            }
            h.deviceFiles().forEach(f -> sb.append("  dev ").append(f.name()).append(' ').append(f.mode()).append(' ')
                    .append(f.owner()).append(' ').append(f.group()).append(" all=").append(f.openToAll())
                    .append(" group=").append(f.openToGroup()).append('\n'));
            h.interfaces().forEach(i -> sb.append("  iface ").append(i.name()).append(" state=").append(i.state())
                    .append(" addrs=").append(i.addresses()).append('\n'));
            if (h.shm() != null) {
                sb.append("  shm ").append(h.shm().size()).append(" bytes=").append(h.shm().bytes()).append('\n');
            }
            h.pciLinks().forEach(l -> sb.append("  pci ").append(l.busId()).append(" cap=").append(l.capGts()).append("GT/s x")
                    .append(l.capWidth()).append(" sta=").append(l.staGts()).append("GT/s x").append(l.staWidth())
                    .append(" degraded=").append(l.degraded()).append(" gpuOrNic=").append(l.gpuOrNic()).append(" @")
                    .append(at(l.evidence())).append('\n'));
            h.env().values().forEach(e -> sb.append("  env ").append(e.name()).append('=').append(e.value()).append('\n'));
            h.erdma().forEach(e -> sb.append("  erdma ").append(e.device().isEmpty() ? "-" : e.device()).append(" present=")
                    .append(e.present()).append(" samples=").append(e.samples()).append(" busy=").append(e.busy())
                    .append(" peakRx=").append(e.peakRxMiBps()).append("MiB/s,").append(e.peakRxPps()).append("p/s peakTx=")
                    .append(e.peakTxMiBps()).append("MiB/s,").append(e.peakTxPps()).append("p/s counters=").append(e.counters())
                    .append(" message=").append(e.message()).append(" @").append(at(e.evidence())).append('\n'));
            h.oomKills().forEach(k -> sb.append("  oom-kill pid=").append(k.pid()).append(" process=").append(k.process())
                    .append(" cgroup=").append(k.cgroup()).append(" text=").append(k.text()).append(" @").append(at(k.evidence()))
                    .append('\n'));
        }
        return sb.toString();
    }

    private static String at(org.fabricscope.model.core.Evidence e) {
        return e == null ? "-" : String.valueOf(e.line());
    }

    @TestFactory
    Stream<DynamicTest> eachInputMatchesItsGoldenFacts() throws IOException {
        List<Path> inputs;
        try (Stream<Path> s = Files.list(DIR)) {
            inputs = s.filter(p -> p.toString().endsWith(".txt")).sorted().toList();
        }
        assertEquals(FORMATS.keySet().size(), inputs.size(), "every input has its format pinned: " + inputs);
        return inputs.stream().map(p -> DynamicTest.dynamicTest(p.getFileName().toString(), () -> check(p)));
    }

    private static void check(Path input) throws IOException {
        String name = input.getFileName().toString();
        String text = Files.readString(input, StandardCharsets.UTF_8);
        assertEquals(FORMATS.get(name), FormatRegistry.standard().detect(Head.of(text)).id(), name);
        ImportResult r = TestSupport.importTexts("gpu-a17/" + name, text);
        assertEquals(FORMATS.get(name), r.formats().get("gpu-a17/" + name));
        assertTrue(TestSupport.atLeast(r.model(), Severity.WARNING).isEmpty(), TestSupport.dump(r.model().diagnostics()));
        String actual = render(r.model());
        Path expected = DIR.resolve("expected").resolve(name.replace(".txt", ".facts"));
        if (REWRITE) {
            Files.createDirectories(expected.getParent());
            Files.writeString(expected, actual, StandardCharsets.UTF_8);
            return;
        }
        if (!Files.exists(expected)) {
            fail(expected + " is missing: write it with -Dfabricscope.golden.rewrite=true and review it");
        }
        assertEquals(Files.readString(expected, StandardCharsets.UTF_8), actual, name);
    }

    private static String read(String name) throws IOException {
        return Files.readString(DIR.resolve(name), StandardCharsets.UTF_8);
    }

    @Test
    void ibstatBeforeAndAfterTheSubnetManager() throws IOException {
        HostEvidence before = TestSupport.importTexts("gpu-a17/ibstat.txt", read("ibstat-before-sm.txt")).model()
                .hostEvidence("gpu-a17");
        HcaPortStatus p = before.hcaPort("mlx5_0", 1).orElseThrow();
        assertEquals(PortState.INIT, p.state());
        assertEquals(PhysState.LINK_UP, p.physState());
        assertEquals(0, p.smLid());
        assertEquals(PortState.DOWN, before.hcaPort("mlx5_1", 1).orElseThrow().state());
        assertEquals(PhysState.POLLING, before.hcaPort("mlx5_1", 1).orElseThrow().physState());
        HostEvidence after = TestSupport.importTexts("gpu-a17/ibstat.txt", read("ibstat-after-sm.txt")).model()
                .hostEvidence("gpu-a17");
        assertEquals(PortState.ACTIVE, after.hcaPort("mlx5_0", 1).orElseThrow().state());
        assertEquals(7, after.hcaPort("mlx5_0", 1).orElseThrow().lid());
    }

    @Test
    void theHostComesFromAPromptAHostnameLineTheFolderOrTheFileName() throws IOException {
        FabricModel m = TestSupport.importTexts("captures/ibv_devinfo.txt", read("ibv_devinfo.txt")).model();
        assertNotNull(m.hostEvidence("gpu-a17"), "the prompt [root@gpu-a17 ~]# names it: " + m.hostEvidence().keySet());
        m = TestSupport.importTexts("x/ulimit.txt", "$ hostname\ngpu-b02\n$ ulimit -l\n64\n").model();
        assertEquals(64, m.hostEvidence("gpu-b02").memlock().kbytes());
        m = TestSupport.importTexts("gpu-c03.df.txt", read("df-shm.txt")).model();
        assertEquals(64L << 20, m.hostEvidence("gpu-c03").shm().bytes());
        m = TestSupport.importTexts("pods/env.txt", read("env-worker-1.txt")).model();
        assertEquals("net1", m.hostEvidence("llm-worker-1").env().get("NCCL_SOCKET_IFNAME").value());
    }

    @Test
    void aPortGuidPlacesAnUnnamedFileOnItsFabricHost() {
        String ibnet = "vendid=0x2c9\ndevid=0xd2f0\nsysimgguid=0x946dae0300aa0000\nswitchguid=0x946dae0300aa0000(0)\n"
                + "Switch\t40 \"S-946dae0300aa0000\"\t\t# \"leaf-1\" enhanced port 0 lid 1 lmc 0\n"
                + "[1]\t\"H-946dae0300aa0010\"[1](946dae0300aa0010) \t\t# \"gpu-a17 mlx5_0\" lid 7 4xNDR\n\n"
                + "vendid=0x2c9\ndevid=0x1021\nsysimgguid=0x946dae0300aa0010\ncaguid=0x946dae0300aa0010\n"
                + "Ca\t1 \"H-946dae0300aa0010\"\t\t# \"gpu-a17 mlx5_0\"\n"
                + "[1](946dae0300aa0010) \t\"S-946dae0300aa0000\"[1]\t\t# lid 7 lmc 0 \"leaf-1\" lid 1 4xNDR\n";
        String ibstat = "CA 'mlx5_0'\n\tNode GUID: 0x946dae0300aa0010\n\tPort 1:\n\t\tState: Active\n\t\tPhysical state: LinkUp\n"
                + "\t\tPort GUID: 0x946dae0300aa0010\n";
        FabricModel m = TestSupport.importTexts("topo.txt", ibnet, "tmp/ibstat.txt", ibstat).model();
        assertNotNull(m.hostEvidence("gpu-a17"), m.hostEvidence().keySet() + " " + m.hosts().keySet());
    }

    @Test
    void gidTablesGiveTypeNetdevAndTheMappedAddress() throws IOException {
        HostEvidence h = TestSupport.importTexts("gpu-a17/gids.txt", read("gids-sysfs-roce.txt")).model().hostEvidence("gpu-a17");
        GidEntry g3 = h.gids().stream().filter(g -> g.index() == 3).findFirst().orElseThrow();
        assertTrue(g3.roceV2());
        assertEquals("10.0.1.5", g3.ipv4());
        assertEquals("bond0", g3.netdev());
        HostEvidence e = TestSupport.importTexts("gpu-a17/devinfo.txt", read("ibv_devinfo-v-erdma.txt")).model()
                .hostEvidence("gpu-a17");
        GidEntry g1 = e.gids().stream().filter(g -> g.index() == 1).findFirst().orElseThrow();
        assertEquals("0000:0000:0000:0000:0000:ffff:ac10:0315", g1.gid());
        assertEquals("172.16.3.21", g1.ipv4());
        assertEquals("RoCE v2", g1.type());
    }

    @Test
    void eadmStatGivesTheDeviceItsTrafficOrItsAbsence() throws IOException {
        HostEvidence live = TestSupport.importTexts("x/eadm.txt", read("eadm-stat-l.txt")).model().hostEvidence("gpu-a17");
        assertNotNull(live, "the prompt names the host");
        var e = live.erdma().get(0);
        assertEquals("erdma_0", e.device(), "the device is the command's -d");
        assertTrue(e.present() && e.passesTraffic());
        assertEquals(3, e.samples());
        assertEquals(2, e.busy(), "the 0 p/s sample is idle");
        assertEquals(914.89, e.peakRxMiBps(), 1e-9);
        assertEquals(1280.0, e.peakTxMiBps(), 1e-9, "1.25 GiB/s in MiB/s");
        assertEquals(210004, e.peakTxPps());
        assertEquals(2, e.evidence().line(), "the busiest sample (most packets) is the evidence");
        HostEvidence idle = TestSupport.importTexts("node-c/eadm-stat-erdma_2.txt",
                "rx (download): 0.00 MiB/s 0 p/s; tx (upload):0.00 MiB/s 0 p/s\n").model().hostEvidence("node-c");
        assertEquals("erdma_2", idle.erdma().get(0).device(), "without a prompt the file's name names the device");
        assertFalse(idle.erdma().get(0).passesTraffic());
        assertTrue(idle.erdma().get(0).summary().contains("idle: no packets in 1 sample"), idle.erdma().get(0).summary());
        HostEvidence missing = TestSupport.importTexts("gpu-b02/eadm.txt", read("eadm-stat-missing.txt")).model()
                .hostEvidence("gpu-b02");
        assertFalse(missing.erdma().get(0).present());
        assertEquals("erdma_1", missing.erdma().get(0).device());
        assertEquals("eadm: erdma_1: No such device", missing.erdma().get(0).message());
        HostEvidence counters = TestSupport.importTexts("gpu-a17/eadm-stat.txt", read("eadm-stat-counters.txt")).model()
                .hostEvidence("gpu-a17");
        assertEquals(Map.of("connect_failed_cnt", 1L), counters.erdma().get(0).failures());
        assertEquals("", counters.erdma().get(0).device(), "no -d and no device in the name: eadm's default device");
        // a prompt that ran something else, followed by text, is not eadm's
        assertNull(FormatRegistry.standard().detect(Head.of("$ uptime\n 10:00 up 3 days\n")));
        // one erdma-looking counter is too little to claim a file
        assertNull(FormatRegistry.standard().detect(Head.of("connect_failed_cnt: 1\nfoo: 2\n")));
    }

    @Test
    void detectionIsNotStolenFromOtherFormatsNorByThem() {
        // Name=value lines without an NCCL or torchrun variable stay error_thresholds / unknown
        assertEquals("error-thresholds", FormatRegistry.standard().detect(Head.of("SymbolErrorCounter=10\nLinkDownedCounter=5\n")).id());
        assertNull(FormatRegistry.standard().detect(Head.of("PATH=/bin\nHOME=/root\n")));
        // a lone number is ulimit -l only weakly, and only when nothing else claims the file
        assertEquals(UlimitReader.ID, FormatRegistry.standard().detect(Head.of("unlimited\n")).id());
        assertNull(FormatRegistry.standard().detect(Head.of("64\n65\n")));
        // df without /dev/shm is not ours
        assertNull(FormatRegistry.standard().detect(Head.of("Filesystem      Size  Used Avail Use% Mounted on\n/dev/sda1 100G 1G 99G 1% /\n")));
        // an NCCL log quoting NCCL_SOCKET_IFNAME=... stays a log
        assertEquals("nccl-log", FormatRegistry.standard().detect(Head.of(
                "host:1:1 [0] NCCL INFO NCCL_SOCKET_IFNAME set by environment to eth0\nNCCL_IB_HCA=mlx5\nMASTER_ADDR=a\n")).id());
    }

    @Test
    void hostileInputNeverThrowsAndKeepsNoNonsense() {
        List<String> hostile = new ArrayList<>(List.of(
                "CA 'mlx5_0'\n\tPort 99999999999999999999:\n\t\tState: Active\n\t\tBase lid: 99999999999\n\t\tPort GUID: 0xzz\n",
                "CA 'mlx5_0'\n\tPort 1:\n\t\tState: Act",                       // truncated
                "hca_id:\tmlx5_0\n\t\tport:\t1\n\t\t\tGID[99999999999]:\t\tfe80::1\n\t\t\tGID[  1]:\t\t1:2:3:4:5:6:7:8:9:10\n\t\t\tstate:\tPORT_",
                "Infiniband device 'x' port 4294967296 status:\n\tstate:\t 9: WEIRD\n",
                "/sys/class/infiniband/m/ports/1/gids/1:::ffff:999.1.1.1\n/sys/class/infiniband/m/ports/1/gids/2:gg::\n",
                "DEV\tPORT\tINDEX\tGID\tIPv4\tVER\tDEV\nmlx5_0\t1\t99999999999\tfe80::\tv2\n",
                "max locked memory       (kbytes, -l) 999999999999999999999999\n",
                "crw-rw-rw- 1 root root 231, 192 Jan  1 00:00 uverbs0\ncrw\n",
                "1: eth0: <UP> mtu 1500 state UP\n    inet\n    inet 10.0.0.1/8\n9999999999: x",
                "Filesystem      Size  Used Avail Use% Mounted on\nshm 99999999999999999999E 0 0 0% /dev/shm\n",
                "NCCL_X=1\nWORLD_SIZE=" + "9".repeat(10_000) + "\n",
                "3b:00.0 Infiniband controller: x\n\tSubsystem: y\n\t\tLnkCap:\tSpeed 99999GT/s, Width x999\n\t\tLnkSta:\tSpeed .GT/s",
                "$ eadm stat -d erdma_0 -l\nrx (download): 999999999999.999999 TiB/s 999999999999999999 p/s; tx (upload):1e9 MiB/s 1 p/s\n"
                        + "rx (download): 1.0 MiB/s 99999999999999999999 p/s; tx (upload):0 B/s 0 p/s\nconnect_failed_cnt 99999999999999999999\n",
                "$ eadm stat -d\nrx (download): . MiB/s p/s; tx"));
        Random rnd = new Random(11);
        for (String base : List.copyOf(hostile)) {
            StringBuilder sb = new StringBuilder(base);
            for (int i = 0; i < 200; i++) {
                sb.insert(rnd.nextInt(sb.length()), (char) (32 + rnd.nextInt(95)));
            }
            hostile.add(sb.toString());
        }
        for (String h : hostile) {
            ImportResult r = TestSupport.importTexts("gpu-a17/in.txt", h);
            assertTrue(TestSupport.atLeast(r.model(), Severity.ERROR).isEmpty(), h + "\n" + TestSupport.dump(r.model().diagnostics()));
            for (HostEvidence e : r.model().hostEvidence().values()) {
                e.hcaPorts().forEach(p -> assertTrue(p.port() >= 0 && p.lid() <= 0xffff, p.toString()));
                e.gids().forEach(g -> assertEquals(39, g.gid().length(), g.toString()));
                e.erdma().forEach(x -> assertTrue(Double.isFinite(x.peakRxMiBps()) && x.peakRxMiBps() >= 0 && x.peakRxPps() >= 0
                        && x.busy() <= x.samples(), x.toString()));
            }
        }
    }
}
