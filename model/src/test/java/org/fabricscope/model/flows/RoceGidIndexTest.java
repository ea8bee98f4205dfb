package org.fabricscope.model.flows;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.fabricscope.model.FabricModelBuilder;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.evidence.EnvVar;
import org.fabricscope.model.evidence.GidEntry;
import org.fabricscope.model.evidence.HostEvidenceBuilder.Draft;
import org.fabricscope.model.evidence.NetInterface;
import org.junit.jupiter.api.Test;

/**
 * roce-gid-index from the GID tables alone: the RoCE v2 index of the IPv4-mapped GID per device port, the exact
 * NCCL_IB_GID_INDEX and NCCL_IB_HCA when every node agrees, each node's own when they do not, no IPv4 entry at all.
 */
class RoceGidIndexTest {
    private static final String LL = "fe80:0000:0000:0000:0a5a:99ff:fe0a:a3a2";
    private static final String V6 = "2001:0db8:0000:0001:0a5a:99ff:fe0a:a3a2";

    /** A host's GID table, as a sysfs listing or show_gids gives it. */
    private static final class Host {
        final String name;
        final List<GidEntry> gids = new ArrayList<>();
        final List<NetInterface> ifaces = new ArrayList<>();
        final List<EnvVar> env = new ArrayList<>();

        Host(String name) {
            this.name = name;
        }

        Host gid(String dev, int index, String gid, String type) {
            gids.add(new GidEntry(dev, 1, index, gid, type, "", Evidence.at(name + "/gids.txt", gids.size() + 1, dev + " " + index)));
            return this;
        }

        /** The usual RoCE port: link-local v1/v2, then the IPv4 address v1/v2 at {@code at - 1} and {@code at}. */
        Host roce(String dev, int at, String ipv4Hex) {
            gid(dev, 0, LL, "IB/RoCE v1").gid(dev, 1, LL, "RoCE v2");
            for (int i = 2; i < at - 1; i += 2) {
                String v6 = V6.substring(0, 35) + String.format("%04x", i);
                gid(dev, i, v6, "IB/RoCE v1").gid(dev, i + 1, v6, "RoCE v2");
            }
            return gid(dev, at - 1, "0000:0000:0000:0000:0000:ffff:" + ipv4Hex, "IB/RoCE v1")
                    .gid(dev, at, "0000:0000:0000:0000:0000:ffff:" + ipv4Hex, "RoCE v2");
        }

        void fill(Draft d) {
            gids.forEach(d::gid);
            ifaces.forEach(d::iface);
            env.forEach(d::env);
        }
    }

    private static FlowContext context(Host... hosts) {
        FabricModelBuilder b = new FabricModelBuilder();
        for (Host h : hosts) {
            h.fill(b.hostEvidence().file(h.name + "/gids.txt", List.of(h.name)));
        }
        return HostEvidenceFactsTest.context(b.build());
    }

    private static FlowResult walk(Host... hosts) {
        return HostEvidenceFactsTest.walk(context(hosts), "roce-gid-index");
    }

    @Test
    void aGidListingAloneMakesTheFlowApplyAndGivesTheExactSettings() {
        FlowResult r = walk(new Host("roce-a01").roce("mlx5_bond_0", 3, "0a00:0105"),
                new Host("roce-b02").roce("mlx5_bond_0", 3, "0a00:0206"));
        assertEquals(FlowResult.Status.CONCLUDED, r.status(), r.reason());
        assertTrue(r.symptoms().get(0).startsWith("roce-in-use: "), r.symptoms().toString());
        assertEquals("use-gid-index", r.conclusion().id());
        String remedies = String.join("\n", r.conclusion().remedies());
        assertTrue(remedies.contains("export NCCL_IB_GID_INDEX=3\n  export NCCL_IB_HCA=mlx5_bond_0"), remedies);
        assertTrue(remedies.contains("--env NCCL_IB_GID_INDEX=3 --env NCCL_IB_HCA=mlx5_bond_0"), remedies);
        assertTrue(remedies.contains("/sys/class/infiniband/mlx5_bond_0/ports/1/gids/*"), remedies);
        assertFalse(remedies.contains("<gid-index>") || remedies.contains("<ib-hca>") || remedies.contains("<n>"), remedies);
        Answer listed = HostEvidenceFactsTest.step(r, "gid-listed").answer();
        assertTrue(listed.detail().contains("roce-a01 mlx5_bond_0 port 1: index 3 (10.0.1.5)")
                && listed.detail().contains("roce-b02 mlx5_bond_0 port 1: index 3 (10.0.2.6)"), listed.detail());
        assertEquals("roce-a01/gids.txt", listed.evidence().get(0).source());
    }

