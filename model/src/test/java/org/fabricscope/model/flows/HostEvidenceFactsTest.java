package org.fabricscope.model.flows;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import org.fabricscope.model.FabricModel;
import org.fabricscope.model.FabricModelBuilder;
import org.fabricscope.model.analysis.Analysis;
import org.fabricscope.model.analysis.FabricSummary;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.core.Severity;
import org.fabricscope.model.diagnosis.Diagnosis;
import org.fabricscope.model.diagnosis.ErrorThresholds;
import org.fabricscope.model.evidence.DeviceFile;
import org.fabricscope.model.evidence.EnvVar;
import org.fabricscope.model.evidence.ErdmaStat;
import org.fabricscope.model.evidence.GidEntry;
import org.fabricscope.model.evidence.HcaPortStatus;
import org.fabricscope.model.evidence.HostEvidenceBuilder.Draft;
import org.fabricscope.model.evidence.MemlockLimit;
import org.fabricscope.model.evidence.NetInterface;
import org.fabricscope.model.fabric.PhysState;
import org.fabricscope.model.fabric.PortState;
import org.fabricscope.model.ranks.RankMap;
import org.fabricscope.model.training.NcclEvent;
import org.fabricscope.model.training.Rank;
import org.junit.jupiter.api.Test;

/**
 * The manual steps that answer themselves from host evidence (ibstat / ibv_devinfo port states,
 * ls -l /dev/infiniband, ulimit -l, the GID table), and the findings host evidence raises.
 */
class HostEvidenceFactsTest {
    private static final Evidence E = Evidence.at("gpu-a17/x.txt", 3, "x");

    static FabricModel model(Consumer<Draft> fill) {
        FabricModelBuilder b = new FabricModelBuilder();
        fill.accept(b.hostEvidence().file("gpu-a17/x.txt", List.of("gpu-a17")));
        return b.build();
    }

    static HcaPortStatus port(String dev, PortState s, PhysState p) {
        return new HcaPortStatus(dev, 1, s, p, "200", 7, 1, 0, 0, "InfiniBand", E);
    }

    static Draft healthy(Draft d) {
        return d.hcaPort(port("mlx5_0", PortState.ACTIVE, PhysState.LINK_UP))
                .memlock(new MemlockLimit(true, -1, E))
                .deviceFile(new DeviceFile("uverbs0", "crw-rw-rw-", "root", "root", E));
    }

    static FlowContext context(FabricModel m, Finding... extra) {
        ErrorThresholds t = ErrorThresholds.defaults();
        List<Finding> findings = new java.util.ArrayList<>(Diagnosis.standard(t).run(m, t));
        findings.addAll(List.of(extra));
        return FlowContext.of(new Analysis(m, t, RankMap.of(m), findings, FabricSummary.of(m, t)));
    }

    static Answer ask(FlowContext c, String fact) {
        return FlowFactsTest.ask(c, "{\"fact\": \"" + fact + "\"}");
    }

    static FlowResult walk(FlowContext c, String flow) {
        return FlowEngine.standard().run(List.of(FlowLibrary.builtIn().flow(flow)), c, Map.of()).get(0);
    }

    static FlowResult.StepResult step(FlowResult r, String id) {
        return r.steps().stream().filter(s -> s.id().equals(id)).findFirst().orElseThrow(() -> new AssertionError(
                id + " not walked: " + r.steps().stream().map(FlowResult.StepResult::id).toList()));
    }

    @Test
    void hcaPortsActiveFromTheHostsOwnPortStates() {
        assertEquals(Verdict.YES, ask(context(model(HostEvidenceFactsTest::healthy)), "hca-ports-active").verdict());
        Answer no = ask(context(model(d -> healthy(d).hcaPort(port("mlx5_3", PortState.INIT, PhysState.LINK_UP)))),
                "hca-ports-active");
        assertEquals(Verdict.NO, no.verdict());
        assertTrue(no.detail().contains("gpu-a17 mlx5_3 port 1 is INIT"), no.detail());
    }