    @Test
    void nodesThatDisagreeGetEachTheirOwnIndex() {
        // RunAI multi-node training on RoCE (EPFL RCP cluster guide): 7 on one pod, 9 on another (IPv4 and IPv6 in the pod)
        FlowResult r = walk(new Host("job-master-0").roce("mlx5_bond_0", 7, "ac12:8003"),
                new Host("job-worker-0").roce("mlx5_bond_0", 9, "ac12:8004"));
        assertEquals("gid-index-differs", r.conclusion().id());
        assertEquals(Verdict.NO, HostEvidenceFactsTest.step(r, "gid-same").answer().verdict());
        String perNode = r.conclusion().remedies().get(0);
        assertTrue(perNode.contains("job-master-0: export NCCL_IB_GID_INDEX=7 NCCL_IB_HCA=mlx5_bond_0 (mlx5_bond_0 port 1: 172.18.128.3 at 7)")
                && perNode.contains("job-worker-0: export NCCL_IB_GID_INDEX=9 NCCL_IB_HCA=mlx5_bond_0"), perNode);
        assertTrue(String.join("\n", r.conclusion().remedies()).contains("leave NCCL_IB_GID_INDEX unset"));
    }

    @Test
    void aFixedIndexFromOnePodIsWrongOnTheOtherAndEachPodsOwnValueIsRight() {
        Host master = new Host("job-master-0").roce("mlx5_bond_0", 7, "ac12:8003");
        Host worker = new Host("job-worker-0").roce("mlx5_bond_0", 9, "ac12:8004");
        master.env.add(new EnvVar("NCCL_IB_GID_INDEX", "7", Evidence.at("job-master-0/env.txt", 2, "NCCL_IB_GID_INDEX=7")));
        worker.env.add(new EnvVar("NCCL_IB_GID_INDEX", "7", Evidence.at("job-worker-0/env.txt", 2, "NCCL_IB_GID_INDEX=7")));
        FlowResult fixed = walk(master, worker);
        Answer matches = HostEvidenceFactsTest.step(fixed, "gid-matches").answer();
        assertEquals(Verdict.NO, matches.verdict());
        assertTrue(matches.detail().contains("on job-worker-0 mlx5_bond_0 port 1 the RoCE v2 GID of 172.18.128.4 is index 9, but "
                + "NCCL_IB_GID_INDEX=7 there (2001:0db8:0000:0001:0a5a:99ff:fe0a:0006 RoCE v2)"), matches.detail());
        assertEquals("gid-index-differs", fixed.conclusion().id());

        worker.env.set(0, new EnvVar("NCCL_IB_GID_INDEX", "9", Evidence.at("job-worker-0/env.txt", 2, "NCCL_IB_GID_INDEX=9")));
        FlowResult own = walk(master, worker);
        assertEquals(Verdict.YES, HostEvidenceFactsTest.step(own, "gid-matches").answer().verdict(),
                HostEvidenceFactsTest.step(own, "gid-matches").answer().detail());
    }

    @Test
    void ncclIbHcaTakesExactlyTheDevicesWithAnIpv4Gid() {
        // differently named devices on two hosts: their common prefix, as the RunAI RoCE guide's NCCL_IB_HCA=mlx5_bond_
        assertEquals("mlx5_bond_", ib(new Host("a").roce("mlx5_bond_0", 3, "0a00:0105"),
                new Host("b").roce("mlx5_bond_1", 3, "0a00:0106")));
        // a second NIC without an IPv4 address stays out
        assertEquals("mlx5_0", ib(new Host("a").roce("mlx5_0", 3, "0a00:0105").gid("mlx5_2", 0, LL, "IB/RoCE v1")
                .gid("mlx5_2", 1, LL, "RoCE v2")));
        // mlx5_1 would take mlx5_10 as a prefix: exact names
        assertEquals("=mlx5_1,mlx5_2", ib(new Host("a").roce("mlx5_1", 3, "0a00:0105").roce("mlx5_2", 3, "0a00:0205")
                .gid("mlx5_10", 0, LL, "IB/RoCE v1")));
    }