    static ErdmaStat erdma(String dev, long pps) {
        return new ErdmaStat(dev, true, 1, pps > 0 ? 1 : 0, pps / 200.0, pps / 200.0, pps, pps, Map.of(), "", E);
    }

    @Test
    void eadmStatAnswersWhetherTheErdmaDeviceIsThereAndItsPortActive() {
        FlowContext none = context(model(d -> d.memlock(new MemlockLimit(true, -1, E))));
        assertEquals(Verdict.UNKNOWN, ask(none, "erdma-device-present").verdict(), "no eadm output: unknown");
        FlowContext busy = context(model(d -> d.erdma(erdma("erdma_0", 150423))));
        Answer present = ask(busy, "erdma-device-present");
        assertEquals(Verdict.YES, present.verdict());
        assertTrue(present.detail().contains("gpu-a17: erdma_0 present, passing traffic"), present.detail());
        Answer active = ask(busy, "hca-ports-active");
        assertEquals(Verdict.YES, active.verdict(), "traffic through the device: its port is active");
        assertTrue(active.detail().contains("pass traffic (eadm stat -l)"), active.detail());
        FlowContext idle = context(model(d -> d.erdma(erdma("erdma_0", 0))));
        assertEquals(Verdict.YES, ask(idle, "erdma-device-present").verdict());
        assertTrue(ask(idle, "erdma-device-present").detail().contains("idle"));
        assertEquals(Verdict.UNKNOWN, ask(idle, "hca-ports-active").verdict(), "an idle device says nothing of its port state");
        FlowContext missing = context(model(d -> d.erdma(new ErdmaStat("erdma_1", false, 0, 0, 0, 0, 0, 0, Map.of(),
                "eadm: erdma_1: No such device", E))));
        Answer absent = ask(missing, "erdma-device-present");
        assertEquals(Verdict.NO, absent.verdict());
        assertTrue(absent.detail().contains("erdma_1: eadm stat printed no statistics"), absent.detail());
        assertEquals(Verdict.NO, ask(missing, "hca-ports-active").verdict());
        List<Finding> fs = missing.findings("erdma-device-missing");
        assertEquals(1, fs.size());
        assertEquals(Severity.WARNING, fs.get(0).severity());
        assertTrue(fs.get(0).remedies().get(0).contains("ibv_devinfo should list erdma_1"), fs.get(0).remedies().toString());
        assertTrue(busy.findings("erdma-device-missing").isEmpty());
        // the no-rdma-device flow applies on that finding and concludes at its eadm step
        FlowResult r = walk(missing, "no-rdma-device");
        assertEquals(Verdict.NO, step(r, "erdma-device").answer().verdict());
        assertEquals("erdma-device-absent", r.conclusion().id());
    }

    @Test
    void roceGidIndexAlsoAsksForNcclIbHca() {
        Consumer<Draft> table = d -> d
                .gid(new GidEntry("mlx5_bond_0", 1, 3, "0000:0000:0000:0000:0000:ffff:0a00:0105", "RoCE v2", "bond0", E))
                .env(new EnvVar("NCCL_IB_GID_INDEX", "3", E));
        FlowResult unset = walk(context(model(table)), "roce-gid-index");
        assertEquals(Verdict.YES, step(unset, "gid-matches").answer().verdict(), "the GID table answers the manual step");
        assertEquals(Verdict.NO, step(unset, "ib-hca").answer().verdict());
        assertEquals("set-ib-hca", unset.conclusion().id());
        FlowResult set = walk(context(model(table.andThen(d -> d.env(new EnvVar("NCCL_IB_HCA", "mlx5_bond_", E))))),
                "roce-gid-index");
        assertEquals(Verdict.YES, step(set, "ib-hca").answer().verdict());
        assertEquals("gid-ok", set.conclusion().id());
    }

    @Test
    void uverbsAccessibleFromTheDeviceFileModes() {
        assertEquals(Verdict.YES, ask(context(model(HostEvidenceFactsTest::healthy)), "uverbs-accessible").verdict());
        Answer closed = ask(context(model(d -> d.deviceFile(new DeviceFile("uverbs0", "crw-------", "root", "root", E)))),
                "uverbs-accessible");
        assertEquals(Verdict.NO, closed.verdict());
        Answer group = ask(context(model(d -> d.deviceFile(new DeviceFile("uverbs0", "crw-rw----", "root", "rdma", E)))),
                "uverbs-accessible");
        assertEquals(Verdict.UNKNOWN, group.verdict());
        assertTrue(group.detail().contains("group rdma"), group.detail());
    }

    @Test
    void memlockUnlimitedFromUlimit() {
        assertEquals(Verdict.YES, ask(context(model(HostEvidenceFactsTest::healthy)), "memlock-unlimited").verdict());
        Answer no = ask(context(model(d -> d.memlock(new MemlockLimit(false, 64, E)))), "memlock-unlimited");
        assertEquals(Verdict.NO, no.verdict());
        assertTrue(no.detail().contains("64 kB"), no.detail());
    }

    @Test
    void gidIndexMatchesFromTheGidTableAndTheEnvironment() {
        Consumer<Draft> table = d -> d
                .gid(new GidEntry("mlx5_0", 1, 2, "0000:0000:0000:0000:0000:ffff:0a00:0105", "IB/RoCE v1", "", E))
                .gid(new GidEntry("mlx5_0", 1, 3, "0000:0000:0000:0000:0000:ffff:0a00:0105", "RoCE v2", "bond0", E));
        assertEquals(Verdict.UNKNOWN, ask(context(model(table)), "gid-index-matches").verdict());
        Answer yes = ask(context(model(table.andThen(d -> d.env(new EnvVar("NCCL_IB_GID_INDEX", "3", E))))), "gid-index-matches");
        assertEquals(Verdict.YES, yes.verdict(), yes.detail());
        Answer no = ask(context(model(table.andThen(d -> d.env(new EnvVar("NCCL_IB_GID_INDEX", "1", E))))), "gid-index-matches");
        assertEquals(Verdict.NO, no.verdict());
        assertTrue(no.detail().contains("index 3, but NCCL_IB_GID_INDEX=1"), no.detail());
        assertEquals(Verdict.UNKNOWN, ask(context(model(d -> d.env(new EnvVar("NCCL_IB_GID_INDEX", "3", E)))),
                "gid-index-matches").verdict());
    }

    @Test
    void linkErrorsManualStepsAnswerThemselves() {
        Finding pathErrors = new Finding("rank-path-errors", Severity.WARNING, "t", List.of(), List.of(), List.of());
        FlowResult fine = walk(context(model(HostEvidenceFactsTest::healthy), pathErrors), "link-errors");
        assertEquals(FlowResult.Status.CONCLUDED, fine.status(), fine.reason());
        assertEquals(Verdict.YES, step(fine, "ports-active").answer().verdict());
        assertFalse(step(fine, "ports-active").given());
        assertEquals(Verdict.YES, step(fine, "memlock-limit").answer().verdict());
        assertEquals("no-link-fault", fine.conclusion().id());

        Finding noDevice = new Finding("rdma-device-missing", Severity.ERROR, "t", List.of(), List.of(), List.of());
        FlowResult perms = walk(context(model(d -> d.deviceFile(new DeviceFile("uverbs0", "crw-------", "root", "root", E))),
                noDevice), "link-errors");
        assertEquals(Verdict.NO, step(perms, "permissions").answer().verdict());
        assertEquals("device-permissions", perms.conclusion().id());
    }