    private static String ib(Host... hosts) {
        Answer a = HostEvidenceFactsTest.ask(context(hosts), "roce-gid-index-found");
        assertEquals(Verdict.YES, a.verdict(), a.detail());
        return a.values().get("ib-hca");
    }

    @Test
    void severalIpv4EntriesOnAPortTakeTheOneOfTheHostsOwnAddress() {
        Host h = new Host("gpu-7").roce("mlx5_0", 3, "0a00:0005").gid("mlx5_0", 4, "0000:0000:0000:0000:0000:ffff:c0a8:0105",
                "IB/RoCE v1").gid("mlx5_0", 5, "0000:0000:0000:0000:0000:ffff:c0a8:0105", "RoCE v2");
        h.ifaces.add(new NetInterface("net1", "UP", List.of("192.168.1.5/24"), Evidence.at("gpu-7/ip.txt", 3, "net1")));
        Answer a = HostEvidenceFactsTest.ask(context(h), "roce-gid-index-found");
        assertEquals("5", a.values().get("gid-index"), a.detail());
        assertTrue(a.detail().contains("gpu-7 mlx5_0 port 1: index 5 (192.168.1.5); also 3 (10.0.0.5)"), a.detail());
    }

    @Test
    void devicesOfOneHostThatDisagreeAreNamedEach() {
        FlowResult r = walk(new Host("gpu-7").roce("mlx5_0", 3, "0a00:0005").roce("mlx5_1", 5, "0a00:0105"));
        assertEquals("gid-index-differs", r.conclusion().id());
        assertTrue(r.conclusion().remedies().get(0).contains("gpu-7: its devices disagree (mlx5_0 port 1: 10.0.0.5 at 3, "
                + "mlx5_1 port 1: 10.0.1.5 at 5)"), r.conclusion().remedies().get(0));
    }

    @Test
    void aTableWithoutIpv4EntriesConcludesNoIpv4Gid() {
        FlowResult r = walk(new Host("gpu-7").gid("mlx5_0", 0, LL, "IB/RoCE v1").gid("mlx5_0", 1, LL, "RoCE v2")
                .gid("mlx5_0", 2, V6, "IB/RoCE v1").gid("mlx5_0", 3, V6, "RoCE v2"));
        assertEquals("no-ipv4-gid", r.conclusion().id());
        assertTrue(HostEvidenceFactsTest.step(r, "gid-listed").answer().detail().contains("gpu-7 mlx5_0 port 1: link-local "
                + "IB/RoCE v1, link-local RoCE v2, IPv6 IB/RoCE v1, IPv6 RoCE v2 entries"),
                HostEvidenceFactsTest.step(r, "gid-listed").answer().detail());
    }

    @Test
    void anInfinibandTableDoesNotMakeTheFlowApply() {
        FlowResult r = walk(new Host("dgx-1").gid("mlx5_0", 0, "fe80:0000:0000:0000:b8ce:f603:0105:0011", "IB/RoCE v1"));
        assertEquals(FlowResult.Status.NOT_APPLICABLE, r.status());
        assertTrue(r.reason().contains("hold no RoCE entry"), r.reason());
    }

    @Test
    void ncclIbHcaMatchingFollowsNcclsRules() {
        assertTrue(GidTables.matches("mlx5", "mlx5_10", 1));
        assertFalse(GidTables.matches("=mlx5_1", "mlx5_10", 1));
        assertTrue(GidTables.matches("mlx5_0:1,mlx5_1:1", "mlx5_1", 1));
        assertFalse(GidTables.matches("mlx5_0:2", "mlx5_0", 1));
        assertFalse(GidTables.matches("^mlx5_2", "mlx5_2", 1));
        assertTrue(GidTables.matches("^=mlx5_2", "mlx5_20", 1));
    }
}