    @Test
    void findingsFromHostEvidence() {
        FabricModel m = model(d -> d.hcaPort(port("mlx5_3", PortState.INIT, PhysState.LINK_UP))
                .hcaPort(port("mlx5_6", PortState.DOWN, PhysState.POLLING))
                .memlock(new MemlockLimit(false, 64, E))
                .deviceFile(new DeviceFile("uverbs0", "crw-------", "root", "root", E)));
        List<Finding> fs = Diagnosis.standard(ErrorThresholds.defaults()).run(m, ErrorThresholds.defaults());
        List<String> ids = fs.stream().map(Finding::id).sorted().toList();
        assertEquals(List.of("hca-port-down", "memlock-limit", "port-not-active", "rdma-permission"), ids);
        Finding init = fs.stream().filter(f -> f.id().equals("port-not-active")).findFirst().orElseThrow();
        assertTrue(init.title().contains("no subnet manager has activated it"), init.title());
        assertEquals(new org.fabricscope.model.core.Subject.NicRef("gpu-a17", "mlx5_3", "gpu-a17 mlx5_3 port 1"), init.refs().get(0));
        // a healthy host raises nothing
        assertEquals(List.of(), Diagnosis.standard(ErrorThresholds.defaults()).run(model(HostEvidenceFactsTest::healthy),
                ErrorThresholds.defaults()));
    }

    @Test
    void aSmallDevShmFromDfIsShmTooSmall() {
        FabricModel m = model(d -> d.shm(new org.fabricscope.model.evidence.ShmMount("64M", 64L << 20, E)));
        List<Finding> fs = Diagnosis.standard(ErrorThresholds.defaults()).run(m, ErrorThresholds.defaults());
        assertEquals(List.of("shm-too-small"), fs.stream().map(Finding::id).toList());
        assertTrue(fs.get(0).title().contains("/dev/shm is 64M"), fs.get(0).title());
        FabricModel big = model(d -> d.shm(new org.fabricscope.model.evidence.ShmMount("32G", 32L << 30, E)));
        assertEquals(List.of(), Diagnosis.standard(ErrorThresholds.defaults()).run(big, ErrorThresholds.defaults()));
    }

    @Test
    void anLspciLinkBelowItsCapabilityIsPcieDegraded() {
        FabricModel m = model(d -> d.pciLink(new org.fabricscope.model.evidence.PciLink("0000:3b:00.0",
                "Infiniband controller: Mellanox Technologies MT2910 Family [ConnectX-7]", 32, 16, 16, 8, E))
                .pciLink(new org.fabricscope.model.evidence.PciLink("0000:1b:00.0", "3D controller: NVIDIA", 32, 16, 32, 16, E)));
        List<Finding> fs = Diagnosis.standard(ErrorThresholds.defaults()).run(m, ErrorThresholds.defaults());
        assertEquals(List.of("pcie-degraded"), fs.stream().map(Finding::id).toList());
        assertTrue(fs.get(0).title().contains("x8 instead of x16; 16 GT/s instead of 32 GT/s"), fs.get(0).title());
    }

    @Test
    void socketInterfaceMissingNamesTheValueAndTheInterfaces() {
        FabricModelBuilder b = new FabricModelBuilder();
        b.hostEvidence().file("llm-worker-1/ip.txt", List.of("llm-worker-1"))
                .iface(new NetInterface("lo", "UNKNOWN", List.of("127.0.0.1/8"), E))
                .iface(new NetInterface("eth0", "UP", List.of("10.244.3.17/24"), E));
        b.training().putRank(new Rank("llm-worker-1", 7, 0, 0, "1b000", "c1", 0, 16, "2.21.5", true, false,
                List.of(), "", false, Map.of("NCCL_SOCKET_IFNAME", "net1"), Evidence.at("w1.log", 2, "Init START")));
        b.training().addEvent(new NcclEvent(NcclEvent.Kind.WARN, "llm-worker-1", 7, -1, "Bootstrap : no socket interface found",
                Map.of(), Evidence.at("w1.log", 5, "llm-worker-1:7:7 [0] NCCL WARN Bootstrap : no socket interface found")));
        FabricModel m = b.build();
        List<Finding> fs = Diagnosis.standard(ErrorThresholds.defaults()).run(m, ErrorThresholds.defaults()).stream()
                .filter(f -> f.id().equals("socket-interface-missing")).toList();
        assertEquals(1, fs.size());
        assertTrue(fs.get(0).title().contains("NCCL_SOCKET_IFNAME=net1"), fs.get(0).title());
        assertTrue(fs.get(0).title().contains("eth0 10.244.3.17/24"), fs.get(0).title());
    }
}
